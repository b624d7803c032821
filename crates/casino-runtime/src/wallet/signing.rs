//! The signature every wallet call carries: the headers, the HMAC, and the check of a call's
//! signature and timestamp against its provider.

use axum::http::{HeaderMap, StatusCode};
use backlay_casino_store::providers::CasinoProvider;
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::error::unauthorised;
use super::WalletError;
use backlay_casino_store::ProviderReads;
use backlay_operator::AppState;

type HmacSha256 = Hmac<Sha256>;

pub const PROVIDER_HEADER: &str = "x-backlay-provider";
pub const TIMESTAMP_HEADER: &str = "x-backlay-timestamp";
pub const SIGNATURE_HEADER: &str = "x-backlay-signature";
/// How far a call's timestamp may be from the server's clock, either way.
pub const MAX_CLOCK_SKEW_MS: i64 = 30_000;

/// The signature headers of a call, as sent (each may be missing).
#[derive(Clone, Debug, Default)]
pub struct SignedBy {
    pub provider: Option<String>,
    pub timestamp: Option<String>,
    pub signature: Option<String>,
}

impl SignedBy {
    pub fn from_headers(headers: &HeaderMap) -> SignedBy {
        let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        SignedBy {
            provider: text(PROVIDER_HEADER),
            timestamp: text(TIMESTAMP_HEADER),
            signature: text(SIGNATURE_HEADER),
        }
    }

    /// Signs `body` as `provider_code` at `timestamp_ms`: what a provider (the built-in one
    /// included) sends.
    pub fn sign(provider_code: &str, secret: &str, timestamp_ms: i64, body: &[u8]) -> SignedBy {
        SignedBy {
            provider: Some(provider_code.to_string()),
            timestamp: Some(timestamp_ms.to_string()),
            signature: Some(signature(secret, &timestamp_ms.to_string(), body)),
        }
    }
}

/// `hex(HMAC-SHA256(secret, timestamp + "." + body))`, the secret taken as its UTF-8 bytes.
pub fn signature(secret: &str, timestamp: &str, body: &[u8]) -> String {
    hex::encode(signing_mac(secret, timestamp, body).finalize().into_bytes())
}

fn signing_mac(secret: &str, timestamp: &str, body: &[u8]) -> HmacSha256 {
    let mut mac =
        HmacSha256::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The provider whose valid, fresh signature the call carries.
pub(super) async fn authenticate(
    state: &AppState,
    signed: &SignedBy,
    body: &[u8],
    now: i64,
) -> Result<CasinoProvider, WalletError> {
    let code = signed.provider.as_deref().map(str::trim).filter(|c| !c.is_empty()).ok_or_else(|| {
        unauthorised("missing_signature", format!("The {PROVIDER_HEADER} header is missing: name the provider that signs the call."))
    })?;
    let timestamp = signed.timestamp.as_deref().filter(|t| !t.is_empty()).ok_or_else(|| {
        unauthorised(
            "missing_signature",
            format!(
                "The {TIMESTAMP_HEADER} header is missing: send the time in epoch milliseconds."
            ),
        )
    })?;
    let signature_hex =
        signed.signature.as_deref().map(str::trim).filter(|s| !s.is_empty()).ok_or_else(|| {
            unauthorised(
                "missing_signature",
                format!(
                    "The {SIGNATURE_HEADER} header is missing: sign every call (docs/wallet.md)."
                ),
            )
        })?;
    if code.chars().count() > 64 {
        return Err(unauthorised("unknown_provider", "There is no such provider."));
    }
    let provider =
        state.store.casino_provider_by_code(code).await?.ok_or_else(|| {
            unauthorised("unknown_provider", format!("There is no provider {code}."))
        })?;
    let bad_signature = || {
        unauthorised("bad_signature", "The signature does not match the body: sign timestamp + \".\" + the exact body bytes with the provider's secret.")
    };
    let signature_bytes = hex::decode(signature_hex).map_err(|_| bad_signature())?;
    // verify_slice compares in constant time.
    signing_mac(&provider.hmac_secret, timestamp, body)
        .verify_slice(&signature_bytes)
        .map_err(|_| bad_signature())?;
    let sent_ms: i64 = timestamp.parse().map_err(|_| {
        unauthorised(
            "bad_timestamp",
            format!("{TIMESTAMP_HEADER} must be the time in epoch milliseconds."),
        )
    })?;
    let skew_ms = now.saturating_sub(sent_ms);
    if skew_ms.unsigned_abs() > MAX_CLOCK_SKEW_MS.unsigned_abs() {
        return Err(unauthorised(
            "stale_timestamp",
            format!(
                "The call was signed {} s {} the server's clock (at most {} s either way): a replay, or a clock to fix.",
                skew_ms.unsigned_abs() / 1000,
                if skew_ms >= 0 { "before" } else { "ahead of" },
                MAX_CLOCK_SKEW_MS / 1000
            ),
        ));
    }
    if !provider.is_active {
        return Err(WalletError::refuse(
            StatusCode::FORBIDDEN,
            "provider_inactive",
            format!("Provider {code} is switched off."),
        ));
    }
    Ok(provider)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_hmac_of_timestamp_dot_body() {
        // RFC 4231 test case 2 signs "what do ya want for nothing?" with the key "Jefe"; here
        // the message is split at a "." so the test checks the joining too.
        assert_eq!(
            signature("Jefe", "what do ya want for nothing", b"?"),
            hex::encode({
                let mut mac = HmacSha256::new_from_slice(b"Jefe").unwrap();
                mac.update(b"what do ya want for nothing.?");
                mac.finalize().into_bytes()
            })
        );
        assert_eq!(
            signature("Jefe", "what do ya want for nothing", b"?"),
            signature("Jefe", "what do ya want for nothing", b"?")
        );
        assert_ne!(signature("Jefe", "1", b"{}"), signature("Jefe", "2", b"{}"));
        assert_ne!(signature("Jefe", "1", b"{}"), signature("Jeff", "1", b"{}"));
        let signed = SignedBy::sign("evo", "k", 1_700_000_000_000, b"{\"a\":1}");
        assert_eq!(signed.timestamp.as_deref(), Some("1700000000000"));
        assert_eq!(signed.signature.unwrap(), signature("k", "1700000000000", b"{\"a\":1}"));
    }
}
