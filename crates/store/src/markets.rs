//! Markets of a match and their runners, as the operator sets them up: type, status, stake
//! limits, bet delay, commission, bookmaker rates per runner, fancy lines and rates, and the
//! declared result. The engine keeps the live state in memory; this is its durable copy.
//!
//! A row is its [`MarketSetup`] (what the operator set up and posts) and where the market is
//! in its life (status, result). A running market's task keeps the set-up and holds the
//! status once, in the exchange's own `Market`.

use backlay_core::exchange::{MarketStatus, MarketType};
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::{named, Store, StoreError, StoreResult, Writer};

/// A stored market.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarketRow {
    pub setup: MarketSetup,
    pub status: MarketStatus,
    pub result_runner_id: Option<i64>,
    pub result_value: Option<i64>,
    pub settled_at_ms: Option<i64>,
    /// The desk's spread for this market ([`MarketRow::desk_spread`]); `None` is the default.
    pub stored_desk_spread: Option<i64>,
}

/// The desk's spread on a bookmaker with none set: its lay is posted 5 rate points above its
/// back (back 45, lay 50).
pub const DEFAULT_BOOKMAKER_SPREAD: i64 = 5;
/// The desk's spread on a fancy with none set: its YES line at its NO line (NO 50, YES 50 at even
/// rates, as a fresh fancy opens).
pub const DEFAULT_FANCY_SPREAD: i64 = 0;
/// The widest spread the desk may set, in rate points or runs.
pub const MAX_DESK_SPREAD: i64 = 1_000;

impl MarketRow {
    /// How far the desk posts the second side from the one it types: a bookmaker's lay above
    /// its back (rate points), a fancy's YES line above its NO line (runs). It is only the
    /// desk's working setting, never read by matching or settlement, so it lives on the row and
    /// not in the engine's [`MarketSetup`].
    pub fn desk_spread(&self) -> i64 {
        self.stored_desk_spread.unwrap_or(match self.setup.market_type {
            MarketType::Fancy => DEFAULT_FANCY_SPREAD,
            _ => DEFAULT_BOOKMAKER_SPREAD,
        })
    }
}

/// What the operator set up and posts on a market: its type, limits, bet delay, commission,
/// runners with their bookmaker rates, and a fancy's lines and rates. Serialisable, for a
/// market's view sent between the servers of a cluster.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MarketSetup {
    pub market_id: i64,
    pub match_id: i64,
    pub market_type: MarketType,
    pub name: String,
    pub bet_delay_ms: i64,
    pub min_stake_minor: i64,
    pub max_stake_minor: i64,
    pub commission_bp: i64,
    pub winners: i64,
    pub line_no: Option<i64>,
    pub rate_no: Option<i64>,
    pub line_yes: Option<i64>,
    pub rate_yes: Option<i64>,
    pub created_at_ms: i64,
    pub runners: Vec<RunnerRow>,
}

impl MarketSetup {
    /// The exchange's kind of this market (a place market with its number of winners).
    pub fn kind(&self) -> backlay_core::exchange::MarketKind {
        self.market_type.kind(u32::try_from(self.winners).unwrap_or(1))
    }

    /// The exchange's set-up of this market (its kind, runners and commission), as the engine
    /// builds it when it loads the market, and every check of stored bets against it.
    pub fn spec(
        &self,
    ) -> Result<backlay_core::exchange::MarketSpec, backlay_core::exchange::MarketError> {
        use backlay_core::exchange::{MarketKind, MarketSpec, RunnerId};
        let kind = self.kind();
        let runners = if kind == MarketKind::Fancy {
            Vec::new()
        } else {
            // A removed runner (a non-runner, `crate::non_runners`) is out of the market.
            self.runners
                .iter()
                .filter(|r| r.status != RunnerStatus::Removed)
                .map(|r| RunnerId(r.runner_id))
                .collect()
        };
        MarketSpec::new(kind, runners, u32::try_from(self.commission_bp).unwrap_or(0))
    }
}

backlay_core::named_enum! {
    /// Where a runner is (set at creation; kept for the stored result).
    pub enum RunnerStatus as "runner status" {
        Active = "active",
        Winner = "winner",
        Loser = "loser",
        Removed = "removed",
    }
}

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunnerRow {
    pub runner_id: i64,
    pub name: String,
    pub sort_order: i64,
    pub status: RunnerStatus,
    /// Bookmaker rates (45 = decimal odds 1.45).
    pub back_rate: Option<i64>,
    pub lay_rate: Option<i64>,
}

/// A market to create with its runners (none for fancy).
#[derive(Clone, Debug)]
pub struct NewMarket<'a> {
    pub match_id: i64,
    pub market_type: MarketType,
    pub name: &'a str,
    pub bet_delay_ms: i64,
    pub min_stake_minor: i64,
    pub max_stake_minor: i64,
    pub commission_bp: i64,
    pub winners: i64,
    pub runners: &'a [String],
}

const MARKET_COLUMNS: &str = "id, match_id, market_type, name, status, bet_delay_ms, min_stake_minor, \
     max_stake_minor, commission_bp, winners, line_no, rate_no, line_yes, rate_yes, result_runner_id, \
     result_value, settled_at_ms, created_at_ms, desk_spread";

