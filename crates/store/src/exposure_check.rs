//! The ledger check's look at the exchange ([`crate::Store::ledger_check`]): the exposure
//! reserved for each user in each live market against the worst case of what is stored, and
//! order books where a resting back and a resting lay should have matched.
//!
//! The funds check reads `ledger_accounts.exposure_minor`, which the ledger check holds to the
//! sum of the user's `market_exposures`. Those rows are the engine's figures, written with
//! each bet, match, cancellation and lapse; this module holds them to the bets themselves. For
//! every market not closed or void it recomputes each user's worst case from the stored fills
//! and live bets exactly as the engine does when it rebuilds the market
//! ([`crate::positions::worst_case_exposures`]) and compares it with the stored row (no row: 0).
//!
//! Example: wc1 (user 12) backs 100.00 at 2.00 on market 206 and lays 100.00 at 3.00 on the
//! other runner; both rest unmatched. Worst case: the other runner wins, the back loses 100.00
//! and the lay 200.00: 300.00. A `market_exposures` row of 200.00 (a lost update, a hand edit)
//! lets wc1 bet 100.00 that they do not have; even with the account's total lowered to match,
//! so that Σ markets = total still holds, this check names it:
//!
//! ```text
//! user 12 (wc1), market 206: 200.00 reserved, worst case 300.00
//! ```
//!
//! A crossed book is a runner where the lowest resting back is at or below the highest resting
//! lay (a back at 1.97 resting while a lay at 2.00 waits): the engine matches a new order as
//! far as it crosses, so two such orders can only both rest if a match was lost.
//!
//! Bounds: live markets are read in passes of [`MARKETS_PER_PASS`] (their live bets and fills,
//! one statement each), so memory holds one pass's rows, plus one (market, user, exposure) for
//! each stored non-zero exposure of a live market. Each list stops at [`FINDINGS_MAX`].

use std::collections::BTreeMap;

use backlay_core::exchange::{BetSide, MarketSpec, MarketStatus, MarketType};
use sqlx::{AnyConnection, Row};

use crate::bets::{
    bets_from_rows, fills_from_rows, BetStatus, BET_COLUMNS_PUBLIC, FILLS_WITH_USERS,
};
use crate::markets::{fetch_live_markets, MarketRow};
use crate::positions::worst_case_exposures;
use crate::sql::{numbered, quoted, ROWS_PER_STATEMENT};
use crate::{StoreError, StoreResult};

/// Live markets whose bets and fills one pass reads: bounds the rows held at once, and each
/// statement's bound parameters.
pub const MARKETS_PER_PASS: usize = ROWS_PER_STATEMENT;

/// Most findings of each kind the check lists. A sound ledger has none; a database with more
/// has one fault at its root (a migration, a restore), which the first thousand show.
pub const FINDINGS_MAX: usize = 1_000;

/// A user whose exposure reserved in a live market is not the worst case of their stored bets
/// there: too little lets them bet money they do not have, too much locks money they do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExposureMismatch {
    pub user_id: i64,
    pub user_name: String,
    pub market_id: i64,
    /// `market_exposures.exposure_minor` (0 when there is no row).
    pub reserved_minor: i64,
    /// What the engine would reserve, from the stored fills and live bets.
    pub worst_case_minor: i64,
}

/// A runner of a live exchange market whose best resting back is at or below its best resting
/// lay, with the two orders that should have matched: the oldest at each best price.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrossedBook {
    pub market_id: i64,
    pub runner_id: i64,
    /// Odds in hundredths.
    pub back_price: i64,
    pub lay_price: i64,
    pub back_bet_id: i64,
    pub lay_bet_id: i64,
}

fn settled_market_statuses() -> String {
    quoted(MarketStatus::ALL.iter().filter(|s| s.is_settled()).map(|s| s.as_str()))
}

fn live_bet_statuses() -> String {
    quoted(BetStatus::ALL.iter().filter(|s| s.is_live()).map(|s| s.as_str()))
}

/// The rows of `market_id` in `rows`, which are in market order.
fn of_market<T>(rows: &[T], market_id: i64, market_of: impl Fn(&T) -> i64) -> &[T] {
    let start = rows.partition_point(|row| market_of(row) < market_id);
    let end = rows.partition_point(|row| market_of(row) <= market_id);
    &rows[start..end]
}

