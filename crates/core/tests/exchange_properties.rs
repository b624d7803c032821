//! Property tests of the exchange through the public API.
//!
//! The main one drives random sequences of place / house bet / cancel / suspend / reopen /
//! settle / void over four markets (one-winner and place exchange markets, a bookmaker and a
//! fancy market) among six users, on a simulated ledger where a bet is accepted only if the
//! user's new total exposure is within their balance. Beside the real [`Market`]s it keeps
//! its own record of open orders and matched bets, matches each new order again with a
//! naive reference matcher, and computes exposure by brute force over every outcome. After
//! every step: money is conserved to the minor unit, every exposure equals the brute-force
//! worst case, no available balance is below zero, the books hold exactly the orders the
//! record says, and a settled market refuses a second settle without moving money.

use std::collections::BTreeMap;

use backlay_core::exchange::{
    exposure_minor, Bet, Market, MarketError, MarketKind, MarketResult, MarketSpec, MarketStatus,
    NewOrder, OrderId, Persistence, RunnerId, Selection, Side, UserId,
};
use backlay_core::odds::{Price, TICK_COUNT};
use proptest::prelude::*;

const USERS: usize = 6;
const SLOTS: usize = 4;
const MAX_TEST_LINE: u32 = 12;

/// The four markets, by slot: what each is and its runners.
fn spec_of(slot: usize, commission_bp: u32) -> MarketSpec {
    let runners = |n: i64| (1..=n).map(RunnerId).collect::<Vec<_>>();
    match slot {
        0 => MarketSpec::new(MarketKind::OneWinner, runners(3), commission_bp),
        1 => MarketSpec::new(MarketKind::Place { winners: 2 }, runners(4), commission_bp),
        2 => MarketSpec::new(MarketKind::Bookmaker, runners(3), commission_bp),
        _ => MarketSpec::new(MarketKind::Fancy, vec![], commission_bp),
    }
    .unwrap()
}

#[derive(Clone, Debug)]
enum Step {
    /// An exchange order on slot 0 or 1. `all_in`: stake the most the funds check allows
    /// (at most `size_minor × 10`), which leaves the user at the edge of their balance.
    Place {
        slot: usize,
        user: usize,
        runner: usize,
        side: Side,
        tick: usize,
        size_minor: i64,
        persist: bool,
        all_in: bool,
    },
    /// A house bet on slot 2 (bookmaker) or 3 (fancy).
    HouseBet {
        slot: usize,
        user: usize,
        runner: usize,
        side: Side,
        line: u32,
        rate: u32,
        stake_minor: i64,
    },
    /// Cancel one open order, in part or whole.
    Cancel {
        pick: usize,
        size_minor: Option<i64>,
    },
    Suspend {
        slot: usize,
    },
    Reopen {
        slot: usize,
    },
    /// Declare a result chosen by `pick`.
    Settle {
        slot: usize,
        pick: u32,
    },
    Void {
        slot: usize,
    },
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Back), Just(Side::Lay)]
}

fn step() -> impl Strategy<Value = Step> {
    // Mostly prices near 2.0 so that orders cross often; sometimes anywhere on the ladder.
    let tick = prop_oneof![9 => 98usize..=102, 1 => 0..TICK_COUNT];
    // Mostly the first runner, so that its book fills up and orders meet.
    let runner = prop_oneof![3 => Just(0usize), 1 => 0..4usize];
    prop_oneof![
        16 => (0..2usize, 0..USERS, runner, side(), tick, 1..=4_000i64, any::<bool>(), prop::bool::weighted(0.25))
            .prop_map(|(slot, user, runner, side, tick, size_minor, persist, all_in)| Step::Place {
                slot, user, runner, side, tick, size_minor, persist, all_in,
            }),
        4 => (2..4usize, 0..USERS, 0..3usize, side(), 0..=MAX_TEST_LINE, 1..=250u32, 1..=4_000i64)
            .prop_map(|(slot, user, runner, side, line, rate, stake_minor)| Step::HouseBet {
                slot, user, runner, side, line, rate, stake_minor,
            }),
        3 => (any::<usize>(), proptest::option::of(1..=3_000i64))
            .prop_map(|(pick, size_minor)| Step::Cancel { pick, size_minor }),
        1 => (0..SLOTS).prop_map(|slot| Step::Suspend { slot }),
        2 => (0..SLOTS).prop_map(|slot| Step::Reopen { slot }),
        1 => (0..SLOTS, any::<u32>()).prop_map(|(slot, pick)| Step::Settle { slot, pick }),
        1 => (0..SLOTS).prop_map(|slot| Step::Void { slot }),
    ]
}

