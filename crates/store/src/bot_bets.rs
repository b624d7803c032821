//! The bot API's reads of a user's bets (issue 17: listCurrentOrders, listClearedOrders,
//! placeOrders' duplicate check): one user's bets with the filters Betfair's calls take, a page
//! at a time. Every query names the user, so another user's bet is never read; every list is
//! bounded ([`BOT_BETS_MAX`] a page, [`BOT_FILTER_MAX`] ids a filter).

use backlay_core::exchange::MarketType;
use sqlx::Row;

use crate::bets::{BetRow, BET_COLUMNS_PUBLIC};
use crate::{named, Store, StoreResult};

/// Most bets one page holds (Betfair's recordCount limit).
pub const BOT_BETS_MAX: i64 = 1000;
/// Most ids (bets, markets, references) one filter holds.
pub const BOT_FILTER_MAX: usize = 1000;

/// Which of a user's bets a bot asks for.
#[derive(Clone, Debug)]
pub enum BotBetState {
    /// Not settled: something unmatched or something matched (listCurrentOrders).
    Current,
    /// Settled (won or lost).
    Settled,
    /// Its market was voided.
    Voided,
    /// Something of it lapsed.
    Lapsed,
    /// Something of it was cancelled.
    Cancelled,
}

/// A bot's query over one user's bets. Empty lists do not filter.
#[derive(Clone, Debug)]
pub struct BotBetQuery {
    pub user_id: i64,
    pub state: BotBetState,
    pub bet_ids: Vec<i64>,
    pub market_ids: Vec<i64>,
    pub match_ids: Vec<i64>,
    pub sport_ids: Vec<i64>,
    pub runner_ids: Vec<i64>,
    pub order_refs: Vec<String>,
    pub strategy_refs: Vec<String>,
    /// `back` or `lay`.
    pub side: Option<String>,
    /// On the bet's placing time (current) or its market's settling time (settled, void).
    pub from_ms: Option<i64>,
    pub to_ms: Option<i64>,
    /// Only bets with something unmatched (true) or with nothing unmatched (false).
    pub unmatched: Option<bool>,
    /// Oldest first when true.
    pub oldest_first: bool,
    pub offset: i64,
    pub limit: i64,
}

impl BotBetQuery {
    /// Every bet of `user_id` in `state`, oldest first, the first page.
    pub fn new(user_id: i64, state: BotBetState) -> BotBetQuery {
        BotBetQuery {
            user_id,
            state,
            bet_ids: Vec::new(),
            market_ids: Vec::new(),
            match_ids: Vec::new(),
            sport_ids: Vec::new(),
            runner_ids: Vec::new(),
            order_refs: Vec::new(),
            strategy_refs: Vec::new(),
            side: None,
            from_ms: None,
            to_ms: None,
            unmatched: None,
            oldest_first: true,
            offset: 0,
            limit: BOT_BETS_MAX,
        }
    }
}

/// A bet with what a bot's reports name: its market, match and sport.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotBet {
    pub bet: BetRow,
    pub market_type: MarketType,
    pub market_name: String,
    pub match_id: i64,
    pub match_name: String,
    pub match_open_ms: i64,
    pub sport_id: i64,
    pub sport_name: String,
    pub selection_name: Option<String>,
    pub settled_at_ms: Option<i64>,
}

enum Bound {
    Int(i64),
    Text(String),
}