fn market_from_row(row: &AnyRow) -> Result<MarketRow, sqlx::Error> {
    let setup = MarketSetup {
        market_id: row.try_get("id")?,
        match_id: row.try_get("match_id")?,
        market_type: named(row, "market_type")?,
        name: row.try_get("name")?,
        bet_delay_ms: row.try_get("bet_delay_ms")?,
        min_stake_minor: row.try_get("min_stake_minor")?,
        max_stake_minor: row.try_get("max_stake_minor")?,
        commission_bp: row.try_get("commission_bp")?,
        winners: row.try_get("winners")?,
        line_no: row.try_get("line_no")?,
        rate_no: row.try_get("rate_no")?,
        line_yes: row.try_get("line_yes")?,
        rate_yes: row.try_get("rate_yes")?,
        created_at_ms: row.try_get("created_at_ms")?,
        runners: Vec::new(),
    };
    Ok(MarketRow {
        setup,
        status: named(row, "status")?,
        result_runner_id: row.try_get("result_runner_id")?,
        result_value: row.try_get("result_value")?,
        settled_at_ms: row.try_get("settled_at_ms")?,
        stored_desk_spread: row.try_get("desk_spread")?,
    })
}

fn runner_from_row(row: &AnyRow) -> Result<(i64, RunnerRow), sqlx::Error> {
    Ok((
        row.try_get("market_id")?,
        RunnerRow {
            runner_id: row.try_get("id")?,
            name: row.try_get("name")?,
            sort_order: row.try_get("sort_order")?,
            status: named(row, "status")?,
            back_rate: row.try_get("back_rate")?,
            lay_rate: row.try_get("lay_rate")?,
        },
    ))
}

/// Which markets to load.
#[derive(Copy, Clone, Debug)]
enum MarketFilter {
    Id(i64),
    Match(i64),
    /// Not closed or void.
    Live,
}

impl MarketFilter {
    /// The WHERE clause over `markets m` and its one parameter.
    fn clause(self) -> (&'static str, i64) {
        match self {
            MarketFilter::Id(id) => ("m.id = $1", id),
            MarketFilter::Match(id) => ("m.match_id = $1", id),
            // The parameter is unused but keeps one query shape for every filter.
            MarketFilter::Live => ("m.status NOT IN ('closed', 'void') AND $1 = 0", 0),
        }
    }
}

/// The markets a filter selects, with their runners, in id order.
async fn fetch_markets(
    conn: &mut sqlx::AnyConnection,
    filter: MarketFilter,
) -> StoreResult<Vec<MarketRow>> {
    let (clause, value) = filter.clause();
    let columns =
        MARKET_COLUMNS.split(", ").map(|c| format!("m.{c}")).collect::<Vec<_>>().join(", ");
    let rows =
        sqlx::query(&format!("SELECT {columns} FROM markets m WHERE {clause} ORDER BY m.id"))
            .bind(value)
            .fetch_all(&mut *conn)
            .await?;
    let mut markets = rows.iter().map(market_from_row).collect::<Result<Vec<_>, _>>()?;
    if markets.is_empty() {
        return Ok(markets);
    }
    let runner_rows = sqlx::query(&format!(
        "SELECT r.id, r.market_id, r.name, r.sort_order, r.status, r.back_rate, r.lay_rate FROM runners r \
         JOIN markets m ON m.id = r.market_id WHERE {clause} ORDER BY r.market_id, r.sort_order, r.id"
    ))
    .bind(value)
    .fetch_all(&mut *conn)
    .await?;
    // Both lists are in market id order: a search, not a walk, finds each runner's market
    // (the engine loads every live market at start, and the ledger check reads them all).
    for row in &runner_rows {
        let (market_id, runner) = runner_from_row(row)?;
        if let Ok(index) = markets.binary_search_by_key(&market_id, |m| m.setup.market_id) {
            markets[index].setup.runners.push(runner);
        }
    }
    Ok(markets)
}

/// Every market not yet closed or void, with its runners, in id order.
pub(crate) async fn fetch_live_markets(
    conn: &mut sqlx::AnyConnection,
) -> StoreResult<Vec<MarketRow>> {
    fetch_markets(conn, MarketFilter::Live).await
}

/// One market by id; `NotFound` when there is none.
pub(crate) async fn fetch_market(
    conn: &mut sqlx::AnyConnection,
    market_id: i64,
) -> StoreResult<MarketRow> {
    fetch_markets(conn, MarketFilter::Id(market_id)).await?.pop().ok_or(StoreError::NotFound)
}

impl Store {
    pub async fn market(&self, market_id: i64) -> StoreResult<MarketRow> {
        let mut conn = self.pool().acquire().await?;
        fetch_market(&mut conn, market_id).await
    }

    /// The markets of a match, in creation order.
    pub async fn markets_of_match(&self, match_id: i64) -> StoreResult<Vec<MarketRow>> {
        let mut conn = self.pool().acquire().await?;
        fetch_markets(&mut conn, MarketFilter::Match(match_id)).await
    }

