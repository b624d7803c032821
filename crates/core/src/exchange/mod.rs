//! The exchange: order books, matching, exposure and settlement, as pure functions of what
//! the caller passes in (no IO, no clock, no randomness).
//!
//! Who is on the other side of a bet depends on the market ([`MarketKind`]): on exchange
//! markets (match odds, racing win and place) clients back and lay against each other through
//! an [`OrderBook`] per runner; on bookmaker and fancy markets the house takes every bet at
//! the rate or line it posted. Every amount is an `i64` count of minor units, every price a
//! ladder [`Price`](crate::odds::Price). An order's or bet's size is always the **backer's
//! stake**, on both sides: a lay of 100.00 at 3.00 risks 200.00 to win 100.00.
//!
//! # Matching
//!
//! Each runner's book holds resting BACK and LAY orders in two arrays indexed by ladder tick,
//! each price level a first-in first-out queue. A new BACK at `p` takes resting LAYs priced
//! `q ≥ p`, highest `q` first, then oldest first; a new LAY at `p` takes resting BACKs priced
//! `q ≤ p`, lowest first, then oldest first. Every fill is at the **resting** order's price, so
//! any price improvement goes to the newcomer. What is left rests.
//!
//! ```
//! use backlay_core::exchange::{NewOrder, OrderBook, OrderId, RunnerId, Side, UserId};
//! use backlay_core::odds::Price;
//!
//! let price = |text: &str| text.parse::<Price>().unwrap();
//! let mut book = OrderBook::new(RunnerId(7));
//! // Ann lays 100.00 at 3.00: nothing to match, so it rests, offered "to back" at 3.00.
//! book.place(&NewOrder::new(OrderId(1), UserId(1), Side::Lay, price("3.00"), 100_00))?;
//! assert_eq!(book.available_to_back(3), vec![(price("3.00"), 100_00)]);
//!
//! // Bob backs 60.00 at 2.50 ("2.50 or better") and is matched at Ann's 3.00.
//! let outcome = book.place(&NewOrder::new(OrderId(2), UserId(2), Side::Back, price("2.50"), 60_00))?;
//! let fill = &outcome.fills[0];
//! assert_eq!((fill.price, fill.size_minor), (price("3.00"), 60_00));
//! assert_eq!(fill.backer_profit_minor, 120_00); // Bob wins 120.00, Ann loses exactly that
//! assert_eq!((fill.back_user(), fill.lay_user()), (UserId(2), UserId(1)));
//! assert_eq!(outcome.resting_minor, 0);
//! assert_eq!(book.available_to_back(3), vec![(price("3.00"), 40_00)]);
//! # Ok::<(), backlay_core::exchange::BookError>(())
//! ```
//!
//! # Exposure
//!
//! A user's exposure in a market is the most they can lose there, counting matched bets as
//! they are and each unmatched order as if it were matched, but only where that hurts:
//! `exposure = max(0, −min_o [ pnl(o) + Σ_u min(0, pnl_u(o)) ])` over the market's outcomes
//! `o`. See [`Position`] for how each kind of market enumerates its outcomes.
//!
//! ```
//! use backlay_core::exchange::{exposure_minor, Bet, MarketKind, MarketSpec, RunnerId, Side};
//! use backlay_core::odds::Price;
//!
//! let (a, b, c) = (RunnerId(1), RunnerId(2), RunnerId(3));
//! let market = MarketSpec::new(MarketKind::OneWinner, vec![a, b, c], 0)?;
//! let price = |text: &str| text.parse::<Price>().unwrap();
//! // Matched: back A for 100.00 at 3.00. Unmatched: lay B for 50.00 at 4.00.
//! let matched = [Bet::exchange(a, Side::Back, price("3.00"), 100_00)?];
//! let unmatched = [Bet::exchange(b, Side::Lay, price("4.00"), 50_00)?];
//! // A wins: +200.00 (the lay on B, if matched, would win, so it does not count).
//! // B wins: −100.00 − 150.00 = −250.00.   C wins: −100.00.
//! assert_eq!(exposure_minor(&market, &matched, &unmatched), 250_00);
//! # Ok::<(), backlay_core::exchange::MarketError>(())
//! ```
//!
//! # Settlement
//!
//! Declaring a result turns each user's matched bets into one P&L, takes commission on net
//! market winnings only, and says what the house pays or takes. On exchange markets the P&Ls
//! sum to exactly zero (every fill's profit is one stored number that one side wins and the
//! other loses); on house markets the house is the other side of the sum.
//!
//! ```
//! use backlay_core::exchange::{
//!     Market, MarketKind, MarketResult, MarketSpec, NewOrder, OrderId, RunnerId, Side, UserId,
//! };
//! use backlay_core::odds::Price;
//!
//! let (home, away) = (RunnerId(1), RunnerId(2));
//! // Commission 5% (500 basis points) of net market winnings.
//! let mut market = Market::new(MarketSpec::new(MarketKind::OneWinner, vec![home, away], 500)?);
//! let at = "2.50".parse::<Price>().unwrap();
//! market.place_order(home, &NewOrder::new(OrderId(1), UserId(1), Side::Lay, at, 100_00))?;
//! market.place_order(home, &NewOrder::new(OrderId(2), UserId(2), Side::Back, at, 100_00))?;
//!
//! let settled = market.settle(&MarketResult::Winner(home))?;
//! let layer = &settled.settlement.users[0];
//! let backer = &settled.settlement.users[1];
//! assert_eq!((layer.pnl_minor, layer.commission_minor), (-150_00, 0));
//! assert_eq!((backer.pnl_minor, backer.commission_minor), (150_00, 7_50));
//! assert_eq!(settled.settlement.house_pnl_minor, 0);
//! assert_eq!(settled.settlement.commission_total_minor, 7_50);
//! // A market settles once: declaring again is refused and pays nothing.
//! assert!(market.settle(&MarketResult::Winner(away)).is_err());
//! # Ok::<(), backlay_core::exchange::MarketError>(())
//! ```
//!
//! # Decisions
//!
//! - **Rounding of a fill: down, in the layer's favour.** A fill's backer profit is
//!   `⌊size × (price − 1)⌋` minor units ([`backer_profit_minor`]), stored on the fill, so the
//!   backer's win and the layer's loss are one number. It rounds down rather than half to
//!   even because an order is matched in pieces: `⌊a⌋ + ⌊b⌋ ≤ ⌊a + b⌋`, so the liabilities of
//!   a lay's fills, plus that of what still rests, never exceed what was reserved when it
//!   was placed. With half to even three fills of 0.01 at 2.50 cost 0.06 where the whole
//!   0.03 reserved 0.04, and a layer at the limit of their funds would be overdrawn by
//!   matching, which is not a bet they placed. So matching never raises anyone's exposure,
//!   and the funds check at placement is enough. The backer gives up less than a minor
//!   unit per fill. House bets (bookmaker, fancy) are never split, so their profit,
//!   `stake × rate / 100`, rounds half to even once ([`rate_profit_minor`]).
//! - **Self-matching is allowed**, as on Betfair. A user's back that meets their own lay is
//!   a wash: the fill's P&L is zero for them in every outcome and no commission is due (it is
//!   charged on net market winnings). Skipping one's own orders would leave the book crossed
//!   (a back resting at or above a lay), which breaks price priority for everyone else and
//!   shows an impossible ladder. Fills carry both users, so reports can leave washes out of
//!   traded volume.
//! - **A market settles once.** [`Market::settle`] and [`Market::void`] on a market that is
//!   already closed or void answer [`MarketError::AlreadySettled`] and change nothing, so
//!   the ledger, which posts only what a successful settle returns, pays exactly once.
//! - **Limits**: stakes up to [`MAX_STAKE_MINOR`], rates up to [`MAX_RATE`], fancy lines up to
//!   [`MAX_FANCY_LINE`], [`MAX_RUNNERS`] runners per market, [`MAX_RESTING_ORDERS_PER_BOOK`]
//!   resting orders per runner, commission up to [`MAX_COMMISSION_BP`]. Sums over many bets
//!   are taken in `i128`, so no limit is needed on the number of bets.