impl Store {
    /// One page of a user's bets by a bot's query, and whether more follow.
    pub async fn bot_bets(&self, query: &BotBetQuery) -> StoreResult<(Vec<BotBet>, bool)> {
        let mut binds: Vec<Bound> = vec![Bound::Int(query.user_id)];
        let mut wheres: Vec<String> = vec!["b.user_id = $1".into()];
        wheres.push(
            match query.state {
                BotBetState::Current => "b.status IN ('open', 'matched')",
                // What was matched is what a settlement or void closes; a bet cancelled or
                // lapsed whole before is listed as such, not as settled.
                BotBetState::Settled => "b.status = 'settled' AND b.matched_minor > 0",
                BotBetState::Voided => "b.status = 'void' AND b.matched_minor > 0",
                BotBetState::Lapsed => "b.lapsed_minor > 0",
                BotBetState::Cancelled => "b.cancelled_minor > 0",
            }
            .into(),
        );
        // Only the exchange markets a bot sees.
        wheres.push("m.market_type IN ('match_odds', 'win', 'place')".into());
        let mut int_list = |column: &str, ids: &[i64], binds: &mut Vec<Bound>| {
            if ids.is_empty() {
                return;
            }
            let list: Vec<String> = ids
                .iter()
                .take(BOT_FILTER_MAX)
                .map(|id| {
                    binds.push(Bound::Int(*id));
                    format!("${}", binds.len())
                })
                .collect();
            wheres.push(format!("{column} IN ({})", list.join(", ")));
        };
        int_list("b.id", &query.bet_ids, &mut binds);
        int_list("b.market_id", &query.market_ids, &mut binds);
        int_list("mt.id", &query.match_ids, &mut binds);
        int_list("mt.sport_id", &query.sport_ids, &mut binds);
        int_list("b.runner_id", &query.runner_ids, &mut binds);
        for (column, refs) in [
            ("b.customer_order_ref", &query.order_refs),
            ("b.customer_strategy_ref", &query.strategy_refs),
        ] {
            if refs.is_empty() {
                continue;
            }
            let list: Vec<String> = refs
                .iter()
                .take(BOT_FILTER_MAX)
                .map(|r| {
                    binds.push(Bound::Text(r.clone()));
                    format!("${}", binds.len())
                })
                .collect();
            wheres.push(format!("{column} IN ({})", list.join(", ")));
        }
        match query.unmatched {
            Some(true) => wheres.push("b.remaining_minor > 0".into()),
            Some(false) => wheres.push("b.remaining_minor = 0".into()),
            None => {}
        }
        if let Some(side) = &query.side {
            binds.push(Bound::Text(side.clone()));
            wheres.push(format!("b.side = ${}", binds.len()));
        }
        let time = match query.state {
            BotBetState::Settled | BotBetState::Voided => "m.settled_at_ms",
            _ => "b.created_at_ms",
        };
        if let Some(from) = query.from_ms {
            binds.push(Bound::Int(from));
            wheres.push(format!("{time} >= ${}", binds.len()));
        }
        if let Some(to) = query.to_ms {
            binds.push(Bound::Int(to));
            wheres.push(format!("{time} <= ${}", binds.len()));
        }
        let limit = query.limit.clamp(1, BOT_BETS_MAX);
        binds.push(Bound::Int(limit + 1));
        let limit_at = binds.len();
        binds.push(Bound::Int(query.offset.max(0)));
        let offset_at = binds.len();
        let columns =
            BET_COLUMNS_PUBLIC.split(", ").map(|c| format!("b.{c}")).collect::<Vec<_>>().join(", ");
        let direction = if query.oldest_first { "ASC" } else { "DESC" };
        let sql = format!(
            "SELECT {columns}, m.market_type, m.name AS market_name, m.settled_at_ms, mt.id AS match_id, \
             mt.name AS match_name, mt.open_date_ms, mt.sport_id, sp.name AS sport_name, r.name AS selection_name \
             FROM bets b JOIN markets m ON m.id = b.market_id JOIN matches mt ON mt.id = m.match_id \
             JOIN sports sp ON sp.sport_id = mt.sport_id LEFT JOIN runners r ON r.id = b.runner_id \
             WHERE {} ORDER BY b.id {direction} LIMIT ${limit_at} OFFSET ${offset_at}",
            wheres.join(" AND ")
        );
        let mut statement = sqlx::query(&sql);
        for bound in binds {
            statement = match bound {
                Bound::Int(value) => statement.bind(value),
                Bound::Text(value) => statement.bind(value),
            };
        }
        let rows = statement.fetch_all(self.pool()).await?;
        let mut bets = rows
            .iter()
            .map(|row| {
                Ok(BotBet {
                    bet: crate::bets::bet_from_row(row)?,
                    market_type: named(row, "market_type")?,
                    market_name: row.try_get("market_name")?,
                    match_id: row.try_get("match_id")?,
                    match_name: row.try_get("match_name")?,
                    match_open_ms: row.try_get("open_date_ms")?,
                    sport_id: row.try_get("sport_id")?,
                    sport_name: row.try_get("sport_name")?,
                    selection_name: row.try_get("selection_name")?,
                    settled_at_ms: row.try_get("settled_at_ms")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let more = bets.len() as i64 > limit;
        bets.truncate(usize::try_from(limit).unwrap_or(0));
        Ok((bets, more))
    }

    /// The user's bets with any of these client references (the bot API's duplicate check of
    /// a repeated customerRef), at most as many as asked for.
    pub async fn bets_with_client_refs(
        &self,
        user_id: i64,
        client_refs: &[String],
    ) -> StoreResult<Vec<BetRow>> {
        let mut found = Vec::new();
        for chunk in client_refs.chunks(crate::sql::ROWS_PER_STATEMENT) {
            let list = (2..chunk.len() + 2).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
            let sql = format!(
                "SELECT {BET_COLUMNS_PUBLIC} FROM bets WHERE user_id = $1 AND client_ref IN ({list})"
            );
            let mut statement = sqlx::query(&sql).bind(user_id);
            for client_ref in chunk {
                statement = statement.bind(client_ref.as_str());
            }
            for row in statement.fetch_all(self.pool()).await? {
                found.push(crate::bets::bet_from_row(&row)?);
            }
        }
        Ok(found)
    }
}
