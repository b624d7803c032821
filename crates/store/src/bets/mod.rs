//! Bets (exchange orders and house bets), fills and per-market exposure: the durable side of
//! the exchange engine. The engine owns the live books in memory and writes here in the same
//! transaction as the funds check, so a bet is acknowledged only once all of it is stored.
//!
//! Here: a stored bet and fill ([`BetRow`], [`FillRow`]) and how the store's queries read
//! them; the rest by job, each file adding to [`Store`](crate::Store) or
//! [`Writer`](crate::Writer):
//!
//! - `place`: a batch of placements (funds locked, ids reserved, bets, fills and matches
//!   stored), and the later changes to a live bet (cancelled, lapsed, its persistence);
//! - `exposure`: each user's exposure per market and in total, whose increase is the funds check;
//! - `settle`: a market's result, its bets closed and their P&L;
//! - `reads`: bets, fills and exposures by id, market and user (the engine's rebuild, the
//!   bot API's orders and stream);
//! - `reports`: bets with their market's, match's and runner's names (current bets, the
//!   settled bets' history, the bettor's Bet History, exposure per market);
//! - `traded`: what traded, from the fills (a runner's price history, a market's total matched);
//! - `profit_loss`: the bettor's Profit & Loss, from their ledger lines, by sport, event and
//!   market.

use backlay_core::exchange::{BetSide, Persistence};
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::{named, StoreResult};

pub(crate) mod exposure;
pub(crate) mod place;
mod profit_loss;
mod reads;
mod reports;
mod settle;
mod traded;

pub use place::AccountFunds;
pub use profit_loss::{
    PnlLevel, PnlQuery, PnlRow, PnlTotals, CASINO_GROUP, LIVE_CASINO_GROUP, OTHER_GROUP,
};
pub use reads::{FillSummary, BETS_OF_USER_IN_MARKET_MAX};
pub use reports::{
    BetHistoryFilter, CurrentBet, ExposureRow, HistoryBet, HistoryStatus, HistoryTotals,
    MarketCommission, SettledBetsFilter, SETTLED_BETS_OF_MARKET_MAX,
};
pub use traded::{
    price_history_interval_ms, PriceHistory, PricePoint, PRICE_HISTORY_INTERVALS_MS,
    PRICE_HISTORY_MAX_POINTS,
};

backlay_core::named_enum! {
    /// Where a stored bet is.
    pub enum BetStatus as "bet status" {
        /// Something of it is unmatched.
        Open = "open",
        /// Nothing is unmatched and something matched.
        Matched = "matched",
        /// Nothing is unmatched and nothing matched (cancelled or lapsed whole).
        Closed = "closed",
        /// Its market was settled.
        Settled = "settled",
        /// Its market was voided.
        Void = "void",
    }
}

impl BetStatus {
    /// The status a bet's sizes imply before its market is settled.
    pub const fn live(matched_minor: i64, remaining_minor: i64) -> BetStatus {
        if remaining_minor > 0 {
            BetStatus::Open
        } else if matched_minor > 0 {
            BetStatus::Matched
        } else {
            BetStatus::Closed
        }
    }

