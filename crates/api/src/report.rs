//! Reports of the caller's own money and bets: the account statement (every ledger entry with
//! its running balance, a settlement line opening the bets it settled), current bets, and live
//! casino bets (the provider wallet calls). A user only ever sees their own.

use std::collections::BTreeMap;

use axum::extract::State;
use backlay_casino_store::wallet::{LiveCasinoLine, ProviderRoundState, WalletKind};
use backlay_core::exchange::{
    backer_profit_minor, liability_and_profit, rate_profit_minor, BetSide, MarketType, Side,
};
use backlay_core::money::{share_out, Money};
use backlay_core::named::one_of;
use backlay_core::odds::Price;
use backlay_store::bets::{
    BetHistoryFilter, BetRow, BetStatus, CurrentBet, FillSummary, HistoryStatus, PnlLevel,
    PnlQuery, PnlRow,
};
use backlay_store::ledger::TransactionKind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::bet::{bet_item, BetItem};
use axum::response::{IntoResponse, Response};
use backlay_kit::clock::{iso_utc, now_ms};

use super::export::{list_answer, Cell, CsvRow, Downloadable, ExportFormat};
use backlay_casino_store::WalletReads;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_kit::input::{choice_field, date_range, ApiJson, FlexI64, PageRequest, Paged, Paging};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(account_statement))
        .routes(routes!(current_bets))
        .routes(routes!(settled_bets))
        .routes(routes!(live_casino_bets))
        .routes(routes!(profit_loss))
        .routes(routes!(bet_history))
}

#[derive(Clone, Deserialize, ToSchema, Default)]
pub struct StatementRequest {
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: from the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: until now.
    #[serde(default)]
    pub to_date: Option<String>,
    /// all (default), deposit_withdraw, sports or casino.
    #[serde(default, rename = "type")]
    #[schema(value_type = Option<StatementType>)]
    pub statement_type: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct StatementRow {
    pub date: String,
    pub description: String,
    #[schema(value_type = f64)]
    pub credit: Money,
    #[schema(value_type = f64)]
    pub debit: Money,
    /// The balance right after this line, of the book the line is in: chips, or (a cash line)
    /// the net cash the account has received in settlements with its parent and children.
    #[schema(value_type = f64)]
    pub balance: Money,
    /// chips (what the account bets with) or cash (a cash settlement, which moves no chips).
    pub book: StatementBook,
    pub remark: String,
    /// deposit, withdraw, settlement, mint …
    #[schema(value_type = String)]
    pub kind: TransactionKind,
    /// The market a settlement or void line settled: `report/settledBets` lists the caller's
    /// bets it settled. Null on every other line (and on settlements stored before markets
    /// were linked).
    #[schema(required = true)]
    pub market_id: Option<i64>,
}

backlay_core::named_enum! {
    /// Which lines an account statement lists.
    pub enum StatementType as "statement type" {
        /// Every line.
        All = "all",
        /// Chips from and to the parent.
        DepositWithdraw = "deposit_withdraw",
        /// Settled and voided sports markets.
        Sports = "sports",
        /// The in-house casino and outside providers' games.
        Casino = "casino",
        /// Cash settled with the parent and the children (no chips move).
        Cash = "cash",
    }
}

backlay_core::named_enum! {
    /// Which of an account's books a statement line is in.
    pub enum StatementBook as "statement book" {
        /// The chips balance the account bets with.
        Chips = "chips",
        /// Cash settled with its parent and children (store::cash).
        Cash = "cash",
    }
}

impl StatementType {
    /// The ledger transaction kinds it lists (none: every kind).
    fn ledger_kinds(self) -> &'static [TransactionKind] {
        use TransactionKind as K;
        match self {
            StatementType::All => &[],
            StatementType::DepositWithdraw => &[K::Deposit, K::Withdraw],
            StatementType::Sports => &[K::Settlement, K::Void, K::ResultCorrected],
            StatementType::Casino => &[K::Casino, K::LiveCasino],
            StatementType::Cash => &[K::CashSettlement],
        }
    }
}

backlay_core::named_enum! {
    /// Which bets currentBets lists.
    pub enum BetKind as "bet kind" {
        Sports = "sports",
        Casino = "casino",
    }
}

backlay_core::named_enum! {
    /// Which part of a live bet currentBets lists.
    pub enum BetPart as "bet part" {
        Matched = "matched",
        Unmatched = "unmatched",
    }
}

#[utoipa::path(post, path = "/report/accountStatement", tag = "user", request_body = Downloadable<StatementRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<StatementRow>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 401)))]
async fn account_statement(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Downloadable { request, page, format }: Downloadable<StatementRequest>,
) -> Result<Response, AppError> {
    statement_answer(state, authed.user.id, request, page, format.parse()?).await
}

/// A user's statement in the format asked for: one page as JSON, or all of it as CSV.
pub async fn statement_answer(
    state: AppState,
    user_id: i64,
    request: StatementRequest,
    page: PageRequest,
    format: ExportFormat,
) -> Result<Response, AppError> {
    list_answer(format, page, "statement", move |page| {
        let (state, request) = (state.clone(), request.clone());
        async move { statement_page(&state, user_id, &request, page).await }
    })
    .await
}

impl CsvRow for StatementRow {
    const HEADER: &'static [&'static str] =
        &["date", "description", "credit", "debit", "balance", "remark", "kind", "market_id"];

    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::Figure(self.date.clone()),
            Cell::text(&self.description),
            Cell::money(self.credit),
            Cell::money(self.debit),
            Cell::money(self.balance),
            Cell::text(&self.remark),
            Cell::text(self.kind.as_str()),
            Cell::opt_int(self.market_id),
        ]
    }
}

