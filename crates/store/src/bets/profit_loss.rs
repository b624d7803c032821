//! The bettor's Profit & Loss: what their betting won or lost over a period, by sport, event
//! and market, read from their own ledger lines so that it adds up to their account statement.
//!
//! The lines counted are the user's ledger entries of the betting kinds
//! ([`BETTING_KINDS`](crate::downline::BETTING_KINDS): a market's settlement, void or corrected
//! result, an in-house casino stake or payout, a provider's wallet call) posted within the
//! period: exactly the statement's sports and casino lines over the same dates. Each line
//! belongs to one market (its transaction's `market_id`), one in-house casino round (the stake's
//! `casino_bets` row, or the round whose payouts it made) or one provider round (its
//! `wallet_transactions` row), and through it to an event (a match, a casino table, a
//! provider's game) and a sport, where the casino and the providers' games are groups of their
//! own. A line is its **net** (after commission, as posted); its **commission** is what the
//! same transaction charged the user (`partnership_splits`, part `commission`: a correction's
//! rows are negated, as its entries are), and its P&L before commission is the two added.
//!
//! Example: a match odds market won (+150.00, commission 7.50) then a casino round played
//! (stake −100.00, payout +195.00) give the lines
//!
//! ```text
//! sport   event             market        net      commission
//! 4       17 (Kings v …)    31 (Match O…) +142.50  7.50
//! casino  teen20            teen20-17…    -100.00  0
//! casino  teen20            teen20-17…    +195.00  0
//! ```
//!
//! and the report reads them at one level at a time: sports (Cricket +142.50, Casino +95.00),
//! one sport's events, or one event's markets, each row the sum of its lines, and the level's
//! totals over every row (the grand total at the top, a sport's or an event's subtotal below).
//! The rows are paged; the totals are not.
//!
//! A voided market moves no money and so has no line: it is not listed (Bet History lists its
//! bets). Settlements stored before markets were linked to them (migration 0009) count under a
//! sport of their own, `other`, so that the total still meets the statement.

use sqlx::Row;

use crate::downline::BETTING_KINDS;
use crate::ledger::TransactionKind;
use crate::sql::quoted;
use crate::{Store, StoreResult};

/// The group key of the casino's lines (a sport's key is its id as text).
pub const CASINO_GROUP: &str = "casino";
/// The group key of the providers' games' lines.
pub const LIVE_CASINO_GROUP: &str = "live_casino";
/// The group key of settlements linked to no market (before migration 0009).
pub const OTHER_GROUP: &str = "other";

/// Which rows a Profit & Loss page lists: one level of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PnlLevel {
    /// Every sport (and the casino groups).
    Sports,
    /// The events of one sport (by its key).
    Events { sport: String },
    /// The markets (or rounds) of one event of one sport.
    Markets { sport: String, event: String },
}

/// A Profit & Loss query: whose, over which period (ledger lines posted between the two times,
/// both included), which level, which page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PnlQuery {
    pub user_id: i64,
    pub from_ms: i64,
    pub to_ms: i64,
    pub level: PnlLevel,
    pub offset: i64,
    pub limit: i64,
}

/// One row: a sport, an event or a market, with what its lines add up to. The keys and names
/// above the row's level are those of the group it is in; those below are none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PnlRow {
    pub sport: String,
    pub sport_name: String,
    pub event: Option<String>,
    pub event_name: Option<String>,
    pub market: Option<String>,
    pub market_name: Option<String>,
    /// A sports market's id (a market row only).
    pub market_id: Option<i64>,
    /// Markets and rounds in the row.
    pub markets: i64,
    pub net_minor: i64,
    pub commission_minor: i64,
    /// The latest line's time.
    pub last_at_ms: i64,
}

/// What every row of a level adds up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PnlTotals {
    /// Rows of the level (for paging).
    pub rows: i64,
    pub markets: i64,
    pub net_minor: i64,
    pub commission_minor: i64,
}

