//! The downline: every account under a user in the agent tree (`users.parent_id`), at any depth.
//!
//! The tree is walked in SQL with recursive CTEs that read the same on SQLite and PostgreSQL.
//! Each walk carries its depth and stops at [`TREE_DEPTH_MAX`]: the tree is a few levels deep
//! (admin → master → agent → client), and the cap means a cycle written into `parent_id` by
//! hand can make a walk repeat rows, never run forever.
//!
//! Example: admin 1 → master 2 → agent 3 → clients 4 and 5; master 2 → agent 6 → client 7.
//!
//! ```text
//! downline_user_ids(2)  = [3, 4, 5, 6, 7]
//! is_in_downline(2, 5)  = true     (5 → 3 → 2)
//! is_in_downline(3, 7)  = false    (7 → 6 → 2 → 1: a cousin, not a child)
//! is_in_downline(3, 3)  = false    (no one is in their own downline)
//! ```
//!
//! An account's **betting P&L** is the sum of its ledger lines of the betting kinds
//! ([`BETTING_KINDS`]: sports settlements after commission, voids and results corrected, in-house casino stakes and
//! payouts, providers' games), that is every line of its statement except chips moving to and
//! from its parent. A parent's betting P&L (the console's downline list) is the sum over its whole
//! downline and itself, and so are its **branch totals** (balance and exposure): the downline page
//! pairs every account of each listed account's branch with it in one recursive walk and sums
//! them in one GROUP BY, whatever the page size.

use backlay_core::exchange::BetSide;
use sqlx::{Any, Executor, Row};

use crate::bets::BetStatus;
use crate::ledger::TransactionKind;
use crate::sql::quoted;
use crate::users::Role;
use crate::{named, Store, StoreResult, Writer};

/// The deepest the tree is walked, counted in levels below the starting user.
pub const TREE_DEPTH_MAX: i64 = 16;

/// The ledger transaction kinds that are betting results (see the module documentation).
pub const BETTING_KINDS: [TransactionKind; 5] = [
    TransactionKind::Settlement,
    TransactionKind::Void,
    TransactionKind::ResultCorrected,
    TransactionKind::Casino,
    TransactionKind::LiveCasino,
];

/// `IN (…)` list of [`BETTING_KINDS`], quoted for SQL (fixed words, never user input).
fn betting_kinds_sql() -> String {
    quoted(BETTING_KINDS.map(TransactionKind::as_str))
}

/// The CTE `tree(id, parent_id, depth)` of every user under `$1`, capped at `$2` levels.
pub const TREE_CTE: &str = "WITH RECURSIVE tree(id, parent_id, depth) AS ( \
     SELECT id, parent_id, 1 FROM users WHERE parent_id = $1 \
     UNION ALL \
     SELECT u.id, u.parent_id, t.depth + 1 FROM users u JOIN tree t ON u.parent_id = t.id WHERE t.depth < $2)";

/// An account of a downline with its place in the tree, for reports that add up by branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    pub parent_id: i64,
    pub user_name: String,
    pub role: Role,
    pub partnership_bp: u32,
}

async fn in_downline<'e, E: Executor<'e, Database = Any>>(
    executor: E,
    ancestor_id: i64,
    user_id: i64,
) -> StoreResult<bool> {
    // Walks up from the user (one row per level) rather than down from the ancestor (the
    // whole subtree): the answer is on the user's path to the root or nowhere.
    let found: i64 = sqlx::query_scalar(
        "WITH RECURSIVE up(id, parent_id, depth) AS ( \
             SELECT id, parent_id, 0 FROM users WHERE id = $1 \
             UNION ALL \
             SELECT u.id, u.parent_id, up.depth + 1 FROM users u JOIN up ON u.id = up.parent_id \
             WHERE up.depth < $3) \
         SELECT COUNT(*) FROM up WHERE id = $2 AND depth > 0",
    )
    .bind(user_id)
    .bind(ancestor_id)
    .bind(TREE_DEPTH_MAX)
    .fetch_one(executor)
    .await?;
    Ok(found > 0)
}

