//! Correcting a declared result: a settled (or voided) market taken back to suspended, so that
//! the right result can be declared as usual.
//!
//! Nothing already written is changed or deleted in the ledger. The settlement's transaction
//! (kind `settlement` or `void`, linked to its market by `ledger_transactions.market_id`) is
//! answered by one new transaction of kind `result_corrected` whose entries are its entries
//! negated, each described "Result corrected: <what the line said>"; its partnership split rows
//! are answered by negated rows under the new transaction, so that the P&L and collection
//! reports (sums of `partnership_splits`) net the wrong result out. What is rewritten is what
//! describes the market's state, not money: the market's status and result, its runners'
//! winner/loser marks, and its bets' settled status and P&L (back to matched, or closed when
//! nothing of them matched). The unmatched part a settlement cancelled stays cancelled: its
//! exposure was released and no book holds it any more. Each user's exposure is then reserved
//! again as the engine computes it from the stored bets ([`crate::positions`]), without the
//! funds check: the bets were accepted when they were placed. A client left with less than
//! nothing available (winnings taken back that were already withdrawn) owes it: its account is
//! marked `may_go_negative`, which lets the correction and the next result take it below zero
//! and tells the ledger check it owes rather than is overdrawn; its own transfers and bets still
//! need available funds, so it cannot sink further by itself. Collection recovers it.
//!
//! Which settlement a correction answers: the market's settlement transactions posted after its
//! last correction (ids only grow), so declare A → correct → declare B → correct reverses A,
//! then B, each once.
//!
//! Example: a client under agent 7 (40%) lost 1,000.00 on a fancy, settled in transaction 50:
//!
//! ```text
//! transaction 50 'settlement'        user:12  -100000   "Match / 20 over: lost"
//!                                    share:7   +40000   "Match / 20 over: partnership share"
//!                                    house     +60000   "Match / 20 over"
//! transaction 61 'result_corrected'  user:12  +100000   "Result corrected: Match / 20 over: lost"
//!                                    share:7   -40000   "Result corrected: … partnership share"
//!                                    house     -60000   "Result corrected: Match / 20 over"
//! ```
//!
//! and the client's 1,000.00 is reserved again as exposure until the new result.

use std::collections::BTreeMap;

use backlay_core::exchange::MarketStatus;
use sqlx::Row;

use crate::ledger::{NewTransaction, Posted, Posting, TransactionKind};
use crate::markets::fetch_market;
use crate::sql::quoted;
use crate::{StoreError, StoreResult, Writer};

/// What every line of a correction says before the line it reverses.
pub const CORRECTED_PREFIX: &str = "Result corrected: ";

/// `'settlement', 'void'`: the kinds of a market's result, which a correction reverses, for an
/// `IN (…)`.
fn market_result_kinds() -> String {
    quoted([TransactionKind::Settlement, TransactionKind::Void].map(TransactionKind::as_str))
}

/// One entry of the settlement a correction reverses, with whose account it moved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettledEntry {
    pub transaction_id: i64,
    pub account_id: i64,
    /// The account's code (`user:12`, `share:7`, `house`, `commission`).
    pub account_code: String,
    /// A user's own account: the user.
    pub user_id: Option<i64>,
    /// An agent's share account: the agent.
    pub share_of_user_id: Option<i64>,
    /// The user or agent's name (none for a system account).
    pub user_name: Option<String>,
    /// What the settlement moved (the correction moves the opposite).
    pub amount_minor: i64,
    /// The account's balance now.
    pub balance_minor: i64,
    pub description: String,
}

/// A market taken back by [`Writer::unsettle_market`].
#[derive(Clone, Debug)]
pub struct Unsettled {
    /// What the market was (closed or void).
    pub was: MarketStatus,
    /// The settlement's entries that were reversed.
    pub reversed: Vec<SettledEntry>,
    /// The correction's transaction (none when the settlement moved no money, e.g. a void).
    pub posted: Option<Posted>,
    /// Each user's exposure reserved again: (user id, exposure).
    pub exposures: Vec<(i64, i64)>,
    /// Bets back to matched (or closed).
    pub bets: u64,
}