    /// Open or matched: its market is not settled and something of it stands.
    pub const fn is_live(self) -> bool {
        matches!(self, BetStatus::Open | BetStatus::Matched)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetRow {
    pub bet_id: i64,
    pub user_id: i64,
    pub market_id: i64,
    pub runner_id: Option<i64>,
    pub side: BetSide,
    /// Odds in hundredths (exchange) or the rate (bookmaker, fancy).
    pub price: i64,
    pub line: Option<i64>,
    pub stake_minor: i64,
    pub matched_minor: i64,
    pub remaining_minor: i64,
    pub cancelled_minor: i64,
    pub lapsed_minor: i64,
    pub persistence: Persistence,
    pub status: BetStatus,
    pub pnl_minor: Option<i64>,
    pub client_ref: Option<String>,
    pub request_hash: Option<String>,
    pub created_at_ms: i64,
    /// The bot API's references (Betfair's customerOrderRef and customerStrategyRef).
    pub refs: BotRefs,
}

/// A bot's own references for one bet (Betfair's `customerOrderRef`, at most 32 characters,
/// and `customerStrategyRef`, at most 15), stored with it and returned wherever the bet is.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BotRefs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order_ref: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy_ref: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FillRow {
    pub fill_id: i64,
    pub market_id: i64,
    pub runner_id: i64,
    pub back_bet_id: i64,
    pub back_user_id: i64,
    pub lay_bet_id: i64,
    pub lay_user_id: i64,
    pub price: i64,
    pub size_minor: i64,
    pub backer_profit_minor: i64,
}

const BET_COLUMNS: &str = BET_COLUMNS_PUBLIC;

/// Every column of a stored bet, in [`BetRow`]'s order (for the queries of other modules).
pub(crate) const BET_COLUMNS_PUBLIC: &str = "id, user_id, market_id, runner_id, side, price, line, stake_minor, matched_minor, \
     remaining_minor, cancelled_minor, lapsed_minor, persistence, status, pnl_minor, client_ref, request_hash, created_at_ms, \
     customer_order_ref, customer_strategy_ref";

pub(crate) fn bet_from_row(row: &AnyRow) -> Result<BetRow, sqlx::Error> {
    Ok(BetRow {
        bet_id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        market_id: row.try_get("market_id")?,
        runner_id: row.try_get("runner_id")?,
        side: named(row, "side")?,
        price: row.try_get("price")?,
        line: row.try_get("line")?,
        stake_minor: row.try_get("stake_minor")?,
        matched_minor: row.try_get("matched_minor")?,
        remaining_minor: row.try_get("remaining_minor")?,
        cancelled_minor: row.try_get("cancelled_minor")?,
        lapsed_minor: row.try_get("lapsed_minor")?,
        persistence: named(row, "persistence")?,
        status: named(row, "status")?,
        pnl_minor: row.try_get("pnl_minor")?,
        client_ref: row.try_get("client_ref")?,
        request_hash: row.try_get("request_hash")?,
        created_at_ms: row.try_get("created_at_ms")?,
        refs: BotRefs {
            order_ref: row.try_get("customer_order_ref")?,
            strategy_ref: row.try_get("customer_strategy_ref")?,
        },
    })
}

pub(crate) fn bets_from_rows(rows: &[AnyRow]) -> StoreResult<Vec<BetRow>> {
    rows.iter().map(bet_from_row).collect::<Result<_, _>>().map_err(Into::into)
}

/// The fills of `fills f` that count, with the users on each side, in [`FillRow`]'s order; a
/// `WHERE` follows. A removed runner's fills do not count: its bets are void
/// ([`crate::non_runners`]).
pub(crate) const FILLS_WITH_USERS: &str =
    "SELECT f.id, f.market_id, f.runner_id, f.back_bet_id, b.user_id AS back_user_id, f.lay_bet_id, \
     l.user_id AS lay_user_id, f.price, f.size_minor, f.backer_profit_minor FROM fills f \
     JOIN runners r ON r.id = f.runner_id AND r.status <> 'removed' \
     JOIN bets b ON b.id = f.back_bet_id JOIN bets l ON l.id = f.lay_bet_id";

pub(crate) fn fills_from_rows(rows: &[AnyRow]) -> StoreResult<Vec<FillRow>> {
    rows.iter()
        .map(|row| {
            Ok(FillRow {
                fill_id: row.try_get("id")?,
                market_id: row.try_get("market_id")?,
                runner_id: row.try_get("runner_id")?,
                back_bet_id: row.try_get("back_bet_id")?,
                back_user_id: row.try_get("back_user_id")?,
                lay_bet_id: row.try_get("lay_bet_id")?,
                lay_user_id: row.try_get("lay_user_id")?,
                price: row.try_get("price")?,
                size_minor: row.try_get("size_minor")?,
                backer_profit_minor: row.try_get("backer_profit_minor")?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(Into::into)
}
