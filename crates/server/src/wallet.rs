//! The seamless wallet game providers call (`POST /api/wallet/{balance,debit,credit,rollback}`),
//! as one function, [`handle`], that the HTTP routes and the built-in provider both go through.
//! The protocol for partners is in docs/wallet.md.
//!
//! Every call is signed by its provider: `X-Backlay-Provider: <code>`, `X-Backlay-Timestamp:
//! <epoch ms>`, `X-Backlay-Signature: hex(HMAC-SHA256(secret, timestamp + "." + raw body))`.
//! The signature is checked in constant time over the body's bytes exactly as they arrived
//! (never a re-serialised copy), then the timestamp must be within ±30 s of the server's clock,
//! so a captured call cannot be replayed later. The player is named by the launch session token
//! `gap/gaplogin` gave the provider.
//!
//! Money moves between the player's ledger account and the `provider_games` system account, one
//! balanced ledger transaction per call, in the same write transaction as the call's row in
//! `wallet_transactions` (see `backlay_store::wallet` for how a repeated tx id is caught by the
//! UNIQUE constraint and answered with the first answer). Example, provider `evo`:
//!
//! ```text
//! debit    {tx_id: "d1", round: "r7", amount: 100}   player −100.00, provider_games +100.00
//! debit    {tx_id: "d1", round: "r7", amount: 100}   the first answer again; nothing moves
//! credit   {tx_id: "c1", round: "r7", amount: 250}   provider_games −250.00, player +250.00; r7 settled
//! rollback {tx_id: "x1", debit_tx_id: "d1"}          refused (409 round_settled); nothing moves
//! ```
//!
//! Every refusal is an envelope `{status: false, message, data: {code}}` with a 4xx status,
//! leaves the ledger untouched, and is written to the audit log (`wallet.refused`) — for calls
//! that fail the signature check, up to an allowance per address (see [`should_audit`]).

use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use backlay_core::money::Money;
use backlay_store::audit::NewAuditEntry;
use backlay_store::ledger::{NewTransaction, Posting, SystemAccount};
use backlay_store::providers::{CasinoProvider, ProviderSession};
use backlay_store::wallet::{NewWalletTx, ProviderRoundState, WalletKind, WalletTx};
use backlay_store::{StoreError, Writer};
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::clock::now_ms;
use crate::error::{AppError, Envelope, FieldErrors};
use crate::input::{parse_json, AmountInput, TextId};
use crate::session::token_hash;
use crate::throttle::AttemptKeys;
use crate::AppState;

type HmacSha256 = Hmac<Sha256>;

pub const PROVIDER_HEADER: &str = "x-backlay-provider";
pub const TIMESTAMP_HEADER: &str = "x-backlay-timestamp";
pub const SIGNATURE_HEADER: &str = "x-backlay-signature";
/// How far a call's timestamp may be from the server's clock, either way.
pub const MAX_CLOCK_SKEW_MS: i64 = 30_000;
/// Longest tx id, round id or game code a provider may send.
pub const MAX_REF_CHARS: usize = 128;
/// Longest player token accepted.
pub const MAX_TOKEN_CHARS: usize = 256;
/// Largest amount one wallet call may move: 1,00,00,00,000.00.
pub const MAX_WALLET_AMOUNT_MINOR: i64 = 1_000_000_000_00;
/// The ledger kind of every wallet posting (the account statement's casino filter lists it).
pub const LEDGER_KIND: &str = "live_casino";

/// The four calls.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WalletCall {
    Balance,
    Debit,
    Credit,
    Rollback,
}

impl WalletCall {
    pub fn name(self) -> &'static str {
        match self {
            WalletCall::Balance => "balance",
            WalletCall::Debit => "debit",
            WalletCall::Credit => "credit",
            WalletCall::Rollback => "rollback",
        }
    }
}

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