impl Writer {
    /// The entries of the market's settlement that no correction has reversed yet, oldest
    /// first, with the accounts' holders and balances.
    pub async fn uncorrected_settlement(
        &mut self,
        market_id: i64,
    ) -> StoreResult<Vec<SettledEntry>> {
        let rows = sqlx::query(&format!(
            "SELECT e.transaction_id, e.account_id, a.code, a.user_id, a.share_of_user_id, u.user_name, \
             e.amount_minor, a.balance_minor, e.description \
             FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id \
             JOIN ledger_accounts a ON a.id = e.account_id \
             LEFT JOIN users u ON u.id = COALESCE(a.user_id, a.share_of_user_id) \
             WHERE t.market_id = $1 AND t.kind IN ({}) \
               AND t.id > COALESCE((SELECT MAX(c.id) FROM ledger_transactions c WHERE c.market_id = $1 AND c.kind = $2), 0) \
             ORDER BY e.id",
            market_result_kinds()
        ))
        .bind(market_id)
        .bind(TransactionKind::ResultCorrected.as_str())
        .fetch_all(self.conn())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(SettledEntry {
                    transaction_id: row.try_get("transaction_id")?,
                    account_id: row.try_get("account_id")?,
                    account_code: row.try_get("code")?,
                    user_id: row.try_get("user_id")?,
                    share_of_user_id: row.try_get("share_of_user_id")?,
                    user_name: row.try_get("user_name")?,
                    amount_minor: row.try_get("amount_minor")?,
                    balance_minor: row.try_get("balance_minor")?,
                    description: row.try_get("description")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Takes a settled or void market back to suspended (see the module docs): `None` when it
    /// is neither (never settled, or corrected already). `label` names the market in the
    /// correction's remark. Everything happens in this writer's transaction: the caller audits
    /// in it and commits, or drops it and nothing happened.
    pub async fn unsettle_market(
        &mut self,
        market_id: i64,
        actor_user_id: Option<i64>,
        label: &str,
        now_ms: i64,
    ) -> StoreResult<Option<Unsettled>> {
        let market = fetch_market(self.conn(), market_id).await?;
        if !market.status.is_settled() {
            return Ok(None);
        }
        // The condition makes two corrections at once one correction: the second finds the
        // market suspended and changes nothing (on PostgreSQL it waits for the first's row lock).
        let taken = sqlx::query(
            "UPDATE markets SET status = 'suspended', result_runner_id = NULL, result_value = NULL, settled_at_ms = NULL \
             WHERE id = $1 AND status IN ('closed', 'void')",
        )
        .bind(market_id)
        .execute(self.conn())
        .await?;
        if taken.rows_affected() != 1 {
            return Ok(None);
        }
        sqlx::query(
            "UPDATE runners SET status = 'active' WHERE market_id = $1 AND status IN ('winner', 'loser')",
        )
        .bind(market_id)
        .execute(self.conn())
        .await?;

        let reversed = self.uncorrected_settlement(market_id).await?;
        if reversed.is_empty() {
            // No linked settlement: nothing moved (every client's bets netted to zero, or a
            // void), or the market was settled before settlements named their market
            // (migration 0009), when only the remark (its label) said which market it was:
            // such a settlement is not guessed at.
            let unlinked: i64 = sqlx::query_scalar(&format!(
                "SELECT COUNT(*) FROM ledger_transactions WHERE market_id IS NULL \
                 AND kind IN ({}) AND remark = $1",
                market_result_kinds()
            ))
            .bind(label)
            .fetch_one(self.conn())
            .await?;
            if unlinked > 0 {
                return Err(StoreError::Conflict(format!(
                    "{label} was settled before settlements were linked to their market: its \
                     result cannot be corrected here"
                )));
            }
        }
        // Bets back to where the market's close found them (less what it cancelled); a
        // non-runner's stay void (`crate::non_runners`).
        let bets = sqlx::query(
            "UPDATE bets SET pnl_minor = NULL, \
             status = CASE WHEN matched_minor > 0 THEN 'matched' ELSE 'closed' END \
             WHERE market_id = $1 AND status IN ('settled', 'void') \
             AND NOT EXISTS (SELECT 1 FROM runners r WHERE r.id = bets.runner_id AND r.status = 'removed')",
        )
        .bind(market_id)
        .execute(self.conn())
        .await?
        .rows_affected();

        // Exposure as the engine will compute it when it loads the market from these bets; the
        // settlement left every row of this market at 0.
        let stored: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM market_exposures WHERE market_id = $1 AND exposure_minor <> 0",
        )
        .bind(market_id)
        .fetch_one(self.conn())
        .await?;
        if stored != 0 {
            return Err(StoreError::Conflict(format!(
                "market {market_id} is settled but still holds exposure"
            )));
        }
        let spec = market.setup.spec().map_err(|e| {
            StoreError::Conflict(format!("market {market_id} cannot be set up again: {e}"))
        })?;
        let exposures: Vec<(i64, i64)> = self
            .resync_market_exposures(market_id, &spec)
            .await?
            .into_iter()
            .map(|(user, _, after)| (user, after))
            .collect();
        // A client whose winnings are taken back (or whose exposure comes back) beyond what it
        // holds now owes the difference: its account may go below zero from here on (the
        // schema's `may_go_negative`, which the ledger check reads as "owes"), while every
        // transfer and bet of its own still needs available funds (`Writer::post`).
        let mut owed: BTreeMap<i64, i64> = BTreeMap::new();
        for entry in reversed.iter().filter(|e| e.user_id.is_some()) {
            *owed.entry(entry.account_id).or_default() -= entry.amount_minor;
        }
        for (user_id, _) in &exposures {
            let account_id: i64 =
                sqlx::query_scalar("SELECT id FROM ledger_accounts WHERE user_id = $1")
                    .bind(user_id)
                    .fetch_one(self.conn())
                    .await?;
            owed.entry(account_id).or_default();
        }
        for (account_id, amount_minor) in &owed {
            sqlx::query(
                "UPDATE ledger_accounts SET may_go_negative = 1 \
                 WHERE id = $1 AND user_id IS NOT NULL AND balance_minor + $2 - exposure_minor < 0",
            )
            .bind(account_id)
            .bind(amount_minor)
            .execute(self.conn())
            .await?;
        }
        let posted = if reversed.is_empty() {
            None
        } else {
            let postings = reversed
                .iter()
                .map(|entry| Posting {
                    account_id: entry.account_id,
                    amount_minor: -entry.amount_minor,
                    description: format!("{CORRECTED_PREFIX}{}", entry.description),
                })
                .collect();
            let posted = self
                .post_owed(
                    NewTransaction {
                        kind: TransactionKind::ResultCorrected,
                        actor_user_id,
                        remark: format!("{CORRECTED_PREFIX}{label}"),
                        market_id: Some(market_id),
                        postings,
                    },
                    now_ms,
                )
                .await?;
            let mut settlements: Vec<i64> = reversed.iter().map(|e| e.transaction_id).collect();
            settlements.dedup();
            for settlement in settlements {
                sqlx::query(
                    "INSERT INTO partnership_splits (transaction_id, client_user_id, user_id, part, share_bp, \
                     amount_minor, market_id, created_at_ms) \
                     SELECT $1, client_user_id, user_id, part, share_bp, -amount_minor, market_id, $2 \
                     FROM partnership_splits WHERE transaction_id = $3 ORDER BY id",
                )
                .bind(posted.transaction_id)
                .bind(now_ms)
                .bind(settlement)
                .execute(self.conn())
                .await?;
            }
            Some(posted)
        };

        Ok(Some(Unsettled { was: market.status, reversed, posted, exposures, bets }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kinds_named_in_sql_are_the_enums_own() {
        assert_eq!(market_result_kinds(), "'settlement', 'void'");
    }
}
