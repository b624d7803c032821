//! The casino: categories with something to play (`casino/getCasinoSport`), the in-house games
//! (`casino/getCasinoList`), a game's table (`casino/roundState`), bets (`casino/placeBet`),
//! a past round recomputed from its revealed seed (`casino/round`), and the Casino Result
//! report (`report/casinoResult`).
//!
//! The rounds themselves run in [`backlay_casino_runtime`], and bets are placed there too
//! ([`backlay_casino_runtime::bets`], which refuses a bet that comes too late); these handlers read the
//! rounds and pass bets on. The seed is never served before the round is dealt.

use axum::extract::State;
use backlay_casino::dealing::Pace;
use backlay_casino::fair::verify;
use backlay_casino::games::GameKind;
use backlay_casino::market::Odds;
use backlay_casino::round::Round;
use backlay_casino_store::casino::{
    CasinoBet, CasinoBetStatus, CasinoGame, CasinoRound, RoundPhase,
};
use backlay_core::money::Money;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::bet::NumberText;
use backlay_casino_runtime::art::tile_image_url;
use backlay_casino_runtime::bets::{self, NewBet};
use backlay_casino_runtime::rebuild;
use backlay_casino_store::CasinoReads;
use backlay_kit::clock::{iso_utc, now_ms, parse_report_date};
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope, OrNotFound};
use backlay_kit::input::{AmountInput, ApiJson, FlexI64, Paged, Paging};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_casino_sport))
        .routes(routes!(get_casino_list))
        .routes(routes!(round_state))
        .routes(routes!(place_bet))
        .routes(routes!(round_detail))
        .routes(routes!(casino_result))
}

#[derive(Serialize, ToSchema)]
pub struct CasinoSportItem {
    /// E.g. "matka", "worldcasino".
    pub sport_id: String,
    pub name: String,
    pub is_active: i64,
    pub order: i64,
}

