//! The built-in provider's routes on the public origin: the game page (`GET /provider/play`)
//! and its backend (`POST /provider/api/table`, `POST /provider/api/deal`). See the module docs
//! of [`super`] for the flow.
//!
//! The page is the only thing Backlay lets another page frame: its answers carry
//! `Content-Security-Policy: frame-ancestors 'self' <public origin>` (and `X-Frame-Options:
//! SAMEORIGIN` for browsers without CSP), a nonce for its one inline script, and
//! `Referrer-Policy: no-referrer`, because the player's game token is in its address.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, FromRef, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{middleware, Json, Router};
use backlay_casino::fair::FairRng;
use backlay_casino::games::GameKind;
use backlay_casino::market::{payout, Deal, HandView, Market, Verdict};
use backlay_core::money::Money;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;

use super::{BuiltinProvider, PendingTable, MAX_TABLES, TABLE_TTL_MS};
use crate::wallet::{self, SignedBy, WalletCall, WalletError};
use crate::{new_seed, MAX_STAKE_MINOR, MIN_STAKE_MINOR};
use backlay_casino_store::ProviderReads;
use backlay_kit::clock::now_ms;
use backlay_kit::config::Config;
use backlay_kit::error::{ok, AppError, Envelope};
use backlay_kit::input::{AmountInput, ApiJson};
use backlay_operator::session::{new_token, token_hash, ClientIp};
use backlay_operator::AppState;
use backlay_store::Store;

const PAGE: &str = include_str!("play.html");

/// Largest body the provider's backend reads.
const MAX_PROVIDER_BODY_BYTES: usize = 8 * 1024;

/// What the provider's page and backend read: the app's state and the provider itself.
#[derive(Clone)]
struct Play {
    app: AppState,
    provider: Arc<BuiltinProvider>,
}

impl FromRef<Play> for Store {
    fn from_ref(play: &Play) -> Store {
        play.app.store.clone()
    }
}

impl FromRef<Play> for Arc<Config> {
    fn from_ref(play: &Play) -> Arc<Config> {
        play.app.config.clone()
    }
}

/// `/provider/…`, with the layers its answers share.
pub fn routes(app: AppState, provider: Arc<BuiltinProvider>) -> Router {
    let api = Router::<Play>::new()
        .route("/provider/api/table", post(open_table))
        .route("/provider/api/deal", post(deal))
        .layer(DefaultBodyLimit::max(MAX_PROVIDER_BODY_BYTES))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store, no-cache"),
        ));
    Router::new()
        .route(super::PLAY_PATH, get(page))
        .merge(api)
        .layer(CatchPanicLayer::custom(backlay_kit::error::panic_response))
        .layer(middleware::from_fn(backlay_kit::error::log_server_errors))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .with_state(Play { app, provider })
}

/// The page's Content-Security-Policy: only its own inline script (by nonce) and calls to its
/// own backend; framed only by Backlay's pages.
fn content_security_policy(nonce: &str, public_url: &str) -> String {
    format!(
        "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; connect-src 'self'; img-src 'self' data:; \
         base-uri 'none'; form-action 'none'; frame-ancestors 'self' {public_url}"
    )
}

