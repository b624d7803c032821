//! Storage of the log-in throttle's counts, shared by every server on one database (the rules
//! are the server's `throttle` module). `login_throttle_keys` holds each key's settled failures
//! and block; `login_attempts` the attempts let in and not yet settled, one row per key.
//!
//! Every change to a key happens in a write transaction that first locks the key's row
//! ([`Writer::lock_throttle_key`]: an upsert, which takes the row lock on PostgreSQL and is
//! already serialised by SQLite's single writer), so attempts arriving on several nodes at once
//! count one after another. Callers lock an attempt's keys in sorted order, so two transactions
//! never wait on each other in a cycle.
//!
//! Nothing grows without bound: a key's attempts older than the caller's bound are deleted when
//! the key is locked, an idle key's row is deleted when it settles, and
//! [`Store::sweep_login_throttle`] deletes a bounded batch of what expired untouched.

use sqlx::Row;

use crate::{Engine, Store, StoreResult, Writer};

/// A key's settled state, as stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThrottleKey {
    pub failures: u32,
    pub window_start_ms: i64,
    pub blocked_until_ms: i64,
}

impl Store {
    /// The latest block on any of `keys`, if one is stored (it may be in the past).
    pub async fn throttle_blocked_until(&self, keys: &[&str]) -> StoreResult<Option<i64>> {
        let mut latest = None;
        for key in keys {
            let blocked: Option<i64> = sqlx::query_scalar(
                "SELECT blocked_until_ms FROM login_throttle_keys WHERE key = $1",
            )
            .bind(*key)
            .fetch_optional(self.pool())
            .await?;
            latest = latest.max(blocked);
        }
        Ok(latest)
    }

    /// Deletes up to `limit` keys that expired before `now_ms` and up to `limit` attempts that
    /// started before `attempts_started_before_ms` (their node died, or they were never settled),
    /// and answers how many rows went. Rows another transaction holds are skipped on PostgreSQL,
    /// so the sweep never waits on, or deadlocks with, an attempt.
    pub async fn sweep_login_throttle(
        &self,
        now_ms: i64,
        attempts_started_before_ms: i64,
        limit: i64,
    ) -> StoreResult<u64> {
        let skip_locked = skip_locked(self.engine());
        let keys = sqlx::query(&format!(
            "DELETE FROM login_throttle_keys WHERE expires_at_ms < $1 AND key IN \
             (SELECT key FROM login_throttle_keys WHERE expires_at_ms < $1 LIMIT $2{skip_locked})"
        ))
        .bind(now_ms)
        .bind(limit)
        .execute(self.pool())
        .await?;
        let attempts = sqlx::query(&format!(
            "DELETE FROM login_attempts WHERE started_at_ms < $1 AND attempt_id IN \
             (SELECT attempt_id FROM login_attempts WHERE started_at_ms < $1 LIMIT $2{skip_locked})"
        ))
        .bind(attempts_started_before_ms)
        .bind(limit)
        .execute(self.pool())
        .await?;
        Ok(keys.rows_affected() + attempts.rows_affected())
    }

    /// Rows in the throttle's two tables (keys, attempts): for tests and diagnostics.
    pub async fn login_throttle_rows(&self) -> StoreResult<(i64, i64)> {
        let row = sqlx::query(
            "SELECT (SELECT COUNT(*) FROM login_throttle_keys) AS keys, \
             (SELECT COUNT(*) FROM login_attempts) AS attempts",
        )
        .fetch_one(self.pool())
        .await?;
        Ok((row.try_get("keys")?, row.try_get("attempts")?))
    }
}

impl Writer {
    /// Locks `key`'s row for the rest of the transaction (making an empty one, window starting
    /// now, when there is none), deletes its attempts that started before
    /// `attempts_started_before_ms`, and answers its settled state.
    pub async fn lock_throttle_key(
        &mut self,
        key: &str,
        now_ms: i64,
        attempts_started_before_ms: i64,
    ) -> StoreResult<ThrottleKey> {
        // The no-op update is what takes PostgreSQL's row lock when the row exists.
        let row = sqlx::query(
            "INSERT INTO login_throttle_keys (key, failures, window_start_ms, blocked_until_ms, expires_at_ms) \
             VALUES ($1, 0, $2, 0, $2) \
             ON CONFLICT (key) DO UPDATE SET failures = login_throttle_keys.failures \
             RETURNING failures, window_start_ms, blocked_until_ms",
        )
        .bind(key)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?;
        sqlx::query("DELETE FROM login_attempts WHERE key = $1 AND started_at_ms < $2")
            .bind(key)
            .bind(attempts_started_before_ms)
            .execute(self.conn())
            .await?;
        let failures: i64 = row.try_get("failures")?;
        Ok(ThrottleKey {
            failures: u32::try_from(failures).unwrap_or(u32::MAX),
            window_start_ms: row.try_get("window_start_ms")?,
            blocked_until_ms: row.try_get("blocked_until_ms")?,
        })
    }

    /// Attempts counting against a locked key (those past the bound went when it was locked).
    pub async fn login_attempts_in_flight(&mut self, key: &str) -> StoreResult<u32> {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM login_attempts WHERE key = $1")
            .bind(key)
            .fetch_one(self.conn())
            .await?;
        Ok(u32::try_from(count).unwrap_or(u32::MAX))
    }

    pub async fn insert_login_attempt(
        &mut self,
        attempt_id: &str,
        key: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO login_attempts (attempt_id, key, started_at_ms) VALUES ($1, $2, $3)",
        )
        .bind(attempt_id)
        .bind(key)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Settles an attempt: its rows stop counting against its keys (lock the keys first).
    pub async fn delete_login_attempt(&mut self, attempt_id: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM login_attempts WHERE attempt_id = $1")
            .bind(attempt_id)
            .execute(self.conn())
            .await?;
        Ok(())
    }

    /// Stores a locked key's new state, kept until `expires_at_ms`.
    pub async fn save_throttle_key(
        &mut self,
        key: &str,
        state: &ThrottleKey,
        expires_at_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "UPDATE login_throttle_keys SET failures = $1, window_start_ms = $2, \
             blocked_until_ms = $3, expires_at_ms = $4 WHERE key = $5",
        )
        .bind(i64::from(state.failures))
        .bind(state.window_start_ms)
        .bind(state.blocked_until_ms)
        .bind(expires_at_ms)
        .bind(key)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Forgets a locked key that holds nothing any more.
    pub async fn delete_throttle_key(&mut self, key: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM login_throttle_keys WHERE key = $1")
            .bind(key)
            .execute(self.conn())
            .await?;
        Ok(())
    }
}

/// What a sweep's inner `SELECT` adds so that PostgreSQL passes over rows a transaction holds;
/// SQLite has one writer at a time, and no such clause.
pub(crate) fn skip_locked(engine: Engine) -> &'static str {
    match engine {
        Engine::Postgres => " FOR UPDATE SKIP LOCKED",
        Engine::Sqlite => "",
    }
}