/// The exchange's set-up of a stored market, as the engine makes it when it loads the market.
fn spec_of(market: &MarketRow) -> Result<MarketSpec, String> {
    market.setup.spec().map_err(|e| e.to_string())
}

/// A live market whose stored rows the engine could not rebuild: the check cannot say what
/// its users should have reserved, and must not call the ledger sound.
fn unreadable(market_id: i64, reason: impl std::fmt::Display) -> StoreError {
    StoreError::Database(sqlx::Error::Protocol(format!(
        "market {market_id} cannot be checked: {reason}"
    )))
}

/// Every user and live market where the stored exposure is not the worst case of the stored
/// bets, by market then user, at most [`FINDINGS_MAX`].
pub(crate) async fn reserved_exposure_mismatches(
    conn: &mut AnyConnection,
) -> StoreResult<Vec<ExposureMismatch>> {
    let settled = settled_market_statuses();
    let live_bets = live_bet_statuses();
    // One statement for every live market: market_exposures is keyed by user first, so a
    // statement per pass of markets would read the whole table each time. A zero row says
    // what no row says.
    let rows = sqlx::query(&format!(
        "SELECT e.market_id, e.user_id, e.exposure_minor FROM market_exposures e \
         JOIN markets m ON m.id = e.market_id \
         WHERE m.status NOT IN ({settled}) AND e.exposure_minor <> 0"
    ))
    .fetch_all(&mut *conn)
    .await?;
    let mut reserved: BTreeMap<(i64, i64), i64> = BTreeMap::new();
    for row in &rows {
        reserved.insert(
            (row.try_get("market_id")?, row.try_get("user_id")?),
            row.try_get("exposure_minor")?,
        );
    }
    drop(rows);

    let markets = fetch_live_markets(conn).await?;
    let mut found: Vec<(i64, i64, i64, i64)> = Vec::new();
    'passes: for pass in markets.chunks(MARKETS_PER_PASS) {
        let list = numbered(pass.len());
        let bets_sql = format!(
            "SELECT {BET_COLUMNS_PUBLIC} FROM bets WHERE market_id IN ({list}) \
             AND status IN ({live_bets}) ORDER BY market_id, id"
        );
        let fills_sql =
            format!("{FILLS_WITH_USERS} WHERE f.market_id IN ({list}) ORDER BY f.market_id, f.id");
        let (mut bets_query, mut fills_query) = (sqlx::query(&bets_sql), sqlx::query(&fills_sql));
        for market in pass {
            bets_query = bets_query.bind(market.setup.market_id);
            fills_query = fills_query.bind(market.setup.market_id);
        }
        let bets = bets_from_rows(&bets_query.fetch_all(&mut *conn).await?)?;
        let fills = fills_from_rows(&fills_query.fetch_all(&mut *conn).await?)?;
        for market in pass {
            let market_id = market.setup.market_id;
            let spec = spec_of(market).map_err(|e| unreadable(market_id, e))?;
            let worst = worst_case_exposures(
                &spec,
                of_market(&fills, market_id, |fill| fill.market_id),
                of_market(&bets, market_id, |bet| bet.market_id),
            )
            .map_err(|e| unreadable(market_id, e))?;
            // (reserved, worst case) of every user with either.
            let mut users: BTreeMap<i64, (i64, i64)> =
                worst.into_iter().map(|(user, worst)| (user, (0, worst))).collect();
            for ((_, user), stored) in reserved.range((market_id, i64::MIN)..=(market_id, i64::MAX))
            {
                users.entry(*user).or_default().0 = *stored;
            }
            for (user, (stored, worst)) in users {
                if stored != worst {
                    found.push((user, market_id, stored, worst));
                    if found.len() == FINDINGS_MAX {
                        break 'passes;
                    }
                }
            }
        }
    }
    let names = user_names(conn, found.iter().map(|(user, ..)| *user)).await?;
    Ok(found
        .into_iter()
        .map(|(user_id, market_id, reserved_minor, worst_case_minor)| ExposureMismatch {
            user_id,
            user_name: names.get(&user_id).cloned().unwrap_or_default(),
            market_id,
            reserved_minor,
            worst_case_minor,
        })
        .collect())
}