/// An open order as the test records it.
#[derive(Clone, Debug)]
struct OpenOrder {
    slot: usize,
    runner: RunnerId,
    order_id: OrderId,
    user: UserId,
    side: Side,
    price: Price,
    remaining_minor: i64,
    persistence: Persistence,
}

impl OpenOrder {
    fn as_bet(&self) -> Bet {
        let bet = Bet::exchange(self.runner, self.side, self.price, self.remaining_minor).unwrap();
        assert_eq!(bet.profit_minor(), floor_profit(self.remaining_minor, self.price));
        bet
    }
}

/// The fill rule, restated: `⌊size × (price − 1)⌋`.
fn floor_profit(size_minor: i64, price: Price) -> i64 {
    size_minor * (i64::from(price.hundredths()) - 100) / 100
}

/// A bet's P&L, restated from the rules rather than taken from the crate.
fn pnl(bet: &Bet, happens: bool) -> i64 {
    match (bet.side(), happens) {
        (Side::Back, true) => bet.profit_minor(),
        (Side::Back, false) => -bet.stake_minor(),
        (Side::Lay, true) => -bet.profit_minor(),
        (Side::Lay, false) => bet.stake_minor(),
    }
}

/// Whether `selection` happens under `result` (not void), restated.
fn happens(result: &MarketResult, selection: Selection) -> bool {
    match (result, selection) {
        (MarketResult::Winner(w), Selection::Runner(r)) => *w == r,
        (MarketResult::Placed(set), Selection::Runner(r)) => set.contains(&r),
        (MarketResult::Fancy(x), Selection::FancyLine(line)) => *x >= line,
        _ => false,
    }
}

/// Every outcome of a market, as results: every winner; every set of placed runners (of any
/// size, see `brute_exposure`); every fancy result up to one past the highest line.
fn outcomes(
    spec: &MarketSpec,
    bets: &[&Bet],
    placed_sizes: &dyn Fn(usize) -> bool,
) -> Vec<MarketResult> {
    let runners = spec.runners();
    match spec.kind() {
        MarketKind::OneWinner | MarketKind::Bookmaker => {
            runners.iter().map(|r| MarketResult::Winner(*r)).collect()
        }
        MarketKind::Place { .. } => (0u32..1 << runners.len())
            .filter(|mask| placed_sizes(mask.count_ones() as usize))
            .map(|mask| {
                MarketResult::Placed(
                    runners
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, r)| *r)
                        .collect(),
                )
            })
            .collect(),
        MarketKind::Fancy => {
            let max_line = bets
                .iter()
                .filter_map(|bet| match bet.selection() {
                    Selection::FancyLine(line) => Some(line),
                    Selection::Runner(_) => None,
                })
                .max()
                .unwrap_or(0);
            (0..=max_line + 1).map(MarketResult::Fancy).collect()
        }
    }
}

/// `max(0, −min_o [pnl(o) + Σ_u min(0, pnl_u(o))])` by enumeration.
fn worst_case(
    spec: &MarketSpec,
    matched: &[Bet],
    unmatched: &[Bet],
    placed_sizes: &dyn Fn(usize) -> bool,
) -> i64 {
    let all: Vec<&Bet> = matched.iter().chain(unmatched).collect();
    outcomes(spec, &all, placed_sizes)
        .iter()
        .map(|result| {
            let matched: i64 = matched.iter().map(|b| pnl(b, happens(result, b.selection()))).sum();
            let unmatched: i64 =
                unmatched.iter().map(|b| pnl(b, happens(result, b.selection())).min(0)).sum();
            matched + unmatched
        })
        .min()
        .map_or(0, |worst| (-worst).max(0))
}