/// One page of a user's account statement: the caller's own here, an account of the caller's
/// downline in the console.
pub(crate) async fn statement_page(
    state: &AppState,
    user_id: i64,
    body: &StatementRequest,
    page: PageRequest,
) -> Result<Paged<StatementRow>, AppError> {
    let (from_ms, to_ms) = date_range(&body.from_date, &body.to_date, (0, i64::MAX))?;
    let statement_type =
        choice_field("type", body.statement_type.as_deref(), StatementType::All, |text| {
            format!("{text} is not a statement type: use {}.", one_of(StatementType::NAMES))
        })?;
    let kinds = statement_type.ledger_kinds();
    let (page, limit, offset) = page.resolve()?;
    let (lines, total) =
        state.store.statement(user_id, from_ms, to_ms, kinds, true, offset, limit).await?;
    let rows = lines
        .into_iter()
        .map(|line| StatementRow {
            date: iso_utc(line.created_at_ms),
            description: line.description,
            credit: Money::from_minor(line.amount_minor.max(0)),
            debit: Money::from_minor((-line.amount_minor).max(0)),
            balance: Money::from_minor(line.balance_after_minor),
            book: if line.is_cash { StatementBook::Cash } else { StatementBook::Chips },
            remark: line.remark,
            kind: line.kind,
            market_id: line.market_id,
        })
        .collect();
    Ok(Paged { rows, total, page, limit })
}

#[derive(Clone, Deserialize, ToSchema, Default)]
pub struct CurrentBetsRequest {
    /// sports (default) or casino.
    #[serde(default, rename = "type")]
    #[schema(value_type = Option<BetKind>)]
    pub bet_type: Option<String>,
    /// matched (default) or unmatched.
    #[serde(default)]
    #[schema(value_type = Option<BetPart>)]
    pub status: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct CurrentBetRow {
    /// The bet as openBets shows it.
    #[serde(flatten)]
    pub bet: BetItem,
    pub match_id: i64,
    pub match_name: String,
    pub market_name: String,
    /// How the price reads: odds on exchange markets, a rate on bookmaker and fancy ones.
    pub market_type: MarketType,
    #[schema(required = true)]
    pub selection_name: Option<String>,
}

/// A sports row of current bets: the bet, and what the part of it listed (its matched part, or
/// its unmatched part) risks and may win.
#[derive(Serialize, ToSchema)]
pub struct CurrentBetLine {
    #[serde(flatten)]
    pub bet: CurrentBetRow,
    /// What the listed part loses if it goes the wrong way: a back's stake, a lay's stake ×
    /// (price − 1) (matched: at its fills' prices), a bookmaker or fancy lay's stake × rate / 100.
    #[schema(value_type = f64)]
    pub liability: Money,
    /// What the listed part wins if it goes the right way: the other of the two amounts.
    #[schema(value_type = f64)]
    pub profit: Money,
}

/// A row of current bets: a sports bet, or (with `type: casino`) a casino bet whose round has
/// not settled yet.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum CurrentBetEntry {
    Sports(CurrentBetLine),
    Casino(super::casino::CurrentCasinoBet),
}

#[utoipa::path(post, path = "/report/currentBets", tag = "user", request_body = Downloadable<CurrentBetsRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<CurrentBetEntry>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 401)))]
async fn current_bets(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Downloadable { request, page, format }: Downloadable<CurrentBetsRequest>,
) -> Result<Response, AppError> {
    current_bets_answer(state, authed.user.id, request, page, format.parse()?).await
}

/// A user's current bets in the format asked for: one page as JSON, or all of them as CSV.
pub async fn current_bets_answer(
    state: AppState,
    user_id: i64,
    request: CurrentBetsRequest,
    page: PageRequest,
    format: ExportFormat,
) -> Result<Response, AppError> {
    list_answer(format, page, "bets", move |page| {
        let (state, request) = (state.clone(), request.clone());
        async move { current_bets_page(&state, user_id, &request, page).await }
    })
    .await
}

fn decimal_cell(value: Option<f64>) -> Cell {
    Cell::Figure(value.map(|v| v.to_string()).unwrap_or_default())
}

/// A sports bet's cells: the first fourteen of [`CURRENT_BET_COLUMNS`].
fn sports_bet_cells(row: &CurrentBetRow) -> Vec<Cell> {
    let bet = &row.bet;
    vec![
        Cell::Figure(bet.date.clone()),
        Cell::int(bet.bet_id),
        Cell::text(&row.match_name),
        Cell::text(&row.market_name),
        Cell::text(row.market_type.as_str()),
        Cell::text(row.selection_name.clone().unwrap_or_default()),
        Cell::text(bet.side.as_str()),
        decimal_cell(Some(bet.price)),
        decimal_cell(bet.avg_price_matched),
        Cell::opt_int(bet.line),
        Cell::money(bet.stake),
        Cell::money(bet.matched),
        Cell::money(bet.remaining),
        Cell::text(bet.status.as_str()),
    ]
}

/// The columns of a current bet in a download: the bet's (the first fourteen, which a settled
/// bet's download shares) and what the listed part risks and may win.
const CURRENT_BET_COLUMNS: &[&str] = &[
    "date",
    "bet_id",
    "match",
    "market",
    "market_type",
    "selection",
    "side",
    "price",
    "avg_price_matched",
    "line",
    "stake",
    "matched",
    "remaining",
    "status",
    "liability",
    "profit",
];

impl CsvRow for CurrentBetEntry {
    const HEADER: &'static [&'static str] = CURRENT_BET_COLUMNS;

    fn cells(&self) -> Vec<Cell> {
        let (mut cells, liability, profit) = match self {
            CurrentBetEntry::Sports(line) => {
                (sports_bet_cells(&line.bet), line.liability, line.profit)
            }
            CurrentBetEntry::Casino(current) => {
                (casino_bet_cells(&current.bet), current.liability, current.profit)
            }
        };
        cells.extend([Cell::money(liability), Cell::money(profit)]);
        cells
    }
}

