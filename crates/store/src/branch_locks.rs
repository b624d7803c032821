//! Branch locks: a lock (or bet-lock) on an agent covers every account below it, and lifting
//! it gives each of them back the state it has on its own.
//!
//! Each user row carries, beside its own flag, the nearest account above it whose own flag is
//! set (`locked_by_user_id`, `bet_locked_by_user_id`; NULL when none is). A user is locked when
//! either is set, so every check that reads the user's row (the session look-up, the funds
//! read of a bet, the provider wallet's session) sees the branch's lock with no walk up the
//! tree. The store keeps the column right when a flag changes ([`Writer::set_locked`],
//! [`Writer::set_account_terms`]) and when an account is created under a locked parent.
//!
//! Only accounts whose nearest locked ancestor changes are written, which makes both
//! directions one statement:
//! - locking X: every account under X whose nearest locked ancestor was X's (the same one
//!   above X, or none) now has X; those under a locked account between keep theirs;
//! - unlocking X: every account whose nearest locked ancestor was X gets X's own (the next one
//!   above, or none).
//!
//! Example: admin → master → agent → client, and the agent locked on its own.
//!
//! ```text
//!                 own    locked_by        after locking master   after unlocking master
//! master           -       -                  own, -                  -, -
//! agent           own      -                  own, master             own, -
//! client           -     agent                -, agent                -, agent
//! ```
//!
//! The client still names its agent: that is the lock nearest to it, and the one that stays
//! when the master's is lifted.

use crate::downline::{TREE_CTE, TREE_DEPTH_MAX};
use crate::{flag, StoreError, StoreResult, Writer};

/// Which of an account's two locks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lock {
    /// No log-in.
    Account,
    /// Log-in, no bets.
    Betting,
}

impl Lock {
    /// The account's own flag and its branch column (fixed names, never input).
    fn columns(self) -> (&'static str, &'static str) {
        match self {
            Lock::Account => ("is_locked", "locked_by_user_id"),
            Lock::Betting => ("is_bet_locked", "bet_locked_by_user_id"),
        }
    }
}

impl Writer {
    /// Sets the account's own `lock` and carries the change down its branch (see the module
    /// documentation). Setting it to what it is changes nothing.
    pub(crate) async fn set_own_lock(
        &mut self,
        user_id: i64,
        lock: Lock,
        locked: bool,
    ) -> StoreResult<()> {
        let (own, by) = lock.columns();
        let row: Option<(i64, Option<i64>)> =
            sqlx::query_as(&format!("SELECT {own}, {by} FROM users WHERE id = $1"))
                .bind(user_id)
                .fetch_optional(self.conn())
                .await?;
        let (was, above) = row.ok_or(StoreError::NotFound)?;
        if (was != 0) == locked {
            return Ok(());
        }
        sqlx::query(&format!("UPDATE users SET {own} = $1 WHERE id = $2"))
            .bind(flag(locked))
            .bind(user_id)
            .execute(self.conn())
            .await?;
        if locked {
            sqlx::query(&format!(
                "{TREE_CTE} UPDATE users SET {by} = $3 \
                 WHERE id IN (SELECT id FROM tree) AND COALESCE({by}, -1) = $4"
            ))
            .bind(user_id)
            .bind(TREE_DEPTH_MAX)
            .bind(user_id)
            .bind(above.unwrap_or(-1))
            .execute(self.conn())
            .await?;
        } else {
            sqlx::query(&format!("UPDATE users SET {by} = $1 WHERE {by} = $2"))
                .bind(above)
                .bind(user_id)
                .execute(self.conn())
                .await?;
        }
        Ok(())
    }

    /// A new account under `parent_id` starts under its parent's locks: the parent when its
    /// own flag is set, else whatever locks the parent.
    pub(crate) async fn inherit_locks(&mut self, user_id: i64, parent_id: i64) -> StoreResult<()> {
        sqlx::query(
            "UPDATE users SET \
             locked_by_user_id = (SELECT CASE WHEN p.is_locked = 1 THEN p.id ELSE p.locked_by_user_id END FROM users p WHERE p.id = $1), \
             bet_locked_by_user_id = (SELECT CASE WHEN p.is_bet_locked = 1 THEN p.id ELSE p.bet_locked_by_user_id END FROM users p WHERE p.id = $1) \
             WHERE id = $2",
        )
        .bind(parent_id)
        .bind(user_id)
        .execute(self.conn())
        .await?;
        Ok(())
    }
}

impl crate::Store {
    /// Of `user_ids`, those that are locked (on their own or by an agent above) or no longer
    /// there: one statement per [`crate::sql::ROWS_PER_STATEMENT`] ids, for the one check of
    /// every user holding a live stream.
    pub async fn locked_or_gone_among(&self, user_ids: &[i64]) -> StoreResult<Vec<i64>> {
        let mut open = std::collections::HashSet::with_capacity(user_ids.len());
        for chunk in user_ids.chunks(crate::sql::ROWS_PER_STATEMENT) {
            let sql = format!(
                "SELECT id FROM users WHERE id IN ({}) AND is_locked = 0 AND locked_by_user_id IS NULL",
                crate::sql::numbered(chunk.len())
            );
            let mut query = sqlx::query_scalar::<_, i64>(&sql);
            for id in chunk {
                query = query.bind(*id);
            }
            open.extend(query.fetch_all(self.pool()).await?);
        }
        Ok(user_ids.iter().copied().filter(|id| !open.contains(id)).collect())
    }
}