/// The names of these users, by id.
async fn user_names(
    conn: &mut AnyConnection,
    users: impl Iterator<Item = i64>,
) -> StoreResult<BTreeMap<i64, String>> {
    let users: Vec<i64> = users.collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    let mut names = BTreeMap::new();
    for chunk in users.chunks(ROWS_PER_STATEMENT) {
        let sql =
            format!("SELECT id, user_name FROM users WHERE id IN ({})", numbered(chunk.len()));
        let mut query = sqlx::query(&sql);
        for user in chunk {
            query = query.bind(*user);
        }
        for row in query.fetch_all(&mut *conn).await? {
            names.insert(row.try_get("id")?, row.try_get("user_name")?);
        }
    }
    Ok(names)
}

/// Every runner of a live exchange market whose lowest resting back (live, something
/// remaining) is at or below its highest resting lay, by market then runner, at most
/// [`FINDINGS_MAX`].
pub(crate) async fn crossed_books(conn: &mut AnyConnection) -> StoreResult<Vec<CrossedBook>> {
    let settled = settled_market_statuses();
    let live_bets = live_bet_statuses();
    let exchange_types =
        quoted(MarketType::ALL.iter().filter(|t| !t.is_house_banked()).map(|t| t.as_str()));
    let (back, lay) = (BetSide::Back.as_str(), BetSide::Lay.as_str());
    // The best price on each side per runner, then the oldest order at it: the two the engine
    // would have matched first.
    let rows = sqlx::query(&format!(
        "WITH resting AS ( \
           SELECT b.id, b.market_id, b.runner_id, b.side, b.price FROM bets b JOIN markets m ON m.id = b.market_id \
           WHERE m.status NOT IN ({settled}) AND m.market_type IN ({exchange_types}) \
           AND b.status IN ({live_bets}) AND b.remaining_minor > 0), \
         best AS ( \
           SELECT market_id, runner_id, \
           MIN(CASE WHEN side = '{back}' THEN price END) AS back_price, \
           MAX(CASE WHEN side = '{lay}' THEN price END) AS lay_price \
           FROM resting GROUP BY market_id, runner_id) \
         SELECT x.market_id, x.runner_id, x.back_price, x.lay_price, \
           (SELECT MIN(r.id) FROM resting r WHERE r.market_id = x.market_id AND r.runner_id = x.runner_id \
            AND r.side = '{back}' AND r.price = x.back_price) AS back_bet_id, \
           (SELECT MIN(r.id) FROM resting r WHERE r.market_id = x.market_id AND r.runner_id = x.runner_id \
            AND r.side = '{lay}' AND r.price = x.lay_price) AS lay_bet_id \
         FROM best x WHERE x.back_price <= x.lay_price ORDER BY x.market_id, x.runner_id LIMIT $1"
    ))
    .bind(FINDINGS_MAX as i64)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|row| {
            Ok(CrossedBook {
                market_id: row.try_get("market_id")?,
                runner_id: row.try_get("runner_id")?,
                back_price: row.try_get("back_price")?,
                lay_price: row.try_get("lay_price")?,
                back_bet_id: row.try_get("back_bet_id")?,
                lay_bet_id: row.try_get("lay_bet_id")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_states_named_in_sql_are_the_enums_own() {
        assert_eq!(settled_market_statuses(), "'closed', 'void'");
        assert_eq!(live_bet_statuses(), "'open', 'matched'");
        assert_eq!(numbered(3), "$1, $2, $3");
    }

    #[test]
    fn of_market_finds_a_markets_run_of_rows() {
        let rows = [(1, 'a'), (3, 'b'), (3, 'c'), (5, 'd')];
        assert_eq!(of_market(&rows, 3, |r| r.0), &[(3, 'b'), (3, 'c')]);
        assert!(of_market(&rows, 4, |r| r.0).is_empty());
        assert_eq!(of_market(&rows, 5, |r| r.0), &[(5, 'd')]);
    }
}
