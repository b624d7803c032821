//! Bets as a bettor's reports show them, each with its market's, match's and runner's names:
//! the current bets, a market's settled bets, the closed bets' history by outcome (the
//! operator's view) and the bettor's own Bet History, the exposure per market, and average
//! matched prices.
//!
//! **Bet History** lists the bets a user is done with, in whole or in part, by when they closed
//! (`bets.closed_at_ms`, migration 0028), newest first. A bet is listed as:
//!
//! | status    | the bet                                   |
//! |-----------|-------------------------------------------|
//! | settled   | its market settled and something matched  |
//! | void      | its market (or runner) voided and something matched |
//! | lapsed    | something of it lapsed                    |
//! | cancelled | something of it was cancelled             |
//!
//! as Betfair's cleared orders are. One bet can be several: 100.00 backed, 60.00 matched and
//! 40.00 lapsed at the off, then settled, is listed under settled and under lapsed, each time
//! with both figures. Its commission is its share of what the market charged the user
//! ([`Store::history_commissions`]).

use std::collections::BTreeMap;

use backlay_core::exchange::{MarketType, Side};
use sqlx::any::AnyRow;
use sqlx::Row;

use super::{bet_from_row, BetRow, BetStatus, BET_COLUMNS};
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

backlay_core::named_enum! {
    /// How a bet closed, as Bet History lists it (see the module documentation).
    pub enum HistoryStatus as "bet history status" {
        /// Its market settled and something of it matched.
        Settled = "settled",
        /// Its market (or runner) was voided and something of it matched.
        Void = "void",
        /// Something of it lapsed (unmatched at a suspension or the off).
        Lapsed = "lapsed",
        /// Something of it was cancelled (by the bettor, or unmatched at the settlement).
        Cancelled = "cancelled",
    }
}

impl HistoryStatus {
    /// The condition on `bets b` of a bet listed under this status.
    const fn condition(self) -> &'static str {
        match self {
            HistoryStatus::Settled => "(b.status = 'settled' AND b.matched_minor > 0)",
            HistoryStatus::Void => "(b.status = 'void' AND b.matched_minor > 0)",
            HistoryStatus::Lapsed => "b.lapsed_minor > 0",
            HistoryStatus::Cancelled => "b.cancelled_minor > 0",
        }
    }

    /// What a listed bet shows as its status: settled or void when its market closed with
    /// something of it matched, else lapsed or cancelled, whichever took something of it
    /// (lapsed first).
    pub const fn of(bet: &BetRow) -> HistoryStatus {
        match bet.status {
            BetStatus::Settled if bet.matched_minor > 0 => HistoryStatus::Settled,
            BetStatus::Void if bet.matched_minor > 0 => HistoryStatus::Void,
            _ if bet.lapsed_minor > 0 => HistoryStatus::Lapsed,
            _ => HistoryStatus::Cancelled,
        }
    }
}

/// Which of a user's closed bets a Bet History page holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BetHistoryFilter {
    /// Closed at or after.
    pub from_ms: i64,
    /// Closed at or before.
    pub to_ms: i64,
    /// None: every closed bet.
    pub status: Option<HistoryStatus>,
    pub sport_id: Option<i64>,
    pub market_type: Option<MarketType>,
    /// Back takes fancy YES bets too, lay NO bets.
    pub side: Option<Side>,
}

/// A value bound to a statement that is built as its filters ask.
enum Bound {
    Int(i64),
    Text(&'static str),
}

impl BetHistoryFilter {
    /// The `WHERE` condition on `bets b` (joined to `markets m` and `matches mt`) of the user's
    /// bets this filter lists, with the values it binds from `$1` (the user) on.
    fn condition(&self, user_id: i64) -> (String, Vec<Bound>) {
        let mut binds = vec![Bound::Int(user_id), Bound::Int(self.from_ms), Bound::Int(self.to_ms)];
        let mut wheres = vec![
            "b.user_id = $1 AND b.closed_at_ms >= $2 AND b.closed_at_ms <= $3".to_string(),
            match self.status {
                Some(status) => status.condition().to_string(),
                None => format!(
                    "({})",
                    HistoryStatus::ALL
                        .iter()
                        .map(|s| s.condition())
                        .collect::<Vec<_>>()
                        .join(" OR ")
                ),
            },
        ];
        if let Some(sport_id) = self.sport_id {
            binds.push(Bound::Int(sport_id));
            wheres.push(format!("mt.sport_id = ${}", binds.len()));
        }
        if let Some(market_type) = self.market_type {
            binds.push(Bound::Text(market_type.as_str()));
            wheres.push(format!("m.market_type = ${}", binds.len()));
        }
        if let Some(side) = self.side {
            // A fancy's YES backs its line and NO lays it (`BetSide::side`).
            wheres.push(
                match side {
                    Side::Back => "b.side IN ('back', 'yes')",
                    Side::Lay => "b.side IN ('lay', 'no')",
                }
                .to_string(),
            );
        }
        (wheres.join(" AND "), binds)
    }
}

fn bind_all<'q>(
    mut query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    binds: &[Bound],
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    for bound in binds {
        query = match bound {
            Bound::Int(value) => query.bind(*value),
            Bound::Text(value) => query.bind(*value),
        };
    }
    query
}

