//! Tickets that open live streams (`GET /api/stream?ticket=…`), shared by every server on one
//! database so that a ticket issued by one node opens a stream on any other. As for sessions,
//! only the ticket's SHA-256 is stored.
//!
//! Bounded: issuing deletes the user's expired tickets and all but the newest
//! [`MAX_TICKETS_PER_USER`] of the rest, and sweeps a bounded batch of everyone's expired ones.

use crate::throttle::skip_locked;
use crate::{Store, StoreResult};

/// Live tickets a user keeps; issuing another drops the oldest. A browser asks for one per
/// stream it opens, a handful at most.
pub const MAX_TICKETS_PER_USER: i64 = 20;
/// Others' expired tickets deleted at most per issue.
const SWEEP_BATCH: i64 = 100;

impl Store {
    /// Stores a ticket (its hash) for `user_id` until `expires_at_ms`, in one transaction with
    /// the clean-up described in the module docs.
    pub async fn insert_stream_ticket(
        &self,
        user_id: i64,
        token_hash: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<()> {
        let mut writer = self.begin_write().await?;
        let conn = writer.conn();
        sqlx::query("DELETE FROM stream_tickets WHERE user_id = $1 AND expires_at_ms <= $2")
            .bind(user_id)
            .bind(now_ms)
            .execute(&mut *conn)
            .await?;
        sqlx::query(
            "INSERT INTO stream_tickets (token_hash, user_id, expires_at_ms) VALUES ($1, $2, $3)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(expires_at_ms)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "DELETE FROM stream_tickets WHERE user_id = $1 AND token_hash NOT IN \
             (SELECT token_hash FROM stream_tickets WHERE user_id = $1 \
              ORDER BY expires_at_ms DESC, token_hash LIMIT $2)",
        )
        .bind(user_id)
        .bind(MAX_TICKETS_PER_USER)
        .execute(&mut *conn)
        .await?;
        writer.commit().await?;
        // Apart from the issue, skipping rows others hold: it never waits on them.
        sqlx::query(&format!(
            "DELETE FROM stream_tickets WHERE expires_at_ms <= $1 AND token_hash IN \
             (SELECT token_hash FROM stream_tickets WHERE expires_at_ms <= $1 LIMIT $2{})",
            skip_locked(self.engine())
        ))
        .bind(now_ms)
        .bind(SWEEP_BATCH)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// The user a live (unexpired) ticket was issued to.
    pub async fn stream_ticket_user(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT user_id FROM stream_tickets WHERE token_hash = $1 AND expires_at_ms > $2",
        )
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Tickets stored for a user, expired or not: for tests of the bounds.
    pub async fn stream_tickets_stored(&self, user_id: i64) -> StoreResult<i64> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM stream_tickets WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(self.pool())
            .await?)
    }
}
