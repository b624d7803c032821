//! Spreading markets by the work they bring, not only by their number.
//!
//! Counting markets alone (the ownership loop's fair share) can leave every busy market on one
//! node: a node that created 100 markets gave away its newest by count while the others, short
//! of their share, took whichever came first, and the bench's 100 busy markets ran 89 / 11 / 0
//! over three nodes, the third serving nothing but forwarding. So each node also measures its
//! markets' load (calls run on each market's task, per second, averaged over the last
//! [`SPAN_WINDOWS`] windows of [`WINDOW`]) and writes its total to `cluster_nodes.load`; every
//! window the busiest node, when well above the cluster's mean, offers markets to the nodes
//! well below it ([`plan_offers`]): each is freed for its receiver alone for [`OFFER_MS`]
//! (`Store::offer`), which takes it on its next turn whatever its count.
//!
//! Worked example (three nodes, loads 90 / 10 / 20 calls/s, mean 40): the first holds markets
//! of 30, 25, 20, 10 and 5 calls/s. It is 50 over the mean; the second is 30 short of it, the
//! third 20. Busiest first: the 30 goes to the second (20 over left, the second no longer
//! short); the 25 fits nowhere (more than the 20 left); the 20 goes to the third; nothing is
//! left over. Loads become 40 / 40 / 40.
//!
//! A market never moves past the mean (what a node gives is at most its excess, what it gets at
//! most its shortfall), so two nodes never hand the same markets back and forth; only the
//! busiest node offers, and none within [`SETTLE_MS`] of any offer (the receivers' averaged
//! loads have not shown what they got yet). Without these, two nodes offered at once, each
//! reading the other's receiver as still short, overfilled it, and it offered markets back
//! (bench run of 6bbdbf4: 51 offers in a 20 s load). The count rule then only moves idle
//! markets ([`IDLE_RATE`]), so it does not undo this.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

/// How often a node measures its markets' load, publishes it and may offer markets.
pub(crate) const WINDOW: Duration = Duration::from_secs(2);
/// How long an offered market is kept for the node it was offered to.
pub(crate) const OFFER_MS: i64 = 5_000;
/// Windows the rates are averaged over (10 s).
const SPAN_WINDOWS: u32 = 5;
/// How long after an offer no node offers again: the receivers' rates, averaged over a span,
/// show the whole of what they got only a span after they took it.
pub(crate) const SETTLE_MS: i64 = OFFER_MS + WINDOW.as_millis() as i64 * SPAN_WINDOWS as i64;
/// A node offers only when it is this fraction above the mean, to nodes this fraction below.
const SLACK: f64 = 0.15;
/// Calls per second under which differences between nodes are noise, not load.
const MIN_EXCESS: f64 = 2.0;
/// A market with fewer calls per second than this counts as idle: the count rule moves only
/// idle markets.
pub(crate) const IDLE_RATE: f64 = 0.5;

/// This node's markets' loads: read every [`WINDOW`], averaged over the last [`SPAN_WINDOWS`]
/// (a closed-loop load swings by half from one window to the next while markets move).
#[derive(Debug, Default)]
pub(crate) struct LoadMeter {
    /// The readings of the span: when, and each market's call count then (oldest first).
    readings: VecDeque<(Instant, HashMap<i64, u64>)>,
    /// Calls per second of each market over the span.
    rates: HashMap<i64, f64>,
    /// Windows to wait before offering again.
    cooldown: u32,
}

impl LoadMeter {
    /// Takes each market's call count now (markets not listed no longer run here); answers
    /// `true` when a window has passed since the last reading and the rates were measured
    /// anew, over the span. A market that came here during the span, or whose task started
    /// again, counts from zero: its count is its calls.
    pub(crate) fn read(&mut self, counts: &[(i64, u64)], now: Instant) -> bool {
        if let Some((last, _)) = self.readings.back() {
            if now.duration_since(*last) < WINDOW {
                return false;
            }
        }
        self.readings.push_back((now, counts.iter().copied().collect()));
        while self.readings.len() > SPAN_WINDOWS as usize + 1 {
            self.readings.pop_front();
        }
        let (oldest_at, oldest) = &self.readings[0];
        let seconds = now.duration_since(*oldest_at).as_secs_f64();
        if seconds <= 0.0 {
            return false;
        }
        self.rates = counts
            .iter()
            .map(|(market, count)| {
                let before = oldest.get(market).copied().unwrap_or(0);
                let calls = if *count >= before { count - before } else { *count };
                (*market, calls as f64 / seconds)
            })
            .collect();
        self.cooldown = self.cooldown.saturating_sub(1);
        true
    }