/// Whose accounts a console read covers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// An admin's: every account.
    Everyone,
    /// An agent's: the accounts under this user, at any depth (not the user itself).
    Under(i64),
}

backlay_core::named_enum! {
    /// What the downline list is sorted by.
    pub enum DownlineSort as "sort" {
        Name = "name",
        Balance = "balance",
        Exposure = "exposure",
        Available = "available",
        Pnl = "pnl",
        LastLogin = "last_login",
    }
}

impl DownlineSort {
    fn column(self) -> &'static str {
        match self {
            DownlineSort::Name => "u.user_name_key",
            // What the list shows: the branch's sums (a client's branch is itself).
            DownlineSort::Balance => "t.balance_minor",
            DownlineSort::Exposure => "t.exposure_minor",
            DownlineSort::Available => "t.balance_minor - t.exposure_minor",
            DownlineSort::Pnl => "COALESCE(p.pnl_minor, 0)",
            // Never logged in sorts before any log-in.
            DownlineSort::LastLogin => "COALESCE(u.last_login_at_ms, -1)",
        }
    }
}

/// Which accounts a downline page lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// The direct children of this account, their names containing the text (empty: all).
    Children { parent_id: i64, search: String },
    /// Every account under this one at any depth whose name contains the text.
    Search { under_id: i64, search: String },
    /// This one account (a page of one row, for an account's header).
    One(i64),
}

/// One page of a downline listing.
#[derive(Clone, Debug)]
pub struct DownlineQuery {
    pub listing: Listing,
    pub sort: DownlineSort,
    pub descending: bool,
    pub offset: i64,
    pub limit: i64,
}

/// The sums over an account and everyone under it (its branch).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BranchTotals {
    pub balance_minor: i64,
    pub exposure_minor: i64,
    /// How many accounts the branch holds, the account included.
    pub accounts: i64,
}

/// An account as the console's downline list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DownlineRow {
    pub user_id: i64,
    pub user_name: String,
    pub role: Role,
    pub parent_id: Option<i64>,
    pub is_locked: bool,
    /// Can log in, cannot bet.
    pub is_bet_locked: bool,
    /// The agent above whose lock covers this account, whatever its own state
    /// ([`crate::branch_locks`]).
    pub locked_by: Option<String>,
    /// The agent above whose bet-lock covers this account.
    pub bet_locked_by: Option<String>,
    /// An agent's partnership in basis points (cumulative from the bottom); 0 for a client.
    pub partnership_bp: u32,
    /// What the parent says the account owes or is owed (a number, not money).
    pub credit_reference_minor: i64,
    /// The largest stake of one bet; None: no cap but each market's.
    pub max_stake_minor: Option<i64>,
    /// The most exposure across markets; None: no limit.
    pub max_exposure_minor: Option<i64>,
    pub last_login_at_ms: Option<i64>,
    /// The account's own chips.
    pub balance_minor: i64,
    pub exposure_minor: i64,
    /// The account and everyone under it.
    pub branch: BranchTotals,
    /// Betting P&L of the account and everyone under it (module documentation).
    pub pnl_minor: i64,
    pub children: i64,
    /// The accounts from the first level under the listing's anchor down to this one (this
    /// one last), as (id, name): `[agent, client]` for a client found two levels down.
    pub path: Vec<(i64, String)>,
}

/// A bet of the downline in one market, with its owner's name and its runner's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DownlineBet {
    pub bet_id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub side: BetSide,
    pub runner_name: Option<String>,
    pub price: i64,
    pub line: Option<i64>,
    pub stake_minor: i64,
    pub matched_minor: i64,
    pub status: BetStatus,
    pub created_at_ms: i64,
}