async fn page(State(play): State<Play>) -> Response {
    let state = &play.app;
    let mut nonce = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut nonce);
    let nonce = hex::encode(nonce);
    let csp = content_security_policy(&nonce, &state.public_url);
    let mut response = Html(PAGE.replace("{{NONCE}}", &nonce)).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_str(&csp).expect("a CSP of ASCII text"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("SAMEORIGIN"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// What the backend answers with when it fails: the wallet's refusal as it came, or an error
/// of its own.
enum PlayError {
    App(AppError),
    Wallet(WalletError),
    /// The round could not be finished and the stake went back (503).
    Abandoned(String),
}

impl From<AppError> for PlayError {
    fn from(err: AppError) -> PlayError {
        PlayError::App(err)
    }
}

impl From<WalletError> for PlayError {
    fn from(err: WalletError) -> PlayError {
        PlayError::Wallet(err)
    }
}

impl IntoResponse for PlayError {
    fn into_response(self) -> Response {
        match self {
            PlayError::App(err) => err.into_response(),
            PlayError::Wallet(err) => err.into_response(),
            PlayError::Abandoned(message) => (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Envelope { status: false, message, data: Value::Null }),
            )
                .into_response(),
        }
    }
}

type PlayResult<T> = Result<Json<Envelope<T>>, PlayError>;

/// Signs `body` with the provider's secret and sends it through the wallet's own entry point.
async fn call_wallet(
    play: &Play,
    call: WalletCall,
    body: Value,
    client_ip: Option<&str>,
) -> Result<Value, WalletError> {
    let provider: &Arc<BuiltinProvider> = &play.provider;
    let bytes = serde_json::to_vec(&body).map_err(|e| WalletError::Internal(e.into()))?;
    let signed = SignedBy::sign(&provider.code, &provider.secret, now_ms(), &bytes);
    wallet::handle(&play.app, call, &signed, &bytes, client_ip).await
}

fn short_text(field: &str, value: &str, max_chars: usize) -> Result<String, AppError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(AppError::field(field, format!("{field} is required.")));
    }
    if value.chars().count() > max_chars {
        return Err(AppError::field(
            field,
            format!("{field} must be at most {max_chars} characters."),
        ));
    }
    Ok(value.to_string())
}

#[derive(Deserialize)]
struct TableRequest {
    /// The launch token from the page's address.
    token: String,
    /// The game's code (`teen20`, `baccarat` …).
    game: String,
}

#[derive(Serialize)]
struct MarketItem {
    code: String,
    name: String,
    family: String,
    /// Decimal odds as text ("1.98").
    odds: String,
}

fn market_item(market: &Market) -> MarketItem {
    MarketItem {
        code: market.code.clone(),
        name: market.name.clone(),
        family: market.family.clone(),
        odds: market.odds.to_string(),
    }
}

#[derive(Serialize)]
struct TableAnswer {
    /// Send it back with the stake.
    table_id: String,
    game: String,
    /// The game's name in the catalogue ("Baccarat Instant").
    title: String,
    /// The provider round the deal will be played as (and the fair stream's round id).
    round: String,
    /// hex SHA-256 of the table's secret seed: the deal is fixed, the seed revealed with it.
    commitment: String,
    /// Cards shown before the stake (Hi-Low's base card, Andar Bahar's joker).
    open_cards: Vec<String>,
    /// The same cards as the hand the result will name them by ("Base card", "Joker"), so the
    /// page shows them under one name before and after the deal; empty for the other games.
    open_hands: Vec<HandView>,
    markets: Vec<MarketItem>,
    /// The player's balance as Backlay's header shows it beside this frame.
    balance: Money,
    user_name: Value,
    min_stake: Money,
    max_stake: Money,
    /// How long the table waits for a stake.
    expires_in_s: i64,
}

/// Deals a table from a fresh seed for the page to bet on.
async fn open_table(
    State(play): State<Play>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<TableRequest>,
) -> PlayResult<TableAnswer> {
    let state = &play.app;
    let code = short_text("game", &body.game, 32)?;
    let game = GameKind::from_code(&code)
        .ok_or_else(|| AppError::NotFound(format!("There is no game {code} here.")))?;
    // The wallet vouches for the token, the player and the launched game.
    let balance =
        call_wallet(&play, WalletCall::Balance, json!({ "token": body.token }), ip.as_deref())
            .await?;
    if balance["game"].as_str() != Some(game.code()) {
        return Err(AppError::field(
            "game",
            format!(
                "This session was opened for another game: launch {} from the casino lobby.",
                super::catalogue_name(game)
            ),
        )
        .into());
    }
    let seed = new_seed();
    let now = now_ms();
    let mut salt = [0u8; 4];
    rand::rngs::OsRng.fill_bytes(&mut salt);
    let round_ref = format!("{}-{now}-{}", game.code(), hex::encode(salt));
    let deal = game.deal(&mut FairRng::new(&seed, &round_ref));
    let open_cards = game.open_cards(&deal).iter().map(ToString::to_string).collect();
    let open_hands = game
        .open_hand_name()
        .map(|name| HandView {
            name: name.to_string(),
            cards: game.open_cards(&deal).to_vec(),
            description: String::new(),
        })
        .into_iter()
        .collect();
    let markets = game.markets(game.open_cards(&deal)).iter().map(market_item).collect();
    let commitment = seed.commitment();
    let table_id = new_token();
    let pending = PendingTable {
        token_hash: token_hash(body.token.trim()),
        game,
        seed,
        round_ref: round_ref.clone(),
        created_ms: now,
    };
    let kept =
        play.provider.tables.lock().expect("tables lock").insert(table_id.clone(), pending, now);
    if !kept {
        return Err(AppError::TooManyRequests {
            message: format!("Too many tables are open ({MAX_TABLES}); try again in a moment."),
            retry_after_s: 5,
        }
        .into());
    }
    Ok(ok(TableAnswer {
        table_id,
        game: game.code().to_string(),
        title: super::catalogue_name(game).to_string(),
        round: round_ref,
        commitment,
        open_cards,
        open_hands,
        markets,
        balance: header_balance(state, &body.token).await?,
        user_name: balance["user_name"].clone(),
        min_stake: Money::from_minor(MIN_STAKE_MINOR),
        max_stake: Money::from_minor(MAX_STAKE_MINOR),
        expires_in_s: TABLE_TTL_MS / 1000,
    }))
}