    /// (match_id, market_id, market_type) of every live market, for match lists.
    pub async fn live_market_types(&self) -> StoreResult<Vec<(i64, i64, MarketType)>> {
        let rows = sqlx::query("SELECT match_id, id, market_type FROM markets WHERE status NOT IN ('closed', 'void') ORDER BY id")
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|row| {
                Ok((row.try_get("match_id")?, row.try_get("id")?, named(row, "market_type")?))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    pub async fn count_markets(&self) -> StoreResult<i64> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM markets").fetch_one(self.pool()).await?)
    }

    /// Every market not yet closed or void (the engine loads these at start-up).
    pub async fn live_markets(&self) -> StoreResult<Vec<MarketRow>> {
        let mut conn = self.pool().acquire().await?;
        fetch_live_markets(&mut conn).await
    }
}

impl Writer {
    /// Creates a market and its runners; an unknown match is `NotFound`.
    pub async fn insert_market(&mut self, new: &NewMarket<'_>, now_ms: i64) -> StoreResult<i64> {
        let match_exists: Option<i64> = sqlx::query_scalar("SELECT id FROM matches WHERE id = $1")
            .bind(new.match_id)
            .fetch_optional(self.conn())
            .await?;
        if match_exists.is_none() {
            return Err(StoreError::NotFound);
        }
        let market_id: i64 = sqlx::query_scalar(
            "INSERT INTO markets (match_id, market_type, name, status, bet_delay_ms, min_stake_minor, \
             max_stake_minor, commission_bp, winners, created_at_ms) \
             VALUES ($1, $2, $3, 'suspended', $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(new.match_id)
        .bind(new.market_type.as_str())
        .bind(new.name)
        .bind(new.bet_delay_ms)
        .bind(new.min_stake_minor)
        .bind(new.max_stake_minor)
        .bind(new.commission_bp)
        .bind(new.winners)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?;
        for (position, name) in new.runners.iter().enumerate() {
            sqlx::query("INSERT INTO runners (market_id, name, sort_order) VALUES ($1, $2, $3)")
                .bind(market_id)
                .bind(name)
                .bind(position as i64)
                .execute(self.conn())
                .await?;
        }
        Ok(market_id)
    }

    pub async fn market(&mut self, market_id: i64) -> StoreResult<MarketRow> {
        fetch_market(self.conn(), market_id).await
    }

    /// Sets the status of a market that is not closed or void; `false` when it already is.
    pub async fn set_market_status(
        &mut self,
        market_id: i64,
        status: MarketStatus,
    ) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE markets SET status = $1 WHERE id = $2 AND status NOT IN ('closed', 'void')",
        )
        .bind(status.as_str())
        .bind(market_id)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Sets the stake limits of a market that is not closed or void; `false` when it is.
    pub async fn set_market_stake_limits(
        &mut self,
        market_id: i64,
        min_stake_minor: i64,
        max_stake_minor: i64,
    ) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE markets SET min_stake_minor = $1, max_stake_minor = $2 \
             WHERE id = $3 AND status NOT IN ('closed', 'void')",
        )
        .bind(min_stake_minor)
        .bind(max_stake_minor)
        .bind(market_id)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Sets the in-play bet delay of a market that is not closed or void; `false` when it is.
    pub async fn set_market_bet_delay(
        &mut self,
        market_id: i64,
        bet_delay_ms: i64,
    ) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE markets SET bet_delay_ms = $1 WHERE id = $2 AND status NOT IN ('closed', 'void')",
        )
        .bind(bet_delay_ms)
        .bind(market_id)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Sets the desk's spread of a market that is not settled; false when there is no such
    /// market or it is settled (closed or void).
    pub async fn set_desk_spread(&mut self, market_id: i64, spread: i64) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE markets SET desk_spread = $1 WHERE id = $2 AND status NOT IN ('closed', 'void')",
        )
        .bind(spread)
        .bind(market_id)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Posts a fancy market's lines and rates.
    pub async fn set_fancy_rates(
        &mut self,
        market_id: i64,
        line_no: i64,
        rate_no: i64,
        line_yes: i64,
        rate_yes: i64,
    ) -> StoreResult<()> {
        sqlx::query("UPDATE markets SET line_no = $1, rate_no = $2, line_yes = $3, rate_yes = $4 WHERE id = $5")
            .bind(line_no)
            .bind(rate_no)
            .bind(line_yes)
            .bind(rate_yes)
            .bind(market_id)
            .execute(self.conn())
            .await?;
        Ok(())
    }

    /// Posts a bookmaker runner's back and lay rates (`None` takes the side off).
    pub async fn set_runner_rates(
        &mut self,
        runner_id: i64,
        back_rate: Option<i64>,
        lay_rate: Option<i64>,
    ) -> StoreResult<()> {
        sqlx::query("UPDATE runners SET back_rate = $1, lay_rate = $2 WHERE id = $3")
            .bind(back_rate)
            .bind(lay_rate)
            .bind(runner_id)
            .execute(self.conn())
            .await?;
        Ok(())
    }
}
