//! A batch of placements, written in one transaction with the funds check: the accounts'
//! funds locked, the bets' ids reserved, a repeated `client_ref` found, then the bets, their
//! fills and what matched stored several rows per statement. And the later changes to a live
//! bet: a part cancelled or lapsed, its persistence.

use backlay_core::exchange::Persistence;
use backlay_core::safer::PeriodLimits;
use sqlx::Row;

use super::{bet_from_row, BetRow, BetStatus, FillRow, BET_COLUMNS};
use crate::sql::{numbered, placeholders, placeholders_from, ROWS_PER_STATEMENT};
use crate::{StoreResult, Writer};

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
    /// The lower of the bettor's own stake limit and the operator's tree-wide one, if any
    /// (`crate::safer`).
    pub own_stake_limit_minor: Option<i64>,
    /// The bettor's loss limits (`crate::safer`).
    pub loss_limits: PeriodLimits,
    /// With a loss limit: the play's net result (won minus lost) in the day, week and month
    /// now; zeros without one.
    pub play_net_minor: [i64; 3],
}

impl Writer {
    /// Whether this transaction's row locks are its own to order (PostgreSQL): what
    /// [`Writer::lock_funds`]'s `also_lock` is for. SQLite's one writer holds the whole database.
    pub fn locks_rows(&self) -> bool {
        self.engine == crate::Engine::Postgres
    }

    /// Reads the funds of `user_ids` and keeps them locked until the transaction ends, with the
    /// accounts of `also_lock` (PostgreSQL: `FOR UPDATE`, all taken at once in user order;
    /// SQLite: `BEGIN IMMEDIATE` already holds the one write lock). Users without an account
    /// are left out.
    ///
    /// `also_lock` is every other account the transaction may write (a placement batch: the
    /// makers its orders would meet). A row locked later, after these, could be held by another
    /// market's batch waiting for one of these: a deadlock, which PostgreSQL breaks only after
    /// its `deadlock_timeout` (1 s) by failing one of them (bench/RESULTS.md, ninth session).
    ///
    /// In a placement group (`group_commit`) the funds may have been read already, for every
    /// batch waiting, in one statement; the earlier batches' exposure changes, not yet
    /// written, are counted in.
    pub async fn lock_funds(
        &mut self,
        user_ids: &[i64],
        also_lock: &[i64],
    ) -> StoreResult<Vec<AccountFunds>> {
        let mut funds = match self.read_ahead_funds(user_ids) {
            Some(funds) => funds,
            None => {
                let (engine, locks) = (self.engine, self.locks_rows());
                let also_lock = if locks { also_lock } else { &[] };
                read_funds(self.reading(), engine, user_ids, also_lock).await?
            }
        };
        for account in &mut funds {
            account.exposure_minor += self.earlier_exposure_change(account.user_id);
        }
        Ok(funds)
    }

