//! What traded, read from the fills: a runner's price over time for its chart
//! (`market/priceHistory`) and each market's total matched once its task has ended (a running
//! market's is the engine's, kept as its batches commit).
//!
//! A price history is bounded however long the runner traded: its fills are put in at most
//! [`PRICE_HISTORY_MAX_POINTS`] intervals of one length, the shortest of
//! [`PRICE_HISTORY_INTERVALS_MS`] that fits (then whole days), each starting at a multiple of
//! its length since the epoch, and each interval with a fill is one point: the price of its last
//! fill and the volume matched in it. Example: fills from 10:00:03 to 10:40:00 span 2,397 s,
//! over 199 intervals is 12.05 s each, so 15 s intervals: a point at 10:00:00 for the fills of
//! 10:00:00–10:00:14.999, … up to 10:40:00, 161 intervals of which those with fills are
//! points. Both reads go by the index on (market_id, runner_id, created_at_ms) (migration 0027).

use sqlx::Row;

use crate::sql::{numbered, ROWS_PER_STATEMENT};
use crate::{Store, StoreResult};

/// Most points one price history answers.
pub const PRICE_HISTORY_MAX_POINTS: i64 = 200;

/// The lengths a price history's intervals take, shortest first: round ones, so that a chart's
/// points fall on round times. Past the last, whole days.
pub const PRICE_HISTORY_INTERVALS_MS: [i64; 18] = [
    1_000,
    2_000,
    5_000,
    10_000,
    15_000,
    30_000,
    60_000,
    2 * 60_000,
    5 * 60_000,
    10 * 60_000,
    15 * 60_000,
    30 * 60_000,
    3_600_000,
    2 * 3_600_000,
    3 * 3_600_000,
    6 * 3_600_000,
    12 * 3_600_000,
    DAY_MS,
];

const DAY_MS: i64 = 24 * 3_600_000;

/// One interval of a runner's price history with a fill in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PricePoint {
    /// When the interval starts (epoch ms).
    pub from_ms: i64,
    /// The price of its last fill, in hundredths.
    pub price: i64,
    /// The backers' stakes matched in it.
    pub volume_minor: i64,
}

/// A runner's price over time: its intervals' length and the points, oldest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PriceHistory {
    pub interval_ms: i64,
    pub points: Vec<PricePoint>,
}

/// The shortest interval that puts every fill from `first_ms` to `last_ms` in at most
/// [`PRICE_HISTORY_MAX_POINTS`] intervals starting at multiples of it. Intervals of length `i`
/// aligned so cover `⌊last/i⌋ − ⌊first/i⌋ + 1 < (last − first)/i + 2` of them, which is at most
/// the limit when `i ≥ (last − first) / (limit − 1)`.
pub fn price_history_interval_ms(first_ms: i64, last_ms: i64) -> i64 {
    let span_ms = (last_ms - first_ms).max(0);
    let needed_ms = (span_ms + PRICE_HISTORY_MAX_POINTS - 2) / (PRICE_HISTORY_MAX_POINTS - 1);
    PRICE_HISTORY_INTERVALS_MS
        .into_iter()
        .find(|interval| *interval >= needed_ms)
        .unwrap_or_else(|| (needed_ms + DAY_MS - 1) / DAY_MS * DAY_MS)
}