mod bet;
mod book;
mod cash_out;
mod exposure;
mod market;
mod non_runner;
mod settlement;
mod tick_set;

pub use bet::{
    backer_profit_minor, liability_and_profit, rate_profit_minor, Bet, BetError, Selection,
};
pub use book::{
    BookError, Fill, NewOrder, OrderBook, PlaceOutcome, RestingOrder, MAX_RESTING_ORDERS_PER_BOOK,
};
pub use cash_out::{
    cash_out, outcomes, CashOut, CashOutRefusal, HedgeLeg, HedgePrice, RunnerQuote,
};
pub use exposure::{exposure_minor, fancy_book, position_per_runner, FancyBookRow, Position};
pub use market::{
    Market, MarketError, MarketKind, MarketSpec, MarketStatus, MarketType, SettledMarket,
    MAX_COMMISSION_BP, MAX_RUNNERS,
};
pub use non_runner::{
    reduced_backer_profit_minor, reduced_price_hundredths, reduces, MIN_REDUCTION_BP, WHOLE_BP,
};
pub use settlement::{settle, MarketResult, Settlement, UserSettlement};

/// An order's id, as the store assigns it (unique across the exchange).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OrderId(pub u64);

/// A user's id (a client, or a market maker, which is an ordinary user).
#[derive(
    Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct UserId(pub i64);

/// A runner's (selection's) id: a team, a horse, "the draw".
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RunnerId(pub i64);

