//! Cash settled between a parent and its direct child: the collection report's "collect" paid.
//!
//! In an agent tree the chips a client bets with were given to it on credit; what it lost (and
//! what its agents' partnerships did not keep) is settled in cash outside the site. The
//! collection report (`backlay_core::partnership::downline_report`) says what each child owes
//! its parent; a cash settlement records that cash changing hands, so that the report shows what
//! is still owed. It never moves chips: the client's balance, the agents' balances and their
//! share accounts stay exactly as the settlements of bets left them.
//!
//! The money is a real double entry between two ledger accounts of their own, one per user:
//! `cash:<user id>` (`ledger_accounts.cash_of_user_id`, may go negative), holding the net cash the
//! user received in settlements with its parent and its children. A settlement posts the amount
//! to the receiver's cash account and the opposite to the payer's, and one `cash_settlements`
//! row beside the transaction says between whom (positive: the parent received). Nothing is
//! ever updated or deleted; a mistake is corrected by a settlement the other way.
//!
//! Worked example: client 12 under agent 7 (40%) under master 3 (70%) lost 1,000.00 on a fancy.
//! The agent's collection report says 12 owes it 1,000.00; the master's says 7 owes it 600.00.
//! The client pays the agent 700.00 in cash, then the agent pays the master 600.00:
//!
//! ```text
//! transaction 'cash_settlement'  cash:7   +70000   cash_settlements (parent 7, child 12, +70000)
//!                                cash:12  -70000
//! transaction 'cash_settlement'  cash:3   +60000   cash_settlements (parent 3, child 7,  +60000)
//!                                cash:7   -60000
//! ```
//!
//! Now the agent's report reads "collect 1,000.00, settled 700.00, remaining 300.00" for 12, the
//! master's "collect 600.00, settled 600.00, remaining 0" for 7; cash:7 holds +100.00 (700 in,
//! 600 out), cash:12 −700.00, cash:3 +600.00; the three sum to zero like every transaction.
//! The ledger check ([`crate::ledger::LedgerCheck::cash_mismatches`]) holds each cash account
//! to its `cash_settlements` rows, as it holds share accounts to their splits.

use std::collections::HashMap;

use backlay_core::partnership::{downline_report, SplitLine};
use sqlx::Row;

use crate::downline::{TREE_CTE, TREE_DEPTH_MAX};
use crate::ledger::SideAccount;
use crate::{Store, StoreResult, Writer};

/// What a parent and one child settled in cash over a period.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Settled {
    /// Net cash the parent received from the child (negative: paid it).
    pub amount_minor: i64,
    /// When the latest settlement of the period was recorded (None: there was none).
    pub last_at_ms: Option<i64>,
}

