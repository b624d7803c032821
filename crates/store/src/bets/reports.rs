//! Bets as a bettor's reports show them, each with its market's, match's and runner's names:
//! the current bets, a market's settled bets, the closed bets' history by outcome, the
//! exposure per market, and average matched prices.

use std::collections::BTreeMap;

use backlay_core::exchange::MarketType;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{bet_from_row, BetRow, BET_COLUMNS};
use crate::{named, Store, StoreResult};

/// One user's exposure in one market, with the match it belongs to (for getExposureDetail).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExposureRow {
    pub market_id: i64,
    pub market_name: String,
    pub market_type: MarketType,
    pub match_id: i64,
    pub match_name: String,
    pub sport_name: String,
    pub exposure_minor: i64,
    pub bet_count: i64,
}

/// A bet with the names a report shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurrentBet {
    pub bet: BetRow,
    pub market_type: MarketType,
    pub market_name: String,
    pub match_id: i64,
    pub match_name: String,
    pub selection_name: Option<String>,
}

/// The bets of a report joined to their market, match and runner; a `WHERE` follows.
const NAMED_BETS_FROM: &str =
    "FROM bets b JOIN markets m ON m.id = b.market_id JOIN matches mt ON mt.id = m.match_id \
     LEFT JOIN runners r ON r.id = b.runner_id";

fn named_bet_columns() -> String {
    let columns = BET_COLUMNS.split(", ").map(|c| format!("b.{c}")).collect::<Vec<_>>().join(", ");
    format!(
        "{columns}, m.market_type, m.name AS market_name, mt.id AS match_id, mt.name AS match_name, \
         r.name AS selection_name"
    )
}

