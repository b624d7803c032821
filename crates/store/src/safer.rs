//! Safer gambling's records (issue 33, migration 0030): the limits a bettor set and the changes
//! waiting out their cooling-off, the operator's defaults, time-outs and self-exclusions, the
//! log-in history, and the sums a limit is checked against: the play's net result and the
//! deposits in each period. The rules are `backlay_core::safer`'s; the API and the engine
//! apply them.
//!
//! What a bet is checked against is read with the account's funds, locked
//! ([`crate::bets::AccountFunds`]): the stake limit and the loss limits come in the same
//! statement, and the play's net results in one more only when a bettor of the batch has a
//! loss limit. So bets at once from one bettor are checked one after the other, each seeing the
//! exposure the ones before reserved, and together never lose more than the limit.

use std::collections::HashMap;

use backlay_core::safer::{period_start_ms, LimitKind, Period, PeriodLimits};
use sqlx::Row;

use crate::ledger::TransactionKind;
use crate::sql::numbered;
use crate::{Store, StoreResult, Writer};

/// The limits a bettor has in force (none set: all `None`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub deposit: PeriodLimits,
    pub loss: PeriodLimits,
    pub stake_minor: Option<i64>,
    pub session_minutes: Option<i64>,
}

impl Limits {
    /// The limit of `kind` (for `period` where the kind has periods).
    pub fn get(&self, kind: LimitKind, period: Option<Period>) -> Option<i64> {
        match (kind, period) {
            (LimitKind::Deposit, Some(period)) => self.deposit.get(period),
            (LimitKind::Loss, Some(period)) => self.loss.get(period),
            (LimitKind::Stake, _) => self.stake_minor,
            (LimitKind::Session, _) => self.session_minutes,
            (LimitKind::Deposit | LimitKind::Loss, None) => None,
        }
    }

    /// Sets the limit of `kind` (for `period` where the kind has periods).
    pub fn set(&mut self, kind: LimitKind, period: Option<Period>, value: Option<i64>) {
        fn slot(limits: &mut PeriodLimits, period: Period) -> &mut Option<i64> {
            match period {
                Period::Day => &mut limits.day,
                Period::Week => &mut limits.week,
                Period::Month => &mut limits.month,
            }
        }
        match (kind, period) {
            (LimitKind::Deposit, Some(period)) => *slot(&mut self.deposit, period) = value,
            (LimitKind::Loss, Some(period)) => *slot(&mut self.loss, period) = value,
            (LimitKind::Stake, _) => self.stake_minor = value,
            (LimitKind::Session, _) => self.session_minutes = value,
            (LimitKind::Deposit | LimitKind::Loss, None) => {}
        }
    }
}

/// The columns of `user_limits` [`limits_from_row`] reads, prefixed by `alias.`.
pub(crate) fn limit_columns_of(alias: &str) -> String {
    LIMIT_COLUMNS.iter().map(|c| format!("{alias}.{c}")).collect::<Vec<_>>().join(", ")
}

const LIMIT_COLUMNS: [&str; 8] = [
    "deposit_day_minor",
    "deposit_week_minor",
    "deposit_month_minor",
    "loss_day_minor",
    "loss_week_minor",
    "loss_month_minor",
    "stake_minor",
    "session_minutes",
];

pub(crate) fn limits_from_row(row: &sqlx::any::AnyRow) -> Result<Limits, sqlx::Error> {
    let get = |column: &str| row.try_get::<Option<i64>, _>(column);
    Ok(Limits {
        deposit: PeriodLimits {
            day: get("deposit_day_minor")?,
            week: get("deposit_week_minor")?,
            month: get("deposit_month_minor")?,
        },
        loss: PeriodLimits {
            day: get("loss_day_minor")?,
            week: get("loss_week_minor")?,
            month: get("loss_month_minor")?,
        },
        stake_minor: get("stake_minor")?,
        session_minutes: get("session_minutes")?,
    })
}

/// A change of limit waiting out its cooling-off, then the bettor's confirmation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingLimit {
    pub kind: LimitKind,
    pub period: Option<Period>,
    /// `None`: the limit removed.
    pub value: Option<i64>,
    pub requested_at_ms: i64,
    pub effective_at_ms: i64,
}

/// The operator's safer-gambling settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaferDefaults {
    /// A daily loss limit every new account starts with.
    pub default_loss_day_minor: Option<i64>,
    /// The most any bet in the tree may stake.
    pub max_stake_minor: Option<i64>,
}

