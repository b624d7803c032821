//! The sums behind the console's dashboard (`console/dashboard`), each over one branch (every
//! account under a user, [`TREE_CTE`]) and one period, each the total of a report the console
//! already has:
//! - the house's result per day and product from `partnership_splits`, as the partnership
//!   report reads it (its `markets` rows, summed);
//! - bets placed, their matched stakes and the bettors who placed them, from `bets`, as the
//!   market bet lists show them (a [`Scope`], as those lists take it: an admin's is everyone);
//! - the exposure the accounts in a [`Scope`] hold now, as the downline list shows it.
//!
//! The period is bounded by the caller (the API takes at most a year) and each query walks an
//! index: splits by client and time, bets by user (`bets_user`) and time, accounts by user.

use std::future::Future;

use sqlx::Row;

use backlay_store::downline::{Scope, TREE_DEPTH_MAX};
use backlay_store::repository::TREE_CTE;
use backlay_store::{Store, StoreResult};

/// A day in ms: `(ms + offset_ms) / DAY_MS` numbers the day of `ms` in the zone `offset_ms` ahead of UTC.
pub const DAY_MS: i64 = 86_400_000;

/// One day's house result of one product.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProductDay {
    /// Days since 1970-01-01 in the zone asked for.
    pub day: i64,
    /// "commission" (exchange markets), "bookmaker", "fancy", "casino", or another market type.
    pub product: String,
    /// Positive: the house won.
    pub amount_minor: i64,
}

/// Bets placed in a period.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BetActivity {
    pub bets: i64,
    /// What of their stakes was matched (the backer's stake; a fancy's or bookmaker's whole
    /// stake once accepted).
    pub matched_minor: i64,
    /// Distinct accounts that placed them.
    pub bettors: i64,
}

/// The dashboard's reads on the [`Store`]: a trait, because `Store` is backlay-store's type and
/// only that crate can add methods of its own to it.
pub trait DashboardReads {
    fn house_result_by_day(
        &self,
        root: i64,
        from_ms: i64,
        to_ms: i64,
        offset_ms: i64,
    ) -> impl Future<Output = StoreResult<Vec<ProductDay>>> + Send;
    fn bet_activity(
        &self,
        scope: Scope,
        from_ms: i64,
        to_ms: i64,
    ) -> impl Future<Output = StoreResult<BetActivity>> + Send;
    fn branch_exposure(&self, scope: Scope) -> impl Future<Output = StoreResult<i64>> + Send;
    fn safer_counts(
        &self,
        scope: Scope,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<SaferCounts>> + Send;
    fn live_markets_bet_on(
        &self,
        scope: Scope,
        limit: i64,
    ) -> impl Future<Output = StoreResult<Vec<i64>>> + Send;
}

/// Safer gambling across a branch (the dashboard's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SaferCounts {
    /// Accounts with limits of their own.
    pub with_limits: i64,
    pub timed_out: i64,
    pub self_excluded: i64,
}