/// A casino bet's cells: the first fourteen of [`CURRENT_BET_COLUMNS`].
fn casino_bet_cells(bet: &super::casino::CasinoBetItem) -> Vec<Cell> {
    // A casino bet is taken whole at its odds: matched is its stake.
    vec![
        Cell::Figure(bet.date.clone()),
        Cell::int(bet.bet_id),
        Cell::text(&bet.game_name),
        Cell::text(&bet.market_name),
        Cell::text("casino"),
        Cell::text(&bet.market),
        Cell::text("back"),
        Cell::text(&bet.odds),
        Cell::Figure(String::new()),
        Cell::Figure(String::new()),
        Cell::money(bet.stake),
        Cell::money(bet.stake),
        Cell::money(Money::ZERO),
        Cell::text(bet.status.as_str()),
    ]
}

impl CsvRow for SettledBetRow {
    const HEADER: &'static [&'static str] = &[
        "date",
        "bet_id",
        "match",
        "market",
        "market_type",
        "selection",
        "side",
        "price",
        "avg_price_matched",
        "line",
        "stake",
        "matched",
        "remaining",
        "status",
        "pnl",
    ];

    fn cells(&self) -> Vec<Cell> {
        let mut cells = sports_bet_cells(&self.bet);
        cells.push(Cell::money(self.pnl));
        cells
    }
}

/// One page of a user's current bets: the caller's own here, an account of the caller's
/// downline in the console.
pub(crate) async fn current_bets_page(
    state: &AppState,
    user_id: i64,
    body: &CurrentBetsRequest,
    page: PageRequest,
) -> Result<Paged<CurrentBetEntry>, AppError> {
    let part = choice_field("status", body.status.as_deref(), BetPart::Matched, |text| {
        format!("{text} is not {}.", one_of(BetPart::NAMES))
    })?;
    let unmatched = part == BetPart::Unmatched;
    let (page, limit, offset) = page.resolve()?;
    let kind = choice_field("type", body.bet_type.as_deref(), BetKind::Sports, |text| {
        format!("{text} is not {}.", one_of(BetKind::NAMES))
    })?;
    match kind {
        BetKind::Sports => {}
        // Casino bets are taken whole at the posted odds: none is ever unmatched.
        BetKind::Casino if unmatched => {
            return Ok(Paged { rows: Vec::new(), total: 0, page, limit })
        }
        BetKind::Casino => {
            let (bets, total) =
                super::casino::current_casino_bets(state, user_id, offset, limit).await?;
            let rows = bets.into_iter().map(CurrentBetEntry::Casino).collect();
            return Ok(Paged { rows, total, page, limit });
        }
    }
    let (bets, total) = state.store.current_bets(user_id, unmatched, offset, limit).await?;
    let ids: Vec<i64> = bets.iter().map(|current| current.bet.bet_id).collect();
    let fills = state.store.fill_summaries(&ids).await?;
    let sums = fills.iter().map(|(id, summary)| (*id, summary.price_size_sum)).collect();
    let rows = bets
        .into_iter()
        .map(|current| {
            let (liability, profit) = part_at_risk(
                &current.bet,
                current.market_type,
                unmatched,
                fills.get(&current.bet.bet_id),
            )?;
            Ok(CurrentBetEntry::Sports(CurrentBetLine {
                bet: current_bet_row(current, &sums),
                liability: Money::from_minor(liability),
                profit: Money::from_minor(profit),
            }))
        })
        .collect::<Result<_, AppError>>()?;
    Ok(Paged { rows, total, page, limit })
}

/// What a live bet's matched part (or, `unmatched`, its unmatched part) risks and may win, as
/// (liability, profit), by the exchange's own rule (`backlay_core::exchange::liability_and_profit`):
/// the matched part of an exchange bet at its fills' prices (their backer's profits, as
/// stored), its unmatched part at its own price, a bookmaker or fancy bet at its rate.
fn part_at_risk(
    bet: &BetRow,
    market_type: MarketType,
    unmatched: bool,
    fills: Option<&FillSummary>,
) -> Result<(i64, i64), AppError> {
    let stored_wrong = |what: &str| {
        AppError::Internal(anyhow::anyhow!("bet {} has a stored {what} out of range", bet.bet_id))
    };
    let (stake_minor, profit_minor) = if market_type.is_house_banked() {
        // A house bet is taken whole: its stake is its matched part.
        let stake = if unmatched { bet.remaining_minor } else { bet.matched_minor };
        let rate = u32::try_from(bet.price).map_err(|_| stored_wrong("rate"))?;
        (stake, rate_profit_minor(stake, rate).map_err(|_| stored_wrong("rate"))?)
    } else if unmatched {
        let price = u32::try_from(bet.price)
            .ok()
            .and_then(|hundredths| Price::from_hundredths(hundredths).ok())
            .ok_or_else(|| stored_wrong("price"))?;
        (bet.remaining_minor, backer_profit_minor(bet.remaining_minor, price))
    } else {
        (bet.matched_minor, fills.map_or(0, |fills| fills.backer_profit_minor))
    };
    Ok(liability_and_profit(bet.side.side(), stake_minor, profit_minor))
}

fn current_bet_row(current: CurrentBet, sums: &BTreeMap<i64, i128>) -> CurrentBetRow {
    CurrentBetRow {
        bet: bet_item(&current.bet, current.market_type, sums),
        match_id: current.match_id,
        match_name: current.match_name,
        market_name: current.market_name,
        market_type: current.market_type,
        selection_name: current.selection_name,
    }
}

#[derive(Deserialize, ToSchema)]
pub struct SettledBetsRequest {
    /// The market of a statement line (its `market_id`).
    #[schema(value_type = i64)]
    pub market_id: FlexI64,
}

/// A bet its market's settlement or void closed.
#[derive(Serialize, ToSchema)]
pub struct SettledBetRow {
    /// The bet as currentBets shows it; `status` is settled or void.
    #[serde(flatten)]
    pub bet: CurrentBetRow,
    /// What this bet won (positive) or lost (negative) before commission, which is taken on
    /// the market's net win (the statement line shows it); 0 on a void market.
    #[schema(value_type = f64)]
    pub pnl: Money,
}

