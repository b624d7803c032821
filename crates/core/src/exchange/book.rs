//! One runner's order book: resting BACK and LAY orders in two arrays of 350 price levels
//! indexed by ladder tick, each level a FIFO queue, with price–time priority matching.
//!
//! The hot path (placing an order that crosses) touches only the levels it fills: the best
//! tick of each side is kept up to date, and the next occupied tick after a level empties is
//! found in a 350-bit set ([`TickSet`]) with a few word operations, not by walking empty
//! levels. Fills are pushed into a caller's buffer ([`OrderBook::place_into`]), so a caller
//! that reuses one allocates nothing per order. The only map is order id → (side, tick,
//! sequence) for cancelling, touched once per order that rests, is cancelled or fills up.
//!
//! Worked example, time priority at one price: Ann, then Cara, lay at 3.00 (the LAY side's
//! level at the tick of 3.00 queues Ann's 100.00, then Cara's 80.00). Bob backs 150.00 at 3.00:
//! the queue is taken from its front, so Ann is filled in full and Cara for what is left.
//!
//! ```text
//! lays[tick 3.00]  Ann 100.00 → Cara 80.00          best lay tick: 3.00
//! Bob BACK 150.00  fills Ann 100.00, Cara 50.00      lays[tick 3.00]  Cara 30.00
//! ```
//!
//! ```
//! use backlay_core::exchange::{NewOrder, OrderBook, OrderId, RunnerId, Side, UserId};
//! use backlay_core::odds::Price;
//!
//! let at = "3.00".parse::<Price>().unwrap();
//! let mut book = OrderBook::new(RunnerId(1));
//! book.place(&NewOrder::new(OrderId(1), UserId(1), Side::Lay, at, 100_00))?; // Ann
//! book.place(&NewOrder::new(OrderId(2), UserId(3), Side::Lay, at, 80_00))?; // Cara
//! let bob = book.place(&NewOrder::new(OrderId(3), UserId(2), Side::Back, at, 150_00))?;
//! let filled: Vec<(UserId, i64)> = bob.fills.iter().map(|f| (f.lay_user(), f.size_minor)).collect();
//! assert_eq!(filled, vec![(UserId(1), 100_00), (UserId(3), 50_00)]);
//! assert_eq!(book.available_to_back(1), vec![(at, 30_00)]);
//! # Ok::<(), backlay_core::exchange::BookError>(())
//! ```

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use crate::odds::{Price, TICK_COUNT};

use super::bet::{backer_profit_minor, Bet, Selection};
use super::tick_set::TickSet;
use super::{OrderId, Persistence, RunnerId, Side, UserId, MAX_STAKE_MINOR};

/// The most orders one runner's book holds at once; placing another is refused.
pub const MAX_RESTING_ORDERS_PER_BOOK: usize = 100_000;

/// An order to place (or to restore into a book at start-up).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct NewOrder {
    /// Its id, unique across the exchange.
    pub order_id: OrderId,
    /// Who places it.
    pub user_id: UserId,
    /// Back or lay.
    pub side: Side,
    /// The worst price the user accepts: a back at 2.50 takes 2.50 or more, a lay at 2.50
    /// takes 2.50 or less.
    pub price: Price,
    /// The backer's stake, in minor units, for both sides.
    pub size_minor: i64,
    /// What happens to the unmatched rest when the market is suspended or turns in-play.
    pub persistence: Persistence,
}

impl NewOrder {
    /// A LAPSE order (the default persistence).
    pub const fn new(
        order_id: OrderId,
        user_id: UserId,
        side: Side,
        price: Price,
        size_minor: i64,
    ) -> NewOrder {
        NewOrder { order_id, user_id, side, price, size_minor, persistence: Persistence::Lapse }
    }

    /// The same order with `persistence`.
    pub const fn with_persistence(self, persistence: Persistence) -> NewOrder {
        NewOrder { persistence, ..self }
    }
}

/// An unmatched order in a book.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RestingOrder {
    /// The runner whose book holds it.
    pub runner: RunnerId,
    /// Its id.
    pub order_id: OrderId,
    /// Whose it is.
    pub user_id: UserId,
    /// Back or lay.
    pub side: Side,
    /// Its price.
    pub price: Price,
    /// The backer's stake still unmatched.
    pub remaining_minor: i64,
    /// LAPSE or PERSIST.
    pub persistence: Persistence,
}

impl RestingOrder {
    /// The order as the bet it would be if the rest were matched at its price.
    pub fn unmatched_bet(&self) -> Bet {
        Bet::exchange_unchecked(self.runner, self.side, self.price, self.remaining_minor)
    }
}

/// One match between a new order (the taker) and a resting one (the maker), at the maker's
/// price. `backer_profit_minor` is computed once here and stored: the backer wins exactly
/// what the layer loses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fill {
    /// The runner.
    pub runner: RunnerId,
    /// The new order.
    pub taker: OrderId,
    /// The resting order.
    pub maker: OrderId,
    /// Who placed the new order.
    pub taker_user: UserId,
    /// Who placed the resting order.
    pub maker_user: UserId,
    /// The new order's side (the maker's is the opposite).
    pub taker_side: Side,
    /// The resting order's price.
    pub price: Price,
    /// The backer's stake matched.
    pub size_minor: i64,
    /// [`backer_profit_minor`] of the size at the price: the backer's win, the layer's loss.
    pub backer_profit_minor: i64,
    /// What is left of the resting order after this fill (0: it is gone from the book).
    pub maker_remaining_minor: i64,
}