backlay_core::named_enum! {
    /// A break from betting the bettor chose, which nobody can lift before it ends.
    pub enum BlockKind as "block kind" {
        TimeOut = "time_out",
        SelfExclusion = "self_exclusion",
    }
}

/// A time-out or self-exclusion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub kind: BlockKind,
    /// Its length as chosen (`24h`, `6m`, …).
    pub period: String,
    pub started_at_ms: i64,
    pub until_ms: i64,
}

backlay_core::named_enum! {
    /// How a log-in attempt of a known account ended.
    pub enum LoginResult as "log-in result" {
        Ok = "ok",
        WrongPassword = "wrong_password",
        WrongCode = "wrong_code",
        Locked = "locked",
        TimedOut = "timed_out",
        SelfExcluded = "self_excluded",
    }
}

/// The device a log-in came from, as its User-Agent names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoginDevice {
    /// As the history and the sessions show it: "Chrome 131 on Windows 10".
    pub name: String,
    /// The name without the browser's version ("Chrome on Windows 10"): a successful log-in of
    /// a family the account has not logged in from before is a new device (a notice), and a
    /// browser's update is not.
    pub family: String,
}

/// One log-in attempt as the history lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoginRecord {
    pub at_ms: i64,
    pub client_ip: Option<String>,
    pub device: String,
    pub result: LoginResult,
}

/// A live session as `user/sessions` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveSession {
    pub session_id: i64,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
    pub client_ip: Option<String>,
    pub device: String,
    pub kind: String,
}

/// How long the log-in history keeps an attempt.
pub const LOGIN_HISTORY_KEPT_MS: i64 = 365 * 24 * 60 * 60 * 1000;

/// `user_id`'s limits, on `conn`.
async fn read_limits(conn: &mut sqlx::AnyConnection, user_id: i64) -> StoreResult<Limits> {
    let sql = format!("SELECT {} FROM user_limits l WHERE l.user_id = $1", limit_columns_of("l"));
    let row = sqlx::query(&sql).bind(user_id).fetch_optional(conn).await?;
    Ok(match row {
        Some(row) => limits_from_row(&row)?,
        None => Limits::default(),
    })
}

/// The break `user_id` is on at `now_ms` (the one ending last), on `conn`.
async fn read_active_block(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    now_ms: i64,
) -> StoreResult<Option<Block>> {
    let row = sqlx::query(
        "SELECT kind, period, started_at_ms, until_ms FROM account_blocks \
         WHERE user_id = $1 AND until_ms > $2 ORDER BY until_ms DESC LIMIT 1",
    )
    .bind(user_id)
    .bind(now_ms)
    .fetch_optional(conn)
    .await?;
    let Some(row) = row else { return Ok(None) };
    Ok(Some(Block {
        kind: crate::named(&row, "kind")?,
        period: row.try_get("period")?,
        started_at_ms: row.try_get("started_at_ms")?,
        until_ms: row.try_get("until_ms")?,
    }))
}

/// The transaction kinds that are play: a loss limit counts their entries (won minus lost).
/// Deposits, withdrawals, minting and cash settled are money moved, not won or lost.
pub const PLAY_KINDS: [TransactionKind; 5] = [
    TransactionKind::Settlement,
    TransactionKind::Void,
    TransactionKind::ResultCorrected,
    TransactionKind::Casino,
    TransactionKind::LiveCasino,
];

/// The starts of the day, week and month holding `now_ms`, in [`Period::ALL`]'s order.
pub fn period_starts(now_ms: i64) -> [i64; 3] {
    [Period::Day, Period::Week, Period::Month].map(|period| period_start_ms(period, now_ms))
}

/// Wall-clock now: what the periods of a loss limit checked inside a placement are counted to.
pub(crate) fn wall_clock_ms() -> i64 {
    let since =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
}