/// The caller's bets of one market that its settlement or void closed, oldest first: the bets
/// behind a statement line. Only the caller's own; a market where they had none (or that is
/// not settled) gives an empty list.
#[utoipa::path(post, path = "/report/settledBets", tag = "user", request_body = SettledBetsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<SettledBetRow>>), (status = 400), (status = 401)))]
async fn settled_bets(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<SettledBetsRequest>,
) -> ApiResult<Vec<SettledBetRow>> {
    Ok(ok(settled_bets_of(&state, authed.user.id, body.market_id.0).await?))
}

/// A user's bets of one market that its settlement or void closed, oldest first.
pub async fn settled_bets_of(
    state: &AppState,
    user_id: i64,
    market_id: i64,
) -> Result<Vec<SettledBetRow>, AppError> {
    let bets = state.store.settled_bets_of_market(user_id, market_id).await?;
    settled_rows(state, bets).await
}

/// Closed bets as their rows show them, with average matched prices from their fills.
pub async fn settled_rows(
    state: &AppState,
    bets: Vec<CurrentBet>,
) -> Result<Vec<SettledBetRow>, AppError> {
    let ids: Vec<i64> = bets.iter().map(|settled| settled.bet.bet_id).collect();
    let sums = state.store.matched_price_size_sums(&ids).await?;
    Ok(bets
        .into_iter()
        .map(|settled| {
            let pnl = Money::from_minor(settled.bet.pnl_minor.unwrap_or(0));
            SettledBetRow { bet: current_bet_row(settled, &sums), pnl }
        })
        .collect())
}

#[derive(Deserialize, ToSchema, Default)]
pub struct LiveCasinoBetsRequest {
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: from the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: until now.
    #[serde(default)]
    pub to_date: Option<String>,
}

/// One wallet call of a provider's on the caller's money.
#[derive(Serialize, ToSchema)]
pub struct LiveCasinoBetRow {
    pub id: i64,
    pub date: String,
    pub provider_name: String,
    pub game_name: String,
    pub game_code: String,
    /// The provider's round.
    pub round_id: String,
    /// The provider's id for the call.
    pub transaction_id: String,
    /// debit (a stake), credit (a payout) or rollback (a stake returned).
    pub kind: WalletKind,
    #[schema(value_type = f64)]
    pub debit: Money,
    #[schema(value_type = f64)]
    pub credit: Money,
    #[schema(value_type = f64)]
    pub amount: Money,
    /// A debit: open, settled or rolled back; a credit: won or lost; a rollback: refund.
    pub status: String,
}

fn live_casino_row(line: LiveCasinoLine) -> LiveCasinoBetRow {
    let amount = Money::from_minor(line.amount_minor);
    let (debit, credit, status) = match line.kind {
        WalletKind::Debit => {
            let status = match (line.rolled_back_by.is_some(), line.round_state) {
                (true, _) | (false, ProviderRoundState::RolledBack) => "rolled back",
                (false, ProviderRoundState::Open) => "open",
                (false, ProviderRoundState::Settled) => "settled",
            };
            (amount, Money::ZERO, status)
        }
        WalletKind::Credit => {
            (Money::ZERO, amount, if line.amount_minor > 0 { "won" } else { "lost" })
        }
        WalletKind::Rollback => (Money::ZERO, amount, "refund"),
    };
    LiveCasinoBetRow {
        id: line.id,
        date: iso_utc(line.created_at_ms),
        provider_name: line.provider_name,
        game_name: line.game_name.unwrap_or_else(|| line.game_code.clone()),
        game_code: line.game_code,
        round_id: line.round_ref,
        transaction_id: line.provider_tx_id,
        kind: line.kind,
        debit,
        credit,
        amount,
        status: status.to_string(),
    }
}

#[utoipa::path(post, path = "/report/liveCasinoBets", tag = "user", request_body = Paging<LiveCasinoBetsRequest>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<LiveCasinoBetRow>>), (status = 400), (status = 401)))]
async fn live_casino_bets(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Paging { request: body, page }: Paging<LiveCasinoBetsRequest>,
) -> ApiResult<Paged<LiveCasinoBetRow>> {
    let (from_ms, to_ms) = date_range(&body.from_date, &body.to_date, (0, i64::MAX))?;
    let (page, limit, offset) = page.resolve()?;
    let (lines, total) =
        state.store.live_casino_lines(authed.user.id, from_ms, to_ms, offset, limit).await?;
    Ok(ok(Paged { rows: lines.into_iter().map(live_casino_row).collect(), total, page, limit }))
}

/// The longest period Profit & Loss and Bet History read at once: 92 days, any three calendar
/// months. Their totals add up every ledger line (every bet) of the period whatever page is
/// shown, so the span is what bounds a request's work; within it the rows are paged.
pub const REPORT_SPAN_MAX_DAYS: i64 = 92;

/// The period a report reads when no date is given: the last 7 days, as the screens open.
const REPORT_DEFAULT_DAYS: i64 = 7;

const DAY_MS: i64 = 24 * 60 * 60 * 1000;

/// A bounded report's period (ms, both included) from its optional dates ([`date_range`]:
/// days at UTC+5:30 or ISO-8601 times): `to_date` absent is now, `from_date` absent the
/// [`REPORT_DEFAULT_DAYS`] before `to_date`; longer than [`REPORT_SPAN_MAX_DAYS`] is refused
/// on `to_date`.
fn bounded_period(
    from_date: &Option<String>,
    to_date: &Option<String>,
) -> Result<(i64, i64), AppError> {
    let to_ms = backlay_kit::input::date_bound("to_date", to_date, true, now_ms())?;
    let default_from_ms = to_ms.saturating_sub(REPORT_DEFAULT_DAYS * DAY_MS) + 1;
    let (from_ms, to_ms) = date_range(from_date, to_date, (default_from_ms, to_ms))?;
    if to_ms - from_ms >= REPORT_SPAN_MAX_DAYS * DAY_MS {
        return Err(AppError::field(
            "to_date",
            format!(
                "The period is at most {REPORT_SPAN_MAX_DAYS} days: choose a later from_date or an earlier to_date."
            ),
        ));
    }
    Ok((from_ms, to_ms))
}