impl Fill {
    /// Who backed.
    pub const fn back_user(&self) -> UserId {
        match self.taker_side {
            Side::Back => self.taker_user,
            Side::Lay => self.maker_user,
        }
    }

    /// Who laid.
    pub const fn lay_user(&self) -> UserId {
        match self.taker_side {
            Side::Back => self.maker_user,
            Side::Lay => self.taker_user,
        }
    }

    /// The back order.
    pub const fn back_order(&self) -> OrderId {
        match self.taker_side {
            Side::Back => self.taker,
            Side::Lay => self.maker,
        }
    }

    /// The lay order.
    pub const fn lay_order(&self) -> OrderId {
        match self.taker_side {
            Side::Back => self.maker,
            Side::Lay => self.taker,
        }
    }

    /// The matched bet of `side`: the same stake and profit for both, seen from either side.
    pub const fn bet(&self, side: Side) -> Bet {
        Bet::matched(
            Selection::Runner(self.runner),
            side,
            self.size_minor,
            self.backer_profit_minor,
        )
    }

    /// Both matched bets with their users, backer first: what exposure and settlement need.
    pub const fn bets(&self) -> [(UserId, Bet); 2] {
        [(self.back_user(), self.bet(Side::Back)), (self.lay_user(), self.bet(Side::Lay))]
    }
}

/// What placing an order did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlaceOutcome {
    /// The fills, in the order they were made (best price first, then oldest first).
    pub fills: Vec<Fill>,
    /// The unmatched rest, now resting in the book (0: fully matched).
    pub resting_minor: i64,
}

impl PlaceOutcome {
    /// The total stake matched.
    pub fn matched_minor(&self) -> i64 {
        self.fills.iter().map(|fill| fill.size_minor).sum()
    }
}

/// Why a book refused an operation; each message is meant for the bettor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// Zero, negative, or above [`MAX_STAKE_MINOR`].
    #[error(
        "the stake must be more than 0 and at most {}",
        crate::money::Money::from_minor(MAX_STAKE_MINOR)
    )]
    InvalidSize {
        /// The size given.
        size_minor: i64,
    },
    /// The book holds [`MAX_RESTING_ORDERS_PER_BOOK`] orders already.
    #[error("this runner has too many unmatched bets ({limit}); please try again later")]
    BookFull {
        /// The limit.
        limit: usize,
    },
    /// An order with this id is already resting.
    #[error("bet {0} is already in the book")]
    DuplicateOrder(OrderId),
    /// No resting order with this id (never placed, matched, cancelled or lapsed).
    #[error("bet {0} has no unmatched part to cancel")]
    UnknownOrder(OrderId),
    /// A partial cancel of zero or less.
    #[error("the amount to cancel must be more than 0")]
    InvalidCancelSize,
    /// A restored order would match a resting one: stored books are never crossed.
    #[error("bet {0} would match a resting bet, so it cannot be restored into the book")]
    WouldCross(OrderId),
}

/// One runner's order book. See the module documentation for the rules.
#[derive(Clone)]
pub struct OrderBook {
    runner: RunnerId,
    backs: BookSide,
    lays: BookSide,
    index: HashMap<OrderId, Slot, BuildHasherDefault<OrderIdHasher>>,
    /// Time priority across the whole book: every order that rests takes the next number.
    next_seq: u64,
}

impl OrderBook {
    /// An empty book for `runner`.
    pub fn new(runner: RunnerId) -> OrderBook {
        OrderBook {
            runner,
            backs: BookSide::new(Side::Back),
            lays: BookSide::new(Side::Lay),
            index: HashMap::default(),
            next_seq: 0,
        }
    }

    /// A book rebuilt from stored unmatched orders, given oldest first, without matching:
    /// each keeps its time priority. Fails on a duplicate id, an invalid size, an order that
    /// would cross the book, or more than [`MAX_RESTING_ORDERS_PER_BOOK`] orders.
    pub fn rebuild(
        runner: RunnerId,
        orders_oldest_first: impl IntoIterator<Item = NewOrder>,
    ) -> Result<OrderBook, BookError> {
        let mut book = OrderBook::new(runner);
        for order in orders_oldest_first {
            book.restore(&order)?;
        }
        Ok(book)
    }

    /// The runner.
    pub const fn runner(&self) -> RunnerId {
        self.runner
    }

    /// How many orders rest in the book.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether no order rests.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Matches `order` against the book and rests what is left; see [`OrderBook::place_into`].
    pub fn place(&mut self, order: &NewOrder) -> Result<PlaceOutcome, BookError> {
        let mut fills = Vec::new();
        let resting_minor = self.place_into(order, &mut fills)?;
        Ok(PlaceOutcome { fills, resting_minor })
    }

