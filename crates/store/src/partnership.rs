//! The house's result with each client, shared up the agent tree as ledger postings.
//!
//! A settlement (of a bookmaker, fancy or exchange market, or a casino round) knows the house's
//! result against each client: what the client lost on a house-banked market, or the commission
//! it paid on exchange winnings. [`HouseSplit`] walks each client's agents (`users.parent_id` up
//! to the operator, an admin), splits the result by their partnerships
//! ([`backlay_core::partnership::split`]) and gives:
//! - one posting per agent to its share account (`share:<user id>`, opened on first use), which
//!   may go negative;
//! - the total the agents took, so that the caller posts the operator's remainder to `house` (or
//!   `commission`) and the transaction still sums to zero;
//! - one `partnership_splits` row per level, written by [`Writer::record_splits`] once the
//!   transaction has its id, from which the P&L and collection reports are read.
//!
//! Example, a client under agent 7 (40%) under master 3 (70%) loses 1,000.00 on a fancy:
//!
//! ```text
//! transaction 'settlement'  user:12   -100000   (the client; it came out of its exposure)
//!                           share:7    +40000
//!                           share:3    +30000
//!                           house      +30000
//! ```

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};

use backlay_core::partnership::{split, Level, SplitLine};
use sqlx::Row;

use crate::downline::{TREE_CTE, TREE_DEPTH_MAX};
use crate::ledger::{Posting, SideAccount};
use crate::sql::{placeholders, ROWS_PER_STATEMENT};
use crate::{Store, StoreError, StoreResult, Writer};

/// Which of the house's accounts a result belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// What the house won or lost on its own markets (bookmaker, fancy, casino).
    House,
    /// Commission on exchange winnings.
    Commission,
}

impl Part {
    fn as_str(self) -> &'static str {
        match self {
            Part::House => "house",
            Part::Commission => "commission",
        }
    }
}

/// One level's part of one client's result, before the transaction id is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SplitRow {
    pub client_user_id: i64,
    /// None: the operator's remainder.
    pub user_id: Option<i64>,
    pub part: Part,
    pub share_bp: u32,
    pub amount_minor: i64,
}

/// A settlement's split, built client by client, of both parts.
#[derive(Debug, Default)]
pub struct HouseSplit {
    /// Per part and agent: (share account id, amount) summed over the clients.
    agents: BTreeMap<(Part, i64), (i64, i64)>,
    rows: Vec<SplitRow>,
    /// Each client's chain, read once per settlement however many parts it has.
    chains: HashMap<i64, Vec<Level>>,
}

impl HouseSplit {
    /// What the agents took of `part` in all: the caller posts the result less this to the
    /// operator's account.
    pub fn agents_total_minor(&self, part: Part) -> i64 {
        self.agents.iter().filter(|((p, _), _)| *p == part).map(|(_, (_, amount))| amount).sum()
    }

    /// The result of `part` as split, every level's row added up: what the settlement says the
    /// house's result (or the commission) is, or the split is wrong.
    pub fn total_minor(&self, part: Part) -> i64 {
        self.rows.iter().filter(|row| row.part == part).map(|row| row.amount_minor).sum()
    }

    /// One posting per agent whose part of `part` is not zero, described with `description`.
    pub fn postings(&self, part: Part, description: &str) -> Vec<Posting> {
        self.agents
            .iter()
            .filter(|((p, _), (_, amount))| *p == part && *amount != 0)
            .map(|(_, (account_id, amount))| Posting {
                account_id: *account_id,
                amount_minor: *amount,
                description: description.to_owned(),
            })
            .collect()
    }
}

/// Which settlements a partnership report reads.
#[derive(Clone, Copy, Debug, Default)]
pub struct SplitFilter {
    pub from_ms: i64,
    /// Exclusive.
    pub to_ms: i64,
    pub match_id: Option<i64>,
    pub market_id: Option<i64>,
}

/// The split lines of one market (None: casino rounds), for the by-market view.
#[derive(Clone, Debug)]
pub struct MarketSplitLines {
    pub market_id: Option<i64>,
    /// The market's match (None: casino rounds).
    pub match_id: Option<i64>,
    /// "Match / Market", or "Casino".
    pub label: String,
    pub lines: Vec<SplitLine>,
}

impl Store {
    /// The partnership splits of clients under `viewer`, summed per market, client and level.
    pub async fn split_lines_under(
        &self,
        viewer: i64,
        filter: SplitFilter,
    ) -> StoreResult<Vec<MarketSplitLines>> {
        let sql = format!(
            "{TREE_CTE} SELECT p.market_id, m.match_id, m.name AS market_name, x.name AS match_name, \
             p.client_user_id, p.user_id, CAST(SUM(p.amount_minor) AS BIGINT) AS amount_minor \
             FROM partnership_splits p \
             LEFT JOIN markets m ON m.id = p.market_id LEFT JOIN matches x ON x.id = m.match_id \
             WHERE p.client_user_id IN (SELECT id FROM tree) \
               AND p.created_at_ms >= $3 AND p.created_at_ms < $4 \
               AND ($5 = -1 OR m.match_id = $5) AND ($6 = -1 OR p.market_id = $6) \
             GROUP BY p.market_id, m.match_id, m.name, x.name, p.client_user_id, p.user_id \
             ORDER BY p.market_id, p.client_user_id"
        );
        // `$5 IS NULL` would need a typed NULL on PostgreSQL; -1 is never an id.
        let rows = sqlx::query(&sql)
            .bind(viewer)
            .bind(TREE_DEPTH_MAX)
            .bind(filter.from_ms)
            .bind(filter.to_ms)
            .bind(filter.match_id.unwrap_or(-1))
            .bind(filter.market_id.unwrap_or(-1))
            .fetch_all(self.pool())
            .await?;
        let mut markets: Vec<MarketSplitLines> = Vec::new();
        for row in rows {
            let market_id: Option<i64> = row.try_get("market_id")?;
            if markets.last().is_none_or(|m| m.market_id != market_id) {
                let label = match market_id {
                    Some(_) => format!(
                        "{} / {}",
                        row.try_get::<Option<String>, _>("match_name")?.unwrap_or_default(),
                        row.try_get::<Option<String>, _>("market_name")?.unwrap_or_default()
                    ),
                    None => "Casino".to_owned(),
                };
                let match_id = row.try_get("match_id")?;
                markets.push(MarketSplitLines { market_id, match_id, label, lines: Vec::new() });
            }
            markets.last_mut().expect("pushed above").lines.push(SplitLine {
                client_user_id: row.try_get("client_user_id")?,
                user_id: row.try_get("user_id")?,
                amount_minor: row.try_get("amount_minor")?,
            });
        }
        Ok(markets)
    }