/// Longest group key a Profit & Loss request names (a sport's id, a match's, a game's code).
const PNL_KEY_MAX_CHARS: usize = 100;

#[derive(Clone, Deserialize, ToSchema, Default)]
pub struct ProfitLossRequest {
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: 7 days before `to_date`.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: now. At most 92 days
    /// after `from_date`.
    #[serde(default)]
    pub to_date: Option<String>,
    /// A sport row's `sport` (a sport's id, `casino` or `live_casino`): list its events.
    /// Absent: list the sports.
    #[serde(default)]
    pub sport: Option<String>,
    /// With `sport`, an event row's `event`: list its markets (or rounds).
    #[serde(default)]
    pub event: Option<String>,
}

backlay_core::named_enum! {
    /// Which rows a Profit & Loss answer lists.
    pub enum ProfitLossLevel as "profit and loss level" {
        /// Sports, and the casino and live casino as groups of their own.
        Sport = "sport",
        /// One sport's matches (or one casino group's games).
        Event = "event",
        /// One event's markets (or rounds).
        Market = "market",
    }
}

/// One row of Profit & Loss: a sport, an event or a market, and what the bettor's lines in it
/// over the period add up to.
#[derive(Serialize, ToSchema)]
pub struct ProfitLossRow {
    /// The sport's key (its id, or `casino`, `live_casino`): `sport` of the next request down.
    pub sport: String,
    pub sport_name: String,
    /// The event's key (a match's id, a casino game's code), below the sport level; else null.
    #[schema(required = true)]
    pub event: Option<String>,
    #[schema(required = true)]
    pub event_name: Option<String>,
    /// The market's key (a market's id, a round's id) at the market level; else null.
    #[schema(required = true)]
    pub market: Option<String>,
    #[schema(required = true)]
    pub market_name: Option<String>,
    /// A sports market's id at the market level (`report/settledBets` lists its bets); else null.
    #[schema(required = true)]
    pub market_id: Option<i64>,
    /// How many markets and casino rounds the row adds up.
    pub markets: i64,
    /// What was won (positive) or lost before commission.
    #[schema(value_type = f64)]
    pub pnl: Money,
    /// The commission taken on winnings.
    #[schema(value_type = f64)]
    pub commission: Money,
    /// What reached the balance: `pnl` less `commission`.
    #[schema(value_type = f64)]
    pub net: Money,
    /// The row's latest ledger line.
    pub date: String,
}

/// What every row of a Profit & Loss level adds up to.
#[derive(Serialize, ToSchema)]
pub struct ProfitLossTotals {
    pub markets: i64,
    #[schema(value_type = f64)]
    pub pnl: Money,
    #[schema(value_type = f64)]
    pub commission: Money,
    #[schema(value_type = f64)]
    pub net: Money,
}

/// One page of a Profit & Loss level, and the level's totals.
#[derive(Serialize, ToSchema)]
pub struct ProfitLossPage {
    pub level: ProfitLossLevel,
    pub rows: Vec<ProfitLossRow>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
    /// Every row of the level, not only this page's: the grand total at the sport level, the
    /// sport's subtotal at the event level, the event's at the market level. The grand total's
    /// `net` is the net of the statement's sports and casino lines over the same dates.
    pub totals: ProfitLossTotals,
}

fn pnl_figures(net_minor: i64, commission_minor: i64) -> (Money, Money, Money) {
    (
        Money::from_minor(net_minor.saturating_add(commission_minor)),
        Money::from_minor(commission_minor),
        Money::from_minor(net_minor),
    )
}

impl From<PnlRow> for ProfitLossRow {
    fn from(row: PnlRow) -> ProfitLossRow {
        let (pnl, commission, net) = pnl_figures(row.net_minor, row.commission_minor);
        ProfitLossRow {
            sport: row.sport,
            sport_name: row.sport_name,
            event: row.event,
            event_name: row.event_name,
            market: row.market,
            market_name: row.market_name,
            market_id: row.market_id,
            markets: row.markets,
            pnl,
            commission,
            net,
            date: iso_utc(row.last_at_ms),
        }
    }
}

impl CsvRow for ProfitLossRow {
    const HEADER: &'static [&'static str] =
        &["date", "sport", "event", "market", "market_id", "markets", "pnl", "commission", "net"];

    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::Figure(self.date.clone()),
            Cell::text(&self.sport_name),
            Cell::text(self.event_name.clone().unwrap_or_default()),
            Cell::text(self.market_name.clone().unwrap_or_default()),
            Cell::opt_int(self.market_id),
            Cell::int(self.markets),
            Cell::money(self.pnl),
            Cell::money(self.commission),
            Cell::money(self.net),
        ]
    }
}

/// An optional group key of a Profit & Loss request, trimmed; blank is absent.
fn pnl_key(field: &str, text: &Option<String>) -> Result<Option<String>, AppError> {
    let Some(text) = text.as_deref().map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().count() > PNL_KEY_MAX_CHARS {
        return Err(AppError::field(
            field,
            format!("{field} must be at most {PNL_KEY_MAX_CHARS} characters."),
        ));
    }
    Ok(Some(text.to_string()))
}