    /// Matches `order` against the book, appending its fills to `fills`, rests what is left
    /// and returns the resting size. Nothing changes on an error.
    ///
    /// A BACK at `p` takes resting LAYs at `q ≥ p`, highest first; a LAY at `p` takes resting
    /// BACKs at `q ≤ p`, lowest first; oldest first at one price; each fill at `q`. The book is
    /// refused when full even if the order would match in full, so that the check is made
    /// before anything moves.
    pub fn place_into(
        &mut self,
        order: &NewOrder,
        fills: &mut Vec<Fill>,
    ) -> Result<i64, BookError> {
        self.check_new(order)?;
        let limit_tick = order.price.tick();
        let makers = match order.side {
            Side::Back => &mut self.lays,
            Side::Lay => &mut self.backs,
        };
        let mut remaining_minor = order.size_minor;
        while remaining_minor > 0 {
            let Some(tick) = makers.best_tick else { break };
            if !makers.is_matched_by(tick, limit_tick) {
                break;
            }
            let price = price_at(tick);
            let level = &mut makers.levels[tick];
            while remaining_minor > 0 {
                let Some(maker) = level.queue.front_mut() else {
                    break;
                };
                let size_minor = remaining_minor.min(maker.remaining_minor);
                maker.remaining_minor -= size_minor;
                level.total_minor -= size_minor;
                remaining_minor -= size_minor;
                fills.push(Fill {
                    runner: self.runner,
                    taker: order.order_id,
                    maker: maker.order_id,
                    taker_user: order.user_id,
                    maker_user: maker.user_id,
                    taker_side: order.side,
                    price,
                    size_minor,
                    backer_profit_minor: backer_profit_minor(size_minor, price),
                    maker_remaining_minor: maker.remaining_minor,
                });
                if maker.remaining_minor == 0 {
                    let filled = maker.order_id;
                    level.queue.pop_front();
                    self.index.remove(&filled);
                }
            }
            if level.queue.is_empty() {
                makers.level_emptied(tick);
            }
        }
        if remaining_minor > 0 {
            self.rest(order, limit_tick, remaining_minor);
        }
        debug_assert!(self.is_uncrossed());
        Ok(remaining_minor)
    }

    /// The users whose resting orders a new order of `side` at `price` for `size_minor` would
    /// meet, in the order it would meet them, the book unchanged: whose accounts matching it
    /// may touch (a user may appear more than once).
    pub fn makers_met(&self, side: Side, price: Price, size_minor: i64) -> Vec<UserId> {
        let limit_tick = price.tick();
        let makers = match side {
            Side::Back => &self.lays,
            Side::Lay => &self.backs,
        };
        let mut users = Vec::new();
        let mut left_minor = size_minor;
        let mut next = makers.best_tick;
        while let Some(tick) = next {
            if left_minor <= 0 || !makers.is_matched_by(tick, limit_tick) {
                break;
            }
            for queued in &makers.levels[tick].queue {
                if left_minor <= 0 {
                    break;
                }
                users.push(queued.user_id);
                left_minor -= queued.remaining_minor;
            }
            next = makers.next_worse(tick);
        }
        users
    }

    /// Puts a stored unmatched order back into the book without matching (start-up), behind
    /// every order already there. Refuses one that would cross the book.
    pub fn restore(&mut self, order: &NewOrder) -> Result<(), BookError> {
        self.check_new(order)?;
        let limit_tick = order.price.tick();
        let makers = self.side(order.side.opposite());
        if makers.best_tick.is_some_and(|tick| makers.is_matched_by(tick, limit_tick)) {
            return Err(BookError::WouldCross(order.order_id));
        }
        self.rest(order, limit_tick, order.size_minor);
        Ok(())
    }

    /// Cancels `size_minor` of a resting order (it keeps its place in the queue), or all of
    /// it when `size_minor` is `None` or at least what remains. Returns the size cancelled.
    pub fn cancel(&mut self, order_id: OrderId, size_minor: Option<i64>) -> Result<i64, BookError> {
        let slot = *self.index.get(&order_id).ok_or(BookError::UnknownOrder(order_id))?;
        if size_minor.is_some_and(|size| size <= 0) {
            return Err(BookError::InvalidCancelSize);
        }
        let tick = usize::from(slot.tick);
        let side = self.side_mut(slot.side);
        let level = &mut side.levels[tick];
        let position = level.position(slot.seq);
        let remaining_minor = level.queue[position].remaining_minor;
        let cancelled_minor = size_minor.map_or(remaining_minor, |size| size.min(remaining_minor));
        level.total_minor -= cancelled_minor;
        if cancelled_minor < remaining_minor {
            level.queue[position].remaining_minor -= cancelled_minor;
        } else {
            level.queue.remove(position);
            if level.queue.is_empty() {
                side.level_emptied(tick);
            }
            self.index.remove(&order_id);
        }
        Ok(cancelled_minor)
    }

    /// Changes what happens to a resting order at suspension (LAPSE or PERSIST); it keeps its
    /// place in the queue. Returns the persistence it had.
    pub fn set_persistence(
        &mut self,
        order_id: OrderId,
        persistence: Persistence,
    ) -> Result<Persistence, BookError> {
        let slot = *self.index.get(&order_id).ok_or(BookError::UnknownOrder(order_id))?;
        let side = self.side_mut(slot.side);
        let level = &mut side.levels[usize::from(slot.tick)];
        let position = level.position(slot.seq);
        let before = level.queue[position].persistence;
        level.queue[position].persistence = persistence;
        Ok(before)
    }

    /// Removes every LAPSE order (the market was suspended or turned in-play) and keeps the
    /// PERSIST ones. Returns the lapsed orders, oldest first.
    pub fn lapse_all(&mut self) -> Vec<RestingOrder> {
        self.remove_where(|order| order.persistence == Persistence::Lapse)
    }

    /// Removes every resting order (the market closed). Returns them, oldest first.
    pub fn cancel_all(&mut self) -> Vec<RestingOrder> {
        self.remove_where(|_| true)
    }

    /// The resting order `order_id`, if it is in the book.
    pub fn order(&self, order_id: OrderId) -> Option<RestingOrder> {
        let slot = self.index.get(&order_id)?;
        let tick = usize::from(slot.tick);
        let level = &self.side(slot.side).levels[tick];
        let queued = level.queue[level.position(slot.seq)];
        Some(queued.resting(self.runner, slot.side, tick))
    }