impl Store {
    /// What `parent` settled with each of its direct children from `from_ms` to before
    /// `to_ms` (epoch ms, as the partnership report reads its splits), by child id; children with no settlement are absent.
    pub async fn cash_settled_with_children(
        &self,
        parent: i64,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<HashMap<i64, Settled>> {
        let rows = sqlx::query(
            "SELECT child_user_id, CAST(SUM(amount_minor) AS BIGINT) AS amount_minor, \
             MAX(created_at_ms) AS last_at_ms FROM cash_settlements \
             WHERE parent_user_id = $1 AND created_at_ms >= $2 AND created_at_ms < $3 \
             GROUP BY child_user_id",
        )
        .bind(parent)
        .bind(from_ms)
        .bind(to_ms)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok((
                    row.try_get("child_user_id")?,
                    Settled {
                        amount_minor: row.try_get("amount_minor")?,
                        last_at_ms: row.try_get("last_at_ms")?,
                    },
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// What `child` settled with its parent from `from_ms` to before `to_ms` (positive: the
    /// parent received).
    pub async fn cash_settled_with_parent(
        &self,
        child: i64,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<Settled> {
        let row = sqlx::query(
            "SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) AS amount_minor, \
             MAX(created_at_ms) AS last_at_ms FROM cash_settlements \
             WHERE child_user_id = $1 AND created_at_ms >= $2 AND created_at_ms < $3",
        )
        .bind(child)
        .bind(from_ms)
        .bind(to_ms)
        .fetch_one(self.pool())
        .await?;
        Ok(Settled {
            amount_minor: row.try_get("amount_minor")?,
            last_at_ms: row.try_get("last_at_ms")?,
        })
    }
}

impl Writer {
    /// Takes the write lock on both users' cash accounts (opened if need be) until this
    /// transaction ends, in id order, and gives their ids (parent's, child's). Two settlements
    /// of one pair then check what is owed one after the other: on PostgreSQL the no-op
    /// `UPDATE` holds the rows; on SQLite the transaction already holds the database.
    pub async fn lock_cash_accounts(&mut self, parent: i64, child: i64) -> StoreResult<(i64, i64)> {
        let parent_account = self.side_account_of(SideAccount::Cash, parent).await?;
        let child_account = self.side_account_of(SideAccount::Cash, child).await?;
        let mut ids = [parent_account, child_account];
        ids.sort_unstable();
        for id in ids {
            sqlx::query("UPDATE ledger_accounts SET balance_minor = balance_minor WHERE id = $1")
                .bind(id)
                .execute(self.conn())
                .await?;
        }
        Ok((parent_account, child_account))
    }

    /// Over all time, what `child` owes its parent by the collection report (`downline_report`
    /// seen from the parent; `parent_is_operator` when the parent is an admin) and the net cash
    /// settled between them: what is owed now is the first less the second.
    pub async fn cash_owed_by_child(
        &mut self,
        parent: i64,
        parent_is_operator: bool,
        child: i64,
    ) -> StoreResult<CashOwed> {
        // The child's branch (itself and everyone under it) with each one's parent.
        let below = sqlx::query(&format!("{TREE_CTE} SELECT DISTINCT id, parent_id FROM tree"))
            .bind(child)
            .bind(TREE_DEPTH_MAX)
            .fetch_all(self.conn())
            .await?;
        let mut parent_of = HashMap::with_capacity(below.len() + 1);
        parent_of.insert(child, parent);
        for row in &below {
            parent_of.insert(row.try_get("id")?, row.try_get("parent_id")?);
        }
        // Every level's part of the branch's clients' results, summed per client and level:
        // what the report adds up, without the per-market detail.
        let rows = sqlx::query(&format!(
            "{TREE_CTE} SELECT client_user_id, user_id, CAST(SUM(amount_minor) AS BIGINT) AS amount_minor \
             FROM partnership_splits WHERE client_user_id = $1 OR client_user_id IN (SELECT id FROM tree) \
             GROUP BY client_user_id, user_id"
        ))
        .bind(child)
        .bind(TREE_DEPTH_MAX)
        .fetch_all(self.conn())
        .await?;
        let lines = rows
            .iter()
            .map(|row| {
                Ok(SplitLine {
                    client_user_id: row.try_get("client_user_id")?,
                    user_id: row.try_get("user_id")?,
                    amount_minor: row.try_get("amount_minor")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let report = downline_report(parent, parent_is_operator, &parent_of, &lines);
        let collect_minor: i64 = report.children.iter().map(|c| c.collect_minor).sum();
        let settled_minor: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) FROM cash_settlements \
             WHERE parent_user_id = $1 AND child_user_id = $2",
        )
        .bind(parent)
        .bind(child)
        .fetch_one(self.conn())
        .await?;
        Ok(CashOwed { collect_minor, settled_minor })
    }

    /// Writes the row beside a posted cash settlement (`amount_minor` positive: the parent
    /// received).
    pub async fn record_cash_settlement(
        &mut self,
        settlement: &NewCashSettlement<'_>,
        now_ms: i64,
    ) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "INSERT INTO cash_settlements (transaction_id, parent_user_id, child_user_id, amount_minor, \
             remark, actor_user_id, created_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(settlement.transaction_id)
        .bind(settlement.parent_user_id)
        .bind(settlement.child_user_id)
        .bind(settlement.amount_minor)
        .bind(settlement.remark)
        .bind(settlement.actor_user_id)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?)
    }
}

/// What a child owes its parent, over all time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CashOwed {
    /// The collection report's figure (negative: the parent owes the child).
    pub collect_minor: i64,
    /// Net cash settled (positive: the parent received).
    pub settled_minor: i64,
}

impl CashOwed {
    /// What is still owed (negative: the parent owes).
    pub fn owed_minor(&self) -> i64 {
        self.collect_minor - self.settled_minor
    }
}

/// A cash settlement's row, written after its ledger transaction.
#[derive(Clone, Debug)]
pub struct NewCashSettlement<'a> {
    pub transaction_id: i64,
    pub parent_user_id: i64,
    pub child_user_id: i64,
    /// Positive: the parent received cash from the child; negative: paid it.
    pub amount_minor: i64,
    pub remark: &'a str,
    /// None: the server's console.
    pub actor_user_id: Option<i64>,
}