#[derive(Deserialize)]
struct DealRequest {
    token: String,
    table_id: String,
    /// The market's code, from the table.
    market: String,
    stake: AmountInput,
}

#[derive(Serialize)]
struct DealAnswer {
    round: String,
    game: String,
    market: MarketItem,
    stake: Money,
    /// What came back, stake included (0 for a loss).
    payout: Money,
    /// payout − stake.
    net: Money,
    /// won, lost, push or half_lost.
    verdict: &'static str,
    winner: String,
    hands: Vec<HandView>,
    /// Every card dealt, in order (none for roulette and Worli Matka).
    cards: Vec<String>,
    deal: Deal,
    commitment: String,
    /// The revealed seed: SHA-256 of it is the commitment.
    seed: String,
    /// The player's balance now, as Backlay's header shows it.
    balance: Money,
}

/// Takes the stake through the wallet, plays the table, and pays the payout through the
/// wallet; a failure after the debit rolls the debit back.
async fn deal(
    State(play): State<Play>,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<DealRequest>,
) -> PlayResult<DealAnswer> {
    let state = &play.app;
    let table_id = short_text("table_id", &body.table_id, 64)?;
    let market_code = short_text("market", &body.market, 64)?;
    let stake_minor = body.stake.0.minor();
    if !(MIN_STAKE_MINOR..=MAX_STAKE_MINOR).contains(&stake_minor) {
        return Err(AppError::field(
            "stake",
            format!(
                "stake must be between {} and {}.",
                Money::from_minor(MIN_STAKE_MINOR).rupees(),
                Money::from_minor(MAX_STAKE_MINOR).rupees()
            ),
        )
        .into());
    }
    let now = now_ms();
    let token = body.token.trim().to_string();
    let table = {
        let mut tables = play.provider.tables.lock().expect("tables lock");
        let gone = || AppError::Conflict("This table has closed: a new one is being dealt.".into());
        let table = tables.by_id.get(&table_id).ok_or_else(gone)?;
        if table.token_hash != token_hash(&token) || now - table.created_ms >= TABLE_TTL_MS {
            return Err(gone().into());
        }
        tables.by_id.remove(&table_id).expect("the table was just found")
    };
    let game = table.game;
    // The whole result is worked out before any money moves (it is a pure function of the
    // seed), so that after the debit only the wallet itself can fail.
    let deal = game.deal(&mut FairRng::new(&table.seed, &table.round_ref));
    let Some(market) = game.market(game.open_cards(&deal), &market_code) else {
        let round = table.round_ref.clone();
        put_back(&play, table_id, table, now);
        return Err(AppError::field(
            "market",
            format!("Round {round} has no market {market_code:?}."),
        )
        .into());
    };
    let outcome = game.result(&deal);
    let payout_minor = payout(&market, stake_minor, &outcome);
    let round = table.round_ref.clone();
    let debit_tx = format!("{round}.debit");

    let debited = call_wallet(&play,
        WalletCall::Debit,
        json!({ "token": token, "tx_id": debit_tx, "round": round, "amount": Money::from_minor(stake_minor), "game": game.code() }),
        ip.as_deref(),
    )
    .await;
    if let Err(refusal) = debited {
        // Nothing moved and nothing was shown: the player may try the same table again.
        put_back(&play, table_id, table, now);
        return Err(refusal.into());
    }
    let credited = call_wallet(&play,
        WalletCall::Credit,
        json!({ "token": token, "tx_id": format!("{round}.credit"), "round": round, "amount": Money::from_minor(payout_minor) }),
        ip.as_deref(),
    )
    .await;
    if let Err(credit_failure) = credited {
        let rolled_back = call_wallet(&play,
            WalletCall::Rollback,
            json!({ "token": token, "tx_id": format!("{round}.rollback"), "debit_tx_id": debit_tx }),
            ip.as_deref(),
        )
        .await;
        return Err(match rolled_back {
            Ok(_) => {
                tracing::warn!(%round, "built-in provider: the credit failed ({}), the debit was rolled back", credit_failure.message());
                PlayError::Abandoned(format!(
                    "Round {round} could not be finished, so your stake of {} was returned.",
                    Money::from_minor(stake_minor).rupees()
                ))
            }
            Err(rollback_failure) => PlayError::App(AppError::Internal(anyhow::anyhow!(
                "built-in provider round {round}: the credit failed ({}) and so did the rollback ({}); the round stays open",
                credit_failure.message(),
                rollback_failure.message()
            ))),
        });
    }
    let verdict = match outcome.verdict(&market.code) {
        Verdict::Lost => "lost",
        Verdict::Won | Verdict::WonAt(_) => "won",
        Verdict::Push => "push",
        Verdict::HalfLost => "half_lost",
    };
    Ok(ok(DealAnswer {
        round,
        game: game.code().to_string(),
        market: market_item(&market),
        stake: Money::from_minor(stake_minor),
        payout: Money::from_minor(payout_minor),
        net: Money::from_minor(payout_minor - stake_minor),
        verdict,
        winner: outcome.winner.clone(),
        hands: outcome.hands.clone(),
        cards: deal.cards().iter().map(ToString::to_string).collect(),
        deal,
        commitment: table.seed.commitment(),
        seed: table.seed.to_hex(),
        balance: header_balance(state, &token).await?,
    }))
}