    /// Every resting order, oldest first: what to store, and what [`OrderBook::rebuild`] takes
    /// back.
    pub fn iter_resting(&self) -> impl Iterator<Item = RestingOrder> + '_ {
        let mut orders: Vec<(u64, RestingOrder)> = Vec::with_capacity(self.len());
        for side in [&self.backs, &self.lays] {
            for tick in side.occupied.iter() {
                orders.extend(
                    side.levels[tick]
                        .queue
                        .iter()
                        .map(|queued| (queued.seq, queued.resting(self.runner, side.side, tick))),
                );
            }
        }
        orders.sort_unstable_by_key(|(seq, _)| *seq);
        orders.into_iter().map(|(_, order)| order)
    }

    /// The resting orders of `user_id`, by side and price (BACKs first, each side lowest price
    /// first), oldest first within a price: what the full ladder shows as the caller's own. A
    /// walk over every resting order of the book, at most [`MAX_RESTING_ORDERS_PER_BOOK`].
    pub fn orders_of(&self, user_id: UserId) -> Vec<RestingOrder> {
        let mut orders = Vec::new();
        for side in [&self.backs, &self.lays] {
            for tick in side.occupied.iter() {
                orders.extend(
                    side.levels[tick]
                        .queue
                        .iter()
                        .filter(|queued| queued.user_id == user_id)
                        .map(|queued| queued.resting(self.runner, side.side, tick)),
                );
            }
        }
        orders
    }

    /// The best price of the resting orders of `resting_side`: the lowest BACK, the highest
    /// LAY.
    pub fn best_price(&self, resting_side: Side) -> Option<Price> {
        self.side(resting_side).best_tick.map(price_at)
    }

    /// Up to `n` price levels of resting orders of `resting_side`, best first, with the total
    /// stake at each: BACKs lowest first, LAYs highest first.
    pub fn best_levels(&self, resting_side: Side, n: usize) -> Vec<(Price, i64)> {
        let side = self.side(resting_side);
        let mut levels = Vec::with_capacity(n.min(TICK_COUNT));
        let mut next = side.best_tick;
        while let Some(tick) = next.filter(|_| levels.len() < n) {
            levels.push((price_at(tick), side.levels[tick].total_minor));
            next = side.next_worse(tick);
        }
        levels
    }

    /// The page's blue "Back" column: money available to back, i.e. resting LAYs, highest
    /// price first.
    pub fn available_to_back(&self, n: usize) -> Vec<(Price, i64)> {
        self.best_levels(Side::Lay, n)
    }

    /// The page's pink "Lay" column: money available to lay, i.e. resting BACKs, lowest
    /// price first.
    pub fn available_to_lay(&self, n: usize) -> Vec<(Price, i64)> {
        self.best_levels(Side::Back, n)
    }

    fn check_new(&self, order: &NewOrder) -> Result<(), BookError> {
        if !(1..=MAX_STAKE_MINOR).contains(&order.size_minor) {
            return Err(BookError::InvalidSize { size_minor: order.size_minor });
        }
        if self.index.len() >= MAX_RESTING_ORDERS_PER_BOOK {
            return Err(BookError::BookFull { limit: MAX_RESTING_ORDERS_PER_BOOK });
        }
        if self.index.contains_key(&order.order_id) {
            return Err(BookError::DuplicateOrder(order.order_id));
        }
        Ok(())
    }

    fn rest(&mut self, order: &NewOrder, tick: usize, remaining_minor: i64) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.side_mut(order.side).push(
            tick,
            Queued {
                seq,
                order_id: order.order_id,
                user_id: order.user_id,
                remaining_minor,
                persistence: order.persistence,
            },
        );
        let tick = u16::try_from(tick).expect("a tick fits in u16");
        self.index.insert(order.order_id, Slot { side: order.side, tick, seq });
    }

    fn remove_where(&mut self, mut remove: impl FnMut(&Queued) -> bool) -> Vec<RestingOrder> {
        let mut removed: Vec<(u64, RestingOrder)> = Vec::new();
        for side in [&mut self.backs, &mut self.lays] {
            let occupied: Vec<usize> = side.occupied.iter().collect();
            for tick in occupied {
                let (runner, which) = (self.runner, side.side);
                let level = &mut side.levels[tick];
                level.queue.retain(|queued| {
                    if !remove(queued) {
                        return true;
                    }
                    level.total_minor -= queued.remaining_minor;
                    removed.push((queued.seq, queued.resting(runner, which, tick)));
                    false
                });
                if level.queue.is_empty() {
                    side.level_emptied(tick);
                }
            }
        }
        for (_, order) in &removed {
            self.index.remove(&order.order_id);
        }
        removed.sort_unstable_by_key(|(seq, _)| *seq);
        removed.into_iter().map(|(_, order)| order).collect()
    }

    fn side(&self, side: Side) -> &BookSide {
        match side {
            Side::Back => &self.backs,
            Side::Lay => &self.lays,
        }
    }

    fn side_mut(&mut self, side: Side) -> &mut BookSide {
        match side {
            Side::Back => &mut self.backs,
            Side::Lay => &mut self.lays,
        }
    }

    /// Every resting LAY is below every resting BACK; otherwise they would have matched.
    fn is_uncrossed(&self) -> bool {
        match (self.backs.best_tick, self.lays.best_tick) {
            (Some(back), Some(lay)) => lay < back,
            _ => true,
        }
    }

    /// Whether a resting LAY is at or above a resting BACK: never, by construction (matching
    /// and [`OrderBook::restore`] both refuse it); for callers that assert it.
    pub fn is_crossed(&self) -> bool {
        !self.is_uncrossed()
    }
}