/// The exposure the formula must give. For place markets every set of placed runners counts
/// (ARCHITECTURE's per-runner sum is the worst over all of them); it is also checked never
/// to be below the worst over the sets of exactly `winners` runners.
fn brute_exposure(spec: &MarketSpec, matched: &[Bet], unmatched: &[Bet]) -> i64 {
    let exposure = worst_case(spec, matched, unmatched, &|_| true);
    if let MarketKind::Place { winners } = spec.kind() {
        let exactly_k = worst_case(spec, matched, unmatched, &|size| size == winners as usize);
        assert!(exposure >= exactly_k);
    }
    exposure
}

fn round_half_even_div(numerator: i128, denominator: i128) -> i64 {
    let quotient = numerator.div_euclid(denominator);
    let twice_remainder = 2 * numerator.rem_euclid(denominator);
    let rounded = match twice_remainder.cmp(&denominator) {
        std::cmp::Ordering::Less => quotient,
        std::cmp::Ordering::Greater => quotient + 1,
        std::cmp::Ordering::Equal => quotient + (quotient & 1),
    };
    i64::try_from(rounded).unwrap()
}

struct World {
    commission_bp: [u32; SLOTS],
    markets: Vec<Market>,
    /// Matched bets per slot, with their users.
    matched: Vec<Vec<(UserId, Bet)>>,
    /// Open orders, oldest first.
    open: Vec<OpenOrder>,
    balances: BTreeMap<UserId, i64>,
    house_minor: i64,
    commission_minor: i64,
    total_minor: i64,
    next_order_id: u64,
}

impl World {
    fn new(balances: &[i64], commission_bp: [u32; SLOTS]) -> World {
        let balances: BTreeMap<UserId, i64> =
            balances.iter().enumerate().map(|(i, b)| (UserId(i as i64 + 1), *b)).collect();
        let total_minor = balances.values().sum();
        World {
            commission_bp,
            markets: (0..SLOTS)
                .map(|slot| Market::new(spec_of(slot, commission_bp[slot])))
                .collect(),
            matched: vec![Vec::new(); SLOTS],
            open: Vec::new(),
            balances,
            house_minor: 0,
            commission_minor: 0,
            total_minor,
            next_order_id: 1,
        }
    }

    fn user(index: usize) -> UserId {
        UserId(index as i64 + 1)
    }

    fn total_exposure(&self, user: UserId) -> i64 {
        self.markets.iter().map(|m| m.exposure_minor(user)).sum()
    }

    fn matched_of(&self, slot: usize, user: UserId) -> Vec<Bet> {
        self.matched[slot].iter().filter(|(u, _)| *u == user).map(|(_, b)| *b).collect()
    }

    fn unmatched_of(&self, slot: usize, user: UserId) -> Vec<Bet> {
        self.open
            .iter()
            .filter(|o| o.slot == slot && o.user == user)
            .map(OpenOrder::as_bet)
            .collect()
    }

    fn run(&mut self, step: &Step) {
        match *step {
            Step::Place { slot, user, runner, side, tick, size_minor, persist, all_in } => {
                let user = Self::user(user);
                let size_minor = if all_in {
                    self.affordable_size(slot, user, runner, side, tick, size_minor * 10)
                } else {
                    size_minor
                };
                self.place(slot, user, runner, side, tick, size_minor, persist)
            }
            Step::HouseBet { slot, user, runner, side, line, rate, stake_minor } => {
                self.house_bet(slot, Self::user(user), runner, side, line, rate, stake_minor)
            }
            Step::Cancel { pick, size_minor } => self.cancel(pick, size_minor),
            Step::Suspend { slot } => self.suspend(slot),
            Step::Reopen { slot } => self.markets[slot].reopen().unwrap(),
            Step::Settle { slot, pick } => {
                let result = self.result_for(slot, pick);
                self.settle(slot, result);
            }
            Step::Void { slot } => self.settle(slot, MarketResult::Void),
        }
    }