/// The caller's Profit & Loss over a period (at most 92 days), one level at a time: the
/// sports (with the casino's groups), one sport's events, or one event's markets; settled
/// markets' P&L before commission, the commission and the net, latest first, paged, with the
/// level's totals. Read from the caller's own ledger lines, so the grand total's net is what
/// the account statement's sports and casino lines add up to over the same dates.
#[utoipa::path(post, path = "/report/profitLoss", tag = "user", request_body = Downloadable<ProfitLossRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<ProfitLossPage> = "application/json"), (String = "text/csv"))), (status = 400), (status = 401)))]
async fn profit_loss(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Downloadable { request, page, format }: Downloadable<ProfitLossRequest>,
) -> Result<Response, AppError> {
    let format = format.parse()?;
    let (from_ms, to_ms) = bounded_period(&request.from_date, &request.to_date)?;
    let sport = pnl_key("sport", &request.sport)?;
    let event = pnl_key("event", &request.event)?;
    let level = match (sport, event) {
        (None, None) => PnlLevel::Sports,
        (Some(sport), None) => PnlLevel::Events { sport },
        (Some(sport), Some(event)) => PnlLevel::Markets { sport, event },
        (None, Some(_)) => {
            return Err(AppError::field(
                "sport",
                "Name the sport of the event too (its sport row's sport).",
            ))
        }
    };
    let user_id = authed.user.id;
    let read = move |page: PageRequest| {
        let (state, level) = (state.clone(), level.clone());
        async move {
            let (page, limit, offset) = page.resolve()?;
            let query = PnlQuery { user_id, from_ms, to_ms, level: level.clone(), offset, limit };
            let (rows, totals) = state.store.profit_loss(&query).await?;
            Ok::<_, AppError>((level, rows, totals, page, limit))
        }
    };
    if format == ExportFormat::Csv {
        return list_answer(format, page, "profit-loss", move |page| {
            let read = read.clone();
            async move {
                let (_, rows, totals, page, limit) = read(page).await?;
                let rows = rows.into_iter().map(ProfitLossRow::from).collect();
                Ok(Paged { rows, total: totals.rows, page, limit })
            }
        })
        .await;
    }
    let (level, rows, totals, page, limit) = read(page).await?;
    let (pnl, commission, net) = pnl_figures(totals.net_minor, totals.commission_minor);
    Ok(ok(ProfitLossPage {
        level: match level {
            PnlLevel::Sports => ProfitLossLevel::Sport,
            PnlLevel::Events { .. } => ProfitLossLevel::Event,
            PnlLevel::Markets { .. } => ProfitLossLevel::Market,
        },
        rows: rows.into_iter().map(ProfitLossRow::from).collect(),
        total: totals.rows,
        page,
        limit,
        totals: ProfitLossTotals { markets: totals.markets, pnl, commission, net },
    })
    .into_response())
}

backlay_core::named_enum! {
    /// Which way the bets Bet History lists went.
    pub enum HistorySide as "side" {
        /// Backs, and YES on a fancy.
        Back = "back",
        /// Lays, and NO on a fancy.
        Lay = "lay",
    }
}

#[derive(Clone, Deserialize, ToSchema, Default)]
pub struct BetHistoryRequest {
    /// Closed from: yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: 7 days before
    /// `to_date`.
    #[serde(default)]
    pub from_date: Option<String>,
    /// Closed until: yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: now. At
    /// most 92 days after `from_date`.
    #[serde(default)]
    pub to_date: Option<String>,
    /// settled, void, lapsed or cancelled; absent: all four.
    #[serde(default)]
    #[schema(value_type = Option<HistoryStatus>)]
    pub status: Option<String>,
    /// Only this sport's bets.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub sport_id: Option<FlexI64>,
    /// Only bets on markets of this type.
    #[serde(default)]
    #[schema(value_type = Option<MarketType>)]
    pub market_type: Option<String>,
    /// back (with fancy YES) or lay (with fancy NO).
    #[serde(default)]
    #[schema(value_type = Option<HistorySide>)]
    pub side: Option<String>,
}

/// A bet of Bet History.
#[derive(Serialize, ToSchema)]
pub struct BetHistoryRow {
    pub bet_id: i64,
    /// How it closed: settled, void, lapsed or cancelled (settled or void when its market
    /// closed with something of it matched; its lapsed and cancelled parts show beside).
    pub status: HistoryStatus,
    pub sport_id: i64,
    pub sport_name: String,
    pub match_id: i64,
    pub match_name: String,
    pub market_id: i64,
    pub market_name: String,
    /// How the price reads: odds on exchange markets, a rate on bookmaker and fancy ones.
    pub market_type: MarketType,
    #[schema(required = true)]
    pub selection_id: Option<i64>,
    #[schema(required = true)]
    pub selection_name: Option<String>,
    pub side: BetSide,
    /// The odds (or rate) asked.
    pub price: f64,
    /// What the matched part got on average; null when nothing matched.
    #[schema(required = true)]
    pub avg_price_matched: Option<f64>,
    /// Fancy only: the line bet on.
    #[schema(required = true)]
    pub line: Option<i64>,
    #[schema(value_type = f64)]
    pub stake: Money,
    #[schema(value_type = f64)]
    pub matched: Money,
    #[schema(value_type = f64)]
    pub lapsed: Money,
    #[schema(value_type = f64)]
    pub cancelled: Money,
    /// What it won or lost before commission: 0 when void or when nothing of it matched; null
    /// while its matched part waits for its market's result.
    #[schema(value_type = Option<f64>, required = true)]
    pub pnl: Option<Money>,
    /// Its share of the commission its market charged the bettor (on a settled bet; the
    /// market's commission shared over the bettor's winning bets there by what each won), else
    /// null.
    #[schema(value_type = Option<f64>, required = true)]
    pub commission: Option<Money>,
    /// `pnl` less `commission`; null with `pnl`.
    #[schema(value_type = Option<f64>, required = true)]
    pub net: Option<Money>,
    pub placed_at: String,
    /// When it closed: its market settled or voided, or its unmatched part cancelled or lapsed.
    pub settled_at: String,
}

/// What every bet a Bet History filter lists adds up to, on every page.
#[derive(Serialize, ToSchema)]
pub struct BetHistoryTotals {
    pub bets: i64,
    #[schema(value_type = f64)]
    pub stake: Money,
    #[schema(value_type = f64)]
    pub matched: Money,
    #[schema(value_type = f64)]
    pub pnl: Money,
    #[schema(value_type = f64)]
    pub commission: Money,
    #[schema(value_type = f64)]
    pub net: Money,
}