impl fmt::Debug for OrderBook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OrderBook")
            .field("runner", &self.runner)
            .field("available_to_back", &self.available_to_back(3))
            .field("available_to_lay", &self.available_to_lay(3))
            .field("resting_orders", &self.len())
            .finish()
    }
}

fn price_at(tick: usize) -> Price {
    Price::from_tick(tick).expect("a level's tick is on the ladder")
}

/// Where a resting order is: the index entry for cancelling without a scan.
#[derive(Copy, Clone, Debug)]
struct Slot {
    side: Side,
    tick: u16,
    seq: u64,
}

/// A resting order as its level holds it.
#[derive(Copy, Clone, Debug)]
struct Queued {
    seq: u64,
    order_id: OrderId,
    user_id: UserId,
    remaining_minor: i64,
    persistence: Persistence,
}

impl Queued {
    fn resting(&self, runner: RunnerId, side: Side, tick: usize) -> RestingOrder {
        RestingOrder {
            runner,
            order_id: self.order_id,
            user_id: self.user_id,
            side,
            price: price_at(tick),
            remaining_minor: self.remaining_minor,
            persistence: self.persistence,
        }
    }
}

/// One price: its orders oldest first (their `seq`s ascend, so a slot is found by binary
/// search) and their total.
#[derive(Clone, Debug, Default)]
struct Level {
    queue: VecDeque<Queued>,
    total_minor: i64,
}

impl Level {
    fn position(&self, seq: u64) -> usize {
        self.queue
            .binary_search_by_key(&seq, |queued| queued.seq)
            .expect("the index and the levels agree")
    }
}

/// The resting orders of one side, by tick.
#[derive(Clone, Debug)]
struct BookSide {
    side: Side,
    levels: Vec<Level>,
    occupied: TickSet,
    /// The lowest BACK tick or the highest LAY tick: the first a new order meets.
    best_tick: Option<usize>,
}

impl BookSide {
    fn new(side: Side) -> BookSide {
        BookSide {
            side,
            levels: vec![Level::default(); TICK_COUNT],
            occupied: TickSet::default(),
            best_tick: None,
        }
    }

    /// Whether a new order of the other side with limit `limit_tick` takes orders resting
    /// here at `tick`.
    fn is_matched_by(&self, tick: usize, limit_tick: usize) -> bool {
        match self.side {
            Side::Lay => tick >= limit_tick,
            Side::Back => tick <= limit_tick,
        }
    }

    /// The next occupied tick after `tick`, going from better to worse.
    fn next_worse(&self, tick: usize) -> Option<usize> {
        match self.side {
            Side::Back => self.occupied.lowest_at_or_above(tick + 1),
            Side::Lay => {
                tick.checked_sub(1).and_then(|below| self.occupied.highest_at_or_below(below))
            }
        }
    }

    fn push(&mut self, tick: usize, queued: Queued) {
        let level = &mut self.levels[tick];
        level.total_minor += queued.remaining_minor;
        level.queue.push_back(queued);
        self.occupied.insert(tick);
        let is_better = match (self.best_tick, self.side) {
            (None, _) => true,
            (Some(best), Side::Back) => tick < best,
            (Some(best), Side::Lay) => tick > best,
        };
        if is_better {
            self.best_tick = Some(tick);
        }
    }

    fn level_emptied(&mut self, tick: usize) {
        debug_assert_eq!(self.levels[tick].total_minor, 0);
        self.occupied.remove(tick);
        if self.best_tick == Some(tick) {
            self.best_tick = match self.side {
                Side::Back => self.occupied.lowest_at_or_above(tick),
                Side::Lay => self.occupied.highest_at_or_below(tick),
            };
        }
    }
}

/// Hashes an [`OrderId`] with one multiply. Order ids come from the store's sequence, never
/// from a client, so there is no flooding to defend against, and a multiply by an odd
/// constant spreads consecutive ids evenly over the table.
#[derive(Copy, Clone, Debug, Default)]
struct OrderIdHasher(u64);