    /// The largest size up to `cap_minor` that passes the funds check (1 if none does, to be
    /// refused).
    fn affordable_size(
        &self,
        slot: usize,
        user: UserId,
        runner: usize,
        side: Side,
        tick: usize,
        cap_minor: i64,
    ) -> i64 {
        let market = &self.markets[slot];
        let runners = market.spec().runners();
        let runner = runners[runner % runners.len()];
        let price = Price::from_tick(tick).unwrap();
        let others = self.total_exposure(user) - market.exposure_minor(user);
        let fits = |size| {
            let order = NewOrder::new(OrderId(0), user, side, price, size);
            others + market.exposure_with_order_minor(runner, &order).unwrap()
                <= self.balances[&user]
        };
        let (mut low, mut high) = (1, cap_minor);
        if !fits(low) {
            return low;
        }
        while low < high {
            let middle = low + (high - low + 1) / 2;
            if fits(middle) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        low
    }

    #[allow(clippy::too_many_arguments)]
    fn place(
        &mut self,
        slot: usize,
        user: UserId,
        runner: usize,
        side: Side,
        tick: usize,
        size_minor: i64,
        persist: bool,
    ) {
        let market = &self.markets[slot];
        let runners = market.spec().runners();
        let runner = runners[runner % runners.len()];
        let price = Price::from_tick(tick).unwrap();
        let persistence = if persist { Persistence::Persist } else { Persistence::Lapse };
        let order_id = OrderId(self.next_order_id);
        self.next_order_id += 1;
        let order =
            NewOrder::new(order_id, user, side, price, size_minor).with_persistence(persistence);

        // The funds check: the order counted as unmatched, checked against brute force.
        let with_order = market.exposure_with_order_minor(runner, &order).unwrap();
        let mut unmatched = self.unmatched_of(slot, user);
        unmatched.push(Bet::exchange(runner, side, price, size_minor).unwrap());
        assert_eq!(
            with_order,
            brute_exposure(market.spec(), &self.matched_of(slot, user), &unmatched)
        );
        let new_total = self.total_exposure(user) - market.exposure_minor(user) + with_order;
        if market.status() != MarketStatus::Open {
            let status = market.status();
            assert_eq!(
                self.markets[slot].place_order(runner, &order),
                Err(MarketError::NotOpen { status })
            );
            return;
        }
        if new_total > self.balances[&user] {
            return; // refused: insufficient funds
        }

        let exposures_before: Vec<i64> =
            (0..USERS).map(|u| self.markets[slot].exposure_minor(Self::user(u))).collect();
        let expected = self.reference_match(slot, runner, &order);
        let outcome = self.markets[slot].place_order(runner, &order).unwrap();
        let got: Vec<(OrderId, Price, i64, i64, i64)> = outcome
            .fills
            .iter()
            .map(|f| {
                (f.maker, f.price, f.size_minor, f.backer_profit_minor, f.maker_remaining_minor)
            })
            .collect();
        assert_eq!(got, expected);

        for fill in &outcome.fills {
            assert_eq!(
                (fill.taker, fill.taker_user, fill.taker_side, fill.runner),
                (order_id, user, side, runner)
            );
            assert_eq!(fill.backer_profit_minor, floor_profit(fill.size_minor, fill.price));
            let maker = self.open.iter().position(|o| o.order_id == fill.maker).unwrap();
            assert_eq!(self.open[maker].user, fill.maker_user);
            self.open[maker].remaining_minor -= fill.size_minor;
            if self.open[maker].remaining_minor == 0 {
                self.open.remove(maker);
            }
            self.matched[slot].extend(fill.bets());
        }
        let matched_minor: i64 = outcome.fills.iter().map(|f| f.size_minor).sum();
        assert_eq!(matched_minor + outcome.resting_minor, size_minor);
        if outcome.resting_minor > 0 {
            self.open.push(OpenOrder {
                slot,
                runner,
                order_id,
                user,
                side,
                price,
                remaining_minor: outcome.resting_minor,
                persistence,
            });
        }

        // Matching never raises exposure: the taker's stays within what was checked, and no
        // one else's grows.
        let market = &self.markets[slot];
        assert!(market.exposure_minor(user) <= with_order);
        for (u, before) in exposures_before.iter().enumerate() {
            if Self::user(u) != user {
                assert!(market.exposure_minor(Self::user(u)) <= *before);
            }
        }
    }

    /// Matches `order` naively against the recorded open orders: best price, then oldest.
    fn reference_match(
        &self,
        slot: usize,
        runner: RunnerId,
        order: &NewOrder,
    ) -> Vec<(OrderId, Price, i64, i64, i64)> {
        let mut makers: Vec<&OpenOrder> = self
            .open
            .iter()
            .filter(|o| o.slot == slot && o.runner == runner && o.side == order.side.opposite())
            .filter(|o| match order.side {
                Side::Back => o.price >= order.price,
                Side::Lay => o.price <= order.price,
            })
            .collect();
        // Stable sort keeps time order within a price.
        match order.side {
            Side::Back => makers.sort_by_key(|o| std::cmp::Reverse(o.price)),
            Side::Lay => makers.sort_by_key(|o| o.price),
        }
        let mut remaining = order.size_minor;
        let mut fills = Vec::new();
        for maker in makers {
            if remaining == 0 {
                break;
            }
            let size = remaining.min(maker.remaining_minor);
            remaining -= size;
            fills.push((
                maker.order_id,
                maker.price,
                size,
                floor_profit(size, maker.price),
                maker.remaining_minor - size,
            ));
        }
        fills
    }

    #[allow(clippy::too_many_arguments)]
    fn house_bet(
        &mut self,
        slot: usize,
        user: UserId,
        runner: usize,
        side: Side,
        line: u32,
        rate: u32,
        stake_minor: i64,
    ) {
        let market = &self.markets[slot];
        let bet = match market.spec().kind() {
            MarketKind::Bookmaker => {
                let runners = market.spec().runners();
                Bet::bookmaker(runners[runner % runners.len()], side, rate, stake_minor).unwrap()
            }
            _ => Bet::fancy(line, side, rate, stake_minor).unwrap(),
        };
        let expected_profit = round_half_even_div(i128::from(stake_minor) * i128::from(rate), 100);
        assert_eq!(bet.profit_minor(), expected_profit);
        let with_bet = market.exposure_with_bet_minor(user, &bet).unwrap();
        let mut matched = self.matched_of(slot, user);
        matched.push(bet);
        assert_eq!(with_bet, brute_exposure(market.spec(), &matched, &[]));
        let new_total = self.total_exposure(user) - market.exposure_minor(user) + with_bet;
        if market.status() != MarketStatus::Open {
            let status = market.status();
            assert_eq!(
                self.markets[slot].place_house_bet(user, &bet),
                Err(MarketError::NotOpen { status })
            );
            return;
        }
        if new_total > self.balances[&user] {
            return;
        }
        self.markets[slot].place_house_bet(user, &bet).unwrap();
        self.matched[slot].push((user, bet));
    }

    fn cancel(&mut self, pick: usize, size_minor: Option<i64>) {
        if self.open.is_empty() {
            return;
        }
        let index = pick % self.open.len();
        let order = self.open[index].clone();
        let before = self.markets[order.slot].exposure_minor(order.user);
        let cancelled =
            self.markets[order.slot].cancel(order.runner, order.order_id, size_minor).unwrap();
        let expected =
            size_minor.map_or(order.remaining_minor, |size| size.min(order.remaining_minor));
        assert_eq!(cancelled, expected);
        self.open[index].remaining_minor -= cancelled;
        if self.open[index].remaining_minor == 0 {
            self.open.remove(index);
            assert!(self.markets[order.slot].cancel(order.runner, order.order_id, None).is_err());
        }
        assert!(self.markets[order.slot].exposure_minor(order.user) <= before);
    }

    fn suspend(&mut self, slot: usize) {
        let lapsed = self.markets[slot].suspend().unwrap();
        let runners = self.markets[slot].spec().runners().to_vec();
        let mut expected: Vec<&OpenOrder> = self
            .open
            .iter()
            .filter(|o| o.slot == slot && o.persistence == Persistence::Lapse)
            .collect();
        expected.sort_by_key(|o| runners.iter().position(|r| *r == o.runner));
        let expected: Vec<(OrderId, i64)> =
            expected.iter().map(|o| (o.order_id, o.remaining_minor)).collect();
        let got: Vec<(OrderId, i64)> =
            lapsed.iter().map(|o| (o.order_id, o.remaining_minor)).collect();
        assert_eq!(got, expected);
        self.open.retain(|o| !(o.slot == slot && o.persistence == Persistence::Lapse));
    }

    fn result_for(&self, slot: usize, pick: u32) -> MarketResult {
        let spec = self.markets[slot].spec();
        let runners = spec.runners();
        match spec.kind() {
            MarketKind::OneWinner | MarketKind::Bookmaker => {
                MarketResult::Winner(runners[pick as usize % runners.len()])
            }
            MarketKind::Place { winners } => {
                let mut placed: Vec<RunnerId> = runners
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| pick & (1 << i) != 0)
                    .map(|(_, r)| *r)
                    .collect();
                placed.truncate(winners as usize);
                if placed.is_empty() {
                    placed.push(runners[(pick >> 8) as usize % runners.len()]);
                }
                MarketResult::Placed(placed)
            }
            MarketKind::Fancy => MarketResult::Fancy(pick % (MAX_TEST_LINE + 2)),
        }
    }