    /// Reserves `count` new bet ids, increasing, never given before and never given again
    /// once this transaction commits. PostgreSQL takes them from the column's sequence; SQLite
    /// moves AUTOINCREMENT's high-water mark past them. Ids reserved and never used are a gap
    /// in the numbering, nothing more: a placement batch that gives up its part of a group
    /// leaves its reservation in (`group_commit`).
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
                        .fetch_all(self.reading())
                        .await?;
                ids.sort_unstable();
                Ok(ids)
            }
            crate::Engine::Sqlite => {
                sqlx::query("INSERT INTO sqlite_sequence (name, seq) SELECT 'bets', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'bets')")
                    .execute(self.reading())
                    .await?;
                let highest: i64 = sqlx::query_scalar(
                    "UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT MAX(id) FROM bets), 0)) + $1 \
                     WHERE name = 'bets' RETURNING seq",
                )
                .bind(count_i64)
                .fetch_one(self.reading())
                .await?;
                Ok((highest - count_i64 + 1..=highest).collect())
            }
        }
    }

    /// The bets already placed with any of these `(user_id, client_ref)` keys, with what they
    /// matched so far. In a placement group (`group_commit`), the earlier batches' bets count:
    /// when one of them holds a key, or a bet found may have matched since in one of them, they
    /// are written first and the keys looked up again.
    pub async fn bets_by_client_refs(&mut self, keys: &[(i64, &str)]) -> StoreResult<Vec<BetRow>> {
        if self.earlier_batches_hold(keys) {
            self.write_earlier_batches().await?;
        }
        let found = match self.read_ahead_bets(keys) {
            Some(found) => found,
            None => {
                let engine = self.engine;
                read_bets_by_client_refs(self.reading(), engine, keys).await?
            }
        };
        if found.is_empty() || !self.earlier_batches_pending() {
            return Ok(found);
        }
        self.write_earlier_batches().await?;
        let engine = self.engine;
        read_bets_by_client_refs(self.reading(), engine, keys).await
    }

    /// Stores a batch's bets as given, every column, several rows per statement. Their ids were
    /// reserved ([`Writer::reserve_bet_ids`]) and what they matched is known by now. A
    /// `client_ref` the user already used fails the statement (the batch checked its keys
    /// first; only a race with another market's batch gets here). A placement batch sharing
    /// its group's transaction defers it to the group's end (`group_commit`).
    pub async fn insert_bets(&mut self, bets: &[BetRow]) -> StoreResult<()> {
        // A new bet is live and whole: matched and unmatched make its stake, and its status is
        // theirs (the engine computes them; a wrong row here would misstate money).
        assert!(
            bets.iter().all(|bet| bet.matched_minor + bet.remaining_minor == bet.stake_minor
                && bet.cancelled_minor == 0
                && bet.lapsed_minor == 0
                && bet.pnl_minor.is_none()
                && bet.status == BetStatus::live(bet.matched_minor, bet.remaining_minor)),
            "a new bet's matched and unmatched parts make its stake, and its status is theirs"
        );
        if let Some(deferred) = self.deferred() {
            deferred.bets.extend_from_slice(bets);
            return Ok(());
        }
        let engine = self.engine;
        BETS.write(self.conn(), engine, bets).await
    }

    /// Stores fills, several rows per statement (deferred like [`Writer::insert_bets`]).
    pub async fn insert_fills(&mut self, fills: &[FillRow], now_ms: i64) -> StoreResult<()> {
        let fills = fills.iter().map(|fill| (fill.clone(), now_ms));
        if let Some(deferred) = self.deferred() {
            deferred.fills.extend(fills);
            return Ok(());
        }
        let engine = self.engine;
        FILLS.write(self.conn(), engine, &fills.collect::<Vec<_>>()).await
    }

    /// Records matching on several bets at once: per bet, `(bet_id, matched_minor more,
    /// remaining_minor now)` (deferred like [`Writer::insert_bets`]).
    pub async fn record_matches(&mut self, matches: &[(i64, i64, i64)]) -> StoreResult<()> {
        if let Some(deferred) = self.deferred() {
            deferred.matches.extend_from_slice(matches);
            return Ok(());
        }
        let engine = self.engine;
        MATCHES.write(self.conn(), engine, matches).await
    }

    /// Σ price × size over a bet's fills (hundredths × minor units), for its average price.
    pub async fn matched_price_size_sum(&mut self, bet_id: i64) -> StoreResult<i128> {
        self.write_earlier_batches().await?;
        let rows = sqlx::query(
            "SELECT price, size_minor FROM fills WHERE back_bet_id = $1 OR lay_bet_id = $1",
        )
        .bind(bet_id)
        .fetch_all(self.reading())
        .await?;
        let mut sum: i128 = 0;
        for row in &rows {
            sum += i128::from(row.try_get::<i64, _>("price")?)
                * i128::from(row.try_get::<i64, _>("size_minor")?);
        }
        Ok(sum)
    }

    /// Takes `size_minor` off a bet's unmatched part, as cancelled or lapsed, at `now_ms`
    /// (the bet's `closed_at_ms`, by which Bet History lists it).
    pub async fn record_unmatched_removal(
        &mut self,
        bet_id: i64,
        size_minor: i64,
        lapsed: bool,
        now_ms: i64,
    ) -> StoreResult<()> {
        let column = if lapsed { "lapsed_minor" } else { "cancelled_minor" };
        sqlx::query(&format!(
            "UPDATE bets SET {column} = {column} + $1, remaining_minor = remaining_minor - $1, \
             status = CASE WHEN remaining_minor - $1 > 0 THEN 'open' WHEN matched_minor > 0 THEN 'matched' ELSE 'closed' END, \
             closed_at_ms = $3 WHERE id = $2"
        ))
        .bind(size_minor)
        .bind(bet_id)
        .bind(now_ms)
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
}

/// A query being built, its values bound in turn.
pub(crate) type AnyQuery<'q> = sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>;