/// Each of `user_ids`' play's net result (won minus lost) in the day, week and month holding
/// `now_ms`, on `conn`; a user who played nothing since the week or month began is absent.
pub(crate) async fn play_nets(
    conn: &mut sqlx::AnyConnection,
    user_ids: &[i64],
    now_ms: i64,
) -> StoreResult<HashMap<i64, [i64; 3]>> {
    let mut nets = HashMap::new();
    let [day, week, month] = period_starts(now_ms);
    for chunk in user_ids.chunks(crate::sql::ROWS_PER_STATEMENT) {
        let n = chunk.len();
        // A week may begin in the month before: the entries read start at the earlier.
        let sql = format!(
            "SELECT a.user_id, \
             CAST(SUM(CASE WHEN e.created_at_ms >= ${d} THEN e.amount_minor ELSE 0 END) AS BIGINT) AS net_day, \
             CAST(SUM(CASE WHEN e.created_at_ms >= ${w} THEN e.amount_minor ELSE 0 END) AS BIGINT) AS net_week, \
             CAST(SUM(CASE WHEN e.created_at_ms >= ${m} THEN e.amount_minor ELSE 0 END) AS BIGINT) AS net_month \
             FROM ledger_accounts a JOIN ledger_entries e ON e.account_id = a.id \
             JOIN ledger_transactions t ON t.id = e.transaction_id \
             WHERE a.user_id IN ({list}) AND e.created_at_ms >= ${from} AND t.kind IN ({kinds}) \
             GROUP BY a.user_id",
            list = numbered(n),
            d = n + 1,
            w = n + 2,
            m = n + 3,
            from = n + 4,
            kinds = play_kinds(),
        );
        let mut query = sqlx::query(&sql);
        for user_id in chunk {
            query = query.bind(*user_id);
        }
        let query = query.bind(day).bind(week).bind(month).bind(week.min(month));
        for row in query.fetch_all(&mut *conn).await? {
            let user_id: i64 = row.try_get("user_id")?;
            nets.insert(
                user_id,
                [row.try_get("net_day")?, row.try_get("net_week")?, row.try_get("net_month")?],
            );
        }
    }
    Ok(nets)
}

/// [`PLAY_KINDS`] quoted for an `IN (…)`.
fn play_kinds() -> String {
    crate::sql::quoted(PLAY_KINDS.map(TransactionKind::as_str))
}

impl Store {
    /// The limits `user_id` has in force.
    pub async fn limits(&self, user_id: i64) -> StoreResult<Limits> {
        read_limits(&mut *self.pool().acquire().await?, user_id).await
    }