impl DashboardReads for Store {
    /// The house's result against the clients under `root`, per day and product, from `from_ms`
    /// to before `to_ms` (the partnership report's bounds), days starting `offset_ms` ahead of
    /// UTC (the reports' UTC+5:30). Times are after 1970, so integer division is the floor.
    async fn house_result_by_day(
        &self,
        root: i64,
        from_ms: i64,
        to_ms: i64,
        offset_ms: i64,
    ) -> StoreResult<Vec<ProductDay>> {
        let rows = sqlx::query(&format!(
            "{TREE_CTE} SELECT CAST((p.created_at_ms + $5) / $6 AS BIGINT) AS day, \
             CASE WHEN p.part = 'commission' THEN 'commission' WHEN p.market_id IS NULL THEN 'casino' \
                  ELSE COALESCE(m.market_type, 'casino') END AS product, \
             CAST(SUM(p.amount_minor) AS BIGINT) AS amount_minor \
             FROM partnership_splits p LEFT JOIN markets m ON m.id = p.market_id \
             WHERE p.client_user_id IN (SELECT id FROM tree) \
               AND p.created_at_ms >= $3 AND p.created_at_ms < $4 \
             GROUP BY 1, 2 ORDER BY 1, 2"
        ))
        .bind(root)
        .bind(TREE_DEPTH_MAX)
        .bind(from_ms)
        .bind(to_ms)
        .bind(offset_ms)
        .bind(DAY_MS)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ProductDay {
                    day: row.try_get("day")?,
                    product: row.try_get("product")?,
                    amount_minor: row.try_get("amount_minor")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Sports bets placed by accounts in `scope` from `from_ms` to before `to_ms`.
    async fn bet_activity(
        &self,
        scope: Scope,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<BetActivity> {
        let (root, everyone) = scope_binds(scope);
        let row = sqlx::query(&format!(
            "{TREE_CTE} SELECT COUNT(*) AS bets, CAST(COALESCE(SUM(b.matched_minor), 0) AS BIGINT) AS matched_minor, \
             COUNT(DISTINCT b.user_id) AS bettors FROM bets b \
             WHERE ($5 = 1 OR b.user_id IN (SELECT id FROM tree)) AND b.created_at_ms >= $3 AND b.created_at_ms < $4"
        ))
        .bind(root)
        .bind(TREE_DEPTH_MAX)
        .bind(from_ms)
        .bind(to_ms)
        .bind(everyone)
        .fetch_one(self.pool())
        .await?;
        Ok(BetActivity {
            bets: row.try_get("bets")?,
            matched_minor: row.try_get("matched_minor")?,
            bettors: row.try_get("bettors")?,
        })
    }

    /// The exposure held now by the accounts in `scope`.
    /// How many accounts in `scope` have limits of their own, and are on a time-out or
    /// self-exclusion at `now_ms` (issue 33).
    async fn safer_counts(&self, scope: Scope, now_ms: i64) -> StoreResult<SaferCounts> {
        let (root, everyone) = scope_binds(scope);
        let row = sqlx::query(&format!(
            "{TREE_CTE} SELECT \
             (SELECT COUNT(*) FROM user_limits l WHERE ($3 = 1 OR l.user_id IN (SELECT id FROM tree))) AS with_limits, \
             (SELECT COUNT(DISTINCT b.user_id) FROM account_blocks b WHERE b.kind = 'time_out' AND b.until_ms > $4 \
                AND ($3 = 1 OR b.user_id IN (SELECT id FROM tree))) AS timed_out, \
             (SELECT COUNT(DISTINCT b.user_id) FROM account_blocks b WHERE b.kind = 'self_exclusion' AND b.until_ms > $4 \
                AND ($3 = 1 OR b.user_id IN (SELECT id FROM tree))) AS self_excluded"
        ))
        .bind(root)
        .bind(TREE_DEPTH_MAX)
        .bind(everyone)
        .bind(now_ms)
        .fetch_one(self.pool())
        .await?;
        Ok(SaferCounts {
            with_limits: row.try_get("with_limits")?,
            timed_out: row.try_get("timed_out")?,
            self_excluded: row.try_get("self_excluded")?,
        })
    }

    async fn branch_exposure(&self, scope: Scope) -> StoreResult<i64> {
        let (root, everyone) = scope_binds(scope);
        Ok(sqlx::query_scalar(&format!(
            "{TREE_CTE} SELECT CAST(COALESCE(SUM(a.exposure_minor), 0) AS BIGINT) FROM ledger_accounts a \
             WHERE a.user_id IS NOT NULL AND ($3 = 1 OR a.user_id IN (SELECT id FROM tree))"
        ))
        .bind(root)
        .bind(TREE_DEPTH_MAX)
        .bind(everyone)
        .fetch_one(self.pool())
        .await?)
    }

    /// Markets not yet settled (status not closed or void) where accounts in `scope` have
    /// matched bets, the most matched stake first, at most `limit`: the markets whose house
    /// position the dashboard works out, instead of every live market's.
    async fn live_markets_bet_on(&self, scope: Scope, limit: i64) -> StoreResult<Vec<i64>> {
        let (root, everyone) = scope_binds(scope);
        Ok(sqlx::query_scalar(&format!(
            "{TREE_CTE} SELECT b.market_id FROM markets m JOIN bets b ON b.market_id = m.id \
             WHERE m.status NOT IN ('closed', 'void') AND b.matched_minor > 0 \
               AND ($3 = 1 OR b.user_id IN (SELECT id FROM tree)) \
             GROUP BY b.market_id ORDER BY SUM(b.matched_minor) DESC, b.market_id LIMIT $4"
        ))
        .bind(root)
        .bind(TREE_DEPTH_MAX)
        .bind(everyone)
        .bind(limit)
        .fetch_all(self.pool())
        .await?)
    }
}

/// The tree's root and the "everyone" flag of a scope's query: everyone walks no tree (-1 is
/// never a user id).
fn scope_binds(scope: Scope) -> (i64, i64) {
    match scope {
        Scope::Everyone => (-1, 1),
        Scope::Under(user_id) => (user_id, 0),
    }
}
