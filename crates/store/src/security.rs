//! Security auth: each user's TOTP second factor, and the log-in challenges that stand between
//! a right password and a session.
//!
//! A user's factor moves through three states, all on the `users` row:
//! off (no secrets) → pending (`totp_pending_secret` set by setup, not yet proven) → on
//! (`totp_secret` set, `totp_enabled = 1`). `totp_last_step` is the 30-second step of the last
//! code accepted; accepting a code is a conditional `UPDATE … WHERE totp_last_step < step`, so
//! two requests racing with the same code cannot both win, on either engine.
//!
//! Both secrets are stored sealed ([`crate::secrets`]), bound to their column and the user's id.
//! The conditional updates compare the sealed value read with the one stored: a fresh nonce
//! each time a secret is set makes that a check that nobody changed it meanwhile.
//!
//! A log-in challenge is an opaque token (only its SHA-256 is stored) that lives a few minutes
//! and allows a bounded number of wrong codes; it is consumed by a conditional `DELETE`, which
//! again lets only one of two racing requests through.

use sqlx::{Any, Executor, Row};

use crate::secrets::{open_column, seal_column, Keyring, SecretError, SecretSlot};
use crate::{Store, StoreError, StoreResult, Writer};

/// A user's security-auth columns, opened. `Debug` says which secrets are set, not what they are.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct TotpState {
    pub enabled: bool,
    /// Base32; set while security auth is on.
    pub secret: Option<String>,
    /// Base32; shown by setup, waiting for a code to turn it on.
    pub pending_secret: Option<String>,
    /// The step (Unix seconds / 30) of the last accepted code.
    pub last_step: Option<i64>,
    /// The stored (sealed) values, which the conditional updates compare against.
    stored_secret: Option<String>,
    stored_pending_secret: Option<String>,
}

impl std::fmt::Debug for TotpState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TotpState")
            .field("enabled", &self.enabled)
            .field("has_secret", &self.secret.is_some())
            .field("has_pending_secret", &self.pending_secret.is_some())
            .field("last_step", &self.last_step)
            .finish_non_exhaustive()
    }
}

fn secret_slot(user_id: i64) -> SecretSlot {
    SecretSlot::new("users", "totp_secret", user_id)
}

fn pending_slot(user_id: i64) -> SecretSlot {
    SecretSlot::new("users", "totp_pending_secret", user_id)
}

/// A live log-in challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtpChallenge {
    pub id: i64,
    pub user_id: i64,
    /// Wrong codes given so far.
    pub attempts: i64,
    pub expires_at_ms: i64,
}

/// A challenge to open; the token arrives already hashed.
#[derive(Clone, Debug)]
pub struct NewOtpChallenge<'a> {
    pub user_id: i64,
    pub token_hash: &'a str,
    pub client_ip: Option<&'a str>,
    pub expires_at_ms: i64,
}

async fn fetch_totp_state<'e, E: Executor<'e, Database = Any>>(
    executor: E,
    keyring: Result<&Keyring, SecretError>,
    user_id: i64,
) -> StoreResult<TotpState> {
    let row = sqlx::query("SELECT totp_enabled, totp_secret, totp_pending_secret, totp_last_step FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(executor)
        .await?
        .ok_or(StoreError::NotFound)?;
    let stored_secret: Option<String> = row.try_get("totp_secret")?;
    let stored_pending_secret: Option<String> = row.try_get("totp_pending_secret")?;
    let open = |stored: &Option<String>, slot: SecretSlot| {
        stored.as_deref().map(|value| open_column(keyring.clone(), value, slot)).transpose()
    };
    Ok(TotpState {
        enabled: row.try_get::<i64, _>("totp_enabled")? != 0,
        secret: open(&stored_secret, secret_slot(user_id))?,
        pending_secret: open(&stored_pending_secret, pending_slot(user_id))?,
        last_step: row.try_get("totp_last_step")?,
        stored_secret,
        stored_pending_secret,
    })
}

impl Store {
    pub async fn totp_state(&self, user_id: i64) -> StoreResult<TotpState> {
        fetch_totp_state(self.pool(), self.keyring(), user_id).await
    }

    /// The challenge for a token hash if it has not expired and has wrong codes to spare.
    pub async fn live_otp_challenge(
        &self,
        token_hash: &str,
        now_ms: i64,
        max_attempts: i64,
    ) -> StoreResult<Option<OtpChallenge>> {
        let row = sqlx::query(
            "SELECT id, user_id, attempts, expires_at_ms FROM login_otp_challenges \
             WHERE token_hash = $1 AND expires_at_ms > $2 AND attempts < $3",
        )
        .bind(token_hash)
        .bind(now_ms)
        .bind(max_attempts)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(OtpChallenge {
            id: row.try_get("id")?,
            user_id: row.try_get("user_id")?,
            attempts: row.try_get("attempts")?,
            expires_at_ms: row.try_get("expires_at_ms")?,
        }))
    }
}

impl Writer {
    pub async fn totp_state(&mut self, user_id: i64) -> StoreResult<TotpState> {
        let keyring = self.keyring.clone();
        let keyring = keyring.as_deref().ok_or(SecretError::NoKey);
        fetch_totp_state(self.conn(), keyring, user_id).await
    }