/// One table's rows as a placement writes them: the statement around a `VALUES` list, how
/// many values each row binds and how. Written a table at a time ([`RowWrite::write`]), or a
/// batch's tables together in one statement (PostgreSQL, `group_commit`'s `Deferred`).
pub(crate) struct RowWrite<T> {
    pub(crate) columns: usize,
    pub(crate) sql: fn(&str) -> String,
    pub(crate) bind: for<'q> fn(AnyQuery<'q>, &'q T) -> AnyQuery<'q>,
}

impl<T> RowWrite<T> {
    /// Writes `rows`, [`ROWS_PER_STATEMENT`] a statement.
    pub(crate) async fn write(
        &self,
        conn: &mut sqlx::AnyConnection,
        engine: crate::Engine,
        rows: &[T],
    ) -> StoreResult<()> {
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let text = (self.sql)(&placeholders(engine, chunk.len(), self.columns));
            self.bind_all(sqlx::query(&text), chunk).execute(&mut *conn).await?;
        }
        Ok(())
    }

    /// The statement for `rows` rows on PostgreSQL, its placeholders numbered from `*next`,
    /// which moves past them: one part of a statement that writes several tables.
    pub(crate) fn part(&self, rows: usize, next: &mut usize) -> String {
        let text =
            (self.sql)(&placeholders_from(crate::Engine::Postgres, *next, rows, self.columns));
        *next += rows * self.columns;
        text
    }

    /// Binds the values of `rows`, in order.
    pub(crate) fn bind_all<'q>(&self, mut query: AnyQuery<'q>, rows: &'q [T]) -> AnyQuery<'q> {
        for row in rows {
            query = (self.bind)(query, row);
        }
        query
    }
}

/// New bets, every column.
pub(crate) const BETS: RowWrite<BetRow> =
    RowWrite { columns: 20, sql: insert_bets_sql, bind: bind_bet };

/// Fills, each with the time it was made.
pub(crate) const FILLS: RowWrite<(FillRow, i64)> =
    RowWrite { columns: 8, sql: insert_fills_sql, bind: bind_fill };

/// Matching on bets stored before: `(bet_id, matched_minor more, remaining_minor now)`, a bet
/// once (one UPDATE … FROM would apply only one of its rows).
pub(crate) const MATCHES: RowWrite<(i64, i64, i64)> =
    RowWrite { columns: 3, sql: record_matches_sql, bind: bind_three };

fn insert_bets_sql(values: &str) -> String {
    format!("INSERT INTO bets ({BET_COLUMNS}) VALUES {values}")
}

fn bind_bet<'q>(query: AnyQuery<'q>, bet: &'q BetRow) -> AnyQuery<'q> {
    query
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
        .bind(bet.cancelled_minor)
        .bind(bet.lapsed_minor)
        .bind(bet.persistence.as_str())
        .bind(bet.status.as_str())
        .bind(bet.pnl_minor)
        .bind(bet.client_ref.as_deref())
        .bind(bet.request_hash.as_deref())
        .bind(bet.created_at_ms)
        .bind(bet.refs.order_ref.as_deref())
        .bind(bet.refs.strategy_ref.as_deref())
}

fn insert_fills_sql(values: &str) -> String {
    format!(
        "INSERT INTO fills (market_id, runner_id, back_bet_id, lay_bet_id, price, size_minor, backer_profit_minor, created_at_ms) \
         VALUES {values}"
    )
}

fn bind_fill<'q>(query: AnyQuery<'q>, (fill, created_at_ms): &'q (FillRow, i64)) -> AnyQuery<'q> {
    query
        .bind(fill.market_id)
        .bind(fill.runner_id)
        .bind(fill.back_bet_id)
        .bind(fill.lay_bet_id)
        .bind(fill.price)
        .bind(fill.size_minor)
        .bind(fill.backer_profit_minor)
        .bind(*created_at_ms)
}

fn record_matches_sql(values: &str) -> String {
    // A VALUES list names its columns column1, column2, … on both engines.
    format!(
        "UPDATE bets SET matched_minor = bets.matched_minor + v.column2, remaining_minor = v.column3, \
         status = CASE WHEN v.column3 > 0 THEN 'open' ELSE 'matched' END \
         FROM (VALUES {values}) AS v WHERE bets.id = v.column1"
    )
}

pub(crate) fn bind_three<'q>(query: AnyQuery<'q>, (a, b, c): &'q (i64, i64, i64)) -> AnyQuery<'q> {
    query.bind(*a).bind(*b).bind(*c)
}

