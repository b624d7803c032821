//! Stored bets, fills and exposures as they are: by id and by market (the engine rebuilds its
//! books from them), by user (live bets, the Betfair stream's orders) and what traded.

use std::collections::BTreeMap;

use backlay_core::exchange::MarketType;
use sqlx::Row;

use super::{
    bet_from_row, bets_from_rows, fills_from_rows, BetRow, FillRow, BET_COLUMNS, FILLS_WITH_USERS,
};
use crate::sql::{numbered, ROWS_PER_STATEMENT};
use crate::{named, Store, StoreError, StoreResult};

/// Most bets of one user in one market read for the Betfair stream's order changes: far more
/// than a bettor keeps in one market, and a bound on the read.
pub const BETS_OF_USER_IN_MARKET_MAX: i64 = 1_000;

/// What a bet's fills add up to: Σ price × size (hundredths × minor units, for the average
/// matched price), Σ the backer's profit (what a matched back wins, a matched lay risks), and
/// when the last one was made.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct FillSummary {
    pub price_size_sum: i128,
    pub backer_profit_minor: i64,
    pub last_fill_ms: i64,
}

impl Store {
    pub async fn bet(&self, bet_id: i64) -> StoreResult<BetRow> {
        let row = sqlx::query(&format!("SELECT {BET_COLUMNS} FROM bets WHERE id = $1"))
            .bind(bet_id)
            .fetch_optional(self.pool())
            .await?
            .ok_or(StoreError::NotFound)?;
        Ok(bet_from_row(&row)?)
    }