/// The user's (`$1`) betting lines posted from `$2` to `$3`, each with its group keys and names
/// (see the module documentation). A casino ledger transaction is a stake (one `casino_bets`
/// row names it) or a round's payouts (one `casino_rounds` row does), never both; a wallet
/// call posts one transaction.
fn lines_cte() -> String {
    let kinds = quoted(BETTING_KINDS.map(TransactionKind::as_str));
    let (casino, live) = (TransactionKind::Casino.as_str(), TransactionKind::LiveCasino.as_str());
    format!(
        "WITH lines AS (SELECT e.amount_minor AS net_minor, e.created_at_ms AS at_ms, \
           COALESCE((SELECT SUM(p.amount_minor) FROM partnership_splits p WHERE p.transaction_id = x.id \
             AND p.client_user_id = $1 AND p.part = 'commission'), 0) AS commission_minor, \
           CASE WHEN x.kind = '{casino}' THEN '{CASINO_GROUP}' WHEN x.kind = '{live}' THEN '{LIVE_CASINO_GROUP}' \
             WHEN sp.sport_id IS NULL THEN '{OTHER_GROUP}' ELSE CAST(sp.sport_id AS TEXT) END AS sport, \
           CASE WHEN x.kind = '{casino}' THEN 'Casino' WHEN x.kind = '{live}' THEN 'Live Casino' \
             WHEN sp.sport_id IS NULL THEN 'Other' ELSE sp.name END AS sport_name, \
           CASE WHEN x.kind = '{casino}' THEN COALESCE(g.game_code, '') \
             WHEN x.kind = '{live}' THEN COALESCE(CAST(pr.provider_id AS TEXT) || '/' || pr.game_code, '') \
             ELSE COALESCE(CAST(mt.id AS TEXT), '') END AS event, \
           CASE WHEN x.kind = '{casino}' THEN COALESCE(g.title, 'Casino') \
             WHEN x.kind = '{live}' THEN COALESCE(wg.game_name, pr.game_code, 'Live Casino') \
             ELSE COALESCE(mt.name, 'Other') END AS event_name, \
           CASE WHEN x.kind = '{casino}' THEN COALESCE(cr.round_id, '') \
             WHEN x.kind = '{live}' THEN COALESCE(CAST(pr.id AS TEXT), '') \
             ELSE COALESCE(CAST(m.id AS TEXT), CAST(x.id AS TEXT)) END AS market, \
           CASE WHEN x.kind = '{casino}' THEN COALESCE(cr.round_id, x.remark) \
             WHEN x.kind = '{live}' THEN COALESCE(pr.round_ref, x.remark) \
             ELSE COALESCE(m.name, x.remark) END AS market_name, \
           m.id AS market_id \
         FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id \
         JOIN ledger_transactions x ON x.id = e.transaction_id \
         LEFT JOIN markets m ON m.id = x.market_id LEFT JOIN matches mt ON mt.id = m.match_id \
         LEFT JOIN sports sp ON sp.sport_id = mt.sport_id \
         LEFT JOIN casino_bets cb ON x.kind = '{casino}' AND cb.transaction_id = x.id \
         LEFT JOIN casino_rounds cp ON x.kind = '{casino}' AND cp.transaction_id = x.id \
         LEFT JOIN casino_rounds cr ON cr.id = COALESCE(cb.round_id, cp.id) \
         LEFT JOIN casino_games g ON g.id = cr.game_id \
         LEFT JOIN wallet_transactions w ON x.kind = '{live}' AND w.ledger_transaction_id = x.id \
         LEFT JOIN provider_rounds pr ON pr.id = w.round_id \
         LEFT JOIN world_casino_games wg ON wg.provider_id = pr.provider_id AND wg.game_code = pr.game_code \
         WHERE a.user_id = $1 AND x.kind IN ({kinds}) AND e.created_at_ms >= $2 AND e.created_at_ms <= $3)"
    )
}

