//! A market: what the operator set up ([`MarketSpec`]), its status, an order book per runner
//! on exchange markets, and every user's [`Position`], kept up to date as orders are placed,
//! matched, cancelled and lapsed, so exposure costs a few sums and not a walk over bets.
//!
//! Status moves `Open ⇄ Suspended | BallRunning → Closed | Void`. Bets are taken only while
//! open; suspending (for either reason) lapses LAPSE orders; settling or voiding cancels every
//! unmatched order and happens once: a second settle is refused
//! ([`MarketError::AlreadySettled`]) and changes nothing.
//!
//! A book is never crossed: matching leaves every resting LAY below every resting BACK. A
//! stored book that is crossed all the same (written by an older version) is rebuilt with the
//! younger order of each crossing pair held apart ([`Market::hold_crossing_order`]): counted in
//! its user's exposure, out of the book, and the market suspended until every such order is
//! cancelled ([`Market::cancel_crossing_order`]); it cannot reopen before.
//!
//! Worked example: Ann lays 100.00 at 3.00 (LAPSE) and 50.00 at 4.00 (PERSIST), both
//! unmatched, so her exposure is 200.00 + 150.00 = 350.00. The ball starts running: the market
//! is suspended, the LAPSE order lapses and her exposure falls to 150.00; no bet is taken
//! until the market is open again.
//!
//! ```
//! use backlay_core::exchange::{
//!     Market, MarketKind, MarketSpec, MarketStatus, NewOrder, OrderId, Persistence, RunnerId,
//!     Side, UserId,
//! };
//! use backlay_core::odds::Price;
//!
//! let (home, away) = (RunnerId(1), RunnerId(2));
//! let mut market = Market::new(MarketSpec::new(MarketKind::OneWinner, vec![home, away], 0)?);
//! let price = |text: &str| text.parse::<Price>().unwrap();
//! let ann = UserId(1);
//! market.place_order(home, &NewOrder::new(OrderId(1), ann, Side::Lay, price("3.00"), 100_00))?;
//! let persist = NewOrder::new(OrderId(2), ann, Side::Lay, price("4.00"), 50_00)
//!     .with_persistence(Persistence::Persist);
//! market.place_order(home, &persist)?;
//! assert_eq!(market.exposure_minor(ann), 350_00);
//!
//! let lapsed = market.suspend_ball_running()?;
//! assert_eq!(lapsed.iter().map(|o| o.order_id).collect::<Vec<_>>(), vec![OrderId(1)]);
//! assert_eq!(market.status(), MarketStatus::BallRunning);
//! assert_eq!(market.exposure_minor(ann), 150_00);
//! let late = NewOrder::new(OrderId(3), UserId(2), Side::Back, price("4.00"), 10_00);
//! assert!(market.place_order(home, &late).is_err());
//! # Ok::<(), backlay_core::exchange::MarketError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;

use super::bet::{Bet, BetError, Selection};
use super::book::{BookError, NewOrder, OrderBook, PlaceOutcome, RestingOrder};
use super::exposure::{FancyBookRow, Position};
use super::settlement::{settle_positions, MarketResult, Settlement};
use super::{OrderId, Persistence, RunnerId, UserId};

/// The most runners a market has.
pub const MAX_RUNNERS: usize = 64;

/// The highest commission, in basis points of net market winnings: 20%.
pub const MAX_COMMISSION_BP: u32 = 2_000;

/// The shape of a market's outcomes and who takes the other side of its bets.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MarketKind {
    /// Exactly one runner wins (match odds, racing win); matched between clients.
    OneWinner,
    /// Up to `winners` runners are placed (racing place); matched between clients.
    Place {
        /// How many runners are placed.
        winners: u32,
    },
    /// One runner wins; the house takes every bet at its posted rate.
    Bookmaker,
    /// An integer result against lines; the house takes every bet at its posted line and
    /// rate.
    Fancy,
}

impl MarketKind {
    /// Whether the house is the counterparty (bookmaker, fancy).
    pub const fn is_house_banked(self) -> bool {
        matches!(self, MarketKind::Bookmaker | MarketKind::Fancy)
    }

    /// Whether bets are matched between clients in order books (one-winner, place).
    pub const fn has_order_book(self) -> bool {
        !self.is_house_banked()
    }
}

crate::named_enum! {
    /// The markets an operator creates, by what they are called on the page. Each is one
    /// [`MarketKind`] ([`MarketType::kind`]): match odds and racing win are both one-winner
    /// exchange markets.
    pub enum MarketType as "market type" {
        /// Who wins the match; matched between clients.
        MatchOdds = "match_odds",
        /// Who wins the match, at the house's rates.
        Bookmaker = "bookmaker",
        /// A run line, at the house's lines and rates.
        Fancy = "fancy",
        /// Who wins the race; matched between clients.
        Win = "win",
        /// Who is placed in the race; matched between clients.
        Place = "place",
    }
}

impl MarketType {
    /// The kind of market it is; `winners` (how many runners are placed) counts for place
    /// markets only.
    pub const fn kind(self, winners: u32) -> MarketKind {
        match self {
            MarketType::MatchOdds | MarketType::Win => MarketKind::OneWinner,
            MarketType::Place => MarketKind::Place { winners },
            MarketType::Bookmaker => MarketKind::Bookmaker,
            MarketType::Fancy => MarketKind::Fancy,
        }
    }

    /// Whether the house is the counterparty (bookmaker, fancy).
    pub const fn is_house_banked(self) -> bool {
        self.kind(1).is_house_banked()
    }
}

impl fmt::Display for MarketKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MarketKind::OneWinner => f.write_str("one-winner"),
            MarketKind::Place { winners } => write!(f, "place ({winners} winners)"),
            MarketKind::Bookmaker => f.write_str("bookmaker"),
            MarketKind::Fancy => f.write_str("fancy"),
        }
    }
}

/// A market as the operator set it up, checked once: its kind, runners (none for fancy) and
/// commission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarketSpec {
    kind: MarketKind,
    runners: Vec<RunnerId>,
    commission_bp: u32,
}