    /// The changes of `user_id`'s limits waiting, oldest first.
    pub async fn pending_limits(&self, user_id: i64) -> StoreResult<Vec<PendingLimit>> {
        let rows = sqlx::query(
            "SELECT kind, period, value_minor, requested_at_ms, effective_at_ms FROM pending_limits \
             WHERE user_id = $1 ORDER BY requested_at_ms, kind, period",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let period: String = row.try_get("period")?;
                Ok(PendingLimit {
                    kind: crate::named(row, "kind")?,
                    period: if period.is_empty() {
                        None
                    } else {
                        Some(crate::named(row, "period")?)
                    },
                    value: row.try_get("value_minor")?,
                    requested_at_ms: row.try_get("requested_at_ms")?,
                    effective_at_ms: row.try_get("effective_at_ms")?,
                })
            })
            .collect()
    }

    /// The operator's safer-gambling settings.
    pub async fn safer_defaults(&self) -> StoreResult<SaferDefaults> {
        let row = sqlx::query(
            "SELECT default_loss_day_minor, max_stake_minor FROM safer_defaults WHERE id = 1",
        )
        .fetch_optional(self.pool())
        .await?;
        Ok(match row {
            Some(row) => SaferDefaults {
                default_loss_day_minor: row.try_get("default_loss_day_minor")?,
                max_stake_minor: row.try_get("max_stake_minor")?,
            },
            None => SaferDefaults::default(),
        })
    }

    /// `user_id`'s play's net result (won minus lost) in the day, week and month holding
    /// `now_ms`.
    pub async fn play_net(&self, user_id: i64, now_ms: i64) -> StoreResult<[i64; 3]> {
        let mut conn = self.pool().acquire().await?;
        Ok(play_nets(&mut conn, &[user_id], now_ms).await?.remove(&user_id).unwrap_or([0; 3]))
    }

    /// `user_id`'s play's net result since `since_ms` (a session's, for its reality check).
    pub async fn play_net_since(&self, user_id: i64, since_ms: i64) -> StoreResult<i64> {
        let kinds = play_kinds();
        let sql = format!(
            "SELECT CAST(COALESCE(SUM(e.amount_minor), 0) AS BIGINT) FROM ledger_accounts a \
             JOIN ledger_entries e ON e.account_id = a.id JOIN ledger_transactions t ON t.id = e.transaction_id \
             WHERE a.user_id = $1 AND e.created_at_ms >= $2 AND t.kind IN ({kinds})"
        );
        Ok(sqlx::query_scalar(&sql).bind(user_id).bind(since_ms).fetch_one(self.pool()).await?)
    }

    /// The time-out or self-exclusion `user_id` is under at `now_ms`, the one ending last.
    pub async fn active_block(&self, user_id: i64, now_ms: i64) -> StoreResult<Option<Block>> {
        read_active_block(&mut *self.pool().acquire().await?, user_id, now_ms).await
    }

    /// When the self-exclusion of some account with this mobile number ends, if one lasts at
    /// `now_ms`: the number cannot open another account until then.
    pub async fn mobile_excluded_until(
        &self,
        dial_code: &str,
        mobile: &str,
        now_ms: i64,
    ) -> StoreResult<Option<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT MAX(until_ms) FROM account_blocks WHERE mobile = $1 AND dial_code = $2 \
             AND kind = 'self_exclusion' AND until_ms > $3",
        )
        .bind(mobile)
        .bind(dial_code)
        .bind(now_ms)
        .fetch_one(self.pool())
        .await?)
    }

    /// Records a log-in attempt of a known account ([`Writer::record_login`]).
    pub async fn record_login(
        &self,
        user_id: i64,
        now_ms: i64,
        client_ip: Option<&str>,
        device: &LoginDevice,
        result: LoginResult,
    ) -> StoreResult<()> {
        let mut writer = self.begin_write().await?;
        writer.record_login(user_id, now_ms, client_ip, device, result).await?;
        writer.commit().await?;
        Ok(())
    }

    /// A page of `user_id`'s log-in attempts, newest first, and how many there are.
    pub async fn login_history(
        &self,
        user_id: i64,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<LoginRecord>, i64)> {
        let total: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM login_history WHERE user_id = $1")
                .bind(user_id)
                .fetch_one(self.pool())
                .await?;
        let rows = sqlx::query(
            "SELECT at_ms, client_ip, device, result FROM login_history WHERE user_id = $1 \
             ORDER BY id DESC LIMIT $2 OFFSET $3",
        )
        .bind(user_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let records = rows
            .iter()
            .map(|row| {
                Ok(LoginRecord {
                    at_ms: row.try_get("at_ms")?,
                    client_ip: row.try_get("client_ip")?,
                    device: row.try_get("device")?,
                    result: crate::named(row, "result")?,
                })
            })
            .collect::<StoreResult<_>>()?;
        Ok((records, total))
    }

    /// When session `session_id` began and when it ends.
    pub async fn session_times(&self, session_id: i64) -> StoreResult<(i64, i64)> {
        let row = sqlx::query("SELECT created_at_ms, expires_at_ms FROM sessions WHERE id = $1")
            .bind(session_id)
            .fetch_one(self.pool())
            .await?;
        Ok((row.try_get("created_at_ms")?, row.try_get("expires_at_ms")?))
    }

    /// `user_id`'s live sessions at `now_ms`, newest first.
    pub async fn live_sessions(&self, user_id: i64, now_ms: i64) -> StoreResult<Vec<LiveSession>> {
        let rows = sqlx::query(
            "SELECT id, created_at_ms, expires_at_ms, client_ip, device, kind FROM sessions \
             WHERE user_id = $1 AND revoked_at_ms IS NULL AND expires_at_ms > $2 ORDER BY id DESC LIMIT 100",
        )
        .bind(user_id)
        .bind(now_ms)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(LiveSession {
                    session_id: row.try_get("id")?,
                    created_at_ms: row.try_get("created_at_ms")?,
                    expires_at_ms: row.try_get("expires_at_ms")?,
                    client_ip: row.try_get("client_ip")?,
                    device: row.try_get("device")?,
                    kind: row.try_get("kind")?,
                })
            })
            .collect()
    }

    /// Deposits into `user_id`'s account in the day, week and month holding `now_ms`: those an
    /// agent or an approval made, and the deposit requests still waiting to be decided.
    pub async fn deposits_in_periods(&self, user_id: i64, now_ms: i64) -> StoreResult<[i64; 3]> {
        let mut conn = self.pool().acquire().await?;
        deposits_in_periods(&mut conn, user_id, now_ms).await
    }
}

