//! The matching workload: a steady mix of resting places, cancels and crossing places on one
//! runner's [`OrderBook`], the same for the criterion bench and `matching_latency`.
//!
//! The book starts with [`RESTING_TARGET`] orders around evens, as a busy favourite looks:
//! LAYs on the ten ticks below 2.00 (1.90–1.99, offered "to back") and BACKs on the ten ticks
//! from 2.00 up (2.00–2.18, offered "to lay"), more of them near the touch. A resting place
//! always lands inside its side's band, so it never crosses; a crossing place is a BACK at
//! 1.01 or a LAY at 1000 ("any price") of 2.00 to 25.00, smaller than most resting orders, so
//! it takes part or all of the best one or two opposite orders, at their prices.
//!
//! Each step draws one operation: 20% crossing places, 40% resting places, 40% cancels of a
//! random resting order, except that a cancel becomes a resting place while the book is below
//! the target. That keeps the book at ~1,000 orders (crossings remove makers, so resting
//! places end up slightly above 40%); [`MatchingWorkload::counts`] says what was run.
//!
//! ```
//! use backlay_bench::matching::{MatchingWorkload, RESTING_TARGET};
//!
//! let mut workload = MatchingWorkload::new(7);
//! assert_eq!(workload.book_len(), RESTING_TARGET);
//! for _ in 0..10_000 {
//!     workload.step();
//! }
//! assert!(workload.book_len().abs_diff(RESTING_TARGET) < 100);
//! assert_eq!(workload.counts().total(), 10_000);
//! ```
//!
//! The driver's own bookkeeping (which orders rest, so that a cancel names a live one) is a
//! few vector operations per step and needs no hashing: order ids are recycled, so they stay
//! small and index a vector. [`MatchingWorkload::step`] includes it; the latency loop times
//! only the book call ([`MatchingWorkload::apply`]).

use backlay_core::exchange::{
    BookError, Fill, NewOrder, OrderBook, OrderId, RunnerId, Side, UserId,
};
use backlay_core::odds::Price;

/// How many orders the book holds at the start and is kept near.
pub const RESTING_TARGET: usize = 1_000;

/// The first BACK tick (2.00); LAYs rest on the ten ticks below it.
const MID_TICK: usize = 99;
/// How many ticks each side's resting band spans.
const BAND_TICKS: usize = 10;
/// Distinct users placing orders (only carried through to fills here).
const USERS: u64 = 100;
/// Resting sizes: 2.00 to 100.00 in whole units.
const MIN_SIZE_UNITS: u64 = 2;
const MAX_SIZE_UNITS: u64 = 100;
/// Crossing sizes: 2.00 to 25.00, smaller than what rests on average (takers nibble at the
/// touch), so that a crossing place mostly fills one maker in part and the mix that keeps the
/// book steady stays near 40/40/20.
const MAX_CROSSING_SIZE_UNITS: u64 = 25;
/// Marks an id that is not resting in `slot_of`.
const NOT_LIVE: u32 = u32::MAX;

/// The three kinds of operation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// A place that rests without matching.
    PlaceResting,
    /// A full cancel of a resting order.
    Cancel,
    /// A place that takes resting orders.
    PlaceCrossing,
}

impl Op {
    /// Every kind, in report order.
    pub const ALL: [Op; 3] = [Op::PlaceResting, Op::Cancel, Op::PlaceCrossing];

    /// Index into per-kind tables.
    pub const fn index(self) -> usize {
        match self {
            Op::PlaceResting => 0,
            Op::Cancel => 1,
            Op::PlaceCrossing => 2,
        }
    }

    /// The name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            Op::PlaceResting => "place (rests)",
            Op::Cancel => "cancel",
            Op::PlaceCrossing => "place (crosses, fills)",
        }
    }
}

/// One drawn operation, ready for the book.
#[derive(Copy, Clone, Debug)]
pub enum Action {
    /// Place this order.
    Place(NewOrder),
    /// Cancel the whole of this resting order.
    Cancel(OrderId),
}