/// Filters of a market's bet list.
#[derive(Clone, Debug)]
pub struct MarketBetsQuery {
    pub market_id: i64,
    /// Part of the user name, any case; empty: everyone.
    pub user: String,
    pub side: Option<BetSide>,
    pub offset: i64,
    pub limit: i64,
}

/// The betting P&L of one settled market (or, for casino lines, of one kind) over a period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PnlLine {
    /// One of [`BETTING_KINDS`].
    pub kind: TransactionKind,
    pub market_id: Option<i64>,
    pub market_name: Option<String>,
    pub match_name: Option<String>,
    pub pnl_minor: i64,
    /// The latest line's time.
    pub last_at_ms: i64,
}

/// `LIKE` pattern for "contains `text`, any case": `%` and `_` in the text match themselves.
fn contains_pattern(text: &str) -> String {
    format!("%{}%", crate::like_escape(&text.trim().to_lowercase()))
}

impl Store {
    /// True when `user_id` is somewhere under `ancestor_id` (never for the ancestor itself).
    pub async fn is_in_downline(&self, ancestor_id: i64, user_id: i64) -> StoreResult<bool> {
        in_downline(self.pool(), ancestor_id, user_id).await
    }

    /// Every account under `ancestor_id` at any depth (not the ancestor) with its parent.
    pub async fn downline_tree(
        &self,
        ancestor_id: i64,
    ) -> StoreResult<std::collections::HashMap<i64, TreeNode>> {
        let rows = sqlx::query(&format!(
            "{TREE_CTE} SELECT DISTINCT u.id, u.parent_id, u.user_name, u.role, u.partnership_bp \
             FROM tree JOIN users u ON u.id = tree.id"
        ))
        .bind(ancestor_id)
        .bind(TREE_DEPTH_MAX)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let partnership_bp: i64 = row.try_get("partnership_bp")?;
                Ok((
                    row.try_get("id")?,
                    TreeNode {
                        parent_id: row.try_get("parent_id")?,
                        user_name: row.try_get("user_name")?,
                        role: named(row, "role")?,
                        partnership_bp: u32::try_from(partnership_bp).unwrap_or(0),
                    },
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The accounts from the top of the tree down to `user_id` (it last), as (id, name): the
    /// console's trail to an account. Empty for an unknown id.
    pub async fn account_path(&self, user_id: i64) -> StoreResult<Vec<(i64, String)>> {
        let rows = sqlx::query(
            "WITH RECURSIVE up(id, parent_id, depth) AS ( \
                 SELECT id, parent_id, 0 FROM users WHERE id = $1 \
                 UNION ALL \
                 SELECT u.id, u.parent_id, up.depth + 1 FROM users u JOIN up ON u.id = up.parent_id \
                 WHERE up.depth < $2) \
             SELECT up.id, u.user_name FROM up JOIN users u ON u.id = up.id ORDER BY up.depth DESC",
        )
        .bind(user_id)
        .bind(TREE_DEPTH_MAX)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("id")?, row.try_get("user_name")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Every user under `ancestor_id` at any depth (not the ancestor), by id.
    pub async fn downline_user_ids(&self, ancestor_id: i64) -> StoreResult<Vec<i64>> {
        Ok(sqlx::query_scalar(&format!("{TREE_CTE} SELECT DISTINCT id FROM tree ORDER BY id"))
            .bind(ancestor_id)
            .bind(TREE_DEPTH_MAX)
            .fetch_all(self.pool())
            .await?)
    }

    /// One page of a downline listing ([`Listing`]) with each account's own chips, the sums
    /// of its branch and the betting P&L of its branch, and how many accounts the listing
    /// holds. Two statements whatever the page size (the rows, the count): each row's branch
    /// is summed in the same pass, never one read per row.
    pub async fn downline_page(
        &self,
        query: &DownlineQuery,
    ) -> StoreResult<(Vec<DownlineRow>, i64)> {
        let kinds = betting_kinds_sql();
        let direction = if query.descending { "DESC" } else { "ASC" };
        let sort = query.sort.column();
        // $1 anchor, $2 depth cap, $3 name pattern, $4 1: the anchor itself is the one row,
        // $5 1: any depth (a search), else the first level only. One statement for the three
        // listings: PostgreSQL refuses a bound value its statement never names.
        let (anchor, pattern, one, anywhere) = match &query.listing {
            Listing::Children { parent_id, search } => (*parent_id, contains_pattern(search), 0, 0),
            Listing::Search { under_id, search } => (*under_id, contains_pattern(search), 0, 1),
            Listing::One(user_id) => (*user_id, contains_pattern(""), 1, 0),
        };
        // `below` walks down from the anchor carrying each account's path ('/' never stands in a
        // user name); `roots` are the listed accounts; `branch` pairs every account of each
        // listed one's branch with it (`root_id`), so one GROUP BY sums every row's branch.
        let ctes = format!(
            "WITH RECURSIVE below(id, depth, path_ids, path_names) AS ( \
                 SELECT u.id, 1, CAST(u.id AS TEXT), CAST(u.user_name AS TEXT) FROM users u \
                 WHERE ($4 = 0 AND u.parent_id = $1) OR ($4 = 1 AND u.id = $1) \
                 UNION ALL \
                 SELECT u.id, b.depth + 1, b.path_ids || '/' || CAST(u.id AS TEXT), \
                     b.path_names || '/' || CAST(u.user_name AS TEXT) \
                 FROM users u JOIN below b ON u.parent_id = b.id WHERE $5 = 1 AND b.depth < $2), \
             roots(id, path_ids, path_names) AS ( \
                 SELECT b.id, MIN(b.path_ids), MIN(b.path_names) FROM below b JOIN users u ON u.id = b.id \
                 WHERE u.user_name_key LIKE $3 ESCAPE '\\' GROUP BY b.id), \
             branch(root_id, id, depth) AS ( \
                 SELECT id, id, 0 FROM roots \
                 UNION ALL \
                 SELECT br.root_id, u.id, br.depth + 1 FROM users u JOIN branch br ON u.parent_id = br.id \
                 WHERE br.depth < $2), \
             totals(root_id, balance_minor, exposure_minor, accounts) AS ( \
                 SELECT br.root_id, CAST(SUM(a.balance_minor) AS BIGINT), CAST(SUM(a.exposure_minor) AS BIGINT), \
                     COUNT(*) FROM branch br JOIN ledger_accounts a ON a.user_id = br.id GROUP BY br.root_id), \
             pnl(root_id, pnl_minor) AS ( \
                 SELECT br.root_id, CAST(SUM(e.amount_minor) AS BIGINT) FROM branch br \
                 JOIN ledger_accounts la ON la.user_id = br.id \
                 JOIN ledger_entries e ON e.account_id = la.id \
                 JOIN ledger_transactions x ON x.id = e.transaction_id \
                 WHERE x.kind IN ({kinds}) GROUP BY br.root_id)"
        );
        let sql = format!(
            "{ctes} SELECT u.id, u.user_name, u.role, u.parent_id, u.is_locked, u.is_bet_locked, u.partnership_bp, \
                 u.credit_reference_minor, u.max_stake_minor, u.max_exposure_minor, u.last_login_at_ms, \
                 a.balance_minor, a.exposure_minor, t.balance_minor AS branch_balance_minor, \
                 t.exposure_minor AS branch_exposure_minor, t.accounts AS branch_accounts, \
                 COALESCE(p.pnl_minor, 0) AS pnl_minor, r.path_ids, r.path_names, \
                 (SELECT COUNT(*) FROM users c WHERE c.parent_id = u.id) AS children, \
                 (SELECT l.user_name FROM users l WHERE l.id = u.locked_by_user_id) AS locked_by, \
                 (SELECT l.user_name FROM users l WHERE l.id = u.bet_locked_by_user_id) AS bet_locked_by \
             FROM roots r JOIN users u ON u.id = r.id JOIN ledger_accounts a ON a.user_id = u.id \
             JOIN totals t ON t.root_id = u.id LEFT JOIN pnl p ON p.root_id = u.id \
             ORDER BY {sort} {direction}, u.id {direction} LIMIT $6 OFFSET $7"
        );
        let rows = sqlx::query(&sql)
            .bind(anchor)
            .bind(TREE_DEPTH_MAX)
            .bind(&pattern)
            .bind(one)
            .bind(anywhere)
            .bind(query.limit)
            .bind(query.offset)
            .fetch_all(self.pool())
            .await?;
        // The count needs only the listed accounts; the unused CTEs are never evaluated, but
        // they keep $1–$5 named the same way.
        let total: i64 = sqlx::query_scalar(&format!("{ctes} SELECT COUNT(*) FROM roots"))
            .bind(anchor)
            .bind(TREE_DEPTH_MAX)
            .bind(&pattern)
            .bind(one)
            .bind(anywhere)
            .fetch_one(self.pool())
            .await?;
        let rows = rows
            .iter()
            .map(|row| {
                let partnership_bp: i64 = row.try_get("partnership_bp")?;
                let ids: String = row.try_get("path_ids")?;
                let names: String = row.try_get("path_names")?;
                let path = ids
                    .split('/')
                    .zip(names.split('/'))
                    .map(|(id, name)| (id.parse().unwrap_or_default(), name.to_string()))
                    .collect();
                Ok(DownlineRow {
                    user_id: row.try_get("id")?,
                    user_name: row.try_get("user_name")?,
                    role: named(row, "role")?,
                    parent_id: row.try_get("parent_id")?,
                    is_locked: row.try_get::<i64, _>("is_locked")? != 0,
                    is_bet_locked: row.try_get::<i64, _>("is_bet_locked")? != 0,
                    locked_by: row.try_get("locked_by")?,
                    bet_locked_by: row.try_get("bet_locked_by")?,
                    partnership_bp: u32::try_from(partnership_bp).unwrap_or(0),
                    credit_reference_minor: row.try_get("credit_reference_minor")?,
                    max_stake_minor: row.try_get("max_stake_minor")?,
                    max_exposure_minor: row.try_get("max_exposure_minor")?,
                    last_login_at_ms: row.try_get("last_login_at_ms")?,
                    balance_minor: row.try_get("balance_minor")?,
                    exposure_minor: row.try_get("exposure_minor")?,
                    branch: BranchTotals {
                        balance_minor: row.try_get("branch_balance_minor")?,
                        exposure_minor: row.try_get("branch_exposure_minor")?,
                        accounts: row.try_get("branch_accounts")?,
                    },
                    pnl_minor: row.try_get("pnl_minor")?,
                    children: row.try_get("children")?,
                    path,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok((rows, total))
    }

    /// The betting P&L of `user_id` and everyone under it, between two times, per settled
    /// market (sports) and per kind (casino, providers' games), latest first, at most `limit`.
    pub async fn betting_pnl(
        &self,
        user_id: i64,
        from_ms: i64,
        to_ms: i64,
        limit: i64,
    ) -> StoreResult<Vec<PnlLine>> {
        let kinds = betting_kinds_sql();
        let sql = format!(
            "{TREE_CTE}, accounts(id) AS (SELECT id FROM tree UNION SELECT $1) \
             SELECT x.kind, x.market_id, m.name AS market_name, mt.name AS match_name, \
                 CAST(SUM(e.amount_minor) AS BIGINT) AS pnl_minor, MAX(e.created_at_ms) AS last_at_ms \
             FROM accounts s JOIN ledger_accounts la ON la.user_id = s.id \
             JOIN ledger_entries e ON e.account_id = la.id \
             JOIN ledger_transactions x ON x.id = e.transaction_id \
             LEFT JOIN markets m ON m.id = x.market_id LEFT JOIN matches mt ON mt.id = m.match_id \
             WHERE x.kind IN ({kinds}) AND e.created_at_ms >= $3 AND e.created_at_ms <= $4 \
             GROUP BY x.kind, x.market_id, m.name, mt.name \
             ORDER BY last_at_ms DESC, x.market_id DESC LIMIT $5"
        );
        let rows = sqlx::query(&sql)
            .bind(user_id)
            .bind(TREE_DEPTH_MAX)
            .bind(from_ms)
            .bind(to_ms)
            .bind(limit)
            .fetch_all(self.pool())
            .await?;
        rows.iter()
            .map(|row| {
                Ok(PnlLine {
                    kind: named(row, "kind")?,
                    market_id: row.try_get("market_id")?,
                    market_name: row.try_get("market_name")?,
                    match_name: row.try_get("match_name")?,
                    pnl_minor: row.try_get("pnl_minor")?,
                    last_at_ms: row.try_get("last_at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// One page of a market's bets placed by accounts in `scope`, newest first, and how many
    /// match the filters.
    pub async fn downline_market_bets(
        &self,
        scope: Scope,
        query: &MarketBetsQuery,
    ) -> StoreResult<(Vec<DownlineBet>, i64)> {
        // Everyone: $1 = -1 is never a user id and the tree is empty; the scope test reads it.
        let (root, everyone) = match scope {
            Scope::Everyone => (-1, 1),
            Scope::Under(user_id) => (user_id, 0),
        };
        let side = query.side.map_or("", BetSide::as_str);
        let filter = format!(
            "{TREE_CTE} SELECT {{}} FROM bets b JOIN users u ON u.id = b.user_id \
             LEFT JOIN runners r ON r.id = b.runner_id \
             WHERE b.market_id = $3 AND ($4 = 1 OR b.user_id IN (SELECT id FROM tree)) \
             AND u.user_name_key LIKE $5 ESCAPE '\\' AND ($6 = '' OR b.side = $6)"
        );
        let pattern = contains_pattern(&query.user);
        let columns =
            "b.id, b.user_id, u.user_name, b.side, r.name AS runner_name, b.price, b.line, \
             b.stake_minor, b.matched_minor, b.status, b.created_at_ms";
        let rows = sqlx::query(&format!(
            "{} ORDER BY b.id DESC LIMIT $7 OFFSET $8",
            filter.replace("{}", columns)
        ))
        .bind(root)
        .bind(TREE_DEPTH_MAX)
        .bind(query.market_id)
        .bind(everyone)
        .bind(&pattern)
        .bind(side)
        .bind(query.limit)
        .bind(query.offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(&filter.replace("{}", "COUNT(*)"))
            .bind(root)
            .bind(TREE_DEPTH_MAX)
            .bind(query.market_id)
            .bind(everyone)
            .bind(&pattern)
            .bind(side)
            .fetch_one(self.pool())
            .await?;
        let bets = rows
            .iter()
            .map(|row| {
                Ok(DownlineBet {
                    bet_id: row.try_get("id")?,
                    user_id: row.try_get("user_id")?,
                    user_name: row.try_get("user_name")?,
                    side: named(row, "side")?,
                    runner_name: row.try_get("runner_name")?,
                    price: row.try_get("price")?,
                    line: row.try_get("line")?,
                    stake_minor: row.try_get("stake_minor")?,
                    matched_minor: row.try_get("matched_minor")?,
                    status: named(row, "status")?,
                    created_at_ms: row.try_get("created_at_ms")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok((bets, total))
    }
}

impl Writer {
    /// [`Store::is_in_downline`] inside the transaction, for an operator action's check.
    pub async fn is_in_downline(&mut self, ancestor_id: i64, user_id: i64) -> StoreResult<bool> {
        in_downline(self.conn(), ancestor_id, user_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::users::NewUser;

    async fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("downline.db").display());
        let store = Store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        (dir, store)
    }

    async fn add(store: &Store, name: &str, role: Role, parent_id: Option<i64>) -> i64 {
        let mut writer = store.begin_write().await.unwrap();
        let id = writer
            .insert_user(
                &NewUser {
                    user_name: &name.parse().unwrap(),
                    password_hash: "x",
                    role,
                    parent_id,
                    is_change_password: false,
                    dial_code: None,
                    mobile: None,
                    partnership_bp: 0,
                },
                0,
            )
            .await
            .unwrap();
        writer.commit().await.unwrap();
        id
    }

    /// The tree of the module documentation; ids in the order of its names.
    async fn example_tree(store: &Store) -> [i64; 7] {
        let admin = add(store, "admin", Role::Admin, None).await;
        let master = add(store, "master", Role::Agent, Some(admin)).await;
        let agent = add(store, "agent", Role::Agent, Some(master)).await;
        let c1 = add(store, "c_one", Role::Client, Some(agent)).await;
        let c2 = add(store, "c_two", Role::Client, Some(agent)).await;
        let agent2 = add(store, "agent_b", Role::Agent, Some(master)).await;
        let c3 = add(store, "c_three", Role::Client, Some(agent2)).await;
        [admin, master, agent, c1, c2, agent2, c3]
    }

    #[tokio::test]
    async fn the_downline_is_every_level_below_and_nothing_beside_or_above() {
        let (_dir, store) = store().await;
        let [admin, master, agent, c1, c2, agent2, c3] = example_tree(&store).await;
        assert_eq!(store.downline_user_ids(master).await.unwrap(), vec![agent, c1, c2, agent2, c3]);
        assert_eq!(store.downline_user_ids(agent).await.unwrap(), vec![c1, c2]);
        assert_eq!(store.downline_user_ids(c1).await.unwrap(), Vec::<i64>::new());
        assert_eq!(store.downline_user_ids(admin).await.unwrap().len(), 6);
        assert!(store.is_in_downline(master, c2).await.unwrap());
        assert!(store.is_in_downline(admin, c3).await.unwrap());
        assert!(store.is_in_downline(agent, c1).await.unwrap());
        for (ancestor, user) in [
            (agent, c3),
            (agent, agent),
            (agent, master),
            (agent, agent2),
            (c1, c2),
            (agent, admin),
        ] {
            assert!(!store.is_in_downline(ancestor, user).await.unwrap(), "{ancestor} over {user}");
        }
        let mut writer = store.begin_write().await.unwrap();
        assert!(writer.is_in_downline(master, c3).await.unwrap());
        assert!(!writer.is_in_downline(agent2, c1).await.unwrap());
    }

    #[tokio::test]
    async fn a_cycle_in_the_tree_ends_at_the_depth_cap() {
        let (_dir, store) = store().await;
        let a = add(&store, "agent_a", Role::Agent, None).await;
        let b = add(&store, "agent_b", Role::Agent, Some(a)).await;
        let outside = add(&store, "outside", Role::Client, None).await;
        // Written by hand: a → b → a. No operator action makes this.
        sqlx::query("UPDATE users SET parent_id = $1 WHERE id = $2")
            .bind(b)
            .bind(a)
            .execute(store.pool())
            .await
            .unwrap();
        assert_eq!(store.downline_user_ids(a).await.unwrap(), vec![a, b]);
        assert!(!store.is_in_downline(a, outside).await.unwrap());
        assert!(store.is_in_downline(b, a).await.unwrap());
    }

    #[tokio::test]
    async fn a_page_of_children_is_searched_sorted_and_counted() {
        let (_dir, store) = store().await;
        let [_, master, agent, c1, _, agent2, _] = example_tree(&store).await;
        let page = |search: &str, sort, descending, offset, limit| DownlineQuery {
            listing: Listing::Children { parent_id: master, search: String::from(search) },
            sort,
            descending,
            offset,
            limit,
        };
        let (rows, total) =
            store.downline_page(&page("", DownlineSort::Name, false, 0, 10)).await.unwrap();
        assert_eq!(total, 2);
        assert_eq!(rows.iter().map(|r| r.user_id).collect::<Vec<_>>(), vec![agent, agent2]);
        assert_eq!(rows[0].children, 2);
        assert_eq!(rows[0].role, Role::Agent);
        assert_eq!(rows[0].branch.accounts, 3, "the agent and its two clients");
        assert_eq!(rows[0].path, vec![(agent, "agent".to_string())]);
        let (rows, total) =
            store.downline_page(&page("", DownlineSort::Name, true, 1, 1)).await.unwrap();
        assert_eq!((rows.len(), rows[0].user_id, total), (1, agent, 2));
        let (rows, total) =
            store.downline_page(&page("NT_b", DownlineSort::Name, false, 0, 10)).await.unwrap();
        assert_eq!((rows.len(), rows[0].user_id, total), (1, agent2, 1));
        // `_` is a letter here, not LIKE's any-character.
        let (_, total) =
            store.downline_page(&page("t_", DownlineSort::Name, false, 0, 10)).await.unwrap();
        assert_eq!(total, 1);
        // Children only: the clients two levels down are not listed.
        let (_, total) =
            store.downline_page(&page("c_", DownlineSort::Name, false, 0, 10)).await.unwrap();
        assert_eq!(total, 0);
        let (rows, _) = store
            .downline_page(&DownlineQuery {
                listing: Listing::Children { parent_id: agent, search: String::new() },
                ..page("", DownlineSort::Pnl, false, 0, 10)
            })
            .await
            .unwrap();
        assert_eq!(rows[0].user_id, c1);
        assert_eq!(rows[0].pnl_minor, 0);
    }

    #[tokio::test]
    async fn a_search_reaches_every_level_and_names_the_path() {
        let (_dir, store) = store().await;
        let [admin, master, agent, c1, c2, agent2, c3] = example_tree(&store).await;
        let search = |under_id, text: &str| DownlineQuery {
            listing: Listing::Search { under_id, search: String::from(text) },
            sort: DownlineSort::Name,
            descending: false,
            offset: 0,
            limit: 10,
        };
        let step = |id: i64, name: &str| (id, name.to_string());
        // c_three and c_two, two levels below the master, three below the admin.
        let (rows, total) = store.downline_page(&search(admin, "c_t")).await.unwrap();
        assert_eq!(total, 2);
        let found: Vec<_> = rows.iter().map(|r| (r.user_id, r.path.clone())).collect();
        assert_eq!(
            found,
            vec![
                (c3, vec![step(master, "master"), step(agent2, "agent_b"), step(c3, "c_three")]),
                (c2, vec![step(master, "master"), step(agent, "agent"), step(c2, "c_two")]),
            ]
        );
        // Under the agent, its cousin's client is not found.
        let (rows, total) = store.downline_page(&search(agent, "c_")).await.unwrap();
        assert_eq!(total, 2);
        assert_eq!(rows.iter().map(|r| r.user_id).collect::<Vec<_>>(), vec![c1, c2]);
        assert_eq!(rows[0].path, vec![step(c1, "c_one")]);
        let (rows, total) = store
            .downline_page(&DownlineQuery { listing: Listing::One(agent2), ..search(admin, "") })
            .await
            .unwrap();
        assert_eq!((total, rows[0].user_id, rows[0].branch.accounts), (1, agent2, 2));
        assert_eq!(
            store.account_path(c3).await.unwrap(),
            vec![
                step(admin, "admin"),
                step(master, "master"),
                step(agent2, "agent_b"),
                step(c3, "c_three")
            ]
        );
    }

    #[test]
    fn the_betting_kinds_named_in_sql_are_the_enums_own() {
        assert_eq!(
            betting_kinds_sql(),
            "'settlement', 'void', 'result_corrected', 'casino', 'live_casino'"
        );
    }
}