    fn settle(&mut self, slot: usize, result: MarketResult) {
        let spec = self.markets[slot].spec().clone();
        // What each user should get, from the recorded bets.
        let mut expected: BTreeMap<UserId, (i64, i64)> = BTreeMap::new();
        for (user, bet) in &self.matched[slot] {
            let entry = expected.entry(*user).or_default();
            let bet_pnl =
                if result.is_void() { 0 } else { pnl(bet, happens(&result, bet.selection())) };
            // What the server stores on each bet at settlement is this same figure.
            assert_eq!(result.bet_pnl_minor(bet), bet_pnl, "{bet:?} under {result:?}");
            entry.0 += bet_pnl;
        }
        for (pnl, commission) in expected.values_mut() {
            if *pnl > 0 {
                *commission = round_half_even_div(
                    i128::from(*pnl) * i128::from(spec.commission_bp()),
                    10_000,
                );
            }
        }
        let pnl_sum: i64 = expected.values().map(|(pnl, _)| pnl).sum();
        if !spec.kind().is_house_banked() {
            assert_eq!(pnl_sum, 0, "peer to peer: what one wins another loses");
        }

        let settled = self.markets[slot].settle(&result).unwrap();
        let settlement = &settled.settlement;
        for user in &settlement.users {
            let (pnl, commission) = expected.get(&user.user_id).copied().unwrap_or_default();
            assert_eq!(
                (user.pnl_minor, user.commission_minor),
                (pnl, commission),
                "{:?}",
                user.user_id
            );
        }
        for user in expected.keys() {
            assert!(settlement.user(*user).is_some());
        }
        let house = if spec.kind().is_house_banked() { -pnl_sum } else { 0 };
        assert_eq!(settlement.house_pnl_minor, house);
        let commission_total: i64 = expected.values().map(|(_, c)| c).sum();
        assert_eq!(settlement.commission_total_minor, commission_total);

        // Post it.
        for user in &settlement.users {
            *self.balances.get_mut(&user.user_id).unwrap() += user.net_minor();
        }
        self.house_minor += settlement.house_pnl_minor;
        self.commission_minor += settlement.commission_total_minor;

        // Unmatched orders were cancelled.
        let mut cancelled: Vec<OrderId> =
            settled.cancelled_orders.iter().map(|o| o.order_id).collect();
        let mut open: Vec<OrderId> =
            self.open.iter().filter(|o| o.slot == slot).map(|o| o.order_id).collect();
        cancelled.sort();
        open.sort();
        assert_eq!(cancelled, open);
        self.open.retain(|o| o.slot != slot);

        // Settling again, or voiding, is refused and moves nothing.
        let status = self.markets[slot].status();
        assert_eq!(
            status,
            if result.is_void() { MarketStatus::Void } else { MarketStatus::Closed }
        );
        let refused = Err(MarketError::AlreadySettled { status });
        assert_eq!(self.markets[slot].settle(&result), refused);
        assert_eq!(self.markets[slot].void(), refused);
        for u in 0..USERS {
            assert_eq!(self.markets[slot].exposure_minor(Self::user(u)), 0);
        }

        // A fresh market takes the slot, so sequences keep going.
        self.markets[slot] = Market::new(spec_of(slot, self.commission_bp[slot]));
        self.matched[slot].clear();
    }