impl Hasher for OrderIdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ANN: UserId = UserId(1);
    const BOB: UserId = UserId(2);
    const CAT: UserId = UserId(3);

    fn price(text: &str) -> Price {
        text.parse().unwrap()
    }

    fn book() -> OrderBook {
        OrderBook::new(RunnerId(9))
    }

    fn order(id: u64, user: UserId, side: Side, at: &str, size_minor: i64) -> NewOrder {
        NewOrder::new(OrderId(id), user, side, price(at), size_minor)
    }

    /// Each fill as (maker id, price in hundredths, size, backer profit).
    fn fills_of(outcome: &PlaceOutcome) -> Vec<(u64, u32, i64, i64)> {
        outcome
            .fills
            .iter()
            .map(|fill| {
                let at = fill.price.hundredths();
                (fill.maker.0, at, fill.size_minor, fill.backer_profit_minor)
            })
            .collect()
    }

    #[test]
    fn makers_met_are_the_makers_placing_would_fill() {
        let mut book = book();
        for (id, user, side, at, size) in [
            (1, ANN, Side::Lay, "2.50", 30_00),
            (2, BOB, Side::Lay, "2.52", 20_00),
            (3, CAT, Side::Lay, "2.50", 40_00),
            (4, ANN, Side::Lay, "2.40", 50_00),
            (5, BOB, Side::Back, "3.00", 10_00),
        ] {
            book.place(&order(id, user, side, at, size)).unwrap();
        }
        for (at, size) in [("2.50", 1_00), ("2.50", 55_00), ("2.50", 500_00), ("2.60", 10_00)] {
            let met = book.makers_met(Side::Back, price(at), size);
            let filled = book.clone().place(&order(9, CAT, Side::Back, at, size)).unwrap();
            let makers: Vec<UserId> = filled.fills.iter().map(|f| f.maker_user).collect();
            assert_eq!(met, makers, "a back of {size} at {at}");
        }
        assert_eq!(book.makers_met(Side::Lay, price("3.00"), 5_00), vec![BOB]);
        assert!(book.makers_met(Side::Lay, price("2.90"), 5_00).is_empty());
    }

    #[test]
    fn back_meets_lay_at_one_price() {
        let mut book = book();
        let rest = book.place(&order(1, ANN, Side::Lay, "2.50", 100_00)).unwrap();
        assert_eq!(rest, PlaceOutcome { fills: vec![], resting_minor: 100_00 });
        let outcome = book.place(&order(2, BOB, Side::Back, "2.50", 100_00)).unwrap();
        assert_eq!(outcome.resting_minor, 0);
        assert_eq!(
            outcome.fills,
            vec![Fill {
                runner: RunnerId(9),
                taker: OrderId(2),
                maker: OrderId(1),
                taker_user: BOB,
                maker_user: ANN,
                taker_side: Side::Back,
                price: price("2.50"),
                size_minor: 100_00,
                backer_profit_minor: 150_00,
                maker_remaining_minor: 0,
            }]
        );
        let fill = outcome.fills[0];
        assert_eq!((fill.back_user(), fill.lay_user()), (BOB, ANN));
        assert_eq!((fill.back_order(), fill.lay_order()), (OrderId(2), OrderId(1)));
        let [(backer, back), (layer, lay)] = fill.bets();
        assert_eq!((backer, back.pnl_minor(true), back.pnl_minor(false)), (BOB, 150_00, -100_00));
        assert_eq!((layer, lay.pnl_minor(true), lay.pnl_minor(false)), (ANN, -150_00, 100_00));
        assert!(book.is_empty());
    }

    #[test]
    fn price_improvement_goes_to_the_newcomer() {
        // A resting lay at 3.00; a new back at 2.50 is filled at 3.00.
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "3.00", 50_00)).unwrap();
        let outcome = book.place(&order(2, BOB, Side::Back, "2.50", 50_00)).unwrap();
        assert_eq!(fills_of(&outcome), vec![(1, 300, 50_00, 100_00)]);

        // A resting back at 2.00; a new lay at 2.50 is filled at 2.00.
        book.place(&order(3, ANN, Side::Back, "2.00", 10_00)).unwrap();
        let outcome = book.place(&order(4, BOB, Side::Lay, "2.50", 10_00)).unwrap();
        assert_eq!(fills_of(&outcome), vec![(3, 200, 10_00, 10_00)]);
    }

    #[test]
    fn orders_that_do_not_cross_rest() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "2.00", 10_00)).unwrap();
        // A back at 2.02 wants more than the 2.00 on offer.
        let outcome = book.place(&order(2, BOB, Side::Back, "2.02", 10_00)).unwrap();
        assert_eq!(outcome.fills, vec![]);
        assert_eq!(book.available_to_back(3), vec![(price("2.00"), 10_00)]);
        assert_eq!(book.available_to_lay(3), vec![(price("2.02"), 10_00)]);
        assert_eq!(book.best_price(Side::Lay), Some(price("2.00")));
        assert_eq!(book.best_price(Side::Back), Some(price("2.02")));
    }

    #[test]
    fn partial_fill_leaves_a_rest() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "2.00", 30_00)).unwrap();
        let outcome = book.place(&order(2, BOB, Side::Back, "2.00", 100_00)).unwrap();
        assert_eq!(fills_of(&outcome), vec![(1, 200, 30_00, 30_00)]);
        assert_eq!(outcome.resting_minor, 70_00);
        assert_eq!(outcome.matched_minor(), 30_00);
        assert_eq!(book.available_to_back(3), vec![]);
        assert_eq!(book.available_to_lay(3), vec![(price("2.00"), 70_00)]);
        assert_eq!(book.order(OrderId(2)).map(|o| o.remaining_minor), Some(70_00));

        // The maker side can be partly filled too.
        let outcome = book.place(&order(3, CAT, Side::Lay, "2.00", 20_00)).unwrap();
        assert_eq!(fills_of(&outcome), vec![(2, 200, 20_00, 20_00)]);
        assert_eq!(outcome.fills[0].maker_remaining_minor, 50_00);
        assert_eq!(book.available_to_lay(3), vec![(price("2.00"), 50_00)]);
    }

    #[test]
    fn best_price_first_then_oldest_first() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "2.00", 10_00)).unwrap();
        book.place(&order(2, BOB, Side::Lay, "2.10", 10_00)).unwrap();
        book.place(&order(3, CAT, Side::Lay, "2.10", 10_00)).unwrap();
        book.place(&order(4, ANN, Side::Lay, "2.10", 10_00)).unwrap();
        assert_eq!(book.available_to_back(3), vec![(price("2.10"), 30_00), (price("2.00"), 10_00)]);
        // FIFO at 2.10: 2, then 3, then part of 4; 2.00 is never reached.
        let outcome = book.place(&order(5, BOB, Side::Back, "2.00", 25_00)).unwrap();
        assert_eq!(
            fills_of(&outcome),
            vec![(2, 210, 10_00, 11_00), (3, 210, 10_00, 11_00), (4, 210, 5_00, 5_50)]
        );
        // Lays at 2.00 then more at 1.50: a back walks down through both.
        book.place(&order(6, CAT, Side::Lay, "1.50", 10_00)).unwrap();
        let outcome = book.place(&order(7, BOB, Side::Back, "1.01", 100_00)).unwrap();
        assert_eq!(
            fills_of(&outcome),
            vec![(4, 210, 5_00, 5_50), (1, 200, 10_00, 10_00), (6, 150, 10_00, 5_00)]
        );
        assert_eq!(outcome.resting_minor, 75_00);
        assert_eq!(book.available_to_lay(3), vec![(price("1.01"), 75_00)]);
        assert_eq!(book.available_to_back(3), vec![]);
    }

    #[test]
    fn self_matching_is_allowed_and_is_a_wash() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Back, "3.00", 10_00)).unwrap();
        let outcome = book.place(&order(2, ANN, Side::Lay, "3.00", 10_00)).unwrap();
        assert_eq!(fills_of(&outcome), vec![(1, 300, 10_00, 20_00)]);
        let [(backer, back), (layer, lay)] = outcome.fills[0].bets();
        assert_eq!(backer, layer);
        for happens in [true, false] {
            assert_eq!(back.pnl_minor(happens) + lay.pnl_minor(happens), 0);
        }
    }

    #[test]
    fn cancel_in_part_keeps_time_priority() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "2.00", 10_00)).unwrap();
        book.place(&order(2, BOB, Side::Lay, "2.00", 10_00)).unwrap();
        assert_eq!(book.cancel(OrderId(1), Some(4_00)), Ok(4_00));
        assert_eq!(book.available_to_back(1), vec![(price("2.00"), 16_00)]);
        let outcome = book.place(&order(3, CAT, Side::Back, "2.00", 7_00)).unwrap();
        assert_eq!(fills_of(&outcome), vec![(1, 200, 6_00, 6_00), (2, 200, 1_00, 1_00)]);
        // More than remains cancels what remains.
        assert_eq!(book.cancel(OrderId(2), Some(1_000_00)), Ok(9_00));
        assert_eq!(book.cancel(OrderId(2), None), Err(BookError::UnknownOrder(OrderId(2))));
        assert_eq!(book.cancel(OrderId(1), None), Err(BookError::UnknownOrder(OrderId(1))));
        assert!(book.is_empty());
        assert_eq!(book.available_to_back(3), vec![]);
    }

    #[test]
    fn cancel_in_whole_from_the_middle_of_a_queue() {
        let mut book = book();
        for id in 1..=3 {
            book.place(&order(id, ANN, Side::Back, "5.00", 10_00)).unwrap();
        }
        assert_eq!(book.cancel(OrderId(2), Some(0)), Err(BookError::InvalidCancelSize));
        assert_eq!(book.cancel(OrderId(2), None), Ok(10_00));
        let ids: Vec<u64> = book.iter_resting().map(|o| o.order_id.0).collect();
        assert_eq!(ids, vec![1, 3]);
        assert_eq!(book.available_to_lay(3), vec![(price("5.00"), 20_00)]);
    }

    #[test]
    fn persistence_changes_in_place_and_decides_the_next_lapse() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Back, "3.00", 10_00)).unwrap();
        book.place(&order(2, BOB, Side::Back, "3.00", 20_00)).unwrap();
        assert_eq!(book.set_persistence(OrderId(1), Persistence::Persist), Ok(Persistence::Lapse));
        assert_eq!(
            book.set_persistence(OrderId(9), Persistence::Persist),
            Err(BookError::UnknownOrder(OrderId(9)))
        );
        let lapsed: Vec<u64> = book.lapse_all().iter().map(|o| o.order_id.0).collect();
        assert_eq!(lapsed, vec![2]);
        assert_eq!(book.order(OrderId(1)).map(|o| o.persistence), Some(Persistence::Persist));
    }

    #[test]
    fn lapse_keeps_persist() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Back, "3.00", 10_00)).unwrap();
        book.place(
            &order(2, BOB, Side::Back, "3.00", 20_00).with_persistence(Persistence::Persist),
        )
        .unwrap();
        book.place(&order(3, CAT, Side::Lay, "2.00", 30_00)).unwrap();
        book.place(&order(4, CAT, Side::Lay, "1.50", 40_00).with_persistence(Persistence::Persist))
            .unwrap();
        let lapsed = book.lapse_all();
        let lapsed: Vec<(u64, i64)> =
            lapsed.iter().map(|o| (o.order_id.0, o.remaining_minor)).collect();
        assert_eq!(lapsed, vec![(1, 10_00), (3, 30_00)]);
        assert_eq!(book.available_to_lay(3), vec![(price("3.00"), 20_00)]);
        assert_eq!(book.available_to_back(3), vec![(price("1.50"), 40_00)]);
        assert_eq!(book.len(), 2);
        assert_eq!(book.cancel(OrderId(1), None), Err(BookError::UnknownOrder(OrderId(1))));
        let all = book.cancel_all();
        assert_eq!(all.iter().map(|o| o.order_id.0).collect::<Vec<_>>(), vec![2, 4]);
        assert!(book.is_empty());
        assert_eq!(book.best_price(Side::Back), None);
        assert_eq!(book.best_price(Side::Lay), None);
    }

    #[test]
    fn best_levels_walk_from_the_best_price() {
        let mut book = book();
        for (id, at) in [(1, "1.50"), (2, "1.80"), (3, "1.70"), (4, "1.60"), (5, "1.80")] {
            book.place(&order(id, ANN, Side::Lay, at, 1_00)).unwrap();
        }
        for (id, at) in [(6, "3.00"), (7, "2.50"), (8, "900"), (9, "2.50")] {
            book.place(&order(id, BOB, Side::Back, at, 2_00)).unwrap();
        }
        assert_eq!(
            book.available_to_back(3),
            vec![(price("1.80"), 2_00), (price("1.70"), 1_00), (price("1.60"), 1_00)]
        );
        assert_eq!(
            book.available_to_lay(3),
            vec![(price("2.50"), 4_00), (price("3.00"), 2_00), (price("900"), 2_00)]
        );
        assert_eq!(book.best_levels(Side::Lay, 10).len(), 4);
        assert_eq!(book.best_levels(Side::Lay, 0), vec![]);
    }

    #[test]
    fn refuses_bad_orders_without_changing_anything() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "2.00", 10_00)).unwrap();
        for size in [0, -5, MAX_STAKE_MINOR + 1] {
            assert_eq!(
                book.place(&order(2, BOB, Side::Back, "2.00", size)),
                Err(BookError::InvalidSize { size_minor: size })
            );
        }
        assert_eq!(
            book.place(&order(1, BOB, Side::Back, "2.00", 5_00)),
            Err(BookError::DuplicateOrder(OrderId(1)))
        );
        assert_eq!(book.available_to_back(3), vec![(price("2.00"), 10_00)]);
    }

    #[test]
    fn the_book_is_bounded() {
        let mut book = book();
        for id in 0..MAX_RESTING_ORDERS_PER_BOOK as u64 {
            book.place(&order(id, ANN, Side::Back, "1000", 1)).unwrap();
        }
        let full = BookError::BookFull { limit: MAX_RESTING_ORDERS_PER_BOOK };
        assert_eq!(book.place(&order(u64::MAX, BOB, Side::Lay, "1000", 1)), Err(full));
        assert_eq!(book.restore(&order(u64::MAX, BOB, Side::Back, "1000", 1)), Err(full));
        assert_eq!(
            full.to_string(),
            "this runner has too many unmatched bets (100000); please try again later"
        );
        // Cancelling makes room.
        book.cancel(OrderId(0), None).unwrap();
        book.place(&order(u64::MAX, BOB, Side::Lay, "1000", 1)).unwrap();
    }

    #[test]
    fn rebuild_keeps_time_priority() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "2.00", 10_00)).unwrap();
        book.place(&order(2, BOB, Side::Lay, "2.00", 10_00).with_persistence(Persistence::Persist))
            .unwrap();
        book.place(&order(3, CAT, Side::Back, "2.50", 10_00)).unwrap();
        book.place(&order(4, ANN, Side::Back, "2.00", 4_00)).unwrap(); // fills 4.00 of 1
        let stored: Vec<NewOrder> = book
            .iter_resting()
            .map(|o| NewOrder {
                order_id: o.order_id,
                user_id: o.user_id,
                side: o.side,
                price: o.price,
                size_minor: o.remaining_minor,
                persistence: o.persistence,
            })
            .collect();
        assert_eq!(
            stored.iter().map(|o| (o.order_id.0, o.size_minor)).collect::<Vec<_>>(),
            vec![(1, 6_00), (2, 10_00), (3, 10_00)]
        );
        let mut rebuilt = OrderBook::rebuild(RunnerId(9), stored.iter().copied()).unwrap();
        assert_eq!(
            rebuilt.iter_resting().collect::<Vec<_>>(),
            book.iter_resting().collect::<Vec<_>>()
        );
        // The same next order fills the same way in both.
        let next = order(5, CAT, Side::Back, "2.00", 8_00);
        assert_eq!(rebuilt.place(&next), book.place(&next));

        // A stored order that would cross is refused.
        let crossing = order(6, CAT, Side::Back, "2.00", 1_00);
        assert_eq!(rebuilt.restore(&crossing), Err(BookError::WouldCross(OrderId(6))));
        assert!(OrderBook::rebuild(RunnerId(9), [stored[0], stored[0]]).is_err());
    }

    #[test]
    fn orders_of_a_user_are_theirs_alone_by_side_and_price_with_what_is_left() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "2.50", 10_00)).unwrap();
        book.place(&order(2, BOB, Side::Lay, "2.50", 20_00)).unwrap();
        book.place(&order(3, ANN, Side::Lay, "2.40", 5_00)).unwrap();
        book.place(&order(4, ANN, Side::Back, "3.00", 7_00)).unwrap();
        book.place(&order(5, ANN, Side::Lay, "2.50", 1_00)).unwrap();
        // Cat's back takes 4.00 of Ann's 2.50 lay (the oldest at the best price).
        book.place(&order(6, CAT, Side::Back, "2.50", 4_00)).unwrap();
        let ann: Vec<(u64, Side, u32, i64)> = book
            .orders_of(ANN)
            .iter()
            .map(|o| (o.order_id.0, o.side, o.price.hundredths(), o.remaining_minor))
            .collect();
        assert_eq!(
            ann,
            vec![
                (4, Side::Back, 300, 7_00),
                (3, Side::Lay, 240, 5_00),
                (1, Side::Lay, 250, 6_00),
                (5, Side::Lay, 250, 1_00),
            ]
        );
        assert!(book.orders_of(ANN).iter().all(|o| o.user_id == ANN));
        assert_eq!(book.orders_of(BOB).len(), 1);
        assert!(book.orders_of(CAT).is_empty(), "Cat's back was filled whole");
    }

    #[test]
    fn debug_is_short() {
        let mut book = book();
        book.place(&order(1, ANN, Side::Lay, "2.00", 10_00)).unwrap();
        let text = format!("{book:?}");
        assert!(text.contains("resting_orders: 1"), "{text}");
    }
}