    /// A market's calls per second over the span (0 before the first window).
    pub(crate) fn rate(&self, market_id: i64) -> f64 {
        self.rates.get(&market_id).copied().unwrap_or(0.0)
    }

    /// This node's load: the sum of its markets' rates.
    pub(crate) fn total(&self) -> f64 {
        self.rates.values().sum()
    }

    /// Each market's rate, for [`plan_offers`].
    pub(crate) fn rates(&self) -> Vec<(i64, f64)> {
        self.rates.iter().map(|(m, r)| (*m, *r)).collect()
    }

    /// Whether this node may offer markets now: its rates cover a whole span, and it is not
    /// cooling down from its last offers.
    pub(crate) fn may_offer(&self) -> bool {
        self.readings.len() > SPAN_WINDOWS as usize && self.cooldown == 0
    }

    /// Notes that markets were just offered: their load leaves this node's figure at once, and
    /// the node waits a span before offering again.
    pub(crate) fn offered(&mut self, markets: &[i64]) {
        for market in markets {
            self.rates.remove(market);
        }
        self.cooldown = SPAN_WINDOWS;
    }
}

/// Which of `mine` (market, calls/s) node `me` should offer, and to whom, given every live
/// node's load (`me`'s included): none unless `me` is the busiest node (ties: the smallest id)
/// and well above the mean; then, busiest first,
/// each market that fits both what `me` has beyond the mean and what a node well below the mean
/// is short of, to the node short of most.
pub(crate) fn plan_offers(
    me: &str,
    loads: &HashMap<String, f64>,
    mine: &[(i64, f64)],
) -> Vec<(i64, String)> {
    let Some(&my_load) = loads.get(me) else { return Vec::new() };
    if loads.len() < 2 {
        return Vec::new();
    }
    let busier =
        |(node, load): (&String, &f64)| *load > my_load || (*load == my_load && node.as_str() < me);
    if loads.iter().any(busier) {
        return Vec::new();
    }
    let mean = loads.values().sum::<f64>() / loads.len() as f64;
    let mut excess = my_load - mean;
    if excess < MIN_EXCESS || my_load <= mean * (1.0 + SLACK) {
        return Vec::new();
    }
    let mut short: Vec<(String, f64)> = loads
        .iter()
        .filter(|(node, load)| {
            node.as_str() != me && **load < mean * (1.0 - SLACK) && mean - **load >= MIN_EXCESS
        })
        .map(|(node, load)| (node.clone(), mean - load))
        .collect();
    if short.is_empty() {
        return Vec::new();
    }
    let mut markets: Vec<(i64, f64)> =
        mine.iter().copied().filter(|(_, rate)| *rate >= IDLE_RATE).collect();
    // Busiest first; ties by id, so that a plan is the same whatever order the rates came in.
    markets.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut offers = Vec::new();
    for (market, rate) in markets {
        if rate > excess {
            continue;
        }
        short.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let Some(receiver) = short.iter_mut().find(|(_, lacking)| *lacking >= rate) else {
            continue;
        };
        receiver.1 -= rate;
        excess -= rate;
        offers.push((market, receiver.0.clone()));
    }
    offers
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loads(of: &[(&str, f64)]) -> HashMap<String, f64> {
        of.iter().map(|(node, load)| (node.to_string(), *load)).collect()
    }

    #[test]
    fn the_worked_example_evens_three_nodes_out() {
        let mine = [(1, 30.0), (2, 25.0), (3, 20.0), (4, 10.0), (5, 5.0)];
        let offers = plan_offers("a", &loads(&[("a", 90.0), ("b", 10.0), ("c", 20.0)]), &mine);
        assert_eq!(offers, vec![(1, "b".to_string()), (3, "c".to_string())]);
    }

    #[test]
    fn a_hundred_busy_markets_on_one_node_are_split_three_ways() {
        let mine: Vec<(i64, f64)> = (1..=100).map(|m| (m, 10.0)).collect();
        let offers = plan_offers("a", &loads(&[("a", 1000.0), ("b", 0.0), ("c", 0.0)]), &mine);
        let to = |node: &str| offers.iter().filter(|(_, n)| n == node).count();
        assert_eq!((to("b"), to("c")), (33, 33), "{offers:?}");
        assert!(offers.iter().all(|(m, _)| (1..=100).contains(m)));
    }

    #[test]
    fn nothing_moves_when_the_loads_are_even_or_small_or_the_node_alone() {
        let mine = [(1, 30.0), (2, 30.0)];
        assert!(plan_offers("a", &loads(&[("a", 60.0), ("b", 55.0)]), &mine).is_empty());
        assert!(plan_offers("a", &loads(&[("a", 1.5), ("b", 0.0)]), &[(1, 1.5)]).is_empty());
        assert!(plan_offers("a", &loads(&[("a", 60.0)]), &mine).is_empty());
        // A node below the mean never offers, however its markets are spread.
        assert!(plan_offers("b", &loads(&[("a", 90.0), ("b", 10.0)]), &[(7, 10.0)]).is_empty());
    }

    #[test]
    fn only_the_busiest_node_offers() {
        let three = loads(&[("a", 100.0), ("b", 80.0), ("c", 0.0)]);
        let mine = [(1, 20.0), (2, 20.0), (3, 20.0), (4, 20.0)];
        assert!(
            plan_offers("b", &three, &mine).is_empty(),
            "b is above the mean but not the busiest"
        );
        assert_eq!(plan_offers("a", &three, &[(5, 20.0)]), vec![(5, "c".to_string())]);
        // Equal loads: the smaller id offers, the other waits.
        let tied = loads(&[("a", 90.0), ("b", 90.0), ("c", 0.0)]);
        assert!(plan_offers("b", &tied, &mine).is_empty());
        assert!(!plan_offers("a", &tied, &mine).is_empty());
    }

    #[test]
    fn one_market_busier_than_the_gap_stays_put() {
        // Moving the one hot market would only move the imbalance to the other node.
        let offers = plan_offers("a", &loads(&[("a", 100.0), ("b", 0.0)]), &[(1, 100.0)]);
        assert!(offers.is_empty(), "{offers:?}");
    }

    #[test]
    fn idle_markets_are_left_to_the_count_rule() {
        let mine = [(1, 0.1), (2, 40.0)];
        let offers = plan_offers("a", &loads(&[("a", 40.1), ("b", 0.0), ("c", 0.0)]), &mine);
        assert!(offers.is_empty(), "40 is more than the 26.7 over the mean: {offers:?}");
        let mine = [(1, 0.1), (2, 20.0), (3, 20.0)];
        let offers = plan_offers("a", &loads(&[("a", 40.1), ("b", 0.0)]), &mine);
        assert_eq!(offers, vec![(2, "b".to_string())]);
    }

    #[test]
    fn the_meter_averages_calls_per_second_over_a_span() {
        let start = Instant::now();
        let at = |s: u64| start + Duration::from_secs(s);
        let mut meter = LoadMeter::default();
        assert!(!meter.read(&[(1, 100), (2, 0)], start), "one reading is no rate yet");
        assert_eq!(meter.total(), 0.0);
        assert!(!meter.read(&[(1, 150), (2, 0)], at(1)), "within the window");
        assert!(meter.read(&[(1, 300), (2, 10), (3, 4)], at(2)));
        assert_eq!((meter.rate(1), meter.rate(2), meter.rate(3)), (100.0, 5.0, 2.0));
        assert_eq!(meter.total(), 107.0);
        assert!(!meter.may_offer(), "not a whole span yet");
        for window in 2..=SPAN_WINDOWS {
            meter.read(&[(1, 100 + 200 * u64::from(window)), (2, 10)], at(2 * u64::from(window)));
        }
        // Over the whole span: market 1 went 100 → 1,100 in 10 s; market 2 10 calls in 10 s.
        assert_eq!((meter.rate(1), meter.rate(2)), (100.0, 1.0));
        assert!(meter.may_offer());
        // The oldest reading leaves the span: a burst then is no longer counted.
        meter.read(&[(1, 1300), (2, 10)], at(12));
        assert_eq!((meter.rate(1), meter.rate(2)), (100.0, 0.0));
        // A market's task started again counts from zero.
        meter.read(&[(1, 20)], at(14));
        assert_eq!(meter.rate(1), 2.0);
        meter.offered(&[1]);
        assert_eq!(meter.total(), 0.0);
        for window in 1..=SPAN_WINDOWS {
            assert!(!meter.may_offer(), "window {window}");
            meter.read(&[], at(14 + 2 * u64::from(window)));
        }
        assert!(meter.may_offer());
    }
}