/// A refused call, or our own failure.
#[derive(Debug)]
pub enum WalletError {
    Refused { status: StatusCode, code: &'static str, message: String, errors: FieldErrors },
    Internal(anyhow::Error),
}

impl WalletError {
    pub fn refuse(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> WalletError {
        WalletError::Refused { status, code, message: message.into(), errors: FieldErrors::new() }
    }

    fn field(field: &str, message: impl Into<String>) -> WalletError {
        let message = message.into();
        WalletError::Refused {
            status: StatusCode::BAD_REQUEST,
            code: "bad_request",
            message: message.clone(),
            errors: FieldErrors::from([(field.to_string(), message)]),
        }
    }

    /// The HTTP status the call is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            WalletError::Refused { status, .. } => *status,
            WalletError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The machine-readable reason (`bad_signature`, `insufficient_funds` …).
    pub fn code(&self) -> &'static str {
        match self {
            WalletError::Refused { code, .. } => code,
            WalletError::Internal(_) => "internal",
        }
    }

    /// What a person reads.
    pub fn message(&self) -> String {
        match self {
            WalletError::Refused { message, .. } => message.clone(),
            WalletError::Internal(_) => {
                "Something went wrong on our side. Please try again.".into()
            }
        }
    }
}

impl From<StoreError> for WalletError {
    fn from(err: StoreError) -> WalletError {
        WalletError::Internal(err.into())
    }
}

impl From<anyhow::Error> for WalletError {
    fn from(err: anyhow::Error) -> WalletError {
        WalletError::Internal(err)
    }
}

/// Bad input found by the shared JSON parser: a 400 naming the field.
impl From<AppError> for WalletError {
    fn from(err: AppError) -> WalletError {
        match err {
            AppError::Invalid { message, errors } => WalletError::Refused {
                status: StatusCode::BAD_REQUEST,
                code: "bad_request",
                message,
                errors,
            },
            AppError::Internal(cause) => WalletError::Internal(cause),
            other => WalletError::refuse(other.status_code(), "refused", other.to_string()),
        }
    }
}

/// `data` of a refusal.
#[derive(Serialize, ToSchema)]
pub struct RefusalData {
    /// bad_signature, missing_signature, stale_timestamp, unknown_provider, invalid_token,
    /// insufficient_funds, unknown_debit, round_settled, already_rolled_back, tx_id_reused …
    pub code: String,
    /// Field → what is wrong, for a 400.
    #[serde(skip_serializing_if = "FieldErrors::is_empty")]
    pub errors: FieldErrors,
}

impl IntoResponse for WalletError {
    fn into_response(self) -> Response {
        match self {
            WalletError::Refused { status, code, message, errors } => {
                let data = RefusalData { code: code.to_string(), errors };
                (status, Json(Envelope { status: false, message, data })).into_response()
            }
            // Logged once by the API's middleware, never shown.
            WalletError::Internal(cause) => AppError::Internal(cause).into_response(),
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct BalanceRequest {
    /// The launch session token from the launch URL.
    pub token: String,
}

#[derive(Deserialize, ToSchema)]
pub struct DebitRequest {
    pub token: String,
    /// The provider's id for this call: the same id is answered once, with the first answer.
    #[schema(value_type = String)]
    pub tx_id: TextId,
    /// The provider's round id.
    #[schema(value_type = String)]
    pub round: TextId,
    /// The stake, > 0, at most 2 decimals.
    #[schema(value_type = f64)]
    pub amount: AmountInput,
    /// The provider's game code; absent: the launched game.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub game: Option<TextId>,
}

#[derive(Deserialize, ToSchema)]
pub struct CreditRequest {
    pub token: String,
    #[schema(value_type = String)]
    pub tx_id: TextId,
    /// The round to settle: it must have a debit.
    #[schema(value_type = String)]
    pub round: TextId,
    /// The win, ≥ 0 (0 settles a lost round).
    #[schema(value_type = f64)]
    pub amount: AmountInput,
}

#[derive(Deserialize, ToSchema)]
pub struct RollbackRequest {
    pub token: String,
    #[schema(value_type = String)]
    pub tx_id: TextId,
    /// The debit to undo.
    #[schema(value_type = String)]
    pub debit_tx_id: TextId,
}

/// `data` of a balance answer.
#[derive(Serialize, ToSchema)]
pub struct BalanceAnswer {
    /// What the player may stake now (balance − exposure).
    #[schema(value_type = f64)]
    pub balance: Money,
    pub user_name: String,
    /// The launched game's code (the provider's own).
    pub game: String,
}

/// `data` of a debit, credit or rollback answer; a repeat gets exactly the first one.
#[derive(Serialize, ToSchema)]
pub struct MoveAnswer {
    pub tx_id: String,
    pub round: String,
    /// A rollback: the debit it undid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub debit_tx_id: Option<String>,
    #[schema(value_type = f64)]
    pub amount: Money,
    /// What the player may stake after this call.
    #[schema(value_type = f64)]
    pub balance: Money,
    /// Backlay's id for the call.
    pub transaction_id: i64,
}

/// What a refusal's audit entry names.
#[derive(Default)]
struct CallContext {
    provider: Option<String>,
    user_id: Option<i64>,
    tx_id: Option<String>,
}

/// Answers one wallet call: `data` of the envelope, or a refusal (audited). The HTTP routes
/// and the built-in provider both call this, so signature, timestamp, idempotency and funds
/// checks are the same for every provider.
pub async fn handle(
    state: &AppState,
    call: WalletCall,
    signed: &SignedBy,
    body: &[u8],
    client_ip: Option<&str>,
) -> Result<Value, WalletError> {
    let now = now_ms();
    let mut context = CallContext {
        provider: signed.provider.as_deref().map(|p| p.chars().take(64).collect()),
        ..CallContext::default()
    };
    let result = run(state, call, signed, body, now, &mut context).await;
    if let Err(refusal) = &result {
        if should_audit(state, refusal, client_ip, now) {
            audit_refusal(state, call, &context, refusal, client_ip, now).await;
        }
    }
    result
}

/// Whether to write a refusal to the audit log. A call that failed its signature check could
/// come from anyone, so each address gets the log-in throttle's address allowance of those
/// (30 in 15 minutes by default) in the log; past it they are still refused, only not written,
/// so junk cannot flood the audit log. Signed calls' refusals are always written, and nothing
/// here ever refuses or delays a correctly signed call.
fn should_audit(
    state: &AppState,
    refusal: &WalletError,
    client_ip: Option<&str>,
    now: i64,
) -> bool {
    let unsigned = matches!(
        refusal.code(),
        "missing_signature" | "unknown_provider" | "bad_signature" | "bad_timestamp"
    );
    let Some(ip) = client_ip.filter(|_| unsigned) else {
        return true;
    };
    let keys = AttemptKeys::address(&format!("wallet {ip}"));
    if state.throttle.check(&keys, now).is_err() {
        tracing::debug!(
            ip,
            code = refusal.code(),
            "unsigned wallet call refused and not audited: the address is over its allowance"
        );
        return false;
    }
    state.throttle.record_failure(&keys, now);
    true
}

/// Refuses a call whose body could not even be read (too large), with its audit entry.
pub async fn refuse_unread(
    state: &AppState,
    call: WalletCall,
    signed: &SignedBy,
    refusal: WalletError,
    client_ip: Option<&str>,
) -> WalletError {
    let context = CallContext {
        provider: signed.provider.as_deref().map(|p| p.chars().take(64).collect()),
        ..CallContext::default()
    };
    audit_refusal(state, call, &context, &refusal, client_ip, now_ms()).await;
    refusal
}

/// Writes a refusal to the audit log (our own failures are logged by the middleware instead).
async fn audit_refusal(
    state: &AppState,
    call: WalletCall,
    context: &CallContext,
    refusal: &WalletError,
    client_ip: Option<&str>,
    now: i64,
) {
    if matches!(refusal, WalletError::Internal(_)) {
        return;
    }
    let entry = NewAuditEntry {
        actor_user_id: context.user_id,
        action: "wallet.refused",
        target: format!("wallet/{}", call.name()),
        detail: serde_json::json!({
            "code": refusal.code(),
            "message": refusal.message(),
            "status": refusal.status().as_u16(),
            "provider": context.provider,
            "tx_id": context.tx_id,
        }),
        client_ip,
    };
    if let Err(err) = state.store.audit(entry, now).await {
        tracing::error!("could not write a wallet refusal to the audit log: {err:#}");
    }
}

async fn run(
    state: &AppState,
    call: WalletCall,
    signed: &SignedBy,
    body: &[u8],
    now: i64,
    context: &mut CallContext,
) -> Result<Value, WalletError> {
    let provider = authenticate(state, signed, body, now).await?;
    match call {
        WalletCall::Balance => {
            let request: BalanceRequest = parse_json(body)?;
            let session = player(state, &provider, &request.token, now, true).await?;
            context.user_id = Some(session.user_id);
            let funds = state.store.funds_of_user(session.user_id).await?;
            let answer = BalanceAnswer {
                balance: Money::from_minor(funds.available_minor()),
                user_name: session.user_name,
                game: session.game_code,
            };
            Ok(serde_json::to_value(answer).map_err(anyhow::Error::from)?)
        }
        WalletCall::Debit => {
            let request: DebitRequest = parse_json(body)?;
            context.tx_id = Some(reference("tx_id", &request.tx_id)?);
            debit(state, &provider, request, now, context).await
        }
        WalletCall::Credit => {
            let request: CreditRequest = parse_json(body)?;
            context.tx_id = Some(reference("tx_id", &request.tx_id)?);
            credit(state, &provider, request, now, context).await
        }
        WalletCall::Rollback => {
            let request: RollbackRequest = parse_json(body)?;
            context.tx_id = Some(reference("tx_id", &request.tx_id)?);
            rollback(state, &provider, request, now, context).await
        }
    }
}

fn unauthorised(code: &'static str, message: impl Into<String>) -> WalletError {
    WalletError::refuse(StatusCode::UNAUTHORIZED, code, message)
}

/// The provider whose valid, fresh signature the call carries.
async fn authenticate(
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

/// The launch session a token names, for this provider. Debits and balances need a live one
/// and an unlocked player; a credit or rollback is accepted after the session expired (a round
/// may end after its player left) or the player was locked (they are still owed it).
async fn player(
    state: &AppState,
    provider: &CasinoProvider,
    token: &str,
    now: i64,
    need_live: bool,
) -> Result<ProviderSession, WalletError> {
    let unknown =
        || unauthorised("invalid_token", "The player token is not known: launch the game again.");
    let token = token.trim();
    if token.is_empty() || token.len() > MAX_TOKEN_CHARS {
        return Err(unknown());
    }
    let session = state.store.provider_session(&token_hash(token)).await?.ok_or_else(unknown)?;
    if session.provider_id != provider.id {
        return Err(unknown());
    }
    if need_live {
        ensure_live(&session, now)?;
    }
    Ok(session)
}

/// A session that may stake: not expired, its player not locked.
fn ensure_live(session: &ProviderSession, now: i64) -> Result<(), WalletError> {
    if session.expires_at_ms <= now {
        return Err(unauthorised(
            "session_expired",
            "The player's game session has expired: launch the game again.",
        ));
    }
    if session.user_is_locked {
        return Err(WalletError::refuse(
            StatusCode::FORBIDDEN,
            "player_locked",
            "The player's account is locked.",
        ));
    }
    Ok(())
}

/// A tx id, round id or code: 1 to [`MAX_REF_CHARS`] visible ASCII characters.
fn reference(field: &str, value: &TextId) -> Result<String, WalletError> {
    let text = value.0.trim();
    if text.is_empty() {
        return Err(WalletError::field(field, format!("{field} is required.")));
    }
    if text.len() > MAX_REF_CHARS || !text.chars().all(|c| c.is_ascii_graphic()) {
        return Err(WalletError::field(
            field,
            format!("{field} must be 1 to {MAX_REF_CHARS} visible ASCII characters (no spaces)."),
        ));
    }
    Ok(text.to_string())
}

fn amount(AmountInput(money): AmountInput, zero_allowed: bool) -> Result<i64, WalletError> {
    let minor = money.minor();
    let lowest = if zero_allowed { 0 } else { 1 };
    if minor < lowest || minor > MAX_WALLET_AMOUNT_MINOR {
        let floor = if zero_allowed { "0 or more" } else { "more than 0" };
        return Err(WalletError::field(
            "amount",
            format!(
                "amount must be {floor} and at most {}.",
                Money::from_minor(MAX_WALLET_AMOUNT_MINOR)
            ),
        ));
    }
    Ok(minor)
}

/// What a call asked for, to tell a true repeat from a tx id reused for something else.
fn request_hash(parts: &[&str]) -> String {
    hex::encode(Sha256::digest(parts.join("\n").as_bytes()))
}

/// The first answer to a repeated tx id, or a refusal when the id was used for another call.
fn repeat(
    first: &WalletTx,
    kind: WalletKind,
    hash: &str,
    tx_id: &str,
) -> Result<Value, WalletError> {
    if first.kind != kind || first.request_hash != hash {
        return Err(WalletError::refuse(
            StatusCode::CONFLICT,
            "tx_id_reused",
            format!(
                "Transaction id {tx_id} was already used for a different {}: send a new id.",
                first.kind.as_str()
            ),
        ));
    }
    Ok(serde_json::from_str(&first.answer_json).map_err(anyhow::Error::from)?)
}

/// After `claim` lost the race for its tx id: the winner's answer (`None` when nothing holds
/// the tx id, as when a rollback lost the race for its debit instead).
async fn repeat_after_race(
    state: &AppState,
    provider: &CasinoProvider,
    claim: &NewWalletTx<'_>,
) -> Result<Option<Value>, WalletError> {
    match state.store.wallet_tx_by_ref(provider.id, claim.provider_tx_id).await? {
        Some(first) => {
            repeat(&first, claim.kind, claim.request_hash, claim.provider_tx_id).map(Some)
        }
        None => Ok(None),
    }
}

/// After `claim` lost the race for its tx id, which only another copy of the call can have
/// taken: that copy's answer.
async fn first_answer_after_race(
    state: &AppState,
    provider: &CasinoProvider,
    claim: &NewWalletTx<'_>,
) -> Result<Value, WalletError> {
    repeat_after_race(state, provider, claim).await?.ok_or_else(|| {
        WalletError::Internal(anyhow::anyhow!(
            "wallet tx {} conflicted but cannot be read",
            claim.provider_tx_id
        ))
    })
}

fn conflict(code: &'static str, message: impl Into<String>) -> WalletError {
    WalletError::refuse(StatusCode::CONFLICT, code, message)
}

fn game_label(session: &ProviderSession, game_code: &str) -> String {
    if game_code == session.game_code {
        session.game_name.clone()
    } else {
        game_code.to_string()
    }
}

/// Posts `player_delta_minor` to the player against `provider_games`; answers the ledger
/// transaction and what the player may stake afterwards.
async fn post_move(
    w: &mut Writer,
    session: &ProviderSession,
    provider: &CasinoProvider,
    player_delta_minor: i64,
    description: String,
    remark: String,
    now: i64,
) -> Result<(i64, i64), WalletError> {
    let player_account = w.account_of_user(session.user_id).await?;
    let provider_account = w.system_account(SystemAccount::ProviderGames).await?;
    let posted = w
        .post(
            NewTransaction {
                kind: LEDGER_KIND,
                actor_user_id: Some(session.user_id),
                remark,
                postings: vec![
                    Posting {
                        account_id: player_account,
                        amount_minor: player_delta_minor,
                        description: description.clone(),
                    },
                    Posting {
                        account_id: provider_account,
                        amount_minor: -player_delta_minor,
                        description: format!("{description} ({})", provider.code),
                    },
                ],
            },
            now,
        )
        .await
        .map_err(|err| match err {
            StoreError::InsufficientFunds { available_minor } => WalletError::refuse(
                StatusCode::UNPROCESSABLE_ENTITY,
                "insufficient_funds",
                format!("Insufficient funds: {} available.", Money::from_minor(available_minor)),
            ),
            other => other.into(),
        })?;
    let funds = w.funds_of_user(session.user_id).await?;
    debug_assert_eq!(posted.balance_after(player_account), Some(funds.balance_minor));
    Ok((posted.transaction_id, funds.available_minor()))
}

async fn debit(
    state: &AppState,
    provider: &CasinoProvider,
    request: DebitRequest,
    now: i64,
    context: &mut CallContext,
) -> Result<Value, WalletError> {
    let tx_id = reference("tx_id", &request.tx_id)?;
    let round_ref = reference("round", &request.round)?;
    let amount_minor = amount(request.amount, false)?;
    let game_override = request.game.as_ref().map(|g| reference("game", g)).transpose()?;
    // A repeat is answered even after the session ended; a new debit needs a live one.
    let session = player(state, provider, &request.token, now, false).await?;
    context.user_id = Some(session.user_id);
    let game_code = game_override.unwrap_or_else(|| session.game_code.clone());
    let hash = request_hash(&[
        "debit",
        &session.user_id.to_string(),
        &round_ref,
        &amount_minor.to_string(),
    ]);

    let mut w = state.store.begin_write().await?;
    if let Some(first) = w.wallet_tx_by_ref(provider.id, &tx_id).await? {
        return repeat(&first, WalletKind::Debit, &hash, &tx_id);
    }
    ensure_live(&session, now)?;
    let round =
        w.open_provider_round(provider.id, &round_ref, session.user_id, &game_code, now).await?;
    if round.user_id != session.user_id {
        return Err(conflict(
            "round_of_another_player",
            format!("Round {round_ref} belongs to another player."),
        ));
    }
    if round.state != ProviderRoundState::Open {
        return Err(conflict(
            "round_closed",
            format!(
                "Round {round_ref} is {}: it takes no more debits.",
                round_state_words(round.state)
            ),
        ));
    }
    let claim = NewWalletTx {
        provider_id: provider.id,
        provider_tx_id: &tx_id,
        kind: WalletKind::Debit,
        user_id: session.user_id,
        round_pk: round.id,
        amount_minor,
        reverses_id: None,
        request_hash: &hash,
    };
    let Some(claimed) = w.claim_wallet_tx(&claim, now).await? else {
        drop(w);
        return first_answer_after_race(state, provider, &claim).await;
    };
    let description =
        format!("Live casino: {} round {round_ref}, stake", game_label(&session, &round.game_code));
    let (ledger_id, available_minor) = post_move(
        &mut w,
        &session,
        provider,
        -amount_minor,
        description,
        format!("{} {tx_id}", provider.code),
        now,
    )
    .await?;
    if !w.add_round_debit(round.id, amount_minor).await? {
        return Err(conflict(
            "round_closed",
            format!("Round {round_ref} was settled meanwhile: it takes no more debits."),
        ));
    }
    let answer = MoveAnswer {
        tx_id,
        round: round_ref,
        debit_tx_id: None,
        amount: Money::from_minor(amount_minor),
        balance: Money::from_minor(available_minor),
        transaction_id: claimed,
    };
    finish(w, claimed, &answer, Some(ledger_id)).await
}

async fn credit(
    state: &AppState,
    provider: &CasinoProvider,
    request: CreditRequest,
    now: i64,
    context: &mut CallContext,
) -> Result<Value, WalletError> {
    let tx_id = reference("tx_id", &request.tx_id)?;
    let round_ref = reference("round", &request.round)?;
    let amount_minor = amount(request.amount, true)?;
    let session = player(state, provider, &request.token, now, false).await?;
    context.user_id = Some(session.user_id);
    let hash = request_hash(&[
        "credit",
        &session.user_id.to_string(),
        &round_ref,
        &amount_minor.to_string(),
    ]);

    let mut w = state.store.begin_write().await?;
    if let Some(first) = w.wallet_tx_by_ref(provider.id, &tx_id).await? {
        return repeat(&first, WalletKind::Credit, &hash, &tx_id);
    }
    let unknown_debit = || {
        WalletError::refuse(
            StatusCode::NOT_FOUND,
            "unknown_debit",
            format!("There is no debit in round {round_ref} to credit."),
        )
    };
    let round = w.provider_round(provider.id, &round_ref).await?.ok_or_else(unknown_debit)?;
    if round.user_id != session.user_id {
        return Err(unknown_debit());
    }
    match round.state {
        ProviderRoundState::Open => {}
        ProviderRoundState::Settled => {
            return Err(conflict(
                "round_settled",
                format!("Round {round_ref} is already settled: it was credited once."),
            ))
        }
        ProviderRoundState::RolledBack => {
            return Err(conflict(
                "round_rolled_back",
                format!(
                    "Every debit in round {round_ref} was rolled back: there is nothing to credit."
                ),
            ))
        }
    }
    let claim = NewWalletTx {
        provider_id: provider.id,
        provider_tx_id: &tx_id,
        kind: WalletKind::Credit,
        user_id: session.user_id,
        round_pk: round.id,
        amount_minor,
        reverses_id: None,
        request_hash: &hash,
    };
    let Some(claimed) = w.claim_wallet_tx(&claim, now).await? else {
        drop(w);
        return first_answer_after_race(state, provider, &claim).await;
    };
    // A lost round is settled with a credit of 0, which moves no money.
    let (ledger_id, available_minor) = if amount_minor > 0 {
        let description = format!(
            "Live casino: {} round {round_ref}, win",
            game_label(&session, &round.game_code)
        );
        let (id, available) = post_move(
            &mut w,
            &session,
            provider,
            amount_minor,
            description,
            format!("{} {tx_id}", provider.code),
            now,
        )
        .await?;
        (Some(id), available)
    } else {
        (None, w.funds_of_user(session.user_id).await?.available_minor())
    };
    if !w.settle_provider_round(round.id, amount_minor, now).await? {
        return Err(conflict(
            "round_settled",
            format!("Round {round_ref} was settled or rolled back meanwhile."),
        ));
    }
    let answer = MoveAnswer {
        tx_id,
        round: round_ref,
        debit_tx_id: None,
        amount: Money::from_minor(amount_minor),
        balance: Money::from_minor(available_minor),
        transaction_id: claimed,
    };
    finish(w, claimed, &answer, ledger_id).await
}

async fn rollback(
    state: &AppState,
    provider: &CasinoProvider,
    request: RollbackRequest,
    now: i64,
    context: &mut CallContext,
) -> Result<Value, WalletError> {
    let tx_id = reference("tx_id", &request.tx_id)?;
    let debit_tx_id = reference("debit_tx_id", &request.debit_tx_id)?;
    let session = player(state, provider, &request.token, now, false).await?;
    context.user_id = Some(session.user_id);
    let hash = request_hash(&["rollback", &session.user_id.to_string(), &debit_tx_id]);

    let mut w = state.store.begin_write().await?;
    if let Some(first) = w.wallet_tx_by_ref(provider.id, &tx_id).await? {
        return repeat(&first, WalletKind::Rollback, &hash, &tx_id);
    }
    let unknown_debit = || {
        WalletError::refuse(
            StatusCode::NOT_FOUND,
            "unknown_debit",
            format!("There is no debit {debit_tx_id} to roll back."),
        )
    };
    let debit = w
        .wallet_tx_by_ref(provider.id, &debit_tx_id)
        .await?
        .filter(|tx| tx.kind == WalletKind::Debit && tx.user_id == session.user_id)
        .ok_or_else(unknown_debit)?;
    let already = |by: &WalletTx| {
        conflict(
            "already_rolled_back",
            format!(
                "Debit {debit_tx_id} was already rolled back by transaction {}.",
                by.provider_tx_id
            ),
        )
    };
    if let Some(by) = w.rollback_of(debit.id).await? {
        return Err(already(&by));
    }
    let round = w.provider_round_by_id(debit.round_pk).await?;
    if round.state == ProviderRoundState::Settled {
        return Err(conflict(
            "round_settled",
            format!(
                "Round {} is settled: its debits can no longer be rolled back.",
                round.round_ref
            ),
        ));
    }
    let claim = NewWalletTx {
        provider_id: provider.id,
        provider_tx_id: &tx_id,
        kind: WalletKind::Rollback,
        user_id: session.user_id,
        round_pk: round.id,
        amount_minor: debit.amount_minor,
        reverses_id: Some(debit.id),
        request_hash: &hash,
    };
    let Some(claimed) = w.claim_wallet_tx(&claim, now).await? else {
        // Either this tx id was taken (a repeat) or another rollback took the debit.
        drop(w);
        if let Some(answer) = repeat_after_race(state, provider, &claim).await? {
            return Ok(answer);
        }
        return match state.store.rollback_of(debit.id).await? {
            Some(by) => Err(already(&by)),
            None => Err(WalletError::Internal(anyhow::anyhow!(
                "rollback {tx_id} conflicted but nothing took it"
            ))),
        };
    };
    let description = format!(
        "Live casino: {} round {}, stake returned (rollback)",
        game_label(&session, &round.game_code),
        round.round_ref
    );
    let (ledger_id, available_minor) = post_move(
        &mut w,
        &session,
        provider,
        debit.amount_minor,
        description,
        format!("{} {tx_id}", provider.code),
        now,
    )
    .await?;
    if !w.remove_round_debit(round.id, debit.amount_minor).await? {
        return Err(conflict(
            "round_settled",
            format!(
                "Round {} was settled meanwhile: its debits can no longer be rolled back.",
                round.round_ref
            ),
        ));
    }
    let answer = MoveAnswer {
        tx_id,
        round: round.round_ref,
        debit_tx_id: Some(debit_tx_id),
        amount: Money::from_minor(debit.amount_minor),
        balance: Money::from_minor(available_minor),
        transaction_id: claimed,
    };
    finish(w, claimed, &answer, Some(ledger_id)).await
}

fn round_state_words(state: ProviderRoundState) -> &'static str {
    match state {
        ProviderRoundState::Open => "open",
        ProviderRoundState::Settled => "settled",
        ProviderRoundState::RolledBack => "rolled back",
    }
}

/// Stores the answer with the claimed row and commits: from now on a repeat gets this answer.
async fn finish(
    mut w: Writer,
    claimed: i64,
    answer: &MoveAnswer,
    ledger_id: Option<i64>,
) -> Result<Value, WalletError> {
    let value = serde_json::to_value(answer).map_err(anyhow::Error::from)?;
    w.finish_wallet_tx(claimed, &value.to_string(), ledger_id).await?;
    w.commit().await?;
    Ok(value)
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

    #[test]
    fn references_are_short_visible_ascii() {
        assert_eq!(reference("tx_id", &TextId(" d-1 ".into())).unwrap(), "d-1");
        assert!(reference("tx_id", &TextId("".into())).is_err());
        assert!(reference("tx_id", &TextId("a b".into())).is_err());
        assert!(reference("tx_id", &TextId("x".repeat(129))).is_err());
        assert!(reference("tx_id", &TextId("é".into())).is_err());
    }

    #[test]
    fn amounts_are_bounded() {
        assert_eq!(amount(AmountInput(Money::from_minor(1)), false).unwrap(), 1);
        assert!(amount(AmountInput(Money::from_minor(0)), false).is_err());
        assert_eq!(amount(AmountInput(Money::from_minor(0)), true).unwrap(), 0);
        assert!(amount(AmountInput(Money::from_minor(-5)), true).is_err());
        assert!(amount(AmountInput(Money::from_minor(MAX_WALLET_AMOUNT_MINOR + 1)), true).is_err());
    }
}