impl PnlLevel {
    /// The lines' column a row of this level groups by, and the group's keys ($4, $5).
    fn grouping(&self) -> (&'static str, &str, &str) {
        match self {
            PnlLevel::Sports => ("sport", "", ""),
            PnlLevel::Events { sport } => ("event", sport, ""),
            PnlLevel::Markets { sport, event } => ("market", sport, event),
        }
    }
}

impl Store {
    /// One page of a level of the user's Profit & Loss, latest first, and the level's totals
    /// over every row (see the module documentation).
    pub async fn profit_loss(&self, query: &PnlQuery) -> StoreResult<(Vec<PnlRow>, PnlTotals)> {
        let (column, sport, event) = query.level.grouping();
        let lines = lines_cte();
        // $4 and $5: the group the level is in ('' at a level above).
        let within = "($4 = '' OR sport = $4) AND ($5 = '' OR event = $5)";
        let sql = format!(
            "{lines} SELECT {column} AS row_key, MAX(sport) AS sport, MAX(sport_name) AS sport_name, \
               MAX(event) AS event, MAX(event_name) AS event_name, MAX(market) AS market, \
               MAX(market_name) AS market_name, MAX(market_id) AS market_id, \
               COUNT(DISTINCT market) AS markets, CAST(SUM(net_minor) AS BIGINT) AS net_minor, \
               CAST(SUM(commission_minor) AS BIGINT) AS commission_minor, MAX(at_ms) AS last_at_ms \
             FROM lines WHERE {within} GROUP BY {column} \
             ORDER BY last_at_ms DESC, row_key LIMIT $6 OFFSET $7"
        );
        let rows = sqlx::query(&sql)
            .bind(query.user_id)
            .bind(query.from_ms)
            .bind(query.to_ms)
            .bind(sport)
            .bind(event)
            .bind(query.limit)
            .bind(query.offset)
            .fetch_all(self.pool())
            .await?;
        let depth = match query.level {
            PnlLevel::Sports => 0,
            PnlLevel::Events { .. } => 1,
            PnlLevel::Markets { .. } => 2,
        };
        let rows = rows
            .iter()
            .map(|row| {
                Ok(PnlRow {
                    sport: row.try_get("sport")?,
                    sport_name: row.try_get("sport_name")?,
                    event: if depth >= 1 { Some(row.try_get("event")?) } else { None },
                    event_name: if depth >= 1 { Some(row.try_get("event_name")?) } else { None },
                    market: if depth >= 2 { Some(row.try_get("market")?) } else { None },
                    market_name: if depth >= 2 { Some(row.try_get("market_name")?) } else { None },
                    market_id: if depth >= 2 { row.try_get("market_id")? } else { None },
                    markets: row.try_get("markets")?,
                    net_minor: row.try_get("net_minor")?,
                    commission_minor: row.try_get("commission_minor")?,
                    last_at_ms: row.try_get("last_at_ms")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        // A market's key is unique within its sport's group, not across groups (a market's id
        // and a provider round's may be the same number).
        let totals_sql = format!(
            "{lines} SELECT COUNT(DISTINCT {column}) AS row_count, \
               COUNT(DISTINCT sport || '/' || market) AS markets, \
               CAST(COALESCE(SUM(net_minor), 0) AS BIGINT) AS net_minor, \
               CAST(COALESCE(SUM(commission_minor), 0) AS BIGINT) AS commission_minor \
             FROM lines WHERE {within}"
        );
        let row = sqlx::query(&totals_sql)
            .bind(query.user_id)
            .bind(query.from_ms)
            .bind(query.to_ms)
            .bind(sport)
            .bind(event)
            .fetch_one(self.pool())
            .await?;
        let totals = PnlTotals {
            rows: row.try_get("row_count")?,
            markets: row.try_get("markets")?,
            net_minor: row.try_get("net_minor")?,
            commission_minor: row.try_get("commission_minor")?,
        };
        Ok((rows, totals))
    }
}
