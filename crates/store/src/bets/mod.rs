//! Bets (exchange orders and house bets), fills and per-market exposure: the durable side of
//! the exchange engine. The engine owns the live books in memory and writes here in the same
//! transaction as the funds check, so a bet is acknowledged only once all of it is stored.

use std::collections::BTreeMap;

use backlay_core::exchange::{BetSide, MarketStatus, MarketType, Persistence};
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::sql::{numbered, placeholders, ROWS_PER_STATEMENT};
use crate::{named, Store, StoreError, StoreResult, Writer};

backlay_core::named_enum! {
    /// Where a stored bet is.
    pub enum BetStatus as "bet status" {
        /// Something of it is unmatched.
        Open = "open",
        /// Nothing is unmatched and something matched.
        Matched = "matched",
        /// Nothing is unmatched and nothing matched (cancelled or lapsed whole).
        Closed = "closed",
        /// Its market was settled.
        Settled = "settled",
        /// Its market was voided.
        Void = "void",
    }
}

impl BetStatus {
    /// The status a bet's sizes imply before its market is settled.
    pub const fn live(matched_minor: i64, remaining_minor: i64) -> BetStatus {
        if remaining_minor > 0 {
            BetStatus::Open
        } else if matched_minor > 0 {
            BetStatus::Matched
        } else {
            BetStatus::Closed
        }
    }