/// A bet of Bet History: the bet with its names, its sport, and when it closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryBet {
    pub bet: CurrentBet,
    pub sport_id: i64,
    pub sport_name: String,
    pub closed_at_ms: i64,
}

/// What every bet a Bet History filter lists adds up to (not only one page's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HistoryTotals {
    pub bets: i64,
    pub stake_minor: i64,
    pub matched_minor: i64,
    /// What the settled bets won or lost before commission (a void one 0, a bet whose matched
    /// part is still live nothing yet).
    pub pnl_minor: i64,
}

/// The commission a user paid in one market, and the bets it is shared over: their winning
/// bets there, oldest first, each `(bet id, what it won, whether the filter lists it)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarketCommission {
    pub market_id: i64,
    pub commission_minor: i64,
    pub winners: Vec<(i64, i64, bool)>,
}

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

    /// One page of a user's Bet History (see the module documentation), newest closed first,
    /// and what every bet the filter lists adds up to.
    pub async fn bet_history_page(
        &self,
        user_id: i64,
        filter: &BetHistoryFilter,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<HistoryBet>, HistoryTotals)> {
        let (condition, binds) = filter.condition(user_id);
        let from = format!("{NAMED_BETS_FROM} JOIN sports sp ON sp.sport_id = mt.sport_id");
        let sql = format!(
            "SELECT {}, mt.sport_id, sp.name AS sport_name, b.closed_at_ms {from} WHERE {condition} \
             ORDER BY b.closed_at_ms DESC, b.id DESC LIMIT ${} OFFSET ${}",
            named_bet_columns(),
            binds.len() + 1,
            binds.len() + 2
        );
        let rows = bind_all(sqlx::query(&sql), &binds)
            .bind(limit)
            .bind(offset)
            .fetch_all(self.pool())
            .await?;
        let named = named_bets_from_rows(&rows)?;
        let bets = named
            .into_iter()
            .zip(&rows)
            .map(|(bet, row)| {
                Ok(HistoryBet {
                    bet,
                    sport_id: row.try_get("sport_id")?,
                    sport_name: row.try_get("sport_name")?,
                    closed_at_ms: row.try_get("closed_at_ms")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        // SUM of an empty set is NULL, and PostgreSQL's SUM of BIGINT is NUMERIC: both cast.
        let totals_sql = format!(
            "SELECT COUNT(*) AS bets, CAST(COALESCE(SUM(b.stake_minor), 0) AS BIGINT) AS stake_minor, \
             CAST(COALESCE(SUM(b.matched_minor), 0) AS BIGINT) AS matched_minor, \
             CAST(COALESCE(SUM(CASE WHEN b.status IN ('settled', 'void') THEN COALESCE(b.pnl_minor, 0) ELSE 0 END), 0) AS BIGINT) AS pnl_minor \
             {from} WHERE {condition}"
        );
        let row = bind_all(sqlx::query(&totals_sql), &binds).fetch_one(self.pool()).await?;
        let totals = HistoryTotals {
            bets: row.try_get("bets")?,
            stake_minor: row.try_get("stake_minor")?,
            matched_minor: row.try_get("matched_minor")?,
            pnl_minor: row.try_get("pnl_minor")?,
        };
        Ok((bets, totals))
    }

    /// The commission the user paid in each market where a bet the filter lists won, with
    /// every winning bet of theirs there, so that the commission can be shared over them
    /// exactly (each bet's share does not depend on the filter) and the listed bets' shares
    /// summed. What a market charged is the sum of its commission split rows for the user
    /// (`partnership_splits`, part `commission`): a corrected result's rows net out, so it is
    /// what the standing result charged. Markets that charged nothing are left out.
    pub async fn history_commissions(
        &self,
        user_id: i64,
        filter: &BetHistoryFilter,
    ) -> StoreResult<Vec<MarketCommission>> {
        let (condition, binds) = filter.condition(user_id);
        let from = format!("{NAMED_BETS_FROM} JOIN sports sp ON sp.sport_id = mt.sport_id");
        let winning = "b.status = 'settled' AND b.pnl_minor > 0";
        let sql = format!(
            "WITH charged AS (SELECT p.market_id, CAST(SUM(p.amount_minor) AS BIGINT) AS commission_minor \
                 FROM partnership_splits p WHERE p.client_user_id = $1 AND p.part = 'commission' \
                 AND p.market_id IN (SELECT b.market_id {from} WHERE {condition} AND {winning}) \
                 GROUP BY p.market_id HAVING SUM(p.amount_minor) <> 0) \
             SELECT c.market_id, c.commission_minor, b.id AS bet_id, b.pnl_minor, \
                 CAST(CASE WHEN {condition} THEN 1 ELSE 0 END AS BIGINT) AS listed \
             FROM charged c JOIN bets b ON b.market_id = c.market_id AND b.user_id = $1 \
             JOIN markets m ON m.id = b.market_id JOIN matches mt ON mt.id = m.match_id \
             WHERE {winning} ORDER BY c.market_id, b.id"
        );
        let rows = bind_all(sqlx::query(&sql), &binds).fetch_all(self.pool()).await?;
        let mut markets: Vec<MarketCommission> = Vec::new();
        for row in &rows {
            let market_id: i64 = row.try_get("market_id")?;
            if markets.last().is_none_or(|m| m.market_id != market_id) {
                markets.push(MarketCommission {
                    market_id,
                    commission_minor: row.try_get("commission_minor")?,
                    winners: Vec::new(),
                });
            }
            let listed: i64 = row.try_get("listed")?;
            markets.last_mut().expect("pushed above").winners.push((
                row.try_get("bet_id")?,
                row.try_get("pnl_minor")?,
                listed != 0,
            ));
        }
        Ok(markets)
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

#[cfg(test)]
mod tests {
    use backlay_core::exchange::{BetSide, Persistence};

    use super::*;
    use crate::bets::BotRefs;

    fn bet(status: BetStatus, matched: i64, lapsed: i64, cancelled: i64) -> BetRow {
        BetRow {
            bet_id: 1,
            user_id: 1,
            market_id: 1,
            runner_id: Some(1),
            side: BetSide::Back,
            price: 250,
            line: None,
            stake_minor: matched + lapsed + cancelled,
            matched_minor: matched,
            remaining_minor: 0,
            cancelled_minor: cancelled,
            lapsed_minor: lapsed,
            persistence: Persistence::Lapse,
            status,
            pnl_minor: None,
            client_ref: None,
            request_hash: None,
            created_at_ms: 0,
            refs: BotRefs::default(),
        }
    }

    #[test]
    fn a_bet_shows_how_its_market_closed_it_before_what_lapsed_or_was_cancelled() {
        use HistoryStatus as H;
        assert_eq!(H::of(&bet(BetStatus::Settled, 40, 60, 0)), H::Settled);
        assert_eq!(H::of(&bet(BetStatus::Void, 40, 0, 60)), H::Void);
        // Nothing matched: what took it, lapsed first.
        assert_eq!(H::of(&bet(BetStatus::Settled, 0, 30, 70)), H::Lapsed);
        assert_eq!(H::of(&bet(BetStatus::Void, 0, 0, 100)), H::Cancelled);
        assert_eq!(H::of(&bet(BetStatus::Closed, 0, 0, 100)), H::Cancelled);
        // Its market still open: the part that lapsed.
        assert_eq!(H::of(&bet(BetStatus::Matched, 40, 60, 0)), H::Lapsed);
    }

    #[test]
    fn a_filter_names_each_of_its_values_once_after_the_user_and_the_period() {
        let filter = BetHistoryFilter {
            from_ms: 10,
            to_ms: 20,
            status: Some(HistoryStatus::Lapsed),
            sport_id: Some(4),
            market_type: Some(MarketType::Fancy),
            side: Some(Side::Lay),
        };
        let (condition, binds) = filter.condition(7);
        assert_eq!(
            condition,
            "b.user_id = $1 AND b.closed_at_ms >= $2 AND b.closed_at_ms <= $3 AND b.lapsed_minor > 0 \
             AND mt.sport_id = $4 AND m.market_type = $5 AND b.side IN ('lay', 'no')"
        );
        assert_eq!(binds.len(), 5);
        let every = BetHistoryFilter {
            status: None,
            sport_id: None,
            market_type: None,
            side: None,
            ..filter
        };
        let (condition, binds) = every.condition(7);
        assert!(condition.ends_with(
            "((b.status = 'settled' AND b.matched_minor > 0) OR (b.status = 'void' AND b.matched_minor > 0) \
             OR b.lapsed_minor > 0 OR b.cancelled_minor > 0)"
        ));
        assert_eq!(binds.len(), 3);
    }
}
