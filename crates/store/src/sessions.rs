//! Log-in sessions. The client holds an opaque random token; the database holds only its
//! SHA-256 (`token_hash`), so a leaked table cannot be replayed. A session ends when it expires
//! or is revoked (log-out, password change, lock).

use sqlx::Row;

use crate::users::{user_from_row, User};
use crate::{Store, StoreResult, Writer};

/// A live session joined with the user it belongs to.
#[derive(Clone, Debug)]
pub struct SessionUser {
    pub session_id: i64,
    pub user: User,
}

impl Store {
    /// The live session for a token hash: not revoked, not expired, user not locked.
    pub async fn session_by_token_hash(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<SessionUser>> {
        let sql = format!(
            "SELECT s.id AS session_id, {} \
             FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND s.revoked_at_ms IS NULL AND s.expires_at_ms > $2 AND u.is_locked = 0 AND u.locked_by_user_id IS NULL",
            crate::users::user_columns_of("u")
        );
        let row =
            sqlx::query(&sql).bind(token_hash).bind(now_ms).fetch_optional(self.pool()).await?;
        let Some(row) = row else { return Ok(None) };
        let user = user_from_row(&row)?;
        Ok(Some(SessionUser { session_id: row.try_get("session_id")?, user }))
    }

    /// True when a session was ever opened with this token hash, live or not.
    pub async fn session_was_issued(&self, token_hash: &str) -> StoreResult<bool> {
        let found: Option<i64> =
            sqlx::query_scalar("SELECT id FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .fetch_optional(self.pool())
                .await?;
        Ok(found.is_some())
    }
}

backlay_core::named_enum! {
    /// Which door a session came in by.
    pub enum SessionKind as "session kind" {
        /// The web app's log-in (and its security code step).
        Web = "web",
        /// The bot API's identity calls: kept alive by `keepAlive`.
        Bot = "bot",
    }
}

/// The longest a session lives from its log-in, however often a bot keeps it alive (7 days):
/// a stolen token does not last for ever.
pub const MAX_SESSION_LIFE_MS: i64 = 7 * 24 * 60 * 60 * 1000;

impl Writer {
    /// Opens a session (a log-in) and records it as the user's last log-in.
    #[allow(clippy::too_many_arguments)]
    pub async fn insert_session(
        &mut self,
        user_id: i64,
        token_hash: &str,
        client_ip: Option<&str>,
        device: &str,
        kind: SessionKind,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<i64> {
        let session_id = sqlx::query_scalar(
            "INSERT INTO sessions (user_id, token_hash, client_ip, device, kind, created_at_ms, expires_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(user_id)
        .bind(token_hash)
        .bind(client_ip)
        .bind(device)
        .bind(kind.as_str())
        .bind(now_ms)
        .bind(expires_at_ms)
        .fetch_one(self.conn())
        .await?;
        sqlx::query("UPDATE users SET last_login_at_ms = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(user_id)
            .execute(self.conn())
            .await?;
        Ok(session_id)
    }

    pub async fn revoke_session(&mut self, session_id: i64, now_ms: i64) -> StoreResult<()> {
        sqlx::query(
            "UPDATE sessions SET revoked_at_ms = $1 WHERE id = $2 AND revoked_at_ms IS NULL",
        )
        .bind(now_ms)
        .bind(session_id)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// A bot's keep-alive: moves a live bot session's expiry to `expires_at_ms`, but never past
    /// [`MAX_SESSION_LIFE_MS`] from its log-in, nor earlier than it was. `false` for a session
    /// that is not a bot's (a web session is not kept alive this way).
    pub async fn extend_bot_session(
        &mut self,
        session_id: i64,
        expires_at_ms: i64,
    ) -> StoreResult<bool> {
        let kind: Option<String> =
            sqlx::query_scalar("SELECT kind FROM sessions WHERE id = $1 AND revoked_at_ms IS NULL")
                .bind(session_id)
                .fetch_optional(self.conn())
                .await?;
        if kind.as_deref() != Some(SessionKind::Bot.as_str()) {
            return Ok(false);
        }
        sqlx::query(
            "UPDATE sessions SET expires_at_ms = CASE WHEN $1 < created_at_ms + $3 THEN $1 ELSE created_at_ms + $3 END \
             WHERE id = $2 AND expires_at_ms < $1 AND expires_at_ms < created_at_ms + $3",
        )
        .bind(expires_at_ms)
        .bind(session_id)
        .bind(MAX_SESSION_LIFE_MS)
        .execute(self.conn())
        .await?;
        Ok(true)
    }

    /// Revokes every live session of a user except `keep_session_id` (pass -1 to keep none).
    pub async fn revoke_user_sessions(
        &mut self,
        user_id: i64,
        keep_session_id: i64,
        now_ms: i64,
    ) -> StoreResult<u64> {
        let done = sqlx::query(
            "UPDATE sessions SET revoked_at_ms = $1 WHERE user_id = $2 AND id <> $3 AND revoked_at_ms IS NULL",
        )
        .bind(now_ms)
        .bind(user_id)
        .bind(keep_session_id)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected())
    }

    /// Revokes the live sessions of every account under `ancestor_id`, at any depth: a lock on
    /// an agent ends its whole branch's sessions, so that lifting it opens none of them again.
    pub async fn revoke_branch_sessions(
        &mut self,
        ancestor_id: i64,
        now_ms: i64,
    ) -> StoreResult<u64> {
        let done = sqlx::query(&format!(
            "{} UPDATE sessions SET revoked_at_ms = $3 \
             WHERE revoked_at_ms IS NULL AND user_id IN (SELECT id FROM tree)",
            crate::downline::TREE_CTE
        ))
        .bind(ancestor_id)
        .bind(crate::downline::TREE_DEPTH_MAX)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected())
    }
}