/// How many operations of each kind ran, and the fills they made.
#[derive(Copy, Clone, Debug, Default)]
pub struct OpCounts {
    /// Per [`Op::index`].
    pub by_op: [u64; 3],
    /// Fills made by crossing places.
    pub fills: u64,
}

impl OpCounts {
    /// All operations.
    pub fn total(&self) -> u64 {
        self.by_op.iter().sum()
    }
}

/// A small, fast, seeded generator (xorshift64*): the workload must be the same run to run and
/// must not spend its time in a cryptographic generator.
#[derive(Clone, Debug)]
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (n is small, so the modulo bias is negligible here).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The book and what the driver knows about it. See the module documentation.
pub struct MatchingWorkload {
    book: OrderBook,
    /// Ids of the resting orders, in no order.
    live: Vec<u64>,
    /// Order id → its index in `live`, or [`NOT_LIVE`].
    slot_of: Vec<u32>,
    /// Ids of orders that left the book, for reuse.
    free_ids: Vec<u64>,
    rng: Rng,
    /// Reused for every place, so the book call allocates nothing.
    fills: Vec<Fill>,
    counts: OpCounts,
}

impl MatchingWorkload {
    /// A book of [`RESTING_TARGET`] resting orders, drawn from `seed`.
    pub fn new(seed: u64) -> MatchingWorkload {
        let mut workload = MatchingWorkload {
            book: OrderBook::new(RunnerId(1)),
            live: Vec::with_capacity(RESTING_TARGET * 2),
            slot_of: Vec::with_capacity(RESTING_TARGET * 2),
            free_ids: Vec::new(),
            rng: Rng::new(seed),
            fills: Vec::with_capacity(64),
            counts: OpCounts::default(),
        };
        while workload.live.len() < RESTING_TARGET {
            let action = workload.draw_place(false);
            let result = workload.apply(&action);
            workload.record(&action, result);
        }
        assert_eq!(workload.book.len(), RESTING_TARGET, "the initial orders all rest");
        workload
    }

    /// Orders resting in the book now.
    pub fn book_len(&self) -> usize {
        self.book.len()
    }

    /// What has run since [`MatchingWorkload::new`] (the initial orders not counted).
    pub fn counts(&self) -> OpCounts {
        self.counts
    }

    /// Draws, runs and records one operation.
    #[inline]
    pub fn step(&mut self) -> Op {
        let (op, action) = self.next_action();
        let result = self.apply(&action);
        self.record(&action, result);
        self.counts.by_op[op.index()] += 1;
        op
    }

    /// Draws the next operation without touching the book.
    #[inline]
    pub fn next_action(&mut self) -> (Op, Action) {
        let roll = self.rng.below(10);
        let op = match roll {
            0..=1 => Op::PlaceCrossing,
            2..=5 => Op::PlaceResting,
            _ if self.live.len() < RESTING_TARGET => Op::PlaceResting,
            _ => Op::Cancel,
        };
        let action = match op {
            Op::PlaceResting => self.draw_place(false),
            Op::PlaceCrossing => self.draw_place(true),
            Op::Cancel => {
                let index = self.rng.below(self.live.len() as u64) as usize;
                Action::Cancel(OrderId(self.live[index]))
            }
        };
        (op, action)
    }

    /// The book call alone: the place (fills into the reused buffer) or the cancel. Returns
    /// the size left resting (place) or cancelled (cancel).
    #[inline]
    pub fn apply(&mut self, action: &Action) -> i64 {
        let result: Result<i64, BookError> = match action {
            Action::Place(order) => self.book.place_into(order, &mut self.fills),
            Action::Cancel(order_id) => self.book.cancel(*order_id, None),
        };
        result.unwrap_or_else(|err| {
            panic!("the workload only makes valid operations, but the book said: {err}")
        })
    }