#[derive(Serialize, ToSchema)]
pub struct BetHistoryPage {
    pub rows: Vec<BetHistoryRow>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
    pub totals: BetHistoryTotals,
}

impl CsvRow for BetHistoryRow {
    const HEADER: &'static [&'static str] = &[
        "placed_at",
        "settled_at",
        "bet_id",
        "status",
        "sport",
        "match",
        "market",
        "market_type",
        "selection",
        "side",
        "price",
        "avg_price_matched",
        "line",
        "stake",
        "matched",
        "lapsed",
        "cancelled",
        "pnl",
        "commission",
        "net",
    ];

    fn cells(&self) -> Vec<Cell> {
        let opt_money =
            |money: Option<Money>| Cell::Figure(money.map(|m| m.to_string()).unwrap_or_default());
        vec![
            Cell::Figure(self.placed_at.clone()),
            Cell::Figure(self.settled_at.clone()),
            Cell::int(self.bet_id),
            Cell::text(self.status.as_str()),
            Cell::text(&self.sport_name),
            Cell::text(&self.match_name),
            Cell::text(&self.market_name),
            Cell::text(self.market_type.as_str()),
            Cell::text(self.selection_name.clone().unwrap_or_default()),
            Cell::text(self.side.as_str()),
            decimal_cell(Some(self.price)),
            decimal_cell(self.avg_price_matched),
            Cell::opt_int(self.line),
            Cell::money(self.stake),
            Cell::money(self.matched),
            Cell::money(self.lapsed),
            Cell::money(self.cancelled),
            opt_money(self.pnl),
            opt_money(self.commission),
            opt_money(self.net),
        ]
    }
}

/// The caller's bets that are done with, in whole or in part (settled, void, lapsed,
/// cancelled), newest closed first, over a period of at most 92 days, filtered by status,
/// sport, market type and side; paged, with what every bet listed adds up to.
#[utoipa::path(post, path = "/report/betHistory", tag = "user", request_body = Downloadable<BetHistoryRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<BetHistoryPage> = "application/json"), (String = "text/csv"))), (status = 400), (status = 401)))]
async fn bet_history(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Downloadable { request, page, format }: Downloadable<BetHistoryRequest>,
) -> Result<Response, AppError> {
    let format = format.parse()?;
    let filter = history_filter(&request)?;
    let user_id = authed.user.id;
    let read = move |page: PageRequest| {
        let state = state.clone();
        async move {
            let (page, limit, offset) = page.resolve()?;
            bet_history_page(&state, user_id, &filter, page, limit, offset).await
        }
    };
    if format == ExportFormat::Csv {
        return list_answer(format, page, "bet-history", move |page| {
            let read = read.clone();
            async move {
                let history = read(page).await?;
                Ok(Paged {
                    rows: history.rows,
                    total: history.total,
                    page: history.page,
                    limit: history.limit,
                })
            }
        })
        .await;
    }
    Ok(ok(read(page).await?).into_response())
}

/// An optional choice of a request: None when absent or blank, else the value it names; other
/// text is refused on `field` with the message `refusal` writes for it.
fn optional_choice<T: std::str::FromStr>(
    field: &str,
    text: Option<&str>,
    refusal: impl FnOnce(&str) -> String,
) -> Result<Option<T>, AppError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(text) => text.parse().map(Some).map_err(|_| AppError::field(field, refusal(text))),
    }
}

/// A Bet History request's filters, each checked and named on its field when wrong.
fn history_filter(request: &BetHistoryRequest) -> Result<BetHistoryFilter, AppError> {
    let (from_ms, to_ms) = bounded_period(&request.from_date, &request.to_date)?;
    let status = optional_choice::<HistoryStatus>("status", request.status.as_deref(), |text| {
        format!("{text} is not a bet history status: use {}.", one_of(HistoryStatus::NAMES))
    })?;
    let market_type =
        optional_choice::<MarketType>("market_type", request.market_type.as_deref(), |text| {
            format!("{text} is not a market type: use {}.", one_of(MarketType::NAMES))
        })?;
    let side = optional_choice::<HistorySide>("side", request.side.as_deref(), |text| {
        format!("{text} is not {}.", one_of(HistorySide::NAMES))
    })?;
    Ok(BetHistoryFilter {
        from_ms,
        to_ms,
        status,
        sport_id: request.sport_id.map(|id| id.0),
        market_type,
        side: side.map(|side| match side {
            HistorySide::Back => Side::Back,
            HistorySide::Lay => Side::Lay,
        }),
    })
}

