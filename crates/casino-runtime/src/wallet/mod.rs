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
//! `wallet_transactions` (see `backlay_casino_store::wallet` for how a repeated tx id is caught by the
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
//! that fail the signature check, up to an allowance per address (see `audit`).

mod audit;
mod error;
mod moves;
mod signing;

pub use audit::refuse_unread;
pub use error::{RefusalData, WalletError};
pub use signing::{
    signature, SignedBy, MAX_CLOCK_SKEW_MS, PROVIDER_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER,
};

use backlay_core::money::Money;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use audit::{audit_refusal, should_audit};
use backlay_kit::clock::now_ms;
use backlay_kit::input::{parse_json, AmountInput, TextId};
use backlay_operator::AppState;
use moves::{credit, debit, player, reference, rollback};
use signing::authenticate;

/// Longest tx id, round id or game code a provider may send.
pub const MAX_REF_CHARS: usize = 128;
/// Longest player token accepted.
pub const MAX_TOKEN_CHARS: usize = 256;
/// Largest amount one wallet call may move: 1,00,00,00,000.00.
pub const MAX_WALLET_AMOUNT_MINOR: i64 = 1_000_000_000_00;

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
    backlay_kit::metrics::wallet_call(
        call.name(),
        result.as_ref().map_or_else(WalletError::code, |_| "ok"),
    );
    if let Err(refusal) = &result {
        if should_audit(state, refusal, client_ip, now).await {
            audit_refusal(state, call, &context, refusal, client_ip, now).await;
        }
    }
    result
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