    /// Brings the driver's view in line with what [`MatchingWorkload::apply`] did, and counts
    /// the fills. Call it once after each `apply`, before the next `next_action`.
    #[inline]
    pub fn record(&mut self, action: &Action, result: i64) {
        match action {
            Action::Place(order) => {
                self.counts.fills += self.fills.len() as u64;
                for index in 0..self.fills.len() {
                    let fill = self.fills[index];
                    if fill.maker_remaining_minor == 0 {
                        self.leave(fill.maker.0);
                    }
                }
                self.fills.clear();
                if result > 0 {
                    self.join(order.order_id.0);
                } else {
                    self.free_ids.push(order.order_id.0);
                }
            }
            Action::Cancel(order_id) => self.leave(order_id.0),
        }
    }

    fn draw_place(&mut self, crossing: bool) -> Action {
        let side = if self.rng.below(2) == 0 { Side::Back } else { Side::Lay };
        let tick = if crossing {
            // Any price: takes the best opposite orders, wherever they are.
            match side {
                Side::Back => 0,
                Side::Lay => backlay_core::odds::TICK_COUNT - 1,
            }
        } else {
            // Squared uniform: offsets near the touch are the most common.
            let uniform = self.rng.below(1_000) as usize;
            let offset = uniform * uniform * BAND_TICKS / 1_000_000;
            match side {
                Side::Back => MID_TICK + offset,
                Side::Lay => MID_TICK - 1 - offset,
            }
        };
        let price = Price::from_tick(tick).expect("the bands are on the ladder");
        let max_units = if crossing { MAX_CROSSING_SIZE_UNITS } else { MAX_SIZE_UNITS };
        let size_minor =
            ((MIN_SIZE_UNITS + self.rng.below(max_units - MIN_SIZE_UNITS + 1)) * 100) as i64;
        let user = UserId(self.rng.below(USERS) as i64);
        let order_id = OrderId(self.new_id());
        Action::Place(NewOrder::new(order_id, user, side, price, size_minor))
    }

    fn new_id(&mut self) -> u64 {
        if let Some(id) = self.free_ids.pop() {
            return id;
        }
        let id = self.slot_of.len() as u64;
        self.slot_of.push(NOT_LIVE);
        id
    }

    fn join(&mut self, id: u64) {
        debug_assert_eq!(self.slot_of[id as usize], NOT_LIVE);
        self.slot_of[id as usize] = self.live.len() as u32;
        self.live.push(id);
    }

    fn leave(&mut self, id: u64) {
        let index = self.slot_of[id as usize] as usize;
        debug_assert_ne!(index, NOT_LIVE as usize, "order {id} is not resting");
        self.live.swap_remove(index);
        if let Some(&moved) = self.live.get(index) {
            self.slot_of[moved as usize] = index as u32;
        }
        self.slot_of[id as usize] = NOT_LIVE;
        self.free_ids.push(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_driver_always_agrees_with_the_book() {
        let mut workload = MatchingWorkload::new(42);
        for _ in 0..200_000 {
            let (op, action) = workload.next_action();
            let result = workload.apply(&action);
            match (op, action) {
                (Op::PlaceResting, Action::Place(order)) => {
                    assert!(
                        workload.fills.is_empty() && result == order.size_minor,
                        "a resting place rests whole"
                    );
                }
                (Op::PlaceCrossing, Action::Place(_)) => {
                    assert!(
                        !workload.fills.is_empty() && result == 0,
                        "a crossing place fills whole"
                    );
                }
                (Op::Cancel, Action::Cancel(_)) => assert!(result > 0),
                other => panic!("mismatched draw {other:?}"),
            }
            workload.record(&action, result);
            workload.counts.by_op[op.index()] += 1;
            assert_eq!(workload.live.len(), workload.book.len());
        }
        for &id in &workload.live {
            assert!(workload.book.order(OrderId(id)).is_some(), "order {id} should rest");
        }
        let counts = workload.counts();
        let share = |op: Op| counts.by_op[op.index()] as f64 / counts.total() as f64;
        assert!((0.18..0.22).contains(&share(Op::PlaceCrossing)), "{counts:?}");
        assert!((0.35..0.50).contains(&share(Op::PlaceResting)), "{counts:?}");
        assert!((0.30..0.45).contains(&share(Op::Cancel)), "{counts:?}");
        assert!(
            counts.fills >= counts.by_op[Op::PlaceCrossing.index()],
            "every crossing place fills"
        );
    }
}