    /// Open or matched: its market is not settled and something of it stands.
    pub const fn is_live(self) -> bool {
        matches!(self, BetStatus::Open | BetStatus::Matched)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetRow {
    pub bet_id: i64,
    pub user_id: i64,
    pub market_id: i64,
    pub runner_id: Option<i64>,
    pub side: BetSide,
    /// Odds in hundredths (exchange) or the rate (bookmaker, fancy).
    pub price: i64,
    pub line: Option<i64>,
    pub stake_minor: i64,
    pub matched_minor: i64,
    pub remaining_minor: i64,
    pub cancelled_minor: i64,
    pub lapsed_minor: i64,
    pub persistence: Persistence,
    pub status: BetStatus,
    pub pnl_minor: Option<i64>,
    pub client_ref: Option<String>,
    pub request_hash: Option<String>,
    pub created_at_ms: i64,
    /// The bot API's references (Betfair's customerOrderRef and customerStrategyRef).
    pub refs: BotRefs,
}

/// A bot's own references for one bet (Betfair's `customerOrderRef`, at most 32 characters,
/// and `customerStrategyRef`, at most 15), stored with it and returned wherever the bet is.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BotRefs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_ref: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy_ref: Option<String>,
}

/// A bet stored by a batch of placements: its id was reserved ([`Writer::reserve_bet_ids`])
/// and its matched size is known by the time it is written.
#[derive(Clone, Debug)]
pub struct BatchBet {
    pub bet_id: i64,
    pub user_id: i64,
    pub market_id: i64,
    pub runner_id: Option<i64>,
    pub side: BetSide,
    pub price: i64,
    pub line: Option<i64>,
    pub stake_minor: i64,
    pub matched_minor: i64,
    pub remaining_minor: i64,
    pub persistence: Persistence,
    pub client_ref: Option<String>,
    pub request_hash: String,
    pub created_at_ms: i64,
    pub refs: BotRefs,
}

/// A user's account as a batch of placements reads it, locked until the batch commits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AccountFunds {
    pub user_id: i64,
    pub balance_minor: i64,
    /// Over every market.
    pub exposure_minor: i64,
    /// The operator's limit on the total exposure, if any.
    pub max_exposure_minor: Option<i64>,
    /// The parent's bet-lock: the account may not bet.
    pub is_bet_locked: bool,
    /// The parent's cap on one bet's stake, if any.
    pub max_stake_minor: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FillRow {
    pub fill_id: i64,
    pub market_id: i64,
    pub runner_id: i64,
    pub back_bet_id: i64,
    pub back_user_id: i64,
    pub lay_bet_id: i64,
    pub lay_user_id: i64,
    pub price: i64,
    pub size_minor: i64,
    pub backer_profit_minor: i64,
}

const BET_COLUMNS: &str = BET_COLUMNS_PUBLIC;

/// Every column of a stored bet, in [`BetRow`]'s order (for the queries of other modules).
pub(crate) const BET_COLUMNS_PUBLIC: &str = "id, user_id, market_id, runner_id, side, price, line, stake_minor, matched_minor, \
     remaining_minor, cancelled_minor, lapsed_minor, persistence, status, pnl_minor, client_ref, request_hash, created_at_ms, \
     customer_order_ref, customer_strategy_ref";

pub(crate) fn bet_from_row(row: &AnyRow) -> Result<BetRow, sqlx::Error> {
    Ok(BetRow {
        bet_id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        market_id: row.try_get("market_id")?,
        runner_id: row.try_get("runner_id")?,
        side: named(row, "side")?,
        price: row.try_get("price")?,
        line: row.try_get("line")?,
        stake_minor: row.try_get("stake_minor")?,
        matched_minor: row.try_get("matched_minor")?,
        remaining_minor: row.try_get("remaining_minor")?,
        cancelled_minor: row.try_get("cancelled_minor")?,
        lapsed_minor: row.try_get("lapsed_minor")?,
        persistence: named(row, "persistence")?,
        status: named(row, "status")?,
        pnl_minor: row.try_get("pnl_minor")?,
        client_ref: row.try_get("client_ref")?,
        request_hash: row.try_get("request_hash")?,
        created_at_ms: row.try_get("created_at_ms")?,
        refs: BotRefs {
            order_ref: row.try_get("customer_order_ref")?,
            strategy_ref: row.try_get("customer_strategy_ref")?,
        },
    })
}

pub(crate) fn bets_from_rows(rows: &[AnyRow]) -> StoreResult<Vec<BetRow>> {
    rows.iter().map(bet_from_row).collect::<Result<_, _>>().map_err(Into::into)
}

/// The fills of `fills f` with the users on each side, in [`FillRow`]'s order; a `WHERE`
/// follows.
pub(crate) const FILLS_WITH_USERS: &str =
    "SELECT f.id, f.market_id, f.runner_id, f.back_bet_id, b.user_id AS back_user_id, f.lay_bet_id, \
     l.user_id AS lay_user_id, f.price, f.size_minor, f.backer_profit_minor FROM fills f \
     JOIN bets b ON b.id = f.back_bet_id JOIN bets l ON l.id = f.lay_bet_id";

pub(crate) fn fills_from_rows(rows: &[AnyRow]) -> StoreResult<Vec<FillRow>> {
    rows.iter()
        .map(|row| {
            Ok(FillRow {
                fill_id: row.try_get("id")?,
                market_id: row.try_get("market_id")?,
                runner_id: row.try_get("runner_id")?,
                back_bet_id: row.try_get("back_bet_id")?,
                back_user_id: row.try_get("back_user_id")?,
                lay_bet_id: row.try_get("lay_bet_id")?,
                lay_user_id: row.try_get("lay_user_id")?,
                price: row.try_get("price")?,
                size_minor: row.try_get("size_minor")?,
                backer_profit_minor: row.try_get("backer_profit_minor")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

/// One user's exposure in one market, with the match it belongs to (for getExposureDetail).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExposureRow {
    pub market_id: i64,
    pub market_name: String,
    pub market_type: MarketType,
    pub match_id: i64,
    pub match_name: String,
    pub sport_name: String,
    pub exposure_minor: i64,
    pub bet_count: i64,
}

impl Store {
    pub async fn bet(&self, bet_id: i64) -> StoreResult<BetRow> {
        let row = sqlx::query(&format!("SELECT {BET_COLUMNS} FROM bets WHERE id = $1"))
            .bind(bet_id)
            .fetch_optional(self.pool())
            .await?
            .ok_or(StoreError::NotFound)?;
        Ok(bet_from_row(&row)?)
    }

    /// Whether a bet with this id is stored: how the engine learns whether a batch whose commit
    /// failed was committed after all (a batch's bets are stored together or not at all).
    pub async fn is_bet_stored(&self, bet_id: i64) -> StoreResult<bool> {
        let found: Option<i64> = sqlx::query_scalar("SELECT id FROM bets WHERE id = $1")
            .bind(bet_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(found.is_some())
    }

    /// Every bet of a market, oldest first (the engine rebuilds its books from these).
    pub async fn bets_of_market(&self, market_id: i64) -> StoreResult<Vec<BetRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} FROM bets WHERE market_id = $1 ORDER BY id"
        ))
        .bind(market_id)
        .fetch_all(self.pool())
        .await?;
        bets_from_rows(&rows)
    }

    /// What was matched in these markets, per runner and price (the backer's stake, summed):
    /// `(market_id, runner_id, price, size_minor)`, by market, runner and price.
    pub async fn traded_volume(
        &self,
        market_ids: &[i64],
    ) -> StoreResult<Vec<(i64, i64, i64, i64)>> {
        let mut traded = Vec::new();
        for chunk in market_ids.chunks(ROWS_PER_STATEMENT) {
            let list = numbered(chunk.len());
            let sql = format!(
                "SELECT market_id, runner_id, price, CAST(SUM(size_minor) AS BIGINT) AS size_minor FROM fills \
                 WHERE market_id IN ({list}) GROUP BY market_id, runner_id, price \
                 ORDER BY market_id, runner_id, price"
            );
            let mut query = sqlx::query(&sql);
            for market_id in chunk {
                query = query.bind(*market_id);
            }
            for row in query.fetch_all(self.pool()).await? {
                traded.push((
                    row.try_get("market_id")?,
                    row.try_get("runner_id")?,
                    row.try_get("price")?,
                    row.try_get("size_minor")?,
                ));
            }
        }
        Ok(traded)
    }

    /// Every fill of a market, oldest first, with the users on each side.
    pub async fn fills_of_market(&self, market_id: i64) -> StoreResult<Vec<FillRow>> {
        let rows = sqlx::query(&format!("{FILLS_WITH_USERS} WHERE f.market_id = $1 ORDER BY f.id"))
            .bind(market_id)
            .fetch_all(self.pool())
            .await?;
        fills_from_rows(&rows)
    }

    /// Stored exposure per user in a market.
    pub async fn exposures_of_market(&self, market_id: i64) -> StoreResult<Vec<(i64, i64)>> {
        let rows = sqlx::query(
            "SELECT user_id, exposure_minor FROM market_exposures WHERE market_id = $1",
        )
        .bind(market_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("user_id")?, row.try_get("exposure_minor")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A user's live bets (not settled or void) with their market's type, newest first,
    /// optionally only those of one match.
    pub async fn live_bets_of_user(
        &self,
        user_id: i64,
        match_id: Option<i64>,
        limit: i64,
    ) -> StoreResult<Vec<(BetRow, MarketType)>> {
        let columns =
            BET_COLUMNS.split(", ").map(|c| format!("b.{c}")).collect::<Vec<_>>().join(", ");
        let rows = sqlx::query(&format!(
            "SELECT {columns}, m.market_type FROM bets b JOIN markets m ON m.id = b.market_id \
             WHERE b.user_id = $1 AND b.status IN ('open', 'matched') AND ($2 = -1 OR m.match_id = $2) \
             ORDER BY b.id DESC LIMIT $3"
        ))
        .bind(user_id)
        .bind(match_id.unwrap_or(-1))
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((bet_from_row(row)?, named(row, "market_type")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A user's exposure per open market, with the match and sport (newest match first).
    pub async fn exposure_rows_of_user(&self, user_id: i64) -> StoreResult<Vec<ExposureRow>> {
        let rows = sqlx::query(
            "SELECT e.market_id, m.name AS market_name, m.market_type, mt.id AS match_id, mt.name AS match_name, \
             sp.name AS sport_name, e.exposure_minor, \
             (SELECT COUNT(*) FROM bets b WHERE b.market_id = e.market_id AND b.user_id = e.user_id \
              AND b.status IN ('open', 'matched')) AS bet_count \
             FROM market_exposures e JOIN markets m ON m.id = e.market_id JOIN matches mt ON mt.id = m.match_id \
             JOIN sports sp ON sp.sport_id = mt.sport_id \
             WHERE e.user_id = $1 AND e.exposure_minor > 0 ORDER BY mt.id DESC, e.market_id",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ExposureRow {
                    market_id: row.try_get("market_id")?,
                    market_name: row.try_get("market_name")?,
                    market_type: named(row, "market_type")?,
                    match_id: row.try_get("match_id")?,
                    match_name: row.try_get("match_name")?,
                    sport_name: row.try_get("sport_name")?,
                    exposure_minor: row.try_get("exposure_minor")?,
                    bet_count: row.try_get("bet_count")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

impl Writer {
    /// Σ price × size over a bet's fills (hundredths × minor units), for its average price.
    pub async fn matched_price_size_sum(&mut self, bet_id: i64) -> StoreResult<i128> {
        let rows = sqlx::query(
            "SELECT price, size_minor FROM fills WHERE back_bet_id = $1 OR lay_bet_id = $1",
        )
        .bind(bet_id)
        .fetch_all(self.conn())
        .await?;
        let mut sum: i128 = 0;
        for row in &rows {
            sum += i128::from(row.try_get::<i64, _>("price")?)
                * i128::from(row.try_get::<i64, _>("size_minor")?);
        }
        Ok(sum)
    }

    /// Takes `size_minor` off a bet's unmatched part, as cancelled or lapsed.
    pub async fn record_unmatched_removal(
        &mut self,
        bet_id: i64,
        size_minor: i64,
        lapsed: bool,
    ) -> StoreResult<()> {
        let column = if lapsed { "lapsed_minor" } else { "cancelled_minor" };
        sqlx::query(&format!(
            "UPDATE bets SET {column} = {column} + $1, remaining_minor = remaining_minor - $1, \
             status = CASE WHEN remaining_minor - $1 > 0 THEN 'open' WHEN matched_minor > 0 THEN 'matched' ELSE 'closed' END \
             WHERE id = $2"
        ))
        .bind(size_minor)
        .bind(bet_id)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Sets an unmatched bet's persistence (the bot API's updateOrders; the market's task
    /// changes its book in step). False when the bet has nothing unmatched.
    pub async fn set_bet_persistence(
        &mut self,
        bet_id: i64,
        persistence: Persistence,
    ) -> StoreResult<bool> {
        let done =
            sqlx::query("UPDATE bets SET persistence = $1 WHERE id = $2 AND remaining_minor > 0")
                .bind(persistence.as_str())
                .bind(bet_id)
                .execute(self.conn())
                .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Reads the funds of `user_ids` and keeps them locked until the transaction ends
    /// (PostgreSQL: `FOR UPDATE`, taken in user order so that two markets' batches do not
    /// deadlock on each other; SQLite: `BEGIN IMMEDIATE` already holds the one write lock).
    /// Users without an account are left out.
    pub async fn lock_funds(&mut self, user_ids: &[i64]) -> StoreResult<Vec<AccountFunds>> {
        let mut sorted = user_ids.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut funds = Vec::with_capacity(sorted.len());
        for chunk in sorted.chunks(ROWS_PER_STATEMENT) {
            let list = numbered(chunk.len());
            let lock = if self.engine == crate::Engine::Postgres { " FOR UPDATE OF a" } else { "" };
            let sql = format!(
                "SELECT a.user_id, a.balance_minor, a.exposure_minor, u.max_exposure_minor, \
                 u.is_bet_locked, u.is_locked, u.locked_by_user_id, u.bet_locked_by_user_id, \
                 u.max_stake_minor FROM ledger_accounts a JOIN users u ON u.id = a.user_id WHERE a.user_id IN ({list}) ORDER BY a.user_id{lock}"
            );
            let mut query = sqlx::query(&sql);
            for user_id in chunk {
                query = query.bind(*user_id);
            }
            for row in query.fetch_all(self.conn()).await? {
                funds.push(AccountFunds {
                    user_id: row.try_get("user_id")?,
                    balance_minor: row.try_get("balance_minor")?,
                    exposure_minor: row.try_get("exposure_minor")?,
                    max_exposure_minor: row.try_get("max_exposure_minor")?,
                    // On its own or by an agent above it, and a locked account bets no more
                    // than a bet-locked one (crate::branch_locks).
                    is_bet_locked: row.try_get::<i64, _>("is_bet_locked")? != 0
                        || row.try_get::<i64, _>("is_locked")? != 0
                        || row.try_get::<Option<i64>, _>("locked_by_user_id")?.is_some()
                        || row.try_get::<Option<i64>, _>("bet_locked_by_user_id")?.is_some(),
                    max_stake_minor: row.try_get("max_stake_minor")?,
                });
            }
        }
        Ok(funds)
    }

    /// Reserves `count` new bet ids, increasing, never given before and never given again
    /// once this transaction commits. PostgreSQL takes them from the column's sequence; SQLite
    /// moves AUTOINCREMENT's high-water mark past them.
    pub async fn reserve_bet_ids(&mut self, count: usize) -> StoreResult<Vec<i64>> {
        if count == 0 {
            return Ok(Vec::new());
        }
        let count_i64 = i64::try_from(count).expect("a reservation is small");
        match self.engine {
            crate::Engine::Postgres => {
                let mut ids: Vec<i64> =
                    sqlx::query_scalar("SELECT nextval(pg_get_serial_sequence('bets', 'id')) FROM generate_series(1, $1)")
                        .bind(count_i64)
                        .fetch_all(self.conn())
                        .await?;
                ids.sort_unstable();
                Ok(ids)
            }
            crate::Engine::Sqlite => {
                sqlx::query("INSERT INTO sqlite_sequence (name, seq) SELECT 'bets', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'bets')")
                    .execute(self.conn())
                    .await?;
                let highest: i64 = sqlx::query_scalar(
                    "UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT MAX(id) FROM bets), 0)) + $1 \
                     WHERE name = 'bets' RETURNING seq",
                )
                .bind(count_i64)
                .fetch_one(self.conn())
                .await?;
                Ok((highest - count_i64 + 1..=highest).collect())
            }
        }
    }

    /// The bets already placed with any of these `(user_id, client_ref)` keys.
    pub async fn bets_by_client_refs(&mut self, keys: &[(i64, &str)]) -> StoreResult<Vec<BetRow>> {
        let columns =
            BET_COLUMNS.split(", ").map(|c| format!("b.{c}")).collect::<Vec<_>>().join(", ");
        let mut found = Vec::new();
        for chunk in keys.chunks(ROWS_PER_STATEMENT) {
            // A join from the list (not `IN`) so that both engines look each key up in the
            // (user_id, client_ref) index.
            let sql = format!(
                "SELECT {columns} FROM (VALUES {}) AS k JOIN bets b ON b.user_id = k.column1 AND b.client_ref = k.column2",
                placeholders(chunk.len(), 2)
            );
            let mut query = sqlx::query(&sql);
            for (user_id, client_ref) in chunk {
                query = query.bind(*user_id).bind(*client_ref);
            }
            for row in query.fetch_all(self.conn()).await? {
                found.push(bet_from_row(&row)?);
            }
        }
        Ok(found)
    }

    /// Stores a batch's bets, several rows per statement. A `client_ref` the user already used
    /// fails the statement (the batch checked its keys first; only a race with another
    /// market's batch gets here).
    pub async fn insert_bets(&mut self, bets: &[BatchBet]) -> StoreResult<()> {
        for chunk in bets.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO bets (id, user_id, market_id, runner_id, side, price, line, stake_minor, matched_minor, \
                 remaining_minor, persistence, status, client_ref, request_hash, created_at_ms, \
                 customer_order_ref, customer_strategy_ref) VALUES {}",
                placeholders(chunk.len(), 17)
            );
            let mut query = sqlx::query(&sql);
            for bet in chunk {
                query = query
                    .bind(bet.bet_id)
                    .bind(bet.user_id)
                    .bind(bet.market_id)
                    .bind(bet.runner_id)
                    .bind(bet.side.as_str())
                    .bind(bet.price)
                    .bind(bet.line)
                    .bind(bet.stake_minor)
                    .bind(bet.matched_minor)
                    .bind(bet.remaining_minor)
                    .bind(bet.persistence.as_str())
                    .bind(BetStatus::live(bet.matched_minor, bet.remaining_minor).as_str())
                    .bind(bet.client_ref.as_deref())
                    .bind(bet.request_hash.as_str())
                    .bind(bet.created_at_ms)
                    .bind(bet.refs.order_ref.as_deref())
                    .bind(bet.refs.strategy_ref.as_deref());
            }
            query.execute(self.conn()).await?;
        }
        Ok(())
    }

    /// Stores fills, several rows per statement.
    pub async fn insert_fills(&mut self, fills: &[FillRow], now_ms: i64) -> StoreResult<()> {
        for chunk in fills.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO fills (market_id, runner_id, back_bet_id, lay_bet_id, price, size_minor, backer_profit_minor, created_at_ms) \
                 VALUES {}",
                placeholders(chunk.len(), 8)
            );
            let mut query = sqlx::query(&sql);
            for fill in chunk {
                query = query
                    .bind(fill.market_id)
                    .bind(fill.runner_id)
                    .bind(fill.back_bet_id)
                    .bind(fill.lay_bet_id)
                    .bind(fill.price)
                    .bind(fill.size_minor)
                    .bind(fill.backer_profit_minor)
                    .bind(now_ms);
            }
            query.execute(self.conn()).await?;
        }
        Ok(())
    }

    /// Records matching on several bets at once: per bet, `(bet_id, matched_minor more,
    /// remaining_minor now)`.
    pub async fn record_matches(&mut self, matches: &[(i64, i64, i64)]) -> StoreResult<()> {
        for chunk in matches.chunks(ROWS_PER_STATEMENT) {
            // A VALUES list names its columns column1, column2, … on both engines.
            let sql = format!(
                "UPDATE bets SET matched_minor = bets.matched_minor + v.column2, remaining_minor = v.column3, \
                 status = CASE WHEN v.column3 > 0 THEN 'open' ELSE 'matched' END \
                 FROM (VALUES {}) AS v WHERE bets.id = v.column1",
                placeholders(chunk.len(), 3)
            );
            let mut query = sqlx::query(&sql);
            for (bet_id, matched_minor, remaining_minor) in chunk {
                query = query.bind(*bet_id).bind(*matched_minor).bind(*remaining_minor);
            }
            query.execute(self.conn()).await?;
        }
        Ok(())
    }

    /// Moves a user's exposure in a market from `stored_minor` to `new_minor`, in the market's
    /// row and in their account's total (see [`Writer::change_exposure`] for the funds check).
    pub async fn set_exposure(
        &mut self,
        user_id: i64,
        market_id: i64,
        stored_minor: i64,
        new_minor: i64,
    ) -> StoreResult<()> {
        assert!(new_minor >= 0 && stored_minor >= 0, "exposure is never negative");
        if new_minor == stored_minor {
            return Ok(());
        }
        self.change_exposure(user_id, new_minor - stored_minor).await?;
        self.store_market_exposures(market_id, &[(user_id, new_minor)]).await
    }

    /// Changes a user's total exposure (over every market) by `delta_minor`. An increase is the
    /// funds check: it succeeds only if the account's available balance covers it (else
    /// `InsufficientFunds`) and the total stays within the user's exposure limit if the operator
    /// set one (else `ExposureLimit`); a refusal writes nothing.
    pub async fn change_exposure(&mut self, user_id: i64, delta_minor: i64) -> StoreResult<()> {
        if delta_minor == 0 {
            return Ok(());
        }
        let updated: Option<i64> = sqlx::query_scalar(
            "UPDATE ledger_accounts SET exposure_minor = exposure_minor + $1 \
             WHERE user_id = $2 AND ($1 <= 0 OR (balance_minor - exposure_minor - $1 >= 0 \
               AND exposure_minor + $1 <= COALESCE((SELECT max_exposure_minor FROM users WHERE id = $2), exposure_minor + $1))) \
             RETURNING id",
        )
        .bind(delta_minor)
        .bind(user_id)
        .fetch_optional(self.conn())
        .await?;
        if updated.is_some() {
            return Ok(());
        }
        let row = sqlx::query(
            "SELECT a.balance_minor - a.exposure_minor AS available_minor, a.exposure_minor, u.max_exposure_minor \
             FROM ledger_accounts a JOIN users u ON u.id = a.user_id WHERE a.user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.conn())
        .await?
        .ok_or(StoreError::NotFound)?;
        let available_minor: i64 = row.try_get("available_minor")?;
        let exposure_minor: i64 = row.try_get("exposure_minor")?;
        let limit: Option<i64> = row.try_get("max_exposure_minor")?;
        Err(match limit {
            Some(limit_minor)
                if exposure_minor + delta_minor > limit_minor && available_minor >= delta_minor =>
            {
                StoreError::ExposureLimit { limit_minor }
            }
            _ => StoreError::InsufficientFunds { available_minor },
        })
    }

    /// Adds to several users' total exposure in one statement: `(user_id, delta_minor)`. No
    /// funds check: the caller checked against funds it locked ([`Writer::lock_funds`]), or
    /// the deltas only lower exposure.
    pub async fn add_exposures(&mut self, deltas: &[(i64, i64)]) -> StoreResult<()> {
        for chunk in deltas.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "UPDATE ledger_accounts SET exposure_minor = ledger_accounts.exposure_minor + v.column2 \
                 FROM (VALUES {}) AS v WHERE ledger_accounts.user_id = v.column1",
                placeholders(chunk.len(), 2)
            );
            let mut query = sqlx::query(&sql);
            for (user_id, delta_minor) in chunk {
                query = query.bind(*user_id).bind(*delta_minor);
            }
            query.execute(self.conn()).await?;
        }
        Ok(())
    }

    /// Stores users' exposure in one market: `(user_id, exposure_minor)`. Their account totals
    /// are changed separately ([`Writer::change_exposure`], [`Writer::add_exposures`]).
    pub async fn store_market_exposures(
        &mut self,
        market_id: i64,
        rows: &[(i64, i64)],
    ) -> StoreResult<()> {
        assert!(rows.iter().all(|(_, exposure)| *exposure >= 0), "exposure is never negative");
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO market_exposures (user_id, market_id, exposure_minor) VALUES {} \
                 ON CONFLICT (user_id, market_id) DO UPDATE SET exposure_minor = excluded.exposure_minor",
                placeholders(chunk.len(), 3)
            );
            let mut query = sqlx::query(&sql);
            for (user_id, exposure_minor) in chunk {
                query = query.bind(*user_id).bind(market_id).bind(*exposure_minor);
            }
            query.execute(self.conn()).await?;
        }
        Ok(())
    }

    /// Stores each bet's profit or loss at settlement (before commission, which is taken on
    /// the user's net result in the market): `pnls` as (bet id, P&L) for the bets that made
    /// or lost money; every other bet of the market (unmatched, or void) gets 0.
    pub async fn set_bet_pnls(&mut self, market_id: i64, pnls: &[(i64, i64)]) -> StoreResult<()> {
        sqlx::query("UPDATE bets SET pnl_minor = 0 WHERE market_id = $1")
            .bind(market_id)
            .execute(self.conn())
            .await?;
        let pnls: Vec<(i64, i64)> = pnls.iter().copied().filter(|(_, pnl)| *pnl != 0).collect();
        for chunk in pnls.chunks(ROWS_PER_STATEMENT) {
            // A VALUES list names its columns column1, column2 on both engines.
            let sql = format!(
                "UPDATE bets SET pnl_minor = v.column2 FROM (VALUES {}) AS v WHERE bets.id = v.column1 AND bets.market_id = ${}",
                placeholders(chunk.len(), 2),
                chunk.len() * 2 + 1
            );
            let mut query = sqlx::query(&sql);
            for (bet_id, pnl_minor) in chunk {
                query = query.bind(*bet_id).bind(*pnl_minor);
            }
            let updated = query.bind(market_id).execute(self.conn()).await?.rows_affected();
            if updated != chunk.len() as u64 {
                // The caller computed P&Ls for bets that are not this market's: a bug, and the
                // settlement's transaction must not commit.
                return Err(StoreError::Database(sqlx::Error::Protocol(format!(
                    "{} of {} bets given a P&L are not bets of market {market_id}",
                    chunk.len() as u64 - updated,
                    chunk.len()
                ))));
            }
        }
        Ok(())
    }

    /// Marks a settled market's bets with the status (settled or void) and cancels what was
    /// still unmatched.
    pub async fn close_market_bets(
        &mut self,
        market_id: i64,
        status: BetStatus,
    ) -> StoreResult<()> {
        debug_assert!(matches!(status, BetStatus::Settled | BetStatus::Void));
        sqlx::query(
            "UPDATE bets SET cancelled_minor = cancelled_minor + remaining_minor, remaining_minor = 0, status = $1 \
             WHERE market_id = $2 AND status IN ('open', 'matched', 'closed')",
        )
        .bind(status.as_str())
        .bind(market_id)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Closes a market with its result once: `false` when it was already closed or void.
    /// `winners` are the winning runner or the placed runners, first placed first (none for a
    /// fancy or a void): they are marked `winner` and the market's other runners `loser`, so
    /// every placed runner stays on record, not only the first (`result_runner_id`).
    pub async fn record_market_result(
        &mut self,
        market_id: i64,
        status: MarketStatus,
        winners: &[i64],
        result_value: Option<i64>,
        now_ms: i64,
    ) -> StoreResult<bool> {
        debug_assert!(status.is_settled());
        let done = sqlx::query(
            "UPDATE markets SET status = $1, result_runner_id = $2, result_value = $3, settled_at_ms = $4 \
             WHERE id = $5 AND status NOT IN ('closed', 'void')",
        )
        .bind(status.as_str())
        .bind(winners.first().copied())
        .bind(result_value)
        .bind(now_ms)
        .bind(market_id)
        .execute(self.conn())
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        if !winners.is_empty() {
            sqlx::query(
                "UPDATE runners SET status = 'loser' WHERE market_id = $1 AND status = 'active'",
            )
            .bind(market_id)
            .execute(self.conn())
            .await?;
            // A place market's winners are few (fewer than its runners), one row each.
            for runner_id in winners {
                sqlx::query(
                    "UPDATE runners SET status = 'winner' WHERE id = $1 AND market_id = $2",
                )
                .bind(runner_id)
                .bind(market_id)
                .execute(self.conn())
                .await?;
            }
        }
        Ok(true)
    }
}

/// A bet with the names a report shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurrentBet {
    pub bet: BetRow,
    pub market_type: MarketType,
    pub market_name: String,
    pub match_id: i64,
    pub match_name: String,
    pub selection_name: Option<String>,
}

/// The bets of a report joined to their market, match and runner; a `WHERE` follows.
const NAMED_BETS_FROM: &str =
    "FROM bets b JOIN markets m ON m.id = b.market_id JOIN matches mt ON mt.id = m.match_id \
     LEFT JOIN runners r ON r.id = b.runner_id";

fn named_bet_columns() -> String {
    let columns = BET_COLUMNS.split(", ").map(|c| format!("b.{c}")).collect::<Vec<_>>().join(", ");
    format!(
        "{columns}, m.market_type, m.name AS market_name, mt.id AS match_id, mt.name AS match_name, \
         r.name AS selection_name"
    )
}

fn named_bets_from_rows(rows: &[AnyRow]) -> StoreResult<Vec<CurrentBet>> {
    rows.iter()
        .map(|row| {
            Ok(CurrentBet {
                bet: bet_from_row(row)?,
                market_type: named(row, "market_type")?,
                market_name: row.try_get("market_name")?,
                match_id: row.try_get("match_id")?,
                match_name: row.try_get("match_name")?,
                selection_name: row.try_get("selection_name")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

/// Which closed bets a history page holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettledBetsFilter {
    /// Placed at or after.
    pub from_ms: i64,
    /// Placed at or before.
    pub to_ms: i64,
    /// "" (all), "won", "lost" or "void".
    pub outcome: &'static str,
}

/// Most bets one market's settled-bets list returns: far more than a bettor places on one
/// market, and a bound on the answer.
pub const SETTLED_BETS_OF_MARKET_MAX: i64 = 1_000;

impl Store {
    /// A user's live bets (not settled), newest first: those with an unmatched part when
    /// `unmatched`, else those with a matched part.
    pub async fn current_bets(
        &self,
        user_id: i64,
        unmatched: bool,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<CurrentBet>, i64)> {
        let part = if unmatched { "b.remaining_minor > 0" } else { "b.matched_minor > 0" };
        let filter = format!(
            "{NAMED_BETS_FROM} WHERE b.user_id = $1 AND b.status IN ('open', 'matched') AND {part}"
        );
        let rows = sqlx::query(&format!(
            "SELECT {} {filter} ORDER BY b.id DESC LIMIT $2 OFFSET $3",
            named_bet_columns()
        ))
        .bind(user_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {filter}"))
            .bind(user_id)
            .fetch_one(self.pool())
            .await?;
        Ok((named_bets_from_rows(&rows)?, total))
    }

    /// A user's bets of one market that its settlement or void closed (settled or void),
    /// oldest first, at most [`SETTLED_BETS_OF_MARKET_MAX`]. Another user's bets are never
    /// read: an unknown market, or one where the user had no bet, gives an empty list.
    pub async fn settled_bets_of_market(
        &self,
        user_id: i64,
        market_id: i64,
    ) -> StoreResult<Vec<CurrentBet>> {
        let rows = sqlx::query(&format!(
            "SELECT {} {NAMED_BETS_FROM} WHERE b.user_id = $1 AND b.market_id = $2 \
             AND b.status IN ('settled', 'void') ORDER BY b.id LIMIT $3",
            named_bet_columns()
        ))
        .bind(user_id)
        .bind(market_id)
        .bind(SETTLED_BETS_OF_MARKET_MAX)
        .fetch_all(self.pool())
        .await?;
        named_bets_from_rows(&rows)
    }

    /// One page of a user's closed bets (settled or void), newest first, placed between two
    /// times, narrowed by outcome, and how many match.
    pub async fn settled_bets_page(
        &self,
        user_id: i64,
        filter: &SettledBetsFilter,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<CurrentBet>, i64)> {
        // $4: '' every closed bet, 'won' / 'lost' by the bet's own result, 'void'.
        let filter_sql = format!(
            "{NAMED_BETS_FROM} WHERE b.user_id = $1 AND b.status IN ('settled', 'void') \
             AND b.created_at_ms >= $2 AND b.created_at_ms <= $3 \
             AND ($4 = '' OR ($4 = 'void' AND b.status = 'void') \
                  OR ($4 = 'won' AND b.status = 'settled' AND COALESCE(b.pnl_minor, 0) > 0) \
                  OR ($4 = 'lost' AND b.status = 'settled' AND COALESCE(b.pnl_minor, 0) < 0))"
        );
        let rows = sqlx::query(&format!(
            "SELECT {} {filter_sql} ORDER BY b.id DESC LIMIT $5 OFFSET $6",
            named_bet_columns()
        ))
        .bind(user_id)
        .bind(filter.from_ms)
        .bind(filter.to_ms)
        .bind(filter.outcome)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {filter_sql}"))
            .bind(user_id)
            .bind(filter.from_ms)
            .bind(filter.to_ms)
            .bind(filter.outcome)
            .fetch_one(self.pool())
            .await?;
        Ok((named_bets_from_rows(&rows)?, total))
    }

    /// Σ price × size over each bet's fills (hundredths × minor units), by bet id, for their
    /// average matched prices; a bet without fills is absent. Sums are taken here in i128, not
    /// in SQL, where a large bet's Σ could pass i64.
    pub async fn matched_price_size_sums(
        &self,
        bet_ids: &[i64],
    ) -> StoreResult<BTreeMap<i64, i128>> {
        let summaries = self.fill_summaries(bet_ids).await?;
        Ok(summaries
            .into_iter()
            .map(|(bet_id, summary)| (bet_id, summary.price_size_sum))
            .collect())
    }
}

/// Most bets of one user in one market read for the Betfair stream's order changes: far more
/// than a bettor keeps in one market, and a bound on the read.
pub const BETS_OF_USER_IN_MARKET_MAX: i64 = 1_000;

/// What a bet's fills add up to: Σ price × size (hundredths × minor units, for the average
/// matched price) and when the last one was made.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FillSummary {
    pub price_size_sum: i128,
    pub last_fill_ms: i64,
}

impl Store {
    /// A user's bets in one market, oldest first, at most [`BETS_OF_USER_IN_MARKET_MAX`]
    /// (the Betfair stream re-reads them when the engine says they changed).
    pub async fn bets_of_user_in_market(
        &self,
        user_id: i64,
        market_id: i64,
    ) -> StoreResult<Vec<BetRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} FROM bets WHERE user_id = $1 AND market_id = $2 ORDER BY id LIMIT $3"
        ))
        .bind(user_id)
        .bind(market_id)
        .bind(BETS_OF_USER_IN_MARKET_MAX)
        .fetch_all(self.pool())
        .await?;
        bets_from_rows(&rows)
    }

    /// [`FillSummary`] by bet id; a bet without fills is absent.
    pub async fn fill_summaries(&self, bet_ids: &[i64]) -> StoreResult<BTreeMap<i64, FillSummary>> {
        let mut summaries: BTreeMap<i64, FillSummary> = BTreeMap::new();
        for chunk in bet_ids.chunks(ROWS_PER_STATEMENT) {
            let list = numbered(chunk.len());
            let sql = format!(
                "SELECT back_bet_id AS bet_id, price, size_minor, created_at_ms FROM fills WHERE back_bet_id IN ({list}) \
                 UNION ALL SELECT lay_bet_id AS bet_id, price, size_minor, created_at_ms FROM fills WHERE lay_bet_id IN ({list})"
            );
            let mut query = sqlx::query(&sql);
            for bet_id in chunk {
                query = query.bind(*bet_id);
            }
            for row in query.fetch_all(self.pool()).await? {
                let bet_id: i64 = row.try_get("bet_id")?;
                let price: i64 = row.try_get("price")?;
                let size_minor: i64 = row.try_get("size_minor")?;
                let at_ms: i64 = row.try_get("created_at_ms")?;
                let summary = summaries.entry(bet_id).or_default();
                summary.price_size_sum += i128::from(price) * i128::from(size_minor);
                summary.last_fill_ms = summary.last_fill_ms.max(at_ms);
            }
        }
        Ok(summaries)
    }

    /// The price of each runner's last fill in a market: `(runner_id, price)`.
    pub async fn last_traded_prices(&self, market_id: i64) -> StoreResult<Vec<(i64, i64)>> {
        let rows = sqlx::query(
            "SELECT runner_id, price FROM fills WHERE id IN \
             (SELECT MAX(id) FROM fills WHERE market_id = $1 GROUP BY runner_id)",
        )
        .bind(market_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("runner_id")?, row.try_get("price")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}