/// [`Store::deposits_in_periods`] on `conn`.
pub(crate) async fn deposits_in_periods(
    conn: &mut sqlx::AnyConnection,
    user_id: i64,
    now_ms: i64,
) -> StoreResult<[i64; 3]> {
    let [day, week, month] = period_starts(now_ms);
    let earliest = week.min(month);
    let row = sqlx::query(
        "SELECT \
         CAST(COALESCE(SUM(CASE WHEN at_ms >= $2 THEN amount_minor ELSE 0 END), 0) AS BIGINT) AS in_day, \
         CAST(COALESCE(SUM(CASE WHEN at_ms >= $3 THEN amount_minor ELSE 0 END), 0) AS BIGINT) AS in_week, \
         CAST(COALESCE(SUM(CASE WHEN at_ms >= $4 THEN amount_minor ELSE 0 END), 0) AS BIGINT) AS in_month \
         FROM ( \
           SELECT e.created_at_ms AS at_ms, e.amount_minor FROM ledger_accounts a \
           JOIN ledger_entries e ON e.account_id = a.id JOIN ledger_transactions t ON t.id = e.transaction_id \
           WHERE a.user_id = $1 AND t.kind = 'deposit' AND e.amount_minor > 0 AND e.created_at_ms >= $5 \
           UNION ALL \
           SELECT created_at_ms AS at_ms, amount_minor FROM payment_requests \
           WHERE user_id = $1 AND kind = 'deposit' AND status IN ('pending', 'processing') AND created_at_ms >= $5 \
         ) d",
    )
    .bind(user_id)
    .bind(day)
    .bind(week)
    .bind(month)
    .bind(earliest)
    .fetch_one(&mut *conn)
    .await?;
    Ok([row.try_get("in_day")?, row.try_get("in_week")?, row.try_get("in_month")?])
}