/// One page of a user's Bet History with its totals: each settled bet's commission is its
/// share of what its market charged (`backlay_core::money::share_out` over the user's winning
/// bets there by what each won), and the totals add the shares of every bet listed.
async fn bet_history_page(
    state: &AppState,
    user_id: i64,
    filter: &BetHistoryFilter,
    page: i64,
    limit: i64,
    offset: i64,
) -> Result<BetHistoryPage, AppError> {
    let (bets, totals) = state.store.bet_history_page(user_id, filter, offset, limit).await?;
    let mut shares: BTreeMap<i64, i64> = BTreeMap::new();
    let mut listed_commission_minor: i64 = 0;
    for market in state.store.history_commissions(user_id, filter).await? {
        let wins: Vec<i64> = market.winners.iter().map(|(_, won, _)| *won).collect();
        let Some(split) = share_out(market.commission_minor, &wins) else {
            return Err(AppError::Internal(anyhow::anyhow!(
                "market {}: commission {} over winning bets {wins:?}",
                market.market_id,
                market.commission_minor
            )));
        };
        for ((bet_id, _, listed), share) in market.winners.iter().zip(split) {
            shares.insert(*bet_id, share);
            if *listed {
                listed_commission_minor = listed_commission_minor.saturating_add(share);
            }
        }
    }
    let ids: Vec<i64> = bets.iter().map(|history| history.bet.bet.bet_id).collect();
    let sums = state.store.matched_price_size_sums(&ids).await?;
    let rows = bets
        .into_iter()
        .map(|history| {
            let current = &history.bet;
            let bet = &current.bet;
            let item = bet_item(bet, current.market_type, &sums);
            let status = HistoryStatus::of(bet);
            let closed = matches!(bet.status, BetStatus::Settled | BetStatus::Void);
            let pnl_minor = if closed {
                Some(bet.pnl_minor.unwrap_or(0))
            } else if bet.matched_minor == 0 {
                Some(0)
            } else {
                None
            };
            let commission_minor = (status == HistoryStatus::Settled)
                .then(|| shares.get(&bet.bet_id).copied().unwrap_or(0));
            let net_minor = pnl_minor.map(|pnl| pnl - commission_minor.unwrap_or(0));
            BetHistoryRow {
                bet_id: bet.bet_id,
                status,
                sport_id: history.sport_id,
                sport_name: history.sport_name,
                match_id: current.match_id,
                match_name: current.match_name.clone(),
                market_id: bet.market_id,
                market_name: current.market_name.clone(),
                market_type: current.market_type,
                selection_id: bet.runner_id,
                selection_name: current.selection_name.clone(),
                side: bet.side,
                price: item.price,
                avg_price_matched: item.avg_price_matched,
                line: bet.line,
                stake: item.stake,
                matched: item.matched,
                lapsed: Money::from_minor(bet.lapsed_minor),
                cancelled: Money::from_minor(bet.cancelled_minor),
                pnl: pnl_minor.map(Money::from_minor),
                commission: commission_minor.map(Money::from_minor),
                net: net_minor.map(Money::from_minor),
                placed_at: item.date,
                settled_at: iso_utc(history.closed_at_ms),
            }
        })
        .collect();
    Ok(BetHistoryPage {
        rows,
        total: totals.bets,
        page,
        limit,
        totals: BetHistoryTotals {
            bets: totals.bets,
            stake: Money::from_minor(totals.stake_minor),
            matched: Money::from_minor(totals.matched_minor),
            pnl: Money::from_minor(totals.pnl_minor),
            commission: Money::from_minor(listed_commission_minor),
            net: Money::from_minor(totals.pnl_minor.saturating_sub(listed_commission_minor)),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_is_its_default_when_absent_or_blank_and_refused_when_unknown() {
        let refuse = |text: &str| format!("{text} is not {}.", one_of(BetKind::NAMES));
        let choose = |text: Option<&str>| choice_field("type", text, BetKind::Sports, refuse);
        assert_eq!(choose(None).unwrap(), BetKind::Sports);
        assert_eq!(choose(Some(" ")).unwrap(), BetKind::Sports);
        assert_eq!(choose(Some(" casino ")).unwrap(), BetKind::Casino);
        let Err(AppError::Invalid { errors, .. }) = choose(Some("Casino")) else {
            panic!("a name is matched exactly")
        };
        assert_eq!(errors["type"], "Casino is not sports or casino.");
    }

    #[test]
    fn a_bounded_period_is_at_most_92_days_and_else_the_last_7() {
        let days = |from: &str, to: &str| bounded_period(&Some(from.into()), &Some(to.into()));
        // 1 January to 2 April 2026 is 92 whole days at UTC+5:30; a day more is refused.
        let (from_ms, to_ms) = days("2026-01-01", "2026-04-02").unwrap();
        assert_eq!(to_ms - from_ms, 92 * DAY_MS - 1);
        let Err(AppError::Invalid { errors, .. }) = days("2026-01-01", "2026-04-03") else {
            panic!("93 days are refused")
        };
        assert!(errors["to_date"].contains("at most 92 days"), "{errors:?}");
        let Err(AppError::Invalid { errors, .. }) = days("2026-04-03", "2026-04-02") else {
            panic!("a period ending before it starts is refused")
        };
        assert_eq!(errors["to_date"], "to_date must not be before from_date.");
        // No dates: the 7 days up to now; only the end: the 7 days up to it.
        let (from_ms, to_ms) = bounded_period(&None, &None).unwrap();
        assert_eq!(to_ms - from_ms, 7 * DAY_MS - 1);
        assert!((now_ms() - to_ms).abs() < 60_000);
        let (from_ms, to_ms) = bounded_period(&None, &Some("2026-04-02".into())).unwrap();
        assert_eq!(
            (to_ms - from_ms, iso_utc(from_ms)),
            (7 * DAY_MS - 1, "2026-03-26T18:30:00.000Z".into())
        );
    }

    #[test]
    fn each_choice_has_one_name() {
        assert_eq!(HistoryStatus::NAMES, ["settled", "void", "lapsed", "cancelled"]);
        assert_eq!(HistorySide::NAMES, ["back", "lay"]);
        assert_eq!(ProfitLossLevel::NAMES, ["sport", "event", "market"]);
        assert_eq!(StatementType::NAMES, ["all", "deposit_withdraw", "sports", "casino", "cash"]);
        assert_eq!(BetKind::NAMES, ["sports", "casino"]);
        assert_eq!(BetPart::NAMES, ["matched", "unmatched"]);
        for statement_type in StatementType::ALL {
            assert_eq!(statement_type.as_str().parse::<StatementType>(), Ok(*statement_type));
        }
        // As the store's filter reads them: the kinds' names, comma-separated.
        let ledger_kinds = |statement_type: StatementType| {
            let kinds = statement_type.ledger_kinds().iter();
            kinds.map(|kind| kind.as_str()).collect::<Vec<_>>().join(",")
        };
        assert_eq!(ledger_kinds(StatementType::Sports), "settlement,void,result_corrected");
        assert_eq!(ledger_kinds(StatementType::Cash), "cash_settlement");
        assert_eq!(ledger_kinds(StatementType::All), "");
    }
}
