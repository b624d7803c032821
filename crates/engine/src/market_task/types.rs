//! What goes in and out of a market's task: a placement and its answer, a cancel's answer,
//! the operator's new prices and results, and the market as the page shows it.

use backlay_core::exchange::{BetSide, MarketStatus, Persistence, Settlement};
use backlay_core::money::Money;
use backlay_core::odds::{Price, Quote};
use backlay_store::bets::BotRefs;
use backlay_store::markets::MarketSetup;

use serde::{Deserialize, Serialize};

use crate::wire::{book_side, fancy_rows, minor};
use backlay_kit::actor::Actor;

/// A placement as the API parsed it; the task checks it against the market.
///
/// This type and the others here that derive `Serialize` travel between the servers of a
/// cluster (`engine::wire`): money as minor units, prices as hundredths, never as the API's
/// JSON numbers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PlaceBet {
    pub user_id: i64,
    pub market_id: i64,
    pub selection_id: Option<i64>,
    /// As the bettor named it; the market checks the name fits it (yes/no on a fancy).
    pub side: BetSide,
    /// The price as quoted, read once where it arrived: odds ("2.50") on exchange markets, the
    /// rate ("45") on bookmaker and fancy markets; the market takes the meaning of its kind.
    #[serde(rename = "price_text")]
    pub price: Quote,
    pub line: Option<i64>,
    #[serde(with = "minor")]
    pub stake: Money,
    pub persistence: Persistence,
    pub client_ref: Option<String>,
    /// Fingerprint of the request body, to tell a repeat from a different bet with the same
    /// `client_ref`.
    pub request_hash: String,
    /// The bot API's references, stored with the bet (none from the web app).
    #[serde(default)]
    pub refs: BotRefs,
    /// The feed's house mirroring an upstream's levels, however small: the market's stake
    /// limits, the parent's terms and the in-play bet delay (the bettors') do not bind it; its
    /// funds still do. Set only
    /// by `backlay_operator::house_orders` for the feed's house, never from a request.
    #[serde(default)]
    pub house_liquidity: bool,
    /// The most the feed's house may stand to lose in this market (`--feed-max-exposure`): an
    /// order that would raise its exposure here past it is refused. Set only by
    /// `backlay_operator::house_orders`, never from a request.
    #[serde(default)]
    pub house_max_exposure_minor: Option<i64>,
    /// On a bookmaker or fancy, what to do when the posted rate (or line) moved from the one
    /// quoted before the bet was placed: refuse it (exact, the default), take the new one only
    /// when it is better for the bettor, or take any. Exchange orders rest at their own price.
    #[serde(default)]
    pub accept_rate_changes: RateChanges,
    /// A leg of a cash out (`cash_out.rs`): placed with the others all or none, below the
    /// market's minimum stake if need be, its funds checked against the exposure the whole cash
    /// out ends with. Set only by the market's task, never from a request.
    #[serde(default)]
    pub cash_out: Option<super::CashOutLeg>,
}

backlay_core::named_enum! {
    /// Which moves of a bookmaker's rate or a fancy's line and rate a bettor accepts at placing.
    #[derive(Default)]
    pub enum RateChanges as "rate changes" {
        /// None: a moved rate is refused ("Odds changed …"), the bettor asked again.
        #[default]
        Exact = "exact",
        /// Those that are better for the bettor (more to win or less to risk); a worse one is
        /// refused.
        Better = "better",
        /// Any: the bet is struck at the rate posted when it is placed.
        Any = "any",
    }
}

/// A bet on its way through the market's task.
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    pub bet: PlaceBet,
    /// The market's [`Suspensions`] count when the bet arrived.
    pub(super) suspensions_at_arrival: u64,
    /// The bet waited out the in-play bet delay: it is placed only if no suspension or result
    /// arrived since it did.
    pub(super) waited: bool,
}

impl Placement {
    pub(crate) fn arriving(bet: PlaceBet, suspensions_at_arrival: u64) -> Placement {
        Placement { bet, suspensions_at_arrival, waited: false }
    }
}

backlay_core::named_enum! {
    /// How much of a bet matched when it was placed.
    pub enum PlacementStatus as "placement status" {
        /// All of it.
        Matched = "matched",
        /// Some of it; the rest waits in the book.
        PartiallyMatched = "partially_matched",
        /// None of it yet.
        Unmatched = "unmatched",
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BetAnswer {
    pub bet_id: i64,
    pub status: PlacementStatus,
    #[serde(with = "minor")]
    pub size_matched: Money,
    /// Average matched price (odds, or the rate on house markets); `None` when nothing matched.
    pub avg_price_matched: Option<f64>,
    pub message: String,
    /// The request repeated one already placed under its `client_ref`: this is that bet, not a
    /// new one (the bot API answers `DUPLICATE_TRANSACTION`).
    #[serde(default)]
    pub repeated: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CancelAnswer {
    pub bet_id: i64,
    #[serde(with = "minor")]
    pub cancelled: Money,
    #[serde(with = "minor")]
    pub remaining: Money,
}

/// An order of a crossed stored book, cancelled by the operator to resolve it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrossingCancelled {
    pub bet_id: i64,
    pub user_id: i64,
    pub selection_id: i64,
    pub side: BetSide,
    /// In hundredths of decimal odds.
    pub price: u32,
    #[serde(with = "minor")]
    pub cancelled: Money,
}

/// New posted prices: bookmaker rates per runner, or a fancy market's lines and rates.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum RatesUpdate {
    Bookmaker(Vec<(i64, Option<i64>, Option<i64>)>),
    Fancy { line_no: i64, rate_no: i64, line_yes: i64, rate_yes: i64 },
}

/// What the operator declares.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ResultInput {
    Winner(i64),
    Placed(Vec<i64>),
    Fancy(i64),
    Void,
}

/// A market as the match page shows it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MarketView {
    pub setup: MarketSetup,
    pub status: MarketStatus,
    pub in_play: bool,
    pub runners: Vec<RunnerView>,
    /// Fancy only: the caller's P&L per run range (from, to inclusive or open, pnl).
    #[serde(with = "fancy_rows")]
    pub fancy_book: Vec<(u32, Option<u32>, Money)>,
    /// Everything matched in the market, on the runners still running (0 on a house-banked
    /// market, where nothing is matched between bettors). Absent from a node of an older
    /// version: 0.
    #[serde(with = "minor", default)]
    pub total_matched: Money,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunnerView {
    pub selection_id: i64,
    pub name: String,
    /// Money available to back at each price, best (highest) first.
    #[serde(with = "book_side")]
    pub back: Vec<(Price, Money)>,
    /// Money available to lay at each price, best (lowest) first.
    #[serde(with = "book_side")]
    pub lay: Vec<(Price, Money)>,
    /// The caller's P&L if this runner wins.
    #[serde(with = "minor")]
    pub position: Money,
}

/// Who sent an operator's command, so that the market's task writes the audit row in the
/// same transaction as the change it records. `None` where no operator acts (the demo feed's
/// simulated trading).
#[derive(Clone, Debug)]
pub struct ActedBy {
    pub actor: Actor,
    pub client_ip: Option<String>,
}

/// New stake limits for a market, checked by the caller (0 < min ≤ max).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StakeLimits {
    pub min_stake_minor: i64,
    pub max_stake_minor: i64,
}

/// What declaring a result would post, computed by the settlement itself on the market as it
/// stands (nothing is written): the settlement and how many matched bets it settles.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SettlementPreview {
    pub settlement: Settlement,
    pub bets: usize,
}