impl Writer {
    /// Records a log-in attempt of a known account, and forgets its attempts older than
    /// [`LOGIN_HISTORY_KEPT_MS`].
    pub async fn record_login(
        &mut self,
        user_id: i64,
        now_ms: i64,
        client_ip: Option<&str>,
        device: &LoginDevice,
        result: LoginResult,
    ) -> StoreResult<()> {
        // Written with the log-in, so the notice exists exactly when the log-in does.
        if result == LoginResult::Ok && self.is_new_device(user_id, &device.family).await? {
            self.insert_new_device_notice(user_id, &device.name, client_ip, now_ms).await?;
        }
        sqlx::query(
            "INSERT INTO login_history (user_id, at_ms, client_ip, device, device_family, result) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(user_id)
        .bind(now_ms)
        .bind(client_ip)
        .bind(&device.name)
        .bind(&device.family)
        .bind(result.as_str())
        .execute(self.conn())
        .await?;
        sqlx::query("DELETE FROM login_history WHERE user_id = $1 AND at_ms < $2")
            .bind(user_id)
            .bind(now_ms - LOGIN_HISTORY_KEPT_MS)
            .execute(self.conn())
            .await?;
        Ok(())
    }

    /// Whether a successful log-in from `family` would be the account's first from it, but not
    /// its first log-in of all (the first device is not news to its owner).
    async fn is_new_device(&mut self, user_id: i64, family: &str) -> StoreResult<bool> {
        let row = sqlx::query(
            "SELECT (SELECT MIN(id) FROM login_history WHERE user_id = $1 AND result = 'ok') AS any_ok, \
             (SELECT MIN(id) FROM login_history WHERE user_id = $1 AND result = 'ok' \
             AND device_family = $2) AS family_ok",
        )
        .bind(user_id)
        .bind(family)
        .fetch_one(self.conn())
        .await?;
        let logged_in_before = row.try_get::<Option<i64>, _>("any_ok")?.is_some();
        let seen = row.try_get::<Option<i64>, _>("family_ok")?.is_some();
        Ok(logged_in_before && !seen)
    }

    /// Stores `user_id`'s limits whole.
    pub async fn save_limits(
        &mut self,
        user_id: i64,
        limits: &Limits,
        now_ms: i64,
    ) -> StoreResult<()> {
        let set = LIMIT_COLUMNS.iter().map(|c| format!("{c} = excluded.{c}")).collect::<Vec<_>>();
        let sql = format!(
            "INSERT INTO user_limits (user_id, {}, updated_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
             ON CONFLICT (user_id) DO UPDATE SET {}, updated_at_ms = excluded.updated_at_ms",
            LIMIT_COLUMNS.join(", "),
            set.join(", ")
        );
        sqlx::query(&sql)
            .bind(user_id)
            .bind(limits.deposit.day)
            .bind(limits.deposit.week)
            .bind(limits.deposit.month)
            .bind(limits.loss.day)
            .bind(limits.loss.week)
            .bind(limits.loss.month)
            .bind(limits.stake_minor)
            .bind(limits.session_minutes)
            .bind(now_ms)
            .execute(self.conn())
            .await?;
        Ok(())
    }

    /// `user_id`'s limits, read in this transaction.
    pub async fn limits_of(&mut self, user_id: i64) -> StoreResult<Limits> {
        read_limits(self.conn(), user_id).await
    }

    /// Keeps a change waiting (replacing one of the same kind and period).
    pub async fn put_pending_limit(
        &mut self,
        user_id: i64,
        pending: &PendingLimit,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO pending_limits (user_id, kind, period, value_minor, requested_at_ms, effective_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id, kind, period) DO UPDATE SET \
             value_minor = excluded.value_minor, requested_at_ms = excluded.requested_at_ms, \
             effective_at_ms = excluded.effective_at_ms",
        )
        .bind(user_id)
        .bind(pending.kind.as_str())
        .bind(pending.period.map_or("", Period::as_str))
        .bind(pending.value)
        .bind(pending.requested_at_ms)
        .bind(pending.effective_at_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Drops the change of that kind and period waiting; `true` when there was one.
    pub async fn drop_pending_limit(
        &mut self,
        user_id: i64,
        kind: LimitKind,
        period: Option<Period>,
    ) -> StoreResult<bool> {
        let done = sqlx::query(
            "DELETE FROM pending_limits WHERE user_id = $1 AND kind = $2 AND period = $3",
        )
        .bind(user_id)
        .bind(kind.as_str())
        .bind(period.map_or("", Period::as_str))
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Sets the operator's safer-gambling settings.
    pub async fn set_safer_defaults(
        &mut self,
        defaults: &SaferDefaults,
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "UPDATE safer_defaults SET default_loss_day_minor = $1, max_stake_minor = $2, updated_at_ms = $3 WHERE id = 1",
        )
        .bind(defaults.default_loss_day_minor)
        .bind(defaults.max_stake_minor)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Gives a new account the operator's default loss limit, if one is set.
    pub async fn apply_default_limits(&mut self, user_id: i64, now_ms: i64) -> StoreResult<()> {
        let default: Option<i64> =
            sqlx::query_scalar("SELECT default_loss_day_minor FROM safer_defaults WHERE id = 1")
                .fetch_optional(self.conn())
                .await?
                .flatten();
        if let Some(day) = default {
            let limits = Limits {
                loss: PeriodLimits { day: Some(day), ..PeriodLimits::default() },
                ..Limits::default()
            };
            self.save_limits(user_id, &limits, now_ms).await?;
        }
        Ok(())
    }

    /// Starts a time-out or self-exclusion; the user's mobile number is kept with it.
    pub async fn insert_block(&mut self, user_id: i64, block: &Block) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO account_blocks (user_id, kind, period, started_at_ms, until_ms, dial_code, mobile) \
             SELECT id, $2, $3, $4, $5, dial_code, mobile FROM users WHERE id = $1",
        )
        .bind(user_id)
        .bind(block.kind.as_str())
        .bind(&block.period)
        .bind(block.started_at_ms)
        .bind(block.until_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Ends `user_id`'s live sessions `minutes` after each began, where that is sooner than
    /// they would have ended: a session limit set now holds for the log-ins already open.
    pub async fn cap_sessions(
        &mut self,
        user_id: i64,
        minutes: i64,
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "UPDATE sessions SET expires_at_ms = created_at_ms + $1 WHERE user_id = $2 AND revoked_at_ms IS NULL \
             AND expires_at_ms > $3 AND created_at_ms + $1 < expires_at_ms",
        )
        .bind(minutes * 60_000)
        .bind(user_id)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// [`Store::active_block`] in this transaction.
    pub async fn active_block_of(
        &mut self,
        user_id: i64,
        now_ms: i64,
    ) -> StoreResult<Option<Block>> {
        read_active_block(self.conn(), user_id, now_ms).await
    }

    /// [`Store::deposits_in_periods`] in this transaction.
    pub async fn deposits_in_periods(
        &mut self,
        user_id: i64,
        now_ms: i64,
    ) -> StoreResult<[i64; 3]> {
        deposits_in_periods(self.conn(), user_id, now_ms).await
    }
}