/// The player's balance as the header of Backlay shows it around this frame
/// (`user/getUserBalance`'s `total_balance`: the ledger balance, exposure shown apart), so the
/// page and the header never show two figures for one account. The wallet's own `balance` is
/// what may be staked (balance − exposure); the wallet applies it when it takes a stake.
async fn header_balance(state: &AppState, token: &str) -> Result<Money, PlayError> {
    let session = state
        .store
        .provider_session(&token_hash(token.trim()))
        .await
        .map_err(AppError::from)?
        .ok_or_else(|| {
            AppError::NotFound("The game session has ended: launch the game again.".into())
        })?;
    let funds = state.store.funds_of_user(session.user_id).await.map_err(AppError::from)?;
    Ok(Money::from_minor(funds.balance_minor))
}

/// Returns an unplayed table to the waiting list (a refused stake, an unknown market).
fn put_back(play: &Play, table_id: String, table: PendingTable, now: i64) {
    // If the list filled up meanwhile the table is dropped; the page deals a new one.
    let _ = play.provider.tables.lock().expect("tables lock").insert(table_id, table, now);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_may_be_framed_only_by_backlay() {
        let csp = content_security_policy("abc", "https://play.example.com");
        assert!(csp.contains("frame-ancestors 'self' https://play.example.com"));
        assert!(csp.contains("script-src 'nonce-abc'"));
        assert!(!csp.contains("unsafe-inline"));
        assert!(PAGE.contains("nonce=\"{{NONCE}}\""));
    }

    #[test]
    fn the_page_loads_nothing_from_elsewhere() {
        // Everything is inline under the nonce: no address for the CSP to refuse, no resource
        // a frame could be made to fetch.
        for reference in ["http:", "https:", "src=", "href=", "url(", "@import", "style=\""] {
            assert!(!PAGE.contains(reference), "the page holds {reference}");
        }
        assert_eq!(PAGE.matches("<script").count(), 1);
        assert_eq!(PAGE.matches("nonce=\"{{NONCE}}\"").count(), 2, "the style and the script");
    }
}
