//! A market's settlement as its bets see it: the result recorded once, each bet's P&L, and
//! the bets closed (settled or void, the unmatched rest cancelled). The money moves in the
//! ledger in the same transaction (the engine's `market_task::settle`).

use backlay_core::exchange::MarketStatus;
use sqlx::Row;

use super::BetStatus;
use crate::sql::{placeholders, ROWS_PER_STATEMENT};
use crate::{StoreError, StoreResult, Writer};

impl Writer {
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
                placeholders(self.engine, chunk.len(), 2),
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
    /// still unmatched, at `now_ms`: answers those as (bet id, user id, size cancelled). The
    /// bets that stood close then, while one cancelled or lapsed whole before keeps the time it
    /// closed (Bet History lists it by that).
    pub async fn close_market_bets(
        &mut self,
        market_id: i64,
        status: BetStatus,
        now_ms: i64,
    ) -> StoreResult<Vec<(i64, i64, i64)>> {
        debug_assert!(matches!(status, BetStatus::Settled | BetStatus::Void));
        let unmatched = sqlx::query(
            "SELECT id, user_id, remaining_minor FROM bets WHERE market_id = $1 AND remaining_minor > 0 \
             AND status IN ('open', 'matched', 'closed') ORDER BY id",
        )
        .bind(market_id)
        .fetch_all(self.conn())
        .await?
        .iter()
        .map(|row| Ok((row.try_get("id")?, row.try_get("user_id")?, row.try_get("remaining_minor")?)))
        .collect::<Result<Vec<(i64, i64, i64)>, sqlx::Error>>()?;
        sqlx::query(
            "UPDATE bets SET cancelled_minor = cancelled_minor + remaining_minor, remaining_minor = 0, status = $1, \
             closed_at_ms = CASE WHEN status = 'closed' THEN COALESCE(closed_at_ms, $3) ELSE $3 END \
             WHERE market_id = $2 AND status IN ('open', 'matched', 'closed')",
        )
        .bind(status.as_str())
        .bind(market_id)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(unmatched)
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