    /// What an agent's share account holds (0 before its first share).
    pub async fn share_balance(&self, user_id: i64) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "SELECT balance_minor FROM ledger_accounts WHERE share_of_user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.pool())
        .await?
        .unwrap_or(0))
    }
}

impl Writer {
    /// The agents above `client_user_id`, its own agent first, up to (not including) the first
    /// admin, with their partnerships.
    pub async fn partnership_chain(&mut self, client_user_id: i64) -> StoreResult<Vec<Level>> {
        let rows = sqlx::query(
            "WITH RECURSIVE chain (id, parent_id, role, partnership_bp, depth) AS ( \
                 SELECT p.id, p.parent_id, p.role, p.partnership_bp, 1 FROM users c \
                 JOIN users p ON p.id = c.parent_id WHERE c.id = $1 \
               UNION ALL \
                 SELECT u.id, u.parent_id, u.role, u.partnership_bp, chain.depth + 1 FROM users u \
                 JOIN chain ON u.id = chain.parent_id WHERE chain.role <> 'admin' AND chain.depth < $2 \
             ) SELECT id, role, partnership_bp FROM chain ORDER BY depth",
        )
        .bind(client_user_id)
        .bind(TREE_DEPTH_MAX)
        .fetch_all(self.conn())
        .await?;
        let mut chain = Vec::new();
        for row in rows {
            if row.try_get::<String, _>("role")? == "admin" {
                break;
            }
            let share_bp: i64 = row.try_get("partnership_bp")?;
            chain.push(Level {
                user_id: row.try_get("id")?,
                share_bp: u32::try_from(share_bp).unwrap_or(0),
            });
        }
        Ok(chain)
    }

    /// Adds `client_user_id`'s result with the house (positive: the client lost) to `split`.
    pub async fn split_house_result(
        &mut self,
        split_so_far: &mut HouseSplit,
        client_user_id: i64,
        house_result_minor: i64,
        part: Part,
    ) -> StoreResult<()> {
        if house_result_minor == 0 {
            return Ok(());
        }
        if let Entry::Vacant(slot) = split_so_far.chains.entry(client_user_id) {
            slot.insert(self.partnership_chain(client_user_id).await?);
        }
        let chain = &split_so_far.chains[&client_user_id];
        // Account creation keeps every chain valid; a chain that is not is refused here rather
        // than split wrongly.
        let parts = split(house_result_minor, chain).map_err(|e| {
            StoreError::Conflict(format!("the partnerships above user {client_user_id}: {e}"))
        })?;
        let top_bp = chain.last().map_or(0, |level| level.share_bp);
        let shares: Vec<(i64, u32)> = chain.iter().map(|l| (l.user_id, l.share_bp)).collect();
        for ((user_id, share_bp), (_, amount)) in shares.into_iter().zip(parts.levels) {
            split_so_far.rows.push(SplitRow {
                client_user_id,
                user_id: Some(user_id),
                part,
                share_bp,
                amount_minor: amount,
            });
            if amount != 0 {
                let entry = match split_so_far.agents.get_mut(&(part, user_id)) {
                    Some(entry) => entry,
                    None => {
                        let account_id = self.side_account_of(SideAccount::Share, user_id).await?;
                        split_so_far.agents.entry((part, user_id)).or_insert((account_id, 0))
                    }
                };
                entry.1 += amount;
            }
        }
        split_so_far.rows.push(SplitRow {
            client_user_id,
            user_id: None,
            part,
            share_bp: backlay_core::partnership::WHOLE_BP - top_bp,
            amount_minor: parts.operator_minor,
        });
        Ok(())
    }

    /// Writes the split's rows under the transaction that posted it (None: nothing was posted),
    /// several rows per statement.
    pub async fn record_splits(
        &mut self,
        transaction_id: Option<i64>,
        market_id: Option<i64>,
        split: &HouseSplit,
        now_ms: i64,
    ) -> StoreResult<()> {
        for chunk in split.rows.chunks(ROWS_PER_STATEMENT) {
            let sql = format!(
                "INSERT INTO partnership_splits (transaction_id, client_user_id, user_id, part, \
                 share_bp, amount_minor, market_id, created_at_ms) VALUES {}",
                placeholders(self.engine, chunk.len(), 8)
            );
            let mut query = sqlx::query(&sql);
            for row in chunk {
                query = query
                    .bind(transaction_id)
                    .bind(row.client_user_id)
                    .bind(row.user_id)
                    .bind(row.part.as_str())
                    .bind(i64::from(row.share_bp))
                    .bind(row.amount_minor)
                    .bind(market_id)
                    .bind(now_ms);
            }
            query.execute(self.conn()).await?;
        }
        Ok(())
    }
}
