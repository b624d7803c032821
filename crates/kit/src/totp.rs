//! Time-based one-time passwords (RFC 6238) for security auth, as authenticator apps compute
//! them: HMAC-SHA1, 30-second steps counted from the Unix epoch, 6 digits, and a secret of 20
//! random bytes shown to the user in base32 (RFC 4648, no padding).
//!
//! The code of step `s` is HOTP (RFC 4226) with counter `s`: take HMAC-SHA1(secret, s as 8
//! big-endian bytes), read 4 bytes at the offset named by the low nibble of the last byte, drop
//! the top bit, and keep the last `digits` decimal digits. For example, with the RFC's secret
//! `"12345678901234567890"` at Unix time 59 (step 1) the 8-digit code is `94287082`, so the
//! 6-digit code is `287082`.
//!
//! [`check`] accepts the current step and one step either side (clock drift, and a code typed
//! just as it turned over), and refuses a code whose step is not later than the last step
//! accepted for the user: a code seen over someone's shoulder cannot be used a second time.

use hmac::{Hmac, Mac};
use rand::RngCore;
use sha1::Sha1;

/// Seconds per step.
pub const STEP_S: i64 = 30;
/// Digits of the codes the product uses.
pub const DIGITS: u32 = 6;
/// Bytes of a new secret (160 bits, RFC 4226's recommendation for HMAC-SHA1).
pub const SECRET_BYTES: usize = 20;
/// Steps accepted either side of the current one.
pub const DRIFT_STEPS: i64 = 1;

/// A TOTP secret key.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Vec<u8>);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

impl Secret {
    /// A fresh random secret of [`SECRET_BYTES`] bytes.
    pub fn generate() -> Secret {
        let mut bytes = vec![0u8; SECRET_BYTES];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        Secret(bytes)
    }

    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Secret {
        Secret(bytes.into())
    }

    /// Parses base32 as users and apps write it: any case, spaces and `=` padding ignored.
    /// `None` for other characters or an empty key.
    pub fn from_base32(text: &str) -> Option<Secret> {
        let bytes = base32_decode(text)?;
        (!bytes.is_empty()).then_some(Secret(bytes))
    }

    /// Upper-case base32 without padding (20 bytes are exactly 32 characters).
    pub fn to_base32(&self) -> String {
        base32_encode(&self.0)
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

/// HOTP (RFC 4226): the `digits`-digit code of `counter` (1 ≤ digits ≤ 9).
pub fn hotp(key: &[u8], counter: u64, digits: u32) -> u32 {
    assert!((1..=9).contains(&digits), "HOTP codes have 1 to 9 digits");
    let mut mac = Hmac::<Sha1>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(&counter.to_be_bytes());
    let hash = mac.finalize().into_bytes();
    let offset = usize::from(hash[hash.len() - 1] & 0x0f);
    let binary =
        u32::from_be_bytes([hash[offset], hash[offset + 1], hash[offset + 2], hash[offset + 3]])
            & 0x7fff_ffff;
    binary % 10u32.pow(digits)
}

/// The step a moment falls in.
pub fn step_at(unix_ms: i64) -> i64 {
    unix_ms.div_euclid(STEP_S * 1000)
}

/// The product's code (6 digits, zero-padded) for a step.
pub fn code_for_step(secret: &Secret, step: i64) -> String {
    let counter = u64::try_from(step).unwrap_or(0);
    format!("{:0width$}", hotp(secret.as_bytes(), counter, DIGITS), width = DIGITS as usize)
}

/// The product's code at a moment.
pub fn code_at(secret: &Secret, unix_ms: i64) -> String {
    code_for_step(secret, step_at(unix_ms))
}

/// What a code typed by the user is worth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Right, for this step; record it as the last step used.
    Accepted { step: i64 },
    /// Right, but for a step already used (or an earlier one): refuse it.
    Replayed,
    /// Not the code of any step in the window.
    Wrong,
}

/// Checks `code` (already [`parse_code`]d) against the steps around `now_ms`, refusing steps at
/// or before `last_step`. When the code matches several steps the latest usable one counts.
pub fn check(secret: &Secret, code: &str, now_ms: i64, last_step: Option<i64>) -> Check {
    let now_step = step_at(now_ms);
    let mut verdict = Check::Wrong;
    for step in (now_step - DRIFT_STEPS)..=(now_step + DRIFT_STEPS) {
        if step < 0 || !constant_time_eq(code_for_step(secret, step).as_bytes(), code.as_bytes()) {
            continue;
        }
        verdict = match last_step {
            Some(last) if step <= last => match verdict {
                Check::Accepted { .. } => verdict,
                _ => Check::Replayed,
            },
            _ => Check::Accepted { step },
        };
    }
    verdict
}

/// The code as typed, reduced to its digits: spaces are allowed ("123 456"); anything else but
/// exactly [`DIGITS`] digits is `None`.
pub fn parse_code(text: &str) -> Option<String> {
    let digits: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    (digits.len() == DIGITS as usize && digits.bytes().all(|b| b.is_ascii_digit()))
        .then_some(digits)
}

/// The `otpauth://` URI an authenticator app reads from a QR code (Key Uri Format): the account
/// label is `issuer:account`, and the issuer is repeated as a parameter.
pub fn otpauth_uri(issuer: &str, account: &str, secret: &Secret) -> String {
    format!(
        "otpauth://totp/{}:{}?secret={}&issuer={}",
        percent_encode(issuer),
        percent_encode(account),
        secret.to_base32(),
        percent_encode(issuer)
    )
}

fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Compares without stopping at the first difference, so timing does not tell how much of a
/// guessed code (or secret) was right; only the lengths show.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

const BASE32_ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

fn base32_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(5) * 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &byte in bytes {
        buffer = (buffer << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(BASE32_ALPHABET[((buffer >> bits) & 31) as usize]));
        }
        buffer &= (1 << bits) - 1;
    }
    if bits > 0 {
        out.push(char::from(BASE32_ALPHABET[((buffer << (5 - bits)) & 31) as usize]));
    }
    out
}