/// The statement behind [`Writer::lock_funds`], on `conn`: the funds of `user_ids` in user
/// order, with the accounts of `also_lock` locked too (`FOR UPDATE` on PostgreSQL). Also how
/// a placement group reads the funds of every batch waiting at once (`group_commit`).
pub(crate) async fn read_funds(
    conn: &mut sqlx::AnyConnection,
    engine: crate::Engine,
    user_ids: &[i64],
    also_lock: &[i64],
) -> StoreResult<Vec<AccountFunds>> {
    let mut wanted = user_ids.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    let mut sorted = wanted.clone();
    sorted.extend_from_slice(also_lock);
    sorted.sort_unstable();
    sorted.dedup();
    let mut funds = Vec::with_capacity(wanted.len());
    for chunk in sorted.chunks(ROWS_PER_STATEMENT) {
        let list = numbered(chunk.len());
        let lock = if engine == crate::Engine::Postgres { " FOR UPDATE OF a" } else { "" };
        let sql = format!(
            "SELECT a.user_id, a.balance_minor, a.exposure_minor, u.max_exposure_minor, \
             u.is_bet_locked, u.is_locked, u.locked_by_user_id, u.bet_locked_by_user_id, \
             u.max_stake_minor, l.stake_minor AS own_stake_minor, d.max_stake_minor AS tree_stake_minor, \
             l.loss_day_minor, l.loss_week_minor, l.loss_month_minor \
             FROM ledger_accounts a JOIN users u ON u.id = a.user_id \
             LEFT JOIN user_limits l ON l.user_id = a.user_id LEFT JOIN safer_defaults d ON d.id = 1 \
             WHERE a.user_id IN ({list}) ORDER BY a.user_id{lock}"
        );
        let mut query = sqlx::query(&sql);
        for user_id in chunk {
            query = query.bind(*user_id);
        }
        for row in query.fetch_all(&mut *conn).await? {
            let user_id: i64 = row.try_get("user_id")?;
            if wanted.binary_search(&user_id).is_err() {
                continue; // locked only
            }
            funds.push(AccountFunds {
                user_id,
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
                own_stake_limit_minor: [
                    row.try_get::<Option<i64>, _>("own_stake_minor")?,
                    row.try_get::<Option<i64>, _>("tree_stake_minor")?,
                ]
                .into_iter()
                .flatten()
                .min(),
                loss_limits: PeriodLimits {
                    day: row.try_get("loss_day_minor")?,
                    week: row.try_get("loss_week_minor")?,
                    month: row.try_get("loss_month_minor")?,
                },
                play_net_minor: [0; 3],
            });
        }
    }
    // The loss limits count the play's results: read only for the bettors who have one.
    let limited: Vec<i64> =
        funds.iter().filter(|f| f.loss_limits.any()).map(|f| f.user_id).collect();
    if !limited.is_empty() {
        let nets = crate::safer::play_nets(conn, &limited, crate::safer::wall_clock_ms()).await?;
        for account in &mut funds {
            if let Some(net) = nets.get(&account.user_id) {
                account.play_net_minor = *net;
            }
        }
    }
    Ok(funds)
}

/// The statement behind [`Writer::bets_by_client_refs`]: the bets placed with any of these
/// `(user_id, client_ref)` keys.
pub(crate) async fn read_bets_by_client_refs(
    conn: &mut sqlx::AnyConnection,
    engine: crate::Engine,
    keys: &[(i64, &str)],
) -> StoreResult<Vec<BetRow>> {
    let columns = BET_COLUMNS.split(", ").map(|c| format!("b.{c}")).collect::<Vec<_>>().join(", ");
    let mut found = Vec::new();
    for chunk in keys.chunks(ROWS_PER_STATEMENT) {
        // A join from the list (not `IN`) so that both engines look each key up in the
        // (user_id, client_ref) index.
        let sql = format!(
            "SELECT {columns} FROM (VALUES {}) AS k JOIN bets b ON b.user_id = k.column1 AND b.client_ref = k.column2",
            placeholders(engine, chunk.len(), 2)
        );
        let mut query = sqlx::query(&sql);
        for (user_id, client_ref) in chunk {
            query = query.bind(*user_id).bind(*client_ref);
        }
        for row in query.fetch_all(&mut *conn).await? {
            found.push(bet_from_row(&row)?);
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `bind_bet` binds one value per column of `BET_COLUMNS`, in its order.
    #[test]
    fn a_bet_binds_one_value_per_column() {
        assert_eq!(BET_COLUMNS.split(", ").count(), BETS.columns);
    }
}