impl MarketSpec {
    /// Checks a market: a runner market has 2 to [`MAX_RUNNERS`] distinct runners, a place
    /// market places fewer runners than it has, a fancy market has no runners, and
    /// commission is at most [`MAX_COMMISSION_BP`].
    pub fn new(
        kind: MarketKind,
        runners: Vec<RunnerId>,
        commission_bp: u32,
    ) -> Result<MarketSpec, MarketError> {
        if commission_bp > MAX_COMMISSION_BP {
            return Err(MarketError::CommissionTooHigh { commission_bp });
        }
        if kind == MarketKind::Fancy {
            if !runners.is_empty() {
                return Err(MarketError::FancyHasRunners);
            }
        } else {
            if runners.len() < 2 {
                return Err(MarketError::TooFewRunners);
            }
            if runners.len() > MAX_RUNNERS {
                return Err(MarketError::TooManyRunners);
            }
            for (index, runner) in runners.iter().enumerate() {
                if runners[..index].contains(runner) {
                    return Err(MarketError::DuplicateRunner(*runner));
                }
            }
        }
        if let MarketKind::Place { winners } = kind {
            if winners == 0 || winners as usize >= runners.len() {
                return Err(MarketError::InvalidWinners { winners, runners: runners.len() });
            }
        }
        Ok(MarketSpec { kind, runners, commission_bp })
    }

    /// The kind.
    pub const fn kind(&self) -> MarketKind {
        self.kind
    }

    /// The runners, in the order given (empty for fancy).
    pub fn runners(&self) -> &[RunnerId] {
        &self.runners
    }

    /// Commission in basis points of net market winnings.
    pub const fn commission_bp(&self) -> u32 {
        self.commission_bp
    }

    /// Whether `bet` can be on this market: on one of its runners, or on a line of a fancy
    /// market.
    pub fn check_bet(&self, bet: &Bet) -> Result<(), MarketError> {
        match (bet.selection(), self.kind) {
            (Selection::FancyLine(_), MarketKind::Fancy) => Ok(()),
            (Selection::FancyLine(_), _) => Err(MarketError::LineOnRunnerMarket),
            (Selection::Runner(_), MarketKind::Fancy) => Err(MarketError::RunnerOnFancy),
            (Selection::Runner(runner), _) => self.runner_index(runner).map(|_| ()),
        }
    }

    fn runner_index(&self, runner: RunnerId) -> Result<usize, MarketError> {
        self.runners.iter().position(|r| *r == runner).ok_or(MarketError::UnknownRunner(runner))
    }
}

crate::named_enum! {
    /// Where a market is in its life.
    pub enum MarketStatus as "market status" {
        /// Taking bets.
        Open = "open",
        /// Not taking bets for now (the operator suspended it).
        Suspended = "suspended",
        /// Not taking bets while the ball is running: a suspension the page names.
        BallRunning = "ball_running",
        /// Result declared and settled.
        Closed = "closed",
        /// Voided: every bet off.
        Void = "void",
    }
}

impl MarketStatus {
    /// Closed or void: settled, for good.
    pub const fn is_settled(self) -> bool {
        matches!(self, MarketStatus::Closed | MarketStatus::Void)
    }

    /// Suspended, for either reason: no bets until it opens again.
    pub const fn is_suspended(self) -> bool {
        matches!(self, MarketStatus::Suspended | MarketStatus::BallRunning)
    }
}

/// What settling a market did: the settlement to post, and the unmatched orders it
/// cancelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettledMarket {
    /// Per-user P&L and commission, house P&L, commission total.
    pub settlement: Settlement,
    /// The orders that were still unmatched, by runner then oldest first.
    pub cancelled_orders: Vec<RestingOrder>,
}

/// Why a market refused; each message is meant for a person (bettor or operator).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MarketError {
    /// A runner market with fewer than two runners.
    #[error("a market needs at least 2 runners")]
    TooFewRunners,
    /// More than [`MAX_RUNNERS`].
    #[error("a market has at most {MAX_RUNNERS} runners")]
    TooManyRunners,
    /// A runner listed twice.
    #[error("runner {0} is listed twice")]
    DuplicateRunner(RunnerId),
    /// Runners given for a fancy market.
    #[error("a fancy market has a line, not runners")]
    FancyHasRunners,
    /// A place market placing none, or all, of its runners.
    #[error("a place market with {runners} runners must place at least 1 and fewer than {runners}, not {winners}")]
    InvalidWinners {
        /// Runners placed.
        winners: u32,
        /// Runners in the market.
        runners: usize,
    },
    /// Commission above [`MAX_COMMISSION_BP`].
    #[error("commission is at most {MAX_COMMISSION_BP} basis points, not {commission_bp}")]
    CommissionTooHigh {
        /// The commission given.
        commission_bp: u32,
    },
    /// A runner that is not in the market.
    #[error("runner {0} is not in this market")]
    UnknownRunner(RunnerId),
    /// A fancy line bet on a runner market.
    #[error("this market takes bets on its runners, not on a line")]
    LineOnRunnerMarket,
    /// A runner bet on a fancy market.
    #[error("a fancy market takes YES and NO bets on its line, not bets on runners")]
    RunnerOnFancy,
    /// An exchange order on a house market.
    #[error("bookmaker and fancy bets are taken by the house at the posted rate, not matched between clients")]
    NoOrderBook,
    /// A house bet on an exchange market.
    #[error("this market is matched between clients; the house takes no bets on it")]
    NotHouseBanked,
    /// A bet on a market that is not open.
    #[error("this market is {status} and takes no bets")]
    NotOpen {
        /// Its status.
        status: MarketStatus,
    },
    /// Settling, voiding, suspending or reopening a market that is closed or void.
    #[error("this market is already {status}: it was settled and cannot change")]
    AlreadySettled {
        /// Its status.
        status: MarketStatus,
    },
    /// A result of the wrong shape (a run total for a one-winner market …).
    #[error("that result does not fit a {kind} market")]
    WrongResult {
        /// The market's kind.
        kind: MarketKind,
    },
    /// No placed runner in a place result.
    #[error("name at least one placed runner, or void the market")]
    NoPlacedRunner,
    /// More placed runners than the market places.
    #[error("this market places at most {winners} runners, not {placed}")]
    TooManyPlaced {
        /// Runners named.
        placed: usize,
        /// Runners the market places.
        winners: u32,
    },
    /// A runner named twice in a place result.
    #[error("runner {0} is named twice")]
    DuplicatePlacedRunner(RunnerId),
    /// Exchange bets whose P&L does not sum to zero: a fill is missing one of its sides.
    #[error(
        "the matched bets of this market do not balance (they sum to {sum_minor} minor units)"
    )]
    UnbalancedExchange {
        /// What they sum to.
        sum_minor: i128,
    },
    /// An amount beyond `i64`.
    #[error("the amounts in this market are too large to settle")]
    Overflow,
    /// Reopening a market whose stored book was crossed before its crossing orders are
    /// cancelled (see the module docs).
    #[error("this market's stored book is crossed ({orders} unmatched bets would match resting ones): an operator must resolve it before it reopens")]
    Crossed {
        /// Orders held apart.
        orders: usize,
    },
    /// The order book refused.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The bet is out of range.
    #[error(transparent)]
    Bet(#[from] BetError),
}