    /// Whether a bet with this id is stored: how the engine learns whether a batch whose commit
    /// failed was committed after all (a batch's bets are stored together or not at all).
    pub async fn is_bet_stored(&self, bet_id: i64) -> StoreResult<bool> {
        let found: Option<i64> = sqlx::query_scalar("SELECT id FROM bets WHERE id = $1")
            .bind(bet_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(found.is_some())
    }

    /// Every bet of a market, oldest first (the engine rebuilds its books from these).
    pub async fn bets_of_market(&self, market_id: i64) -> StoreResult<Vec<BetRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} FROM bets WHERE market_id = $1 ORDER BY id"
        ))
        .bind(market_id)
        .fetch_all(self.pool())
        .await?;
        bets_from_rows(&rows)
    }

    /// Every fill of a market, oldest first, with the users on each side.
    pub async fn fills_of_market(&self, market_id: i64) -> StoreResult<Vec<FillRow>> {
        let rows = sqlx::query(&format!("{FILLS_WITH_USERS} WHERE f.market_id = $1 ORDER BY f.id"))
            .bind(market_id)
            .fetch_all(self.pool())
            .await?;
        fills_from_rows(&rows)
    }

    /// Stored exposure per user in a market.
    pub async fn exposures_of_market(&self, market_id: i64) -> StoreResult<Vec<(i64, i64)>> {
        let rows = sqlx::query(
            "SELECT user_id, exposure_minor FROM market_exposures WHERE market_id = $1",
        )
        .bind(market_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("user_id")?, row.try_get("exposure_minor")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// What was matched in these markets, per runner and price (the backer's stake, summed):
    /// `(market_id, runner_id, price, size_minor)`, by market, runner and price.
    pub async fn traded_volume(
        &self,
        market_ids: &[i64],
    ) -> StoreResult<Vec<(i64, i64, i64, i64)>> {
        let mut traded = Vec::new();
        for chunk in market_ids.chunks(ROWS_PER_STATEMENT) {
            let list = numbered(chunk.len());
            let sql = format!(
                "SELECT market_id, runner_id, price, CAST(SUM(size_minor) AS BIGINT) AS size_minor FROM fills \
                 WHERE market_id IN ({list}) GROUP BY market_id, runner_id, price \
                 ORDER BY market_id, runner_id, price"
            );
            let mut query = sqlx::query(&sql);
            for market_id in chunk {
                query = query.bind(*market_id);
            }
            for row in query.fetch_all(self.pool()).await? {
                traded.push((
                    row.try_get("market_id")?,
                    row.try_get("runner_id")?,
                    row.try_get("price")?,
                    row.try_get("size_minor")?,
                ));
            }
        }
        Ok(traded)
    }

    /// The price of each runner's last fill in a market: `(runner_id, price)`.
    pub async fn last_traded_prices(&self, market_id: i64) -> StoreResult<Vec<(i64, i64)>> {
        let rows = sqlx::query(
            "SELECT runner_id, price FROM fills WHERE id IN \
             (SELECT MAX(id) FROM fills WHERE market_id = $1 GROUP BY runner_id)",
        )
        .bind(market_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("runner_id")?, row.try_get("price")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A user's live bets (not settled or void) with their market's type, newest first,
    /// optionally only those of one match.
    pub async fn live_bets_of_user(
        &self,
        user_id: i64,
        match_id: Option<i64>,
        limit: i64,
    ) -> StoreResult<Vec<(BetRow, MarketType)>> {
        let columns =
            BET_COLUMNS.split(", ").map(|c| format!("b.{c}")).collect::<Vec<_>>().join(", ");
        let rows = sqlx::query(&format!(
            "SELECT {columns}, m.market_type FROM bets b JOIN markets m ON m.id = b.market_id \
             WHERE b.user_id = $1 AND b.status IN ('open', 'matched') AND ($2 = -1 OR m.match_id = $2) \
             ORDER BY b.id DESC LIMIT $3"
        ))
        .bind(user_id)
        .bind(match_id.unwrap_or(-1))
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((bet_from_row(row)?, named(row, "market_type")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A user's bets in one market, oldest first, at most [`BETS_OF_USER_IN_MARKET_MAX`]
    /// (the Betfair stream re-reads them when the engine says they changed).
    pub async fn bets_of_user_in_market(
        &self,
        user_id: i64,
        market_id: i64,
    ) -> StoreResult<Vec<BetRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} FROM bets WHERE user_id = $1 AND market_id = $2 ORDER BY id LIMIT $3"
        ))
        .bind(user_id)
        .bind(market_id)
        .bind(BETS_OF_USER_IN_MARKET_MAX)
        .fetch_all(self.pool())
        .await?;
        bets_from_rows(&rows)
    }

    /// [`FillSummary`] by bet id; a bet without fills is absent.
    pub async fn fill_summaries(&self, bet_ids: &[i64]) -> StoreResult<BTreeMap<i64, FillSummary>> {
        let mut summaries: BTreeMap<i64, FillSummary> = BTreeMap::new();
        for chunk in bet_ids.chunks(ROWS_PER_STATEMENT) {
            let list = numbered(chunk.len());
            let sql = format!(
                "SELECT back_bet_id AS bet_id, price, size_minor, backer_profit_minor, created_at_ms FROM fills WHERE back_bet_id IN ({list}) \
                 UNION ALL SELECT lay_bet_id AS bet_id, price, size_minor, backer_profit_minor, created_at_ms FROM fills WHERE lay_bet_id IN ({list})"
            );
            let mut query = sqlx::query(&sql);
            for bet_id in chunk {
                query = query.bind(*bet_id);
            }
            for row in query.fetch_all(self.pool()).await? {
                let bet_id: i64 = row.try_get("bet_id")?;
                let price: i64 = row.try_get("price")?;
                let size_minor: i64 = row.try_get("size_minor")?;
                let backer_profit_minor: i64 = row.try_get("backer_profit_minor")?;
                let at_ms: i64 = row.try_get("created_at_ms")?;
                let summary = summaries.entry(bet_id).or_default();
                summary.price_size_sum += i128::from(price) * i128::from(size_minor);
                // A bet's fills sum to at most its matched part's profit, which the funds
                // check bounded when it was placed.
                summary.backer_profit_minor += backer_profit_minor;
                summary.last_fill_ms = summary.last_fill_ms.max(at_ms);
            }
        }
        Ok(summaries)
    }
}