    fn check(&self) {
        let sum: i64 =
            self.balances.values().sum::<i64>() + self.house_minor + self.commission_minor;
        assert_eq!(sum, self.total_minor, "money is conserved");
        for (user, balance) in &self.balances {
            for (slot, market) in self.markets.iter().enumerate() {
                let brute = brute_exposure(
                    market.spec(),
                    &self.matched_of(slot, *user),
                    &self.unmatched_of(slot, *user),
                );
                assert_eq!(market.exposure_minor(*user), brute, "{user:?} in slot {slot}");
                assert_eq!(
                    exposure_minor(
                        market.spec(),
                        &self.matched_of(slot, *user),
                        &self.unmatched_of(slot, *user)
                    ),
                    brute
                );
            }
            assert!(balance - self.total_exposure(*user) >= 0, "{user:?} is overdrawn");
        }
        for (slot, market) in self.markets.iter().enumerate().take(2) {
            for runner in market.spec().runners() {
                let book = market.book(*runner).unwrap();
                let in_book: Vec<(OrderId, i64)> =
                    book.iter_resting().map(|o| (o.order_id, o.remaining_minor)).collect();
                let recorded: Vec<(OrderId, i64)> = self
                    .open
                    .iter()
                    .filter(|o| o.slot == slot && o.runner == *runner)
                    .map(|o| (o.order_id, o.remaining_minor))
                    .collect();
                assert_eq!(in_book, recorded);
                if let (Some(lay), Some(back)) =
                    (book.best_price(Side::Lay), book.best_price(Side::Back))
                {
                    assert!(lay < back, "the book is never crossed");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn money_is_conserved_and_exposure_is_the_worst_case(
        balances in proptest::collection::vec(0..=30_000i64, USERS),
        commission_bp in proptest::array::uniform4(0..=1_000u32),
        steps in proptest::collection::vec(step(), 1..60),
    ) {
        let mut world = World::new(&balances, commission_bp);
        world.check();
        for step in &steps {
            world.run(step);
            world.check();
        }
    }

    /// The exposure formula against brute force on its own, with more runners than the
    /// sequences use.
    #[test]
    fn exposure_formula_matches_brute_force(
        kind in prop_oneof![
            Just(MarketKind::OneWinner),
            Just(MarketKind::Bookmaker),
            (1..=4u32).prop_map(|winners| MarketKind::Place { winners }),
            Just(MarketKind::Fancy),
        ],
        bets in proptest::collection::vec(
            (0..5i64, side(), 0..TICK_COUNT, 0..=30u32, 1..=300u32, 1..=100_000i64, any::<bool>()),
            0..25,
        ),
    ) {
        let runners: Vec<RunnerId> = (1..=5).map(RunnerId).collect();
        let spec = MarketSpec::new(kind, if kind == MarketKind::Fancy { vec![] } else { runners.clone() }, 0).unwrap();
        let (mut matched, mut unmatched) = (Vec::new(), Vec::new());
        for (runner, side, tick, line, rate, stake, is_matched) in bets {
            let runner = RunnerId(runner + 1);
            let bet = match kind {
                MarketKind::Fancy => Bet::fancy(line, side, rate, stake).unwrap(),
                MarketKind::Bookmaker => Bet::bookmaker(runner, side, rate, stake).unwrap(),
                _ => Bet::exchange(runner, side, Price::from_tick(tick).unwrap(), stake).unwrap(),
            };
            if is_matched { matched.push(bet) } else { unmatched.push(bet) }
        }
        prop_assert_eq!(exposure_minor(&spec, &matched, &unmatched), brute_exposure(&spec, &matched, &unmatched));
    }
}