/// One market's state: see the module documentation.
#[derive(Clone, Debug)]
pub struct Market {
    spec: MarketSpec,
    status: MarketStatus,
    result: Option<MarketResult>,
    /// One per runner, in the spec's order; none on house markets.
    books: Vec<OrderBook>,
    positions: BTreeMap<UserId, Position>,
    /// Stored unmatched orders that would have matched a resting order when the market was
    /// rebuilt (see the module docs), oldest first.
    crossing: Vec<RestingOrder>,
}

impl Market {
    /// An open market with empty books.
    pub fn new(spec: MarketSpec) -> Market {
        let books = if spec.kind.has_order_book() {
            spec.runners.iter().map(|r| OrderBook::new(*r)).collect()
        } else {
            Vec::new()
        };
        Market {
            spec,
            status: MarketStatus::Open,
            result: None,
            books,
            positions: BTreeMap::new(),
            crossing: Vec::new(),
        }
    }

    /// The market's set-up.
    pub const fn spec(&self) -> &MarketSpec {
        &self.spec
    }

    /// Its status.
    pub const fn status(&self) -> MarketStatus {
        self.status
    }

    /// The declared result, once settled.
    pub const fn result(&self) -> Option<&MarketResult> {
        self.result.as_ref()
    }

    /// The order book of `runner` (exchange markets only).
    pub fn book(&self, runner: RunnerId) -> Option<&OrderBook> {
        self.books.iter().find(|book| book.runner() == runner)
    }