/// The casino's categories in display order, only those with something to play: an in-house
/// category with an active game, and `worldcasino` while the catalogue has a game on.
#[utoipa::path(get, path = "/casino/getCasinoSport", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<CasinoSportItem>>), (status = 401)))]
async fn get_casino_sport(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<Vec<CasinoSportItem>> {
    let sports = state.store.casino_sports(true).await?;
    Ok(ok(sports
        .into_iter()
        .map(|s| CasinoSportItem {
            sport_id: s.sport_id,
            name: s.name,
            is_active: i64::from(s.is_active),
            order: s.display_order,
        })
        .collect()))
}

/// Longest code, id or name a casino request may carry.
const MAX_CODE_CHARS: usize = 128;

fn code_field(field: &str, value: &str) -> Result<String, AppError> {
    let value = value.trim();
    if value.is_empty() {
        return Err(AppError::field(field, format!("{field} is required.")));
    }
    if value.chars().count() > MAX_CODE_CHARS {
        return Err(AppError::field(
            field,
            format!("{field} must be at most {MAX_CODE_CHARS} characters."),
        ));
    }
    Ok(value.to_string())
}

#[derive(Deserialize, ToSchema, Default)]
pub struct CasinoListRequest {
    /// A casino category (`teenpatti`, `cardgames`, `tablegames`, `matka`); absent: every game.
    #[serde(default)]
    pub series_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CasinoGameItem {
    /// The game's id, for `casino/match/{match_id}` and `casino/roundState`.
    pub match_id: i64,
    /// The client's code (`teen20`, `dt6` …).
    pub game_code: String,
    /// The sidebar's label.
    pub name: String,
    pub title: String,
    pub series_id: String,
    /// The tile's image: the operator's upload (`/upload/image/<name>`, set with
    /// admin/casino/gameImage) when there is one, else the game's own art
    /// (`/casino/art/<kind>.svg`).
    pub image: String,
    /// The game's rules for players, one paragraph a line, with each market's odds and house
    /// edge (`backlay_casino::games::GameKind::rules`).
    pub rules: Vec<String>,
}

fn game_item(game: CasinoGame) -> CasinoGameItem {
    // An unknown kind (which no runner can play either) shows no rules rather than failing
    // the whole list.
    let rules = GameKind::from_code(&game.kind).map(GameKind::rules).unwrap_or_default();
    CasinoGameItem {
        match_id: game.id,
        game_code: game.game_code,
        name: game.name,
        title: game.title,
        image: tile_image_url(&game.kind, game.image_name.as_deref()),
        series_id: game.series_id,
        rules: rules.iter().map(|line| (*line).to_string()).collect(),
    }
}

#[utoipa::path(post, path = "/casino/getCasinoList", tag = "casino", request_body = CasinoListRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<CasinoGameItem>>), (status = 400), (status = 401)))]
async fn get_casino_list(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<CasinoListRequest>,
) -> ApiResult<Vec<CasinoGameItem>> {
    let series = match body.series_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(series) => Some(code_field("series_id", series)?),
        None => None,
    };
    let games = state.store.casino_games(true, series.as_deref()).await?;
    Ok(ok(games.into_iter().map(game_item).collect()))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct RoundStateRequest {
    /// The game's id (from getCasinoList); or give `game_code`.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub match_id: Option<FlexI64>,
    /// The game's code (`teen20`, `dt6`, or the rules code `dt1day`).
    #[serde(default)]
    pub game_code: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CasinoMarketItem {
    /// What to send as `market` in placeBet.
    pub code: String,
    pub name: String,
    pub family: String,
    /// Decimal odds as text ("1.98"): send exactly these back.
    pub odds: String,
    /// The same odds as a number.
    pub price: f64,
    /// True once betting has closed.
    pub suspended: bool,
}

#[derive(Serialize, ToSchema)]
pub struct CasinoBetItem {
    pub bet_id: i64,
    pub round_id: String,
    pub match_id: i64,
    pub game_code: String,
    /// The game's full name ("Dragon Tiger 1 Day").
    pub game_name: String,
    pub market: String,
    pub market_name: String,
    pub odds: String,
    #[schema(value_type = f64)]
    pub stake: Money,
    /// What came back, stake included (null while the round runs).
    #[schema(value_type = Option<f64>, required = true)]
    pub payout: Option<Money>,
    pub status: CasinoBetStatus,
    pub date: String,
}

fn odds_text(hundredths: i64) -> String {
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

fn bet_item(bet: &CasinoBet) -> CasinoBetItem {
    CasinoBetItem {
        bet_id: bet.id,
        round_id: bet.round_id.clone(),
        match_id: bet.game_id,
        game_code: bet.game_code.clone(),
        game_name: bet.game_title.clone(),
        market: bet.market_code.clone(),
        market_name: bet.market_name.clone(),
        odds: odds_text(bet.odds_hundredths),
        stake: Money::from_minor(bet.stake_minor),
        payout: bet.payout_minor.map(Money::from_minor),
        status: bet.status,
        date: iso_utc(bet.created_at_ms),
    }
}

#[derive(Serialize, ToSchema)]
pub struct LastResultItem {
    pub round_id: String,
    pub winner: String,
    pub date: String,
}

backlay_core::named_enum! {
    /// Where a table is, as its page shows it.
    pub enum TableStatus as "table status" {
        /// No round yet.
        Waiting = "waiting",
        /// Taking bets.
        Betting = "betting",
        /// Bets refused, cards not shown yet.
        Closed = "closed",
        /// The cards are being shown one by one (`dealing` says when each is shown).
        Dealing = "dealing",
        /// Settled: the result is shown until the next round opens.
        Result = "result",
    }
}

#[derive(Serialize, ToSchema)]
pub struct RoundStateAnswer {
    pub match_id: i64,
    pub game_code: String,
    /// The rules code (`teen20`, `dt1day` …), as `casino/round` names it: says how the table
    /// lays out its cards.
    pub game: String,
    pub name: String,
    pub title: String,
    /// Null until the game's first round opens.
    #[schema(required = true)]
    pub round_id: Option<String>,
    pub status: TableStatus,
    /// Whole seconds of betting left (rounded up), 0 once closed.
    pub seconds_left: i64,
    /// Milliseconds of betting left, 0 once closed.
    pub close_in_ms: i64,
    #[schema(required = true)]
    pub close_at: Option<String>,
    pub server_time: String,
    /// hex SHA-256 of the round's secret seed, published when the round opens.
    #[schema(required = true)]
    pub commitment: Option<String>,
    /// The cards shown so far: the open cards while betting and dealing (Hi-Low's base card,
    /// Andar Bahar's joker), the whole deal after the result.
    pub cards: Vec<String>,
    /// While dealing: every card (or draw) of the deal with when it is shown; null otherwise.
    #[schema(required = true)]
    pub dealing: Option<DealingView>,
    /// While the result is shown: milliseconds until the next round opens; 0 otherwise.
    pub next_round_in_ms: i64,
    /// The deal, after the result.
    #[schema(value_type = Option<Object>, required = true)]
    pub deal: Option<Value>,
    /// The result (winner, hands, each market's verdict), after the result.
    #[schema(value_type = Option<Object>, required = true)]
    pub result: Option<Value>,
    #[schema(required = true)]
    pub winner: Option<String>,
    /// The revealed seed, after the result.
    #[schema(required = true)]
    pub seed: Option<String>,
    pub markets: Vec<CasinoMarketItem>,
    /// The caller's bets in this round.
    pub my_bets: Vec<CasinoBetItem>,
    /// The game's last 10 settled rounds, newest first.
    pub last_results: Vec<LastResultItem>,
}

/// A round being dealt: its positions and every step, open cards first, each with the moment
/// it is shown. The page shows step `i` once `elapsed_ms` (plus the time since this answer)
/// reaches `steps[i].at_ms`, and the result `ends_in_ms` after the answer.
#[derive(Serialize, ToSchema)]
pub struct DealingView {
    /// The table's positions (`Player A`, `Dragon`, `Joker`, `Pocket`), as the result lists them.
    pub seats: Vec<String>,
    pub steps: Vec<DealStepItem>,
    /// Milliseconds since the deal began, by the server's clock when it answered.
    pub elapsed_ms: i64,
    /// Milliseconds until the result, from the answer (0 once every card is shown).
    pub ends_in_ms: i64,
}

/// One step of a deal: a card to a position, or a position's draw shown whole.
#[derive(Serialize, ToSchema)]
pub struct DealStepItem {
    /// The position, an index into `seats`.
    pub seat: usize,
    /// The card dealt ("QH"), or null for a draw.
    #[schema(required = true)]
    pub card: Option<String>,
    /// A draw without cards (roulette's "17 red", a matka draw "128-1"), else null.
    #[schema(required = true)]
    pub draw: Option<String>,
    /// When it is shown, in ms after the deal began (0: shown while betting).
    pub at_ms: i64,
}

/// The deal of `pure` (a dealt round, dealt at `dealt_at_ms`) as the page shows it at `now_ms`.
fn dealing_view(pure: &Round, dealt_at_ms: i64, pace: Pace, now_ms: i64) -> Option<DealingView> {
    let dealing = backlay_casino_runtime::dealing(pure, pace)?;
    let hands = &pure.outcome()?.hands;
    let elapsed_ms = (now_ms - dealt_at_ms).max(0);
    Some(DealingView {
        seats: hands.iter().map(|h| h.name.clone()).collect(),
        steps: dealing
            .steps()
            .iter()
            .enumerate()
            .map(|(i, step)| DealStepItem {
                seat: step.hand,
                card: step.card.map(|c| c.to_string()),
                draw: step.card.is_none().then(|| hands[step.hand].description.clone()),
                at_ms: dealing.shown_at_ms(i),
            })
            .collect(),
        elapsed_ms,
        ends_in_ms: (dealing.duration_ms() - elapsed_ms).max(0),
    })
}

/// The cards of a stored deal (`{"cards": [...]}`); other deals (a pocket, matka) have none.
fn deal_cards(deal: &Value) -> Vec<String> {
    deal.get("cards")
        .and_then(Value::as_array)
        .map(|cards| cards.iter().filter_map(|c| c.as_str().map(str::to_string)).collect())
        .unwrap_or_default()
}

fn stored_json(text: &Option<String>) -> Option<Value> {
    text.as_deref().and_then(|t| serde_json::from_str(t).ok())
}

/// A table the operator switched off is out of the lobby and cannot be opened by its address
/// either (its table, its stream); 404, so the page stops asking and offers the lobby. Its
/// past rounds stay readable (`casino/round`, the bettor's history).
pub(crate) fn table_switched_off(game: &CasinoGame) -> AppError {
    AppError::NotFound(format!(
        "{} is switched off: choose another table in the casino.",
        game.title
    ))
}

async fn game_of(
    state: &AppState,
    match_id: Option<FlexI64>,
    game_code: Option<&str>,
) -> Result<CasinoGame, AppError> {
    match (match_id, game_code.map(str::trim).filter(|c| !c.is_empty())) {
        (Some(FlexI64(id)), _) => state
            .store
            .casino_game(id)
            .await
            .or_not_found(|| format!("There is no casino game {id}.")),
        (None, Some(code)) => {
            let code = code_field("game_code", code)?;
            state
                .store
                .casino_game_by_code(&code)
                .await
                .or_not_found(|| format!("There is no casino game {code}."))
        }
        (None, None) => Err(AppError::field("match_id", "match_id or game_code is required.")),
    }
}

#[utoipa::path(post, path = "/casino/roundState", tag = "casino", request_body = RoundStateRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<RoundStateAnswer>), (status = 400), (status = 401), (status = 404)))]
async fn round_state(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<RoundStateRequest>,
) -> ApiResult<RoundStateAnswer> {
    let game = game_of(&state, body.match_id, body.game_code.as_deref()).await?;
    if !game.is_active {
        return Err(table_switched_off(&game));
    }
    let now = now_ms();
    let (last, _) = state.store.casino_results(game.id, 0, i64::MAX, 0, 10).await?;
    let last_results = last
        .iter()
        .map(|r| LastResultItem {
            round_id: r.round_id.clone(),
            winner: r.winner.clone().unwrap_or_default(),
            date: iso_utc(r.settled_at_ms.unwrap_or(r.close_at_ms)),
        })
        .collect();
    let mut answer = RoundStateAnswer {
        match_id: game.id,
        game_code: game.game_code.clone(),
        game: game.kind.clone(),
        name: game.name.clone(),
        title: game.title.clone(),
        round_id: None,
        status: TableStatus::Waiting,
        seconds_left: 0,
        close_in_ms: 0,
        close_at: None,
        server_time: iso_utc(now),
        commitment: None,
        cards: Vec::new(),
        dealing: None,
        next_round_in_ms: 0,
        deal: None,
        result: None,
        winner: None,
        seed: None,
        markets: Vec::new(),
        my_bets: Vec::new(),
        last_results,
    };
    let Some(round) = state.store.latest_casino_round(game.id).await? else {
        return Ok(ok(answer));
    };
    let pure = rebuild(&round)?;
    let betting = round.phase == RoundPhase::Betting && now < round.close_at_ms;
    let close_in_ms = if betting { round.close_at_ms - now } else { 0 };
    answer.status = match round.phase {
        _ if betting => TableStatus::Betting,
        RoundPhase::Betting | RoundPhase::Closed => TableStatus::Closed,
        RoundPhase::Dealt => TableStatus::Dealing,
        RoundPhase::Settled => TableStatus::Result,
    };
    answer.seconds_left = (close_in_ms + 999) / 1000;
    answer.close_in_ms = close_in_ms;
    answer.close_at = Some(iso_utc(round.close_at_ms));
    answer.commitment = Some(round.commitment.clone());
    answer.markets = pure
        .markets()
        .iter()
        .map(|m| CasinoMarketItem {
            code: m.code.clone(),
            name: m.name.clone(),
            family: m.family.clone(),
            odds: m.odds.to_string(),
            price: f64::from(m.odds.hundredths()) / 100.0,
            suspended: !betting,
        })
        .collect();
    if round.phase == RoundPhase::Dealt {
        // The result waits for the last card: the page shows the steps as they come.
        answer.cards = pure.open_cards().iter().map(ToString::to_string).collect();
        answer.dealing = dealing_view(
            &pure,
            round.dealt_at_ms.unwrap_or(now),
            state.config.casino_deal_pace,
            now,
        );
    } else if round.phase == RoundPhase::Settled {
        answer.next_round_in_ms = round
            .settled_at_ms
            .map_or(0, |settled| (settled + state.config.casino_result_pause_ms - now).max(0));
        answer.deal = stored_json(&round.deal_json);
        answer.result = stored_json(&round.result_json);
        answer.cards = answer.deal.as_ref().map(deal_cards).unwrap_or_default();
        answer.winner = round.winner.clone();
        answer.seed = round.revealed_seed_hex().map(str::to_string);
    } else {
        answer.cards = pure.open_cards().iter().map(ToString::to_string).collect();
    }
    answer.my_bets = state
        .store
        .casino_bets_in_round(authed.user.id, round.id)
        .await?
        .iter()
        .map(bet_item)
        .collect();
    answer.round_id = Some(round.round_id);
    Ok(ok(answer))
}

#[derive(Deserialize, ToSchema)]
pub struct PlaceCasinoBetRequest {
    /// The round, from roundState.
    pub round_id: String,
    /// The market's code, from roundState.
    pub market: String,
    /// The posted odds ("1.98"); anything else is refused with "Odds changed".
    #[schema(value_type = f64, exclusive_minimum = 1)]
    pub odds: NumberText,
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub stake: AmountInput,
}

#[derive(Serialize, ToSchema)]
pub struct PlaceCasinoBetAnswer {
    pub bet: CasinoBetItem,
    /// The caller's balance after the stake was taken.
    #[schema(value_type = f64)]
    pub balance: Money,
}

/// Odds sent as decimal text: more than 1.00, at most two decimals.
fn parse_odds(text: &str) -> Result<Odds, AppError> {
    let bad = || {
        AppError::field(
            "odds",
            "odds must be decimal odds above 1.00 with at most two decimals, e.g. 1.98.",
        )
    };
    let hundredths = Money::parse_decimal(text).map_err(|_| bad())?.minor();
    let hundredths = u32::try_from(hundredths).map_err(|_| bad())?;
    if hundredths <= 100 || hundredths > Odds::MAX_HUNDREDTHS {
        return Err(bad());
    }
    Ok(Odds::from_hundredths(hundredths))
}

#[utoipa::path(post, path = "/casino/placeBet", operation_id = "place_casino_bet", tag = "casino", request_body = PlaceCasinoBetRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<PlaceCasinoBetAnswer>), (status = 400), (status = 401), (status = 404),
        (status = 409, description = "betting closed, or odds changed"), (status = 422, description = "insufficient funds")))]
async fn place_bet(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<PlaceCasinoBetRequest>,
) -> ApiResult<PlaceCasinoBetAnswer> {
    let round_id = code_field("round_id", &body.round_id)?;
    let market_code = code_field("market", &body.market)?;
    let odds = parse_odds(&body.odds.0)?;
    let placed = bets::place_bet(
        &state.store,
        NewBet {
            user_id: authed.user.id,
            round_id: &round_id,
            market_code: &market_code,
            odds,
            stake_minor: body.stake.0.minor(),
        },
    )
    .await?;
    let bet = CasinoBetItem {
        bet_id: placed.bet_id,
        round_id: placed.round.round_id,
        match_id: placed.game.id,
        game_code: placed.game.game_code,
        game_name: placed.game.title,
        market: placed.market.code,
        market_name: placed.market.name,
        odds: placed.market.odds.to_string(),
        stake: Money::from_minor(placed.stake_minor),
        payout: None,
        status: CasinoBetStatus::Open,
        date: iso_utc(placed.placed_at_ms),
    };
    Ok(ok_with(
        "Bet placed.",
        PlaceCasinoBetAnswer { bet, balance: Money::from_minor(placed.balance_after_minor) },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct RoundRequest {
    pub round_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct RoundDetailAnswer {
    pub round_id: String,
    pub match_id: i64,
    pub game_code: String,
    /// The sidebar's label ("DT 1 DAY").
    pub name: String,
    /// The game's full name ("Dragon Tiger 1 Day").
    pub title: String,
    /// The rules code the fair stream uses (`backlay casino verify --game`).
    pub game: String,
    pub phase: RoundPhase,
    pub commitment: String,
    /// The revealed seed (hex), once dealt; null before.
    #[schema(required = true)]
    pub seed: Option<String>,
    /// True when SHA-256 of the seed is the commitment and the recomputed deal is the one dealt.
    pub verified: bool,
    /// The deal recomputed from the seed by `backlay_casino::fair::verify`.
    #[schema(value_type = Option<Object>, required = true)]
    pub deal: Option<Value>,
    /// The result recomputed from the seed.
    #[schema(value_type = Option<Object>, required = true)]
    pub result: Option<Value>,
    pub cards: Vec<String>,
    #[schema(required = true)]
    pub winner: Option<String>,
    pub opened_at: String,
    pub close_at: String,
    #[schema(required = true)]
    pub settled_at: Option<String>,
}

#[utoipa::path(post, path = "/casino/round", tag = "casino", request_body = RoundRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<RoundDetailAnswer>), (status = 400), (status = 401), (status = 404)))]
async fn round_detail(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<RoundRequest>,
) -> ApiResult<RoundDetailAnswer> {
    let round_id = code_field("round_id", &body.round_id)?;
    let round: CasinoRound = state
        .store
        .casino_round(&round_id)
        .await
        .or_not_found(|| format!("There is no casino round {round_id}."))?;
    let game = state.store.casino_game(round.game_id).await?;
    let mut answer = RoundDetailAnswer {
        round_id: round.round_id.clone(),
        match_id: game.id,
        game_code: game.game_code,
        name: game.name,
        title: game.title,
        game: round.kind.clone(),
        phase: round.phase,
        commitment: round.commitment.clone(),
        seed: None,
        verified: false,
        deal: None,
        result: None,
        cards: Vec::new(),
        winner: None,
        opened_at: iso_utc(round.opened_at_ms),
        close_at: iso_utc(round.close_at_ms),
        settled_at: round.settled_at_ms.map(iso_utc),
    };
    // With the result, as the table shows it: not while the cards are still being dealt.
    let seed = match round.revealed_seed_hex() {
        Some(seed) if round.phase == RoundPhase::Settled => seed,
        _ => return Ok(ok_with("The seed is revealed with the round's result.", answer)),
    };
    let kind = backlay_casino_runtime::game_kind(&round.kind)?;
    let verified = verify(seed, &round.commitment, &round.round_id, kind)
        .map_err(|e| anyhow::anyhow!("round {round_id} does not verify: {e}"))?;
    let recomputed = serde_json::to_value(&verified.deal).map_err(anyhow::Error::from)?;
    // The deal and result served are the ones stored when the round was dealt and paid, so a
    // player's own recomputation from the seed (the round page does one) checks what was
    // actually dealt; `verified` is the server's own comparison.
    let deal = stored_json(&round.deal_json);
    answer.verified = deal.as_ref() == Some(&recomputed);
    let deal = deal.unwrap_or(recomputed);
    answer.cards = deal_cards(&deal);
    answer.winner = Some(round.winner.clone().unwrap_or_else(|| verified.outcome.winner.clone()));
    answer.deal = Some(deal);
    answer.result = match stored_json(&round.result_json) {
        Some(result) => Some(result),
        None => Some(serde_json::to_value(&verified.outcome).map_err(anyhow::Error::from)?),
    };
    answer.seed = Some(seed.to_string());
    Ok(ok(answer))
}

#[derive(Deserialize, ToSchema)]
pub struct CasinoResultRequest {
    /// The game's code (`teen20`, `dt6` …) or id.
    pub game_code: String,
    /// yyyy-MM-dd (a day at UTC+5:30); absent: every day.
    #[serde(default)]
    #[schema(format = Date)]
    pub date: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CasinoResultRow {
    pub round_id: String,
    /// The game's code and full name, as in `casino/getCasinoList`.
    pub game_code: String,
    pub game_name: String,
    /// The hands as dealt, e.g. "Dragon: KC (13) | Tiger: 2D (2)".
    pub result: String,
    pub winner: String,
    pub date: String,
    /// Every card dealt, in dealing order.
    pub cards: Vec<String>,
    /// The same cards by position, as the table shows them: each hand's name, its cards and
    /// what they make (empty for a round without a stored result).
    pub hands: Vec<ResultHand>,
}

/// One position on the table in a round's result: `Player A`, `AS KD 3C`, `High card`.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct ResultHand {
    /// The position: `Player A`, `Dragon`, `Joker`, `Pocket`.
    pub name: String,
    /// Its cards as codes, rank then suit ("KS", "TD"), in dealing order; none for roulette
    /// and Worli Matka.
    pub cards: Vec<String>,
    /// What it makes: `Trail of kings`, `7 points`, `17 red`.
    pub description: String,
}

/// The hands of a stored result (`backlay_casino::market::Outcome`'s `hands`); none when the
/// round has no result or it does not read as one.
fn result_hands(result: &Option<Value>) -> Vec<ResultHand> {
    result
        .as_ref()
        .and_then(|r| r.get("hands"))
        .and_then(|hands| serde_json::from_value(hands.clone()).ok())
        .unwrap_or_default()
}

/// "Player A: AS KD 3C (High card) | Player B: …", or the winner alone without hands.
fn result_text(hands: &[ResultHand], winner: &str) -> String {
    if hands.is_empty() {
        return winner.to_string();
    }
    hands
        .iter()
        .map(|hand| format!("{}: {} ({})", hand.name, hand.cards.join(" "), hand.description))
        .collect::<Vec<_>>()
        .join(" | ")
}

#[utoipa::path(post, path = "/report/casinoResult", tag = "casino", request_body = Paging<CasinoResultRequest>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<CasinoResultRow>>), (status = 400), (status = 401), (status = 404)))]
async fn casino_result(
    State(state): State<AppState>,
    _user: CurrentUser,
    Paging { request: body, page }: Paging<CasinoResultRequest>,
) -> ApiResult<Paged<CasinoResultRow>> {
    let code = code_field("game_code", &body.game_code)?;
    let game = match code.parse::<i64>() {
        Ok(id) => state.store.casino_game(id).await,
        Err(_) => state.store.casino_game_by_code(&code).await,
    }
    .or_not_found(|| format!("There is no casino game {code}."))?;
    let (from_ms, to_ms) = match body.date.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        None => (0, i64::MAX),
        Some(date) => {
            let bad = || AppError::field("date", "date must be a date such as 2026-11-22.");
            (
                parse_report_date(date, false).ok_or_else(bad)?,
                parse_report_date(date, true).ok_or_else(bad)?,
            )
        }
    };
    let (page, limit, offset) = page.resolve()?;
    let (rounds, total) =
        state.store.casino_results(game.id, from_ms, to_ms, offset, limit).await?;
    let rows = rounds
        .into_iter()
        .map(|round| {
            let winner = round.winner.clone().unwrap_or_default();
            let hands = result_hands(&stored_json(&round.result_json));
            CasinoResultRow {
                result: result_text(&hands, &winner),
                hands,
                cards: stored_json(&round.deal_json).as_ref().map(deal_cards).unwrap_or_default(),
                date: iso_utc(round.settled_at_ms.unwrap_or(round.close_at_ms)),
                game_code: game.game_code.clone(),
                game_name: game.title.clone(),
                round_id: round.round_id,
                winner,
            }
        })
        .collect();
    Ok(ok(Paged { rows, total, page, limit }))
}

/// Casino bets as `report/currentBets {type: casino}` lists them: those whose round has not
/// settled yet.
pub async fn current_casino_bets(
    state: &AppState,
    user_id: i64,
    offset: i64,
    limit: i64,
) -> Result<(Vec<CurrentCasinoBet>, i64), AppError> {
    let (bets, total) = state.store.open_casino_bets(user_id, offset, limit).await?;
    let rows = bets.iter().map(current_casino_bet).collect::<Result<_, AppError>>()?;
    Ok((rows, total))
}

/// A casino bet whose round has not settled, with what it risks and may win.
#[derive(Serialize, ToSchema)]
pub struct CurrentCasinoBet {
    #[serde(flatten)]
    pub bet: CasinoBetItem,
    /// What the bet risks: its stake, taken when it was placed.
    #[schema(value_type = f64)]
    pub liability: Money,
    /// What it wins at its odds if its market wins: the return less the stake.
    #[schema(value_type = f64)]
    pub profit: Money,
}

fn current_casino_bet(bet: &CasinoBet) -> Result<CurrentCasinoBet, AppError> {
    // Stored odds and stakes were checked when the bet was taken; one out of range is a bug,
    // answered as one rather than a panic.
    let odds = u32::try_from(bet.odds_hundredths)
        .ok()
        .filter(|h| (101..=Odds::MAX_HUNDREDTHS).contains(h))
        .map(Odds::from_hundredths);
    let stake_in_range = (1..=backlay_casino::market::MAX_STAKE_MINOR).contains(&bet.stake_minor);
    let Some(odds) = odds.filter(|_| stake_in_range) else {
        return Err(AppError::Internal(anyhow::anyhow!(
            "casino bet {} has odds {} and stake {} out of range",
            bet.id,
            bet.odds_hundredths,
            bet.stake_minor
        )));
    };
    let returned = backlay_casino::market::win_return_minor(bet.stake_minor, odds);
    Ok(CurrentCasinoBet {
        bet: bet_item(bet),
        liability: Money::from_minor(bet.stake_minor),
        profit: Money::from_minor(returned - bet.stake_minor),
    })
}