macro_rules! display_inner {
    ($($id:ty),*) => {$(
        impl std::fmt::Display for $id {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    )*};
}
display_inner!(OrderId, UserId, RunnerId);

/// Which way a bet goes. On a fancy line, BACK is YES (the result reaches the line) and LAY
/// is NO, exactly as the page colours them; see [`Side::YES`] and [`Side::NO`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// For the selection: wins the profit if it happens, loses the stake if not.
    Back,
    /// Against the selection: loses the backer's profit if it happens, wins the backer's
    /// stake if not.
    Lay,
}

impl Side {
    /// A fancy YES: the result will be at least the line.
    pub const YES: Side = Side::Back;
    /// A fancy NO: the result will be below the line.
    pub const NO: Side = Side::Lay;

    /// The other side.
    pub const fn opposite(self) -> Side {
        match self {
            Side::Back => Side::Lay,
            Side::Lay => Side::Back,
        }
    }
}

crate::named_enum! {
    /// A bet's side as the bettor names it, and as it is stored and sent: back or lay on a
    /// runner market, yes or no on a fancy line ([`BetSide::on`]). The exchange itself knows
    /// only the [`Side`] each of them is.
    pub enum BetSide as "side" {
        /// For a runner.
        Back = "back",
        /// Against a runner.
        Lay = "lay",
        /// A fancy YES: the result reaches the line.
        Yes = "yes",
        /// A fancy NO: the result stays below the line.
        No = "no",
    }
}

impl BetSide {
    /// The side it is: YES backs the line, NO lays it.
    pub const fn side(self) -> Side {
        match self {
            BetSide::Back | BetSide::Yes => Side::Back,
            BetSide::Lay | BetSide::No => Side::Lay,
        }
    }

    /// How a market of `kind` names `side`: yes or no on a fancy, back or lay elsewhere.
    pub const fn on(kind: MarketKind, side: Side) -> BetSide {
        match (kind, side) {
            (MarketKind::Fancy, Side::Back) => BetSide::Yes,
            (MarketKind::Fancy, Side::Lay) => BetSide::No,
            (_, Side::Back) => BetSide::Back,
            (_, Side::Lay) => BetSide::Lay,
        }
    }

    /// Whether a market of `kind` names its sides this way.
    pub fn fits(self, kind: MarketKind) -> bool {
        BetSide::on(kind, self.side()) == self
    }
}

crate::named_enum! {
    /// What happens to an unmatched order when the market is suspended or turns in-play.
    #[derive(Default)]
    pub enum Persistence as "persistence" {
        /// Cancelled (the default).
        #[default]
        Lapse = "lapse",
        /// Kept in the book.
        Persist = "persist",
    }
}

/// The largest stake of one order or bet: 10,000,000,000.00. It keeps every product of a
/// stake and a price or rate far inside `i64` (`MAX_STAKE_MINOR × 999 < 2^63 / 9000`).
pub const MAX_STAKE_MINOR: i64 = 1_000_000_000_000;

/// The largest bookmaker or fancy rate: 100,000 (a bookmaker rate of 1000.00 in decimal).
pub const MAX_RATE: u32 = 100_000;

/// The largest fancy line (runs, wickets …).
pub const MAX_FANCY_LINE: u32 = 100_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bet_side_is_named_by_its_market() {
        assert_eq!(BetSide::NAMES, ["back", "lay", "yes", "no"]);
        for bet_side in BetSide::ALL {
            assert_eq!(bet_side.as_str().parse::<BetSide>(), Ok(*bet_side));
        }
        assert_eq!(BetSide::Yes.side(), Side::YES);
        assert_eq!(BetSide::No.side(), Side::NO);
        let fancy = MarketKind::Fancy;
        let runners = MarketKind::OneWinner;
        assert_eq!(BetSide::on(fancy, Side::Back), BetSide::Yes);
        assert_eq!(BetSide::on(MarketKind::Bookmaker, Side::Lay), BetSide::Lay);
        assert!(BetSide::Yes.fits(fancy) && !BetSide::Yes.fits(runners));
        assert!(BetSide::Lay.fits(runners) && !BetSide::Lay.fits(fancy));
        for unknown in ["", "BACK", "khai", "y"] {
            assert!(unknown.parse::<BetSide>().is_err(), "{unknown:?}");
        }
    }

    #[test]
    fn persistence_is_lapse_unless_asked() {
        assert_eq!(Persistence::default(), Persistence::Lapse);
        assert_eq!("persist".parse::<Persistence>(), Ok(Persistence::Persist));
        assert_eq!(Persistence::Lapse.as_str(), "lapse");
        assert_eq!(
            "keep".parse::<Persistence>().unwrap_err().to_string(),
            r#""keep" is not a persistence: use lapse or persist"#
        );
    }
}
