//! Reports of the caller's own money and bets: the account statement (every ledger entry with
//! its running balance, a settlement line opening the bets it settled), current bets, and live
//! casino bets (the provider wallet calls). A user only ever sees their own.

use std::collections::BTreeMap;

use axum::extract::State;
use backlay_casino_store::wallet::{LiveCasinoLine, ProviderRoundState, WalletKind};
use backlay_core::exchange::MarketType;
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_store::bets::CurrentBet;
use backlay_store::ledger::TransactionKind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::bet::{bet_item, BetItem};
use axum::response::Response;
use backlay_kit::clock::iso_utc;

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

/// A row of current bets: a sports bet, or (with `type: casino`) a casino bet whose round has
/// not settled yet.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum CurrentBetEntry {
    Sports(CurrentBetRow),
    Casino(super::casino::CasinoBetItem),
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

/// The columns of a bet in a download (current bets; the history adds its P&L).
const BET_COLUMNS: &[&str] = &[
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
];

fn decimal_cell(value: Option<f64>) -> Cell {
    Cell::Figure(value.map(|v| v.to_string()).unwrap_or_default())
}

/// A sports bet's cells, in [`BET_COLUMNS`]' order.
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

impl CsvRow for CurrentBetEntry {
    const HEADER: &'static [&'static str] = BET_COLUMNS;

    fn cells(&self) -> Vec<Cell> {
        match self {
            CurrentBetEntry::Sports(row) => sports_bet_cells(row),
            // A casino bet is taken whole at its odds: matched is its stake.
            CurrentBetEntry::Casino(bet) => vec![
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
            ],
        }
    }
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
    let sums = state.store.matched_price_size_sums(&ids).await?;
    let rows = bets
        .into_iter()
        .map(|current| CurrentBetEntry::Sports(current_bet_row(current, &sums)))
        .collect();
    Ok(Paged { rows, total, page, limit })
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
    fn each_choice_has_one_name() {
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