fn base32_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 5 / 8);
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.chars().filter(|c| !c.is_whitespace() && *c != '=') {
        let upper = c.to_ascii_uppercase();
        let value = BASE32_ALPHABET.iter().position(|&a| char::from(a) == upper)?;
        buffer = (buffer << 5) | value as u32;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
            buffer &= (1 << bits) - 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base32_matches_rfc_4648() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "MY"),
            ("fo", "MZXQ"),
            ("foo", "MZXW6"),
            ("foob", "MZXW6YQ"),
            ("fooba", "MZXW6YTB"),
            ("foobar", "MZXW6YTBOI"),
        ] {
            assert_eq!(base32_encode(plain.as_bytes()), encoded);
            assert_eq!(base32_decode(encoded).unwrap(), plain.as_bytes());
        }
        assert_eq!(base32_decode("mzxw 6ytb oi======").unwrap(), b"foobar");
        assert_eq!(base32_decode("MZXW1"), None);
    }

    #[test]
    fn secrets_are_random_20_bytes_and_round_trip() {
        let (a, b) = (Secret::generate(), Secret::generate());
        assert_ne!(a, b);
        assert_eq!(a.as_bytes().len(), SECRET_BYTES);
        let text = a.to_base32();
        assert_eq!(text.len(), 32);
        assert_eq!(Secret::from_base32(&text.to_lowercase()), Some(a));
        assert_eq!(Secret::from_base32(""), None);
        assert_eq!(format!("{b:?}"), "Secret(…)");
    }

    #[test]
    fn hotp_matches_rfc_4226_appendix_d() {
        let expected =
            [755224, 287082, 359152, 969429, 338314, 254676, 287922, 162583, 399871, 520489];
        for (counter, code) in expected.into_iter().enumerate() {
            assert_eq!(hotp(b"12345678901234567890", counter as u64, 6), code);
        }
    }

    #[test]
    fn the_window_is_one_step_either_side_and_used_steps_are_refused() {
        let secret = Secret::from_bytes(*b"12345678901234567890");
        let now_ms = 1_111_111_111_000;
        let now = step_at(now_ms);
        for offset in -1..=1 {
            assert_eq!(
                check(&secret, &code_for_step(&secret, now + offset), now_ms, None),
                Check::Accepted { step: now + offset }
            );
        }
        assert_eq!(check(&secret, &code_for_step(&secret, now - 2), now_ms, None), Check::Wrong);
        assert_eq!(check(&secret, &code_for_step(&secret, now + 2), now_ms, None), Check::Wrong);
        assert_eq!(
            check(&secret, &code_for_step(&secret, now), now_ms, Some(now)),
            Check::Replayed
        );
        assert_eq!(
            check(&secret, &code_for_step(&secret, now - 1), now_ms, Some(now)),
            Check::Replayed
        );
        assert_eq!(
            check(&secret, &code_for_step(&secret, now + 1), now_ms, Some(now)),
            Check::Accepted { step: now + 1 }
        );
    }

    #[test]
    fn codes_are_parsed_as_six_digits() {
        assert_eq!(parse_code(" 123 456 ").as_deref(), Some("123456"));
        assert_eq!(parse_code("12345"), None);
        assert_eq!(parse_code("1234567"), None);
        assert_eq!(parse_code("12345a"), None);
        assert_eq!(parse_code("１２３４５６"), None);
    }

    #[test]
    fn the_uri_names_issuer_and_account() {
        let secret = Secret::from_bytes(*b"12345678901234567890");
        assert_eq!(
            otpauth_uri("Backlay", "demo user", &secret),
            "otpauth://totp/Backlay:demo%20user?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Backlay"
        );
    }
}