    /// The users with bets or orders in the market, by id.
    pub fn users(&self) -> impl Iterator<Item = UserId> + '_ {
        self.positions.keys().copied()
    }

    /// The position of `user_id`, if they have bets or orders here.
    pub fn position(&self, user_id: UserId) -> Option<&Position> {
        self.positions.get(&user_id)
    }

    /// Places an exchange order on `runner`: matches it and rests the rest. The caller has
    /// checked funds with [`Market::exposure_with_order_minor`]; matching never raises
    /// anyone's exposure above what that check counted (see the module "Decisions").
    pub fn place_order(
        &mut self,
        runner: RunnerId,
        order: &NewOrder,
    ) -> Result<PlaceOutcome, MarketError> {
        self.check_open()?;
        let index = self.book_index(runner)?;
        let outcome = self.books[index].place(order)?;
        for fill in &outcome.fills {
            for (user_id, bet) in fill.bets() {
                self.position_mut(user_id).add_matched(&bet);
            }
            let maker_side = fill.taker_side.opposite();
            let before = fill.maker_remaining_minor + fill.size_minor;
            let maker = self.position_mut(fill.maker_user);
            maker
                .remove_unmatched(&Bet::exchange_unchecked(runner, maker_side, fill.price, before));
            if fill.maker_remaining_minor > 0 {
                let after = fill.maker_remaining_minor;
                maker
                    .add_unmatched(&Bet::exchange_unchecked(runner, maker_side, fill.price, after));
            }
        }
        if outcome.resting_minor > 0 {
            let rest =
                Bet::exchange_unchecked(runner, order.side, order.price, outcome.resting_minor);
            self.position_mut(order.user_id).add_unmatched(&rest);
        }
        Ok(outcome)
    }

    /// Takes a house bet (bookmaker or fancy) for `user_id`, matched at once. The caller has
    /// checked the posted rate or line, and funds with [`Market::exposure_with_bet_minor`].
    pub fn place_house_bet(&mut self, user_id: UserId, bet: &Bet) -> Result<(), MarketError> {
        self.check_open()?;
        if !self.spec.kind.is_house_banked() {
            return Err(MarketError::NotHouseBanked);
        }
        self.spec.check_bet(bet)?;
        self.position_mut(user_id).add_matched(bet);
        Ok(())
    }

    /// Cancels `size_minor` of an unmatched order on `runner` (all of it if `None` or at
    /// least what remains). Allowed while suspended. Returns the size cancelled.
    pub fn cancel(
        &mut self,
        runner: RunnerId,
        order_id: OrderId,
        size_minor: Option<i64>,
    ) -> Result<i64, MarketError> {
        let index = self.book_index(runner)?;
        if let Some(at) =
            self.crossing.iter().position(|o| o.order_id == order_id && o.runner == runner)
        {
            return self.cancel_held(at, size_minor);
        }
        let book = &mut self.books[index];
        let before = book.order(order_id).ok_or(BookError::UnknownOrder(order_id))?;
        let cancelled_minor = book.cancel(order_id, size_minor)?;
        let remaining_minor = before.remaining_minor - cancelled_minor;
        let position = self.position_mut(before.user_id);
        position.remove_unmatched(&before.unmatched_bet());
        if remaining_minor > 0 {
            position.add_unmatched(&RestingOrder { remaining_minor, ..before }.unmatched_bet());
        }
        Ok(cancelled_minor)
    }

    /// Changes an unmatched order's persistence (allowed while suspended: it only decides what
    /// the next suspension does). Returns the persistence it had.
    pub fn set_persistence(
        &mut self,
        runner: RunnerId,
        order_id: OrderId,
        persistence: Persistence,
    ) -> Result<Persistence, MarketError> {
        let index = self.book_index(runner)?;
        Ok(self.books[index].set_persistence(order_id, persistence)?)
    }

    /// Lapses every LAPSE order (the market turned in-play); PERSIST orders stay. Returns the
    /// lapsed orders, by runner then oldest first.
    pub fn lapse_orders(&mut self) -> Vec<RestingOrder> {
        let mut lapsed: Vec<RestingOrder> =
            self.books.iter_mut().flat_map(OrderBook::lapse_all).collect();
        let (held_lapsed, held_kept): (Vec<_>, Vec<_>) =
            self.crossing.drain(..).partition(|o| o.persistence == Persistence::Lapse);
        self.crossing = held_kept;
        lapsed.extend(held_lapsed);
        self.forget_unmatched(&lapsed);
        lapsed
    }

    /// Suspends the market: no bets until [`Market::reopen`], and LAPSE orders lapse.
    pub fn suspend(&mut self) -> Result<Vec<RestingOrder>, MarketError> {
        self.suspend_as(MarketStatus::Suspended)
    }

    /// Suspends the market while the ball is running: as [`Market::suspend`], under the
    /// status that says why.
    pub fn suspend_ball_running(&mut self) -> Result<Vec<RestingOrder>, MarketError> {
        self.suspend_as(MarketStatus::BallRunning)
    }

    fn suspend_as(&mut self, status: MarketStatus) -> Result<Vec<RestingOrder>, MarketError> {
        debug_assert!(status.is_suspended());
        self.check_not_settled()?;
        self.status = status;
        Ok(self.lapse_orders())
    }

    /// Opens a suspended market again; refused while it holds crossing orders.
    pub fn reopen(&mut self) -> Result<(), MarketError> {
        self.check_not_settled()?;
        if !self.crossing.is_empty() {
            return Err(MarketError::Crossed { orders: self.crossing.len() });
        }
        self.status = MarketStatus::Open;
        Ok(())
    }

    /// The exposure of `user_id` here: 0 once the market is settled.
    pub fn exposure_minor(&self, user_id: UserId) -> i64 {
        if self.status.is_settled() {
            return 0;
        }
        self.positions.get(&user_id).map_or(0, |position| position.exposure_minor(&self.spec))
    }

    /// The exposure `user_id` would have with `order` added unmatched: the figure for the
    /// funds check before [`Market::place_order`] (matching can only lower it).
    pub fn exposure_with_order_minor(
        &self,
        runner: RunnerId,
        order: &NewOrder,
    ) -> Result<i64, MarketError> {
        self.book_index(runner)?;
        let bet = Bet::exchange(runner, order.side, order.price, order.size_minor)?;
        let mut position = self.positions.get(&order.user_id).cloned().unwrap_or_default();
        position.add_unmatched(&bet);
        Ok(position.exposure_minor(&self.spec))
    }

    /// The exposure `user_id` would have with the house `bet` added: the figure for the funds
    /// check before [`Market::place_house_bet`].
    pub fn exposure_with_bet_minor(&self, user_id: UserId, bet: &Bet) -> Result<i64, MarketError> {
        if !self.spec.kind.is_house_banked() {
            return Err(MarketError::NotHouseBanked);
        }
        self.spec.check_bet(bet)?;
        let mut position = self.positions.get(&user_id).cloned().unwrap_or_default();
        position.add_matched(bet);
        Ok(position.exposure_minor(&self.spec))
    }

    /// The exposure `user_id` would have with `bets` matched: the funds check of a cash out,
    /// whose legs are known to match whole at their prices.
    pub fn exposure_with_matched_minor(
        &self,
        user_id: UserId,
        bets: &[Bet],
    ) -> Result<i64, MarketError> {
        let mut position = self.positions.get(&user_id).cloned().unwrap_or_default();
        for bet in bets {
            self.spec.check_bet(bet)?;
            position.add_matched(bet);
        }
        Ok(position.exposure_minor(&self.spec))
    }

    /// Each runner's matched P&L of `user_id` if placed and if not, on a place market; see
    /// [`Position::place_outcomes`].
    pub fn place_outcomes(&self, user_id: UserId) -> Vec<(RunnerId, i64, i64)> {
        self.positions.get(&user_id).cloned().unwrap_or_default().place_outcomes(&self.spec)
    }

    /// The page's position of `user_id` per runner; see [`Position::runner_positions`].
    pub fn runner_positions(&self, user_id: UserId) -> Vec<(RunnerId, i64)> {
        self.positions.get(&user_id).cloned().unwrap_or_default().runner_positions(&self.spec)
    }

    /// The page's fancy book of `user_id`; see [`Position::fancy_book`].
    pub fn fancy_book(&self, user_id: UserId) -> Vec<FancyBookRow> {
        self.positions
            .get(&user_id)
            .map_or_else(|| Position::new().fancy_book(), Position::fancy_book)
    }

    /// Start-up: puts a stored unmatched order back in its book without matching. Give each
    /// book's orders oldest first to keep time priority.
    pub fn restore_order(&mut self, runner: RunnerId, order: &NewOrder) -> Result<(), MarketError> {
        let index = self.book_index(runner)?;
        self.books[index].restore(order)?;
        let bet = Bet::exchange_unchecked(runner, order.side, order.price, order.size_minor);
        self.position_mut(order.user_id).add_unmatched(&bet);
        Ok(())
    }

    /// Start-up: holds apart a stored unmatched order that [`Market::restore_order`] refused as
    /// crossing the book (see the module docs): it counts in its user's exposure, rests in no
    /// book, and the market is suspended (if it was open) until it is cancelled.
    pub fn hold_crossing_order(
        &mut self,
        runner: RunnerId,
        order: &NewOrder,
    ) -> Result<(), MarketError> {
        let index = self.book_index(runner)?;
        if !(1..=super::MAX_STAKE_MINOR).contains(&order.size_minor) {
            return Err(BookError::InvalidSize { size_minor: order.size_minor }.into());
        }
        let known = self.books[index].order(order.order_id).is_some()
            || self.crossing.iter().any(|o| o.order_id == order.order_id);
        if known {
            return Err(BookError::DuplicateOrder(order.order_id).into());
        }
        let held = RestingOrder {
            runner,
            order_id: order.order_id,
            user_id: order.user_id,
            side: order.side,
            price: order.price,
            remaining_minor: order.size_minor,
            persistence: order.persistence,
        };
        self.position_mut(order.user_id).add_unmatched(&held.unmatched_bet());
        self.crossing.push(held);
        if self.status == MarketStatus::Open {
            self.status = MarketStatus::Suspended;
        }
        Ok(())
    }

    /// An unmatched order of this market: resting in its runner's book, or held apart from a
    /// crossed stored book (its owner may cancel it like any other).
    pub fn unmatched_order(&self, order_id: OrderId) -> Option<RestingOrder> {
        self.books
            .iter()
            .find_map(|book| book.order(order_id))
            .or_else(|| self.crossing.iter().find(|o| o.order_id == order_id).copied())
    }

    /// The orders held apart because they crossed the stored book, oldest first.
    pub fn crossing_orders(&self) -> &[RestingOrder] {
        &self.crossing
    }

    /// Cancels in whole an order held apart as crossing the book (the operator's way out of a
    /// crossed book). Returns it as it was. The market stays suspended: reopening is the
    /// operator's next decision.
    pub fn cancel_crossing_order(
        &mut self,
        order_id: OrderId,
    ) -> Result<RestingOrder, MarketError> {
        let at = self
            .crossing
            .iter()
            .position(|o| o.order_id == order_id)
            .ok_or(BookError::UnknownOrder(order_id))?;
        let order = self.crossing[at];
        self.cancel_held(at, None)?;
        Ok(order)
    }

    /// Whether some runner's book has a resting LAY at or above a resting BACK. Never, by
    /// construction: checked where a batch is written all the same.
    pub fn is_crossed(&self) -> bool {
        self.books.iter().any(OrderBook::is_crossed)
    }

    /// Start-up: puts the market in its stored status, lapsing nothing (lapses were stored
    /// when they happened). A closed or void market restored this way takes nothing more, and
    /// has no result in memory: its settlement is already stored.
    pub fn restore_status(&mut self, status: MarketStatus) {
        self.status = status;
    }

    /// Start-up: records a stored matched bet (each side of a fill, or a house bet).
    pub fn restore_matched(&mut self, user_id: UserId, bet: &Bet) -> Result<(), MarketError> {
        self.spec.check_bet(bet)?;
        self.position_mut(user_id).add_matched(bet);
        Ok(())
    }

    /// Declares `result` and settles: computes the settlement, cancels every unmatched order
    /// and closes the market (void if `result` is [`MarketResult::Void`]). Once only: on a
    /// closed or void market it answers [`MarketError::AlreadySettled`] and changes nothing.
    pub fn settle(&mut self, result: &MarketResult) -> Result<SettledMarket, MarketError> {
        let settlement = self.settlement(result)?;
        let mut cancelled_orders: Vec<RestingOrder> =
            self.books.iter_mut().flat_map(OrderBook::cancel_all).collect();
        cancelled_orders.append(&mut self.crossing);
        self.forget_unmatched(&cancelled_orders);
        self.status = if result.is_void() { MarketStatus::Void } else { MarketStatus::Closed };
        self.result = Some(result.clone());
        Ok(SettledMarket { settlement, cancelled_orders })
    }

    /// What [`Market::settle`] with `result` would post, changing nothing: the operator's
    /// preview before declaring a result is this very computation, not a copy of its rules.
    pub fn settlement(&self, result: &MarketResult) -> Result<Settlement, MarketError> {
        self.check_not_settled()?;
        settle_positions(
            &self.spec,
            result,
            self.positions.iter().map(|(user, position)| (*user, position)),
        )
    }

    /// Voids the market: [`Market::settle`] with [`MarketResult::Void`].
    pub fn void(&mut self) -> Result<SettledMarket, MarketError> {
        self.settle(&MarketResult::Void)
    }

    fn check_open(&self) -> Result<(), MarketError> {
        match self.status {
            MarketStatus::Open => Ok(()),
            status => Err(MarketError::NotOpen { status }),
        }
    }

    fn check_not_settled(&self) -> Result<(), MarketError> {
        if self.status.is_settled() {
            Err(MarketError::AlreadySettled { status: self.status })
        } else {
            Ok(())
        }
    }

    fn book_index(&self, runner: RunnerId) -> Result<usize, MarketError> {
        if !self.spec.kind.has_order_book() {
            return Err(MarketError::NoOrderBook);
        }
        self.spec.runner_index(runner)
    }

    fn position_mut(&mut self, user_id: UserId) -> &mut Position {
        self.positions.entry(user_id).or_default()
    }

    /// Cancels `size_minor` (all when `None` or at least what remains) of the held crossing
    /// order at `at`; returns the size cancelled.
    fn cancel_held(&mut self, at: usize, size_minor: Option<i64>) -> Result<i64, MarketError> {
        if size_minor.is_some_and(|size| size <= 0) {
            return Err(BookError::InvalidCancelSize.into());
        }
        let before = self.crossing[at];
        let cancelled_minor =
            size_minor.map_or(before.remaining_minor, |size| size.min(before.remaining_minor));
        let remaining_minor = before.remaining_minor - cancelled_minor;
        let position = self.position_mut(before.user_id);
        position.remove_unmatched(&before.unmatched_bet());
        if remaining_minor > 0 {
            let after = RestingOrder { remaining_minor, ..before };
            position.add_unmatched(&after.unmatched_bet());
            self.crossing[at] = after;
        } else {
            self.crossing.remove(at);
        }
        Ok(cancelled_minor)
    }

    fn forget_unmatched(&mut self, orders: &[RestingOrder]) {
        for order in orders {
            self.position_mut(order.user_id).remove_unmatched(&order.unmatched_bet());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exchange::{Persistence, Side};
    use crate::odds::Price;

    const A: RunnerId = RunnerId(1);
    const B: RunnerId = RunnerId(2);
    const ANN: UserId = UserId(1);
    const BOB: UserId = UserId(2);

    fn price(text: &str) -> Price {
        text.parse().unwrap()
    }

    fn exchange_market() -> Market {
        Market::new(MarketSpec::new(MarketKind::OneWinner, vec![A, B], 0).unwrap())
    }

    fn order(id: u64, user: UserId, side: Side, at: &str, size_minor: i64) -> NewOrder {
        NewOrder::new(OrderId(id), user, side, price(at), size_minor)
    }

    #[test]
    fn specs_are_checked_once() {
        let spec = |kind, runners: Vec<i64>, bp| {
            MarketSpec::new(kind, runners.into_iter().map(RunnerId).collect(), bp)
        };
        assert_eq!(spec(MarketKind::OneWinner, vec![1], 0), Err(MarketError::TooFewRunners));
        assert_eq!(
            spec(MarketKind::OneWinner, vec![1, 2, 1], 0),
            Err(MarketError::DuplicateRunner(RunnerId(1)))
        );
        assert_eq!(
            spec(MarketKind::OneWinner, (0..65).collect(), 0),
            Err(MarketError::TooManyRunners)
        );
        assert_eq!(spec(MarketKind::Fancy, vec![1], 0), Err(MarketError::FancyHasRunners));
        assert_eq!(
            spec(MarketKind::Place { winners: 3 }, vec![1, 2, 3], 0),
            Err(MarketError::InvalidWinners { winners: 3, runners: 3 })
        );
        assert_eq!(
            spec(MarketKind::Place { winners: 0 }, vec![1, 2, 3], 0),
            Err(MarketError::InvalidWinners { winners: 0, runners: 3 })
        );
        assert_eq!(
            spec(MarketKind::OneWinner, vec![1, 2], 2_001),
            Err(MarketError::CommissionTooHigh { commission_bp: 2_001 })
        );
        assert!(spec(MarketKind::Place { winners: 2 }, vec![1, 2, 3], 2_000).is_ok());
    }

    #[test]
    fn exposure_follows_orders_through_matching_cancelling_and_lapsing() {
        let mut market = exchange_market();
        let lay = order(1, ANN, Side::Lay, "3.00", 100_00);
        assert_eq!(market.exposure_with_order_minor(A, &lay), Ok(200_00));
        market.place_order(A, &lay).unwrap();
        assert_eq!(market.exposure_minor(ANN), 200_00);

        // Bob backs 40.00 of it at 2.50 and is matched at 3.00: Ann's liability is unchanged.
        let back = order(2, BOB, Side::Back, "2.50", 40_00);
        assert_eq!(market.exposure_with_order_minor(A, &back), Ok(40_00));
        market.place_order(A, &back).unwrap();
        assert_eq!(market.exposure_minor(ANN), 200_00);
        assert_eq!(market.exposure_minor(BOB), 40_00);
        assert_eq!(market.runner_positions(BOB), vec![(A, 80_00), (B, -40_00)]);

        // Ann cancels 10.00 of the remaining 60.00, then suspending lapses the rest.
        assert_eq!(market.cancel(A, OrderId(1), Some(10_00)), Ok(10_00));
        assert_eq!(market.exposure_minor(ANN), 80_00 + 100_00);
        let lapsed = market.suspend().unwrap();
        assert_eq!(
            lapsed.iter().map(|o| (o.order_id, o.remaining_minor)).collect::<Vec<_>>(),
            vec![(OrderId(1), 50_00)]
        );
        assert_eq!(market.exposure_minor(ANN), 80_00);
        assert_eq!(
            market.place_order(A, &order(3, BOB, Side::Back, "2.00", 1_00)),
            Err(MarketError::NotOpen { status: MarketStatus::Suspended })
        );
        market.reopen().unwrap();
        assert!(market.place_order(A, &order(3, BOB, Side::Back, "2.00", 1_00)).is_ok());
    }

    #[test]
    fn statuses_and_types_have_one_name_each() {
        let statuses = ["open", "suspended", "ball_running", "closed", "void"];
        assert_eq!(MarketStatus::NAMES, statuses);
        for status in MarketStatus::ALL {
            assert_eq!(status.as_str().parse::<MarketStatus>(), Ok(*status));
        }
        let types = ["match_odds", "bookmaker", "fancy", "win", "place"];
        assert_eq!(MarketType::NAMES, types);
        for market_type in MarketType::ALL {
            assert_eq!(market_type.as_str().parse::<MarketType>(), Ok(*market_type));
        }
        for unknown in ["", "Open", "ball running", "settled"] {
            assert!(unknown.parse::<MarketStatus>().is_err(), "{unknown:?}");
        }
        let err = "closing".parse::<MarketStatus>().unwrap_err();
        assert_eq!(
            err.to_string(),
            r#""closing" is not a market status: use open, suspended, ball_running, closed or void"#
        );
        assert!("Match Odds".parse::<MarketType>().is_err());
    }

    #[test]
    fn a_market_type_is_one_kind() {
        assert_eq!(MarketType::MatchOdds.kind(1), MarketKind::OneWinner);
        assert_eq!(MarketType::Win.kind(1), MarketKind::OneWinner);
        assert_eq!(MarketType::Place.kind(3), MarketKind::Place { winners: 3 });
        assert_eq!(MarketType::Bookmaker.kind(1), MarketKind::Bookmaker);
        assert_eq!(MarketType::Fancy.kind(1), MarketKind::Fancy);
        let house: Vec<_> = MarketType::ALL.iter().filter(|t| t.is_house_banked()).collect();
        assert_eq!(house, [&MarketType::Bookmaker, &MarketType::Fancy]);
    }

    #[test]
    fn ball_running_is_a_suspension_under_its_own_status() {
        let mut market = exchange_market();
        market.place_order(A, &order(1, ANN, Side::Back, "4.00", 10_00)).unwrap();
        assert_eq!(market.suspend_ball_running().unwrap().len(), 1);
        assert_eq!(market.status(), MarketStatus::BallRunning);
        assert!(market.status().is_suspended() && !market.status().is_settled());
        assert_eq!(
            market.place_order(A, &order(2, BOB, Side::Back, "2.00", 1_00)),
            Err(MarketError::NotOpen { status: MarketStatus::BallRunning })
        );
        market.suspend().unwrap();
        assert_eq!(market.status(), MarketStatus::Suspended);
        market.reopen().unwrap();
        assert_eq!(market.status(), MarketStatus::Open);
        market.void().unwrap();
        assert!(market.suspend_ball_running().is_err());
    }

    #[test]
    fn a_restored_status_lapses_nothing() {
        let mut market = exchange_market();
        market.restore_status(MarketStatus::BallRunning);
        let resting = order(1, ANN, Side::Back, "4.00", 10_00);
        market.restore_order(A, &resting).unwrap();
        assert_eq!(market.status(), MarketStatus::BallRunning);
        assert_eq!(market.exposure_minor(ANN), 10_00);

        let mut closed = exchange_market();
        closed.restore_order(A, &resting).unwrap();
        closed.restore_status(MarketStatus::Closed);
        assert_eq!(closed.exposure_minor(ANN), 0);
        assert_eq!(
            closed.place_order(A, &order(2, BOB, Side::Lay, "4.00", 1_00)),
            Err(MarketError::NotOpen { status: MarketStatus::Closed })
        );
        assert_eq!(
            closed.void(),
            Err(MarketError::AlreadySettled { status: MarketStatus::Closed })
        );
    }

    #[test]
    fn persist_orders_survive_a_suspension() {
        let mut market = exchange_market();
        let keep = order(1, ANN, Side::Back, "4.00", 10_00).with_persistence(Persistence::Persist);
        market.place_order(B, &keep).unwrap();
        market.place_order(B, &order(2, ANN, Side::Back, "5.00", 10_00)).unwrap();
        assert_eq!(market.suspend().unwrap().len(), 1);
        assert_eq!(market.exposure_minor(ANN), 10_00);
        assert_eq!(market.book(B).unwrap().available_to_lay(3), vec![(price("4.00"), 10_00)]);
    }

    #[test]
    fn settling_twice_is_refused_and_changes_nothing() {
        let mut market = exchange_market();
        market.place_order(A, &order(1, ANN, Side::Lay, "2.50", 100_00)).unwrap();
        market.place_order(A, &order(2, BOB, Side::Back, "2.50", 60_00)).unwrap();
        let settled = market.settle(&MarketResult::Winner(A)).unwrap();
        assert_eq!(settled.settlement.user(BOB).unwrap().pnl_minor, 90_00);
        assert_eq!(settled.settlement.user(ANN).unwrap().pnl_minor, -90_00);
        // Ann's unmatched 40.00 was cancelled.
        assert_eq!(settled.cancelled_orders.len(), 1);
        assert_eq!(settled.cancelled_orders[0].remaining_minor, 40_00);
        assert_eq!(market.status(), MarketStatus::Closed);
        assert_eq!(market.exposure_minor(ANN), 0);

        let closed = MarketError::AlreadySettled { status: MarketStatus::Closed };
        assert_eq!(market.settle(&MarketResult::Winner(B)), Err(closed.clone()));
        assert_eq!(market.void(), Err(closed.clone()));
        assert_eq!(market.suspend(), Err(closed.clone()));
        assert_eq!(market.result(), Some(&MarketResult::Winner(A)));
        assert_eq!(
            market.place_order(A, &order(3, BOB, Side::Back, "2.50", 1_00)),
            Err(MarketError::NotOpen { status: MarketStatus::Closed })
        );
        assert_eq!(
            closed.to_string(),
            "this market is already closed: it was settled and cannot change"
        );
    }

    #[test]
    fn a_wrong_result_leaves_the_market_open() {
        let mut market = exchange_market();
        market.place_order(A, &order(1, ANN, Side::Lay, "2.50", 100_00)).unwrap();
        assert_eq!(
            market.settle(&MarketResult::Winner(RunnerId(9))),
            Err(MarketError::UnknownRunner(RunnerId(9)))
        );
        assert_eq!(market.status(), MarketStatus::Open);
        assert_eq!(market.exposure_minor(ANN), 150_00);
        let voided = market.void().unwrap();
        assert_eq!(voided.settlement.user(ANN).unwrap().pnl_minor, 0);
        assert_eq!(market.status(), MarketStatus::Void);
    }

    #[test]
    fn house_markets_take_house_bets_only() {
        let mut bookmaker =
            Market::new(MarketSpec::new(MarketKind::Bookmaker, vec![A, B], 0).unwrap());
        assert_eq!(
            bookmaker.place_order(A, &order(1, ANN, Side::Back, "2.00", 1_00)),
            Err(MarketError::NoOrderBook)
        );
        let bet = Bet::bookmaker(A, Side::Back, 45, 100_00).unwrap();
        assert_eq!(bookmaker.exposure_with_bet_minor(ANN, &bet), Ok(100_00));
        bookmaker.place_house_bet(ANN, &bet).unwrap();
        let line = Bet::fancy(10, Side::YES, 100, 1_00).unwrap();
        assert_eq!(bookmaker.place_house_bet(ANN, &line), Err(MarketError::LineOnRunnerMarket));
        let settled = bookmaker.settle(&MarketResult::Winner(A)).unwrap();
        assert_eq!(settled.settlement.house_pnl_minor, -45_00);

        let mut exchange = exchange_market();
        assert_eq!(exchange.place_house_bet(ANN, &bet), Err(MarketError::NotHouseBanked));

        let mut fancy = Market::new(MarketSpec::new(MarketKind::Fancy, vec![], 0).unwrap());
        assert_eq!(fancy.place_house_bet(ANN, &bet), Err(MarketError::RunnerOnFancy));
        fancy.place_house_bet(ANN, &line).unwrap();
        assert_eq!(
            fancy.fancy_book(ANN),
            vec![
                FancyBookRow { from: 0, to: Some(9), pnl_minor: -1_00 },
                FancyBookRow { from: 10, to: None, pnl_minor: 1_00 },
            ]
        );
    }

    #[test]
    fn restored_market_matches_like_the_original() {
        let mut original = exchange_market();
        original.place_order(A, &order(1, ANN, Side::Lay, "2.00", 10_00)).unwrap();
        original.place_order(A, &order(2, BOB, Side::Lay, "2.00", 10_00)).unwrap();
        original.place_order(A, &order(3, BOB, Side::Back, "2.00", 4_00)).unwrap();

        let mut restored = exchange_market();
        // Stored matched bets: both sides of the one fill.
        let fill_back = Bet::exchange(A, Side::Back, price("2.00"), 4_00).unwrap();
        let fill_lay = Bet::exchange(A, Side::Lay, price("2.00"), 4_00).unwrap();
        restored.restore_matched(BOB, &fill_back).unwrap();
        restored.restore_matched(ANN, &fill_lay).unwrap();
        for resting in original.book(A).unwrap().iter_resting() {
            let stored = NewOrder::new(
                resting.order_id,
                resting.user_id,
                resting.side,
                resting.price,
                resting.remaining_minor,
            );
            restored.restore_order(A, &stored).unwrap();
        }
        for user in [ANN, BOB] {
            assert_eq!(restored.exposure_minor(user), original.exposure_minor(user));
        }
        let next = order(4, BOB, Side::Back, "2.00", 10_00);
        assert_eq!(restored.place_order(A, &next), original.place_order(A, &next));
    }

    /// A crossed stored book (a back at 1.97 under a lay at 1.97, as an older version could
    /// write after a failed write) rebuilds with the younger order held apart: counted in its
    /// user's exposure, out of the book, the market suspended and unable to reopen until the
    /// held order is cancelled, which releases its exposure.
    #[test]
    fn a_crossed_stored_book_is_held_suspended_until_the_younger_order_is_cancelled() {
        let mut market = exchange_market();
        market.restore_order(A, &order(1, ANN, Side::Back, "1.97", 10_00)).unwrap();
        let younger = order(2, BOB, Side::Lay, "1.97", 10_00);
        assert_eq!(
            market.restore_order(A, &younger),
            Err(MarketError::Book(BookError::WouldCross(OrderId(2))))
        );
        market.hold_crossing_order(A, &younger).unwrap();
        assert_eq!(market.status(), MarketStatus::Suspended);
        assert!(!market.is_crossed(), "the held order rests in no book");
        // Bob's lay of 10.00 at 1.97 risks 9.70, held apart or not.
        assert_eq!(market.exposure_minor(BOB), 9_70);
        assert_eq!(market.crossing_orders().len(), 1);
        assert_eq!(market.reopen(), Err(MarketError::Crossed { orders: 1 }));
        assert_eq!(
            market.hold_crossing_order(A, &younger),
            Err(MarketError::Book(BookError::DuplicateOrder(OrderId(2))))
        );

        let cancelled = market.cancel_crossing_order(OrderId(2)).unwrap();
        assert_eq!((cancelled.user_id, cancelled.remaining_minor), (BOB, 10_00));
        assert_eq!(market.exposure_minor(BOB), 0);
        assert_eq!(market.exposure_minor(ANN), 10_00);
        assert_eq!(market.status(), MarketStatus::Suspended, "reopening is the operator's call");
        market.reopen().unwrap();
        // The book matches again as usual.
        let outcome = market.place_order(A, &order(3, BOB, Side::Lay, "1.97", 4_00)).unwrap();
        assert_eq!(outcome.matched_minor(), 4_00);
    }

    /// Held crossing orders are unmatched orders like any other: a bettor may cancel part of
    /// one, a suspension lapses a LAPSE one, and a result cancels what is left.
    #[test]
    fn held_crossing_orders_cancel_lapse_and_settle_as_unmatched_orders() {
        let mut market = exchange_market();
        market.restore_order(A, &order(1, ANN, Side::Lay, "2.00", 10_00)).unwrap();
        let persist =
            order(2, BOB, Side::Back, "1.90", 10_00).with_persistence(Persistence::Persist);
        let lapse = order(3, BOB, Side::Back, "2.00", 5_00);
        for held in [persist, lapse] {
            market.hold_crossing_order(A, &held).unwrap();
        }
        assert_eq!(market.exposure_minor(BOB), 15_00);
        assert_eq!(market.cancel(A, OrderId(2), Some(4_00)), Ok(4_00));
        assert_eq!(market.exposure_minor(BOB), 11_00);
        let lapsed = market.suspend().unwrap();
        assert_eq!(
            lapsed.iter().map(|o| o.order_id).collect::<Vec<_>>(),
            vec![OrderId(1), OrderId(3)]
        );
        assert_eq!(market.exposure_minor(BOB), 6_00);
        assert_eq!(market.crossing_orders().len(), 1);
        let settled = market.settle(&MarketResult::Winner(A)).unwrap();
        assert_eq!(
            settled.cancelled_orders.iter().map(|o| o.order_id).collect::<Vec<_>>(),
            vec![OrderId(2)]
        );
        assert!(market.crossing_orders().is_empty());
    }
}