    /// Stores a new pending secret, replacing any earlier one. `false` when security auth is
    /// already on (the pending secret is then left alone).
    pub async fn set_pending_totp_secret(
        &mut self,
        user_id: i64,
        secret: &str,
    ) -> StoreResult<bool> {
        let sealed = seal_column(self.keyring(), secret, pending_slot(user_id))?;
        let done = sqlx::query(
            "UPDATE users SET totp_pending_secret = $1 WHERE id = $2 AND totp_enabled = 0",
        )
        .bind(sealed)
        .bind(user_id)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Turns security auth on with the pending secret of `seen` (as read), proven by a code of
    /// `step`. `false` when it is already on or the pending secret changed since it was read.
    pub async fn enable_totp(
        &mut self,
        user_id: i64,
        seen: &TotpState,
        step: i64,
    ) -> StoreResult<bool> {
        let (Some(pending), Some(stored_pending)) =
            (&seen.pending_secret, &seen.stored_pending_secret)
        else {
            return Ok(false);
        };
        // Sealed again for the active column: the pending value is bound to its own.
        let sealed = seal_column(self.keyring(), pending, secret_slot(user_id))?;
        let done = sqlx::query(
            "UPDATE users SET totp_enabled = 1, totp_secret = $1, totp_pending_secret = NULL, \
             totp_last_step = $2 WHERE id = $3 AND totp_enabled = 0 AND totp_pending_secret = $4",
        )
        .bind(sealed)
        .bind(step)
        .bind(user_id)
        .bind(stored_pending)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records that a code of `step` for the active secret of `seen` (as read) was used. `false`
    /// when a code of this step or a later one was already used (a replay), or the secret
    /// changed meanwhile.
    pub async fn use_totp_step(
        &mut self,
        user_id: i64,
        seen: &TotpState,
        step: i64,
    ) -> StoreResult<bool> {
        let Some(stored_secret) = &seen.stored_secret else { return Ok(false) };
        // One statement reads and writes the last step, so two requests racing with one code
        // cannot both pass: PostgreSQL re-checks the WHERE after waiting for the row lock, and
        // SQLite has a single writer.
        let done = sqlx::query(
            "UPDATE users SET totp_last_step = $1 WHERE id = $2 AND totp_enabled = 1 AND totp_secret = $3 \
             AND (totp_last_step IS NULL OR totp_last_step < $1)",
        )
        .bind(step)
        .bind(user_id)
        .bind(stored_secret)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Turns security auth off: both secrets and the last step are forgotten, and the user's open
    /// log-in challenges are dropped. `false` when it was not on.
    pub async fn disable_totp(&mut self, user_id: i64) -> StoreResult<bool> {
        let done = sqlx::query(
            "UPDATE users SET totp_enabled = 0, totp_secret = NULL, totp_pending_secret = NULL, totp_last_step = NULL \
             WHERE id = $1 AND totp_enabled = 1",
        )
        .bind(user_id)
        .execute(self.conn())
        .await?;
        sqlx::query("DELETE FROM login_otp_challenges WHERE user_id = $1")
            .bind(user_id)
            .execute(self.conn())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Opens a log-in challenge. Expired challenges (of anyone) are swept first, and the user
    /// keeps at most `max_live_per_user` (the newest), so the table stays small.
    pub async fn insert_otp_challenge(
        &mut self,
        new: &NewOtpChallenge<'_>,
        now_ms: i64,
        max_live_per_user: i64,
    ) -> StoreResult<i64> {
        sqlx::query("DELETE FROM login_otp_challenges WHERE expires_at_ms <= $1")
            .bind(now_ms)
            .execute(self.conn())
            .await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO login_otp_challenges (user_id, token_hash, client_ip, created_at_ms, expires_at_ms) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(new.user_id)
        .bind(new.token_hash)
        .bind(new.client_ip)
        .bind(now_ms)
        .bind(new.expires_at_ms)
        .fetch_one(self.conn())
        .await?;
        sqlx::query(
            "DELETE FROM login_otp_challenges WHERE user_id = $1 AND id NOT IN \
             (SELECT id FROM login_otp_challenges WHERE user_id = $1 ORDER BY id DESC LIMIT $2)",
        )
        .bind(new.user_id)
        .bind(max_live_per_user)
        .execute(self.conn())
        .await?;
        Ok(id)
    }

    /// Counts a wrong code against a challenge; the wrong codes so far, or `None` when the
    /// challenge was already used up or consumed.
    pub async fn record_wrong_otp(
        &mut self,
        challenge_id: i64,
        max_attempts: i64,
    ) -> StoreResult<Option<i64>> {
        Ok(sqlx::query_scalar(
            "UPDATE login_otp_challenges SET attempts = attempts + 1 WHERE id = $1 AND attempts < $2 RETURNING attempts",
        )
        .bind(challenge_id)
        .bind(max_attempts)
        .fetch_optional(self.conn())
        .await?)
    }

    /// Uses a challenge up. `true` only for the one request that removed it while it was live.
    pub async fn consume_otp_challenge(
        &mut self,
        challenge_id: i64,
        now_ms: i64,
        max_attempts: i64,
    ) -> StoreResult<bool> {
        let done = sqlx::query("DELETE FROM login_otp_challenges WHERE id = $1 AND expires_at_ms > $2 AND attempts < $3")
            .bind(challenge_id)
            .bind(now_ms)
            .bind(max_attempts)
            .execute(self.conn())
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