impl Store {
    /// The price history of runner `runner_id` of market `market_id` (see the module docs);
    /// no points before its first fill.
    pub async fn price_history(&self, market_id: i64, runner_id: i64) -> StoreResult<PriceHistory> {
        let span = sqlx::query(
            "SELECT MIN(created_at_ms) AS first_ms, MAX(created_at_ms) AS last_ms FROM fills \
             WHERE market_id = $1 AND runner_id = $2",
        )
        .bind(market_id)
        .bind(runner_id)
        .fetch_one(self.pool())
        .await?;
        let first_ms: Option<i64> = span.try_get("first_ms")?;
        let last_ms: Option<i64> = span.try_get("last_ms")?;
        let (Some(first_ms), Some(last_ms)) = (first_ms, last_ms) else {
            return Ok(PriceHistory { interval_ms: PRICE_HISTORY_INTERVALS_MS[0], points: vec![] });
        };
        let interval_ms = price_history_interval_ms(first_ms, last_ms);
        // An interval's price is that of its last fill: fills are numbered in the order the
        // market's task made them.
        let rows = sqlx::query(
            "SELECT i.bucket, i.volume_minor, f.price FROM ( \
                 SELECT created_at_ms / $3 AS bucket, CAST(SUM(size_minor) AS BIGINT) AS volume_minor, \
                        MAX(id) AS last_id \
                 FROM fills WHERE market_id = $1 AND runner_id = $2 GROUP BY bucket \
             ) i JOIN fills f ON f.id = i.last_id ORDER BY i.bucket LIMIT $4",
        )
        .bind(market_id)
        .bind(runner_id)
        .bind(interval_ms)
        .bind(PRICE_HISTORY_MAX_POINTS)
        .fetch_all(self.pool())
        .await?;
        let points = rows
            .iter()
            .map(|row| {
                Ok(PricePoint {
                    from_ms: row.try_get::<i64, _>("bucket")? * interval_ms,
                    price: row.try_get("price")?,
                    volume_minor: row.try_get("volume_minor")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        Ok(PriceHistory { interval_ms, points })
    }

    /// Each market's total matched, on the runners still running (a non-runner's fills are
    /// void), as `(market_id, total_minor)`; a market without fills is absent.
    pub async fn matched_totals(&self, market_ids: &[i64]) -> StoreResult<Vec<(i64, i64)>> {
        let mut totals = Vec::new();
        for chunk in market_ids.chunks(ROWS_PER_STATEMENT) {
            let list = numbered(chunk.len());
            let sql = format!(
                "SELECT f.market_id, CAST(SUM(f.size_minor) AS BIGINT) AS total_minor FROM fills f \
                 JOIN runners r ON r.id = f.runner_id AND r.status <> 'removed' \
                 WHERE f.market_id IN ({list}) GROUP BY f.market_id"
            );
            let mut query = sqlx::query(&sql);
            for market_id in chunk {
                query = query.bind(*market_id);
            }
            for row in query.fetch_all(self.pool()).await? {
                totals.push((row.try_get("market_id")?, row.try_get("total_minor")?));
            }
        }
        Ok(totals)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How many aligned intervals of `interval` the span from `first` to `last` touches.
    fn intervals(first: i64, last: i64, interval: i64) -> i64 {
        last / interval - first / interval + 1
    }

    #[test]
    fn the_worked_example_takes_fifteen_seconds() {
        let first = 1_790_000_000_000 + 3_000;
        let last = 1_790_000_000_000 + 40 * 60_000;
        assert_eq!(price_history_interval_ms(first, last), 15_000);
    }

    #[test]
    fn every_span_fits_the_limit_in_the_shortest_interval_that_does() {
        let start = 1_790_000_123_456;
        let spans = [0, 1, 999, 1_000, 198_999, 199_000, 199_001, 3_600_000, 86_399_999];
        let longer = [7 * DAY_MS, 400 * DAY_MS + 17, 3 * 365 * DAY_MS];
        for span in spans.into_iter().chain(longer) {
            let interval = price_history_interval_ms(start, start + span);
            assert!(
                intervals(start, start + span, interval) <= PRICE_HISTORY_MAX_POINTS,
                "span {span}: {interval}"
            );
            // The next shorter round interval would not have done.
            if let Some(shorter) =
                PRICE_HISTORY_INTERVALS_MS.iter().rev().find(|i| **i < interval).copied()
            {
                assert!(
                    shorter * (PRICE_HISTORY_MAX_POINTS - 1) < span,
                    "span {span}: {shorter} would fit"
                );
            }
        }
        assert_eq!(price_history_interval_ms(start, start), 1_000);
        assert_eq!(price_history_interval_ms(start, start + 400 * DAY_MS + 17), 3 * DAY_MS);
    }
}