fn named_bets_from_rows(rows: &[AnyRow]) -> StoreResult<Vec<CurrentBet>> {
    rows.iter()
        .map(|row| {
            Ok(CurrentBet {
                bet: bet_from_row(row)?,
                market_type: named(row, "market_type")?,
                market_name: row.try_get("market_name")?,
                match_id: row.try_get("match_id")?,
                match_name: row.try_get("match_name")?,
                selection_name: row.try_get("selection_name")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

/// Which closed bets a history page holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettledBetsFilter {
    /// Placed at or after.
    pub from_ms: i64,
    /// Placed at or before.
    pub to_ms: i64,
    /// "" (all), "won", "lost" or "void".
    pub outcome: &'static str,
}

/// Most bets one market's settled-bets list returns: far more than a bettor places on one
/// market, and a bound on the answer.
pub const SETTLED_BETS_OF_MARKET_MAX: i64 = 1_000;

impl Store {
    /// A user's exposure per open market, with the match and sport (newest match first).
    pub async fn exposure_rows_of_user(&self, user_id: i64) -> StoreResult<Vec<ExposureRow>> {
        let rows = sqlx::query(
            "SELECT e.market_id, m.name AS market_name, m.market_type, mt.id AS match_id, mt.name AS match_name, \
             sp.name AS sport_name, e.exposure_minor, \
             (SELECT COUNT(*) FROM bets b WHERE b.market_id = e.market_id AND b.user_id = e.user_id \
              AND b.status IN ('open', 'matched')) AS bet_count \
             FROM market_exposures e JOIN markets m ON m.id = e.market_id JOIN matches mt ON mt.id = m.match_id \
             JOIN sports sp ON sp.sport_id = mt.sport_id \
             WHERE e.user_id = $1 AND e.exposure_minor > 0 ORDER BY mt.id DESC, e.market_id",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ExposureRow {
                    market_id: row.try_get("market_id")?,
                    market_name: row.try_get("market_name")?,
                    market_type: named(row, "market_type")?,
                    match_id: row.try_get("match_id")?,
                    match_name: row.try_get("match_name")?,
                    sport_name: row.try_get("sport_name")?,
                    exposure_minor: row.try_get("exposure_minor")?,
                    bet_count: row.try_get("bet_count")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// A user's live bets (not settled), newest first: those with an unmatched part when
    /// `unmatched`, else those with a matched part.
    pub async fn current_bets(
        &self,
        user_id: i64,
        unmatched: bool,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<CurrentBet>, i64)> {
        let part = if unmatched { "b.remaining_minor > 0" } else { "b.matched_minor > 0" };
        let filter = format!(
            "{NAMED_BETS_FROM} WHERE b.user_id = $1 AND b.status IN ('open', 'matched') AND {part}"
        );
        let rows = sqlx::query(&format!(
            "SELECT {} {filter} ORDER BY b.id DESC LIMIT $2 OFFSET $3",
            named_bet_columns()
        ))
        .bind(user_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {filter}"))
            .bind(user_id)
            .fetch_one(self.pool())
            .await?;
        Ok((named_bets_from_rows(&rows)?, total))
    }

    /// A user's bets of one market that its settlement or void closed (settled or void),
    /// oldest first, at most [`SETTLED_BETS_OF_MARKET_MAX`]. Another user's bets are never
    /// read: an unknown market, or one where the user had no bet, gives an empty list.
    pub async fn settled_bets_of_market(
        &self,
        user_id: i64,
        market_id: i64,
    ) -> StoreResult<Vec<CurrentBet>> {
        let rows = sqlx::query(&format!(
            "SELECT {} {NAMED_BETS_FROM} WHERE b.user_id = $1 AND b.market_id = $2 \
             AND b.status IN ('settled', 'void') ORDER BY b.id LIMIT $3",
            named_bet_columns()
        ))
        .bind(user_id)
        .bind(market_id)
        .bind(SETTLED_BETS_OF_MARKET_MAX)
        .fetch_all(self.pool())
        .await?;
        named_bets_from_rows(&rows)
    }

    /// One page of a user's closed bets (settled or void), newest first, placed between two
    /// times, narrowed by outcome, and how many match.
    pub async fn settled_bets_page(
        &self,
        user_id: i64,
        filter: &SettledBetsFilter,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<CurrentBet>, i64)> {
        // $4: '' every closed bet, 'won' / 'lost' by the bet's own result, 'void'.
        let filter_sql = format!(
            "{NAMED_BETS_FROM} WHERE b.user_id = $1 AND b.status IN ('settled', 'void') \
             AND b.created_at_ms >= $2 AND b.created_at_ms <= $3 \
             AND ($4 = '' OR ($4 = 'void' AND b.status = 'void') \
                  OR ($4 = 'won' AND b.status = 'settled' AND COALESCE(b.pnl_minor, 0) > 0) \
                  OR ($4 = 'lost' AND b.status = 'settled' AND COALESCE(b.pnl_minor, 0) < 0))"
        );
        let rows = sqlx::query(&format!(
            "SELECT {} {filter_sql} ORDER BY b.id DESC LIMIT $5 OFFSET $6",
            named_bet_columns()
        ))
        .bind(user_id)
        .bind(filter.from_ms)
        .bind(filter.to_ms)
        .bind(filter.outcome)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {filter_sql}"))
            .bind(user_id)
            .bind(filter.from_ms)
            .bind(filter.to_ms)
            .bind(filter.outcome)
            .fetch_one(self.pool())
            .await?;
        Ok((named_bets_from_rows(&rows)?, total))
    }

    /// Σ price × size over each bet's fills (hundredths × minor units), by bet id, for their
    /// average matched prices; a bet without fills is absent. Sums are taken here in i128, not
    /// in SQL, where a large bet's Σ could pass i64.
    pub async fn matched_price_size_sums(
        &self,
        bet_ids: &[i64],
    ) -> StoreResult<BTreeMap<i64, i128>> {
        let summaries = self.fill_summaries(bet_ids).await?;
        Ok(summaries
            .into_iter()
            .map(|(bet_id, summary)| (bet_id, summary.price_size_sum))
            .collect())
    }
}
