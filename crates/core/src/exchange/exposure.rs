//! Exposure: the most a user can lose in one market, from their matched bets and unmatched
//! orders only (never from a figure a client sent).
//!
//! For outcomes `o` of the market, matched bets' P&L `pnl(o)` and each unmatched order's
//! P&L-if-matched `pnl_u(o)`:
//!
//! ```text
//! exposure = max(0, −min_o [ pnl(o) + Σ_u min(0, pnl_u(o)) ])
//! ```
//!
//! An unmatched order counts only where it would lose: it may never be matched, so its wins
//! cannot be relied on, and its losses must be covered in case it is.
//!
//! Every bet's P&L depends only on whether its selection happens, so a [`Position`] keeps,
//! per selection, four sums (matched and unmatched-worst, if it happens and if not), and the
//! outcomes are evaluated without looking at single bets again:
//!
//! - **one winner** (match odds, racing win, bookmaker): outcome "runner `i` wins", for each
//!   runner of the market: `Σ_r if_not(r) + (if_happens(i) − if_not(i))`.
//! - **place** (`k` winners): each runner is placed or not independently, so the worst case
//!   is `Σ_r min(if_placed(r), if_not_placed(r))`. This is the worst over *every* set of
//!   placed runners, of any size, which is at least the worst over sets of exactly `k`: it
//!   never reserves too little, whatever the operator declares (fewer placed when fewer
//!   finish), at the price of reserving more for a user who backs more than `n − k` runners.
//! - **fancy**: the result is an integer `x ≥ 0` and the line `L` happens when `x ≥ L`, so
//!   P&L is constant between neighbouring lines; sweeping the lines upwards from `x = 0`
//!   visits every distinct value.
//!
//! Worked example, fancy: YES 50.00 at line 40 rate 100 and NO 100.00 at line 45 rate 90.
//!
//! ```text
//! x in 0..=39   YES loses −50.00, NO wins +100.00   →  +50.00
//! x in 40..=44  YES wins  +50.00, NO wins +100.00   → +150.00
//! x ≥ 45        YES wins  +50.00, NO loses −90.00   →  −40.00   exposure 40.00
//! ```
//!
//! ```
//! use backlay_core::exchange::{exposure_minor, fancy_book, Bet, FancyBookRow, MarketKind, MarketSpec, Side};
//!
//! let bets = [Bet::fancy(40, Side::YES, 100, 50_00)?, Bet::fancy(45, Side::NO, 90, 100_00)?];
//! let market = MarketSpec::new(MarketKind::Fancy, vec![], 0)?;
//! assert_eq!(exposure_minor(&market, &bets, &[]), 40_00);
//! assert_eq!(fancy_book(&bets), vec![
//!     FancyBookRow { from: 0, to: Some(39), pnl_minor: 50_00 },
//!     FancyBookRow { from: 40, to: Some(44), pnl_minor: 150_00 },
//!     FancyBookRow { from: 45, to: None, pnl_minor: -40_00 },
//! ]);
//! # Ok::<(), backlay_core::exchange::MarketError>(())
//! ```

use std::collections::BTreeMap;

use super::bet::{Bet, Selection};
use super::market::{MarketKind, MarketSpec};
use super::settlement::MarketResult;
use super::RunnerId;

/// A user's matched bets and unmatched orders in one market, summed per selection: what
/// exposure, the page's positions and settlement are computed from. Sums are `i128`, so no
/// number of bets can overflow them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    selections: BTreeMap<Selection, SelectionPnl>,
}

/// The P&L of one selection's bets, if it happens and if not.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct SelectionPnl {
    matched_if_happens: i128,
    matched_if_not: i128,
    /// `Σ min(0, pnl_u)` over unmatched orders: never positive.
    unmatched_if_happens: i128,
    unmatched_if_not: i128,
}

impl SelectionPnl {
    fn matched(&self) -> (i128, i128) {
        (self.matched_if_happens, self.matched_if_not)
    }

    /// Matched P&L plus the losses of unmatched orders, as the exposure formula counts them.
    fn worst(&self) -> (i128, i128) {
        (
            self.matched_if_happens + self.unmatched_if_happens,
            self.matched_if_not + self.unmatched_if_not,
        )
    }
}

impl Position {
    /// A position with no bets.
    pub fn new() -> Position {
        Position::default()
    }

    /// The position of `matched` bets and `unmatched` orders (each as its [`Bet`] if matched).
    pub fn from_bets(matched: &[Bet], unmatched: &[Bet]) -> Position {
        let mut position = Position::new();
        for bet in matched {
            position.add_matched(bet);
        }
        for bet in unmatched {
            position.add_unmatched(bet);
        }
        position
    }

    /// Adds a matched bet.
    pub fn add_matched(&mut self, bet: &Bet) {
        let entry = self.selections.entry(bet.selection()).or_default();
        entry.matched_if_happens += i128::from(bet.pnl_minor(true));
        entry.matched_if_not += i128::from(bet.pnl_minor(false));
    }

    /// Adds an unmatched order, as the bet it would be if matched.
    pub fn add_unmatched(&mut self, bet: &Bet) {
        let entry = self.selections.entry(bet.selection()).or_default();
        entry.unmatched_if_happens += i128::from(bet.pnl_minor(true).min(0));
        entry.unmatched_if_not += i128::from(bet.pnl_minor(false).min(0));
    }

    /// Takes back an unmatched order added with [`Position::add_unmatched`] (it was matched,
    /// cancelled or lapsed, in whole or in part: add back what is left).
    pub fn remove_unmatched(&mut self, bet: &Bet) {
        let selection = bet.selection();
        let entry = self.selections.entry(selection).or_default();
        entry.unmatched_if_happens -= i128::from(bet.pnl_minor(true).min(0));
        entry.unmatched_if_not -= i128::from(bet.pnl_minor(false).min(0));
        debug_assert!(entry.unmatched_if_happens <= 0 && entry.unmatched_if_not <= 0);
        if *entry == SelectionPnl::default() {
            self.selections.remove(&selection);
        }
    }

    /// The user's exposure in `market`: see the module documentation.
    pub fn exposure_minor(&self, market: &MarketSpec) -> i64 {
        let worst = self.worst_outcome_minor(market, SelectionPnl::worst);
        saturate(worst.min(0).saturating_neg())
    }

    /// The P&L of matched bets for each runner of a runner market, as the page shows beside
    /// it: on one-winner and bookmaker markets the user's whole P&L if that runner wins; on
    /// place markets the P&L of the bets on that runner if it is placed (runners are placed
    /// independently). Empty for a fancy market (see [`Position::fancy_book`]).
    pub fn runner_positions(&self, market: &MarketSpec) -> Vec<(RunnerId, i64)> {
        let matched = |runner: &RunnerId| {
            self.selections.get(&Selection::Runner(*runner)).map_or((0, 0), SelectionPnl::matched)
        };
        match market.kind() {
            MarketKind::OneWinner | MarketKind::Bookmaker => {
                let all_lose: i128 = self.selections.values().map(|s| s.matched_if_not).sum();
                market
                    .runners()
                    .iter()
                    .map(|runner| {
                        let (if_wins, if_not) = matched(runner);
                        (*runner, saturate(all_lose + if_wins - if_not))
                    })
                    .collect()
            }
            MarketKind::Place { .. } => market
                .runners()
                .iter()
                .map(|runner| (*runner, saturate(matched(runner).0)))
                .collect(),
            MarketKind::Fancy => Vec::new(),
        }
    }

    /// On a place market, the P&L of the matched bets on each runner if it is placed and if it
    /// is not (runners are placed independently): what a cash out hedges runner by runner.
    pub fn place_outcomes(&self, market: &MarketSpec) -> Vec<(RunnerId, i64, i64)> {
        market
            .runners()
            .iter()
            .map(|runner| {
                let (if_placed, if_not) = self
                    .selections
                    .get(&Selection::Runner(*runner))
                    .map_or((0, 0), SelectionPnl::matched);
                (*runner, saturate(if_placed), saturate(if_not))
            })
            .collect()
    }

    /// The P&L of matched fancy bets per run range, lowest first, neighbouring ranges with
    /// the same P&L merged. The last range is open (`to: None`). No bets: one range, 0.
    pub fn fancy_book(&self) -> Vec<FancyBookRow> {
        let mut rows: Vec<FancyBookRow> = Vec::new();
        let mut push = |from: u32, to: Option<u32>, pnl: i128| {
            let pnl_minor = saturate(pnl);
            match rows.last_mut() {
                Some(last) if last.pnl_minor == pnl_minor => last.to = to,
                _ => rows.push(FancyBookRow { from, to, pnl_minor }),
            }
        };
        let lines = self.lines();
        let mut pnl: i128 = lines.clone().map(|(_, s)| s.matched_if_not).sum();
        let mut from = 0;
        for (line, selection) in lines {
            if line > from {
                push(from, Some(line - 1), pnl);
            }
            pnl += selection.matched_if_happens - selection.matched_if_not;
            from = line;
        }
        push(from, None, pnl);
        rows
    }

    /// The P&L of matched bets under `result` (0 when void).
    pub(crate) fn pnl_minor(&self, result: &MarketResult) -> i128 {
        self.selections
            .iter()
            .map(|(selection, pnl)| {
                if result.is_void() {
                    0
                } else if result.happens(*selection) {
                    pnl.matched_if_happens
                } else {
                    pnl.matched_if_not
                }
            })
            .sum()
    }

    /// The lowest P&L over the market's outcomes, per-selection values given by `value` as
    /// (if it happens, if not).
    fn worst_outcome_minor(
        &self,
        market: &MarketSpec,
        value: impl Fn(&SelectionPnl) -> (i128, i128),
    ) -> i128 {
        match market.kind() {
            MarketKind::OneWinner | MarketKind::Bookmaker => {
                let all_lose: i128 = self.selections.values().map(|s| value(s).1).sum();
                market
                    .runners()
                    .iter()
                    .map(|runner| {
                        let swing = self
                            .selections
                            .get(&Selection::Runner(*runner))
                            .map_or(0, |s| value(s).0 - value(s).1);
                        all_lose + swing
                    })
                    .min()
                    .unwrap_or(all_lose)
            }
            MarketKind::Place { .. } => self
                .selections
                .values()
                .map(|s| {
                    let (if_placed, if_not) = value(s);
                    if_placed.min(if_not)
                })
                .sum(),
            MarketKind::Fancy => {
                let lines = self.lines();
                let mut pnl: i128 = lines.clone().map(|(_, s)| value(s).1).sum();
                // Below the lowest line, unless that line is 0 (every result reaches it).
                let mut worst = match lines.clone().next() {
                    Some((0, _)) => i128::MAX,
                    _ => pnl,
                };
                for (_, selection) in lines {
                    let (if_reached, if_not) = value(selection);
                    pnl += if_reached - if_not;
                    worst = worst.min(pnl);
                }
                worst
            }
        }
    }

    /// The fancy lines with bets, lowest first.
    fn lines(&self) -> impl Iterator<Item = (u32, &SelectionPnl)> + Clone {
        self.selections.iter().filter_map(|(selection, pnl)| match selection {
            Selection::FancyLine(line) => Some((*line, pnl)),
            Selection::Runner(_) => None,
        })
    }
}

/// One row of a fancy market's book for a user: their P&L if the result is in `from..=to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FancyBookRow {
    /// The lowest result of the range.
    pub from: u32,
    /// The highest result of the range; `None` for the last, open range.
    pub to: Option<u32>,
    /// The P&L if the result falls in the range.
    pub pnl_minor: i64,
}

/// A user's exposure in `market` from their `matched` bets and `unmatched` orders (each
/// given as the bet it would be if matched, e.g. [`Bet::exchange`] of its remaining size at
/// its price).
pub fn exposure_minor(market: &MarketSpec, matched: &[Bet], unmatched: &[Bet]) -> i64 {
    Position::from_bets(matched, unmatched).exposure_minor(market)
}

/// [`Position::runner_positions`] of `matched` bets.
pub fn position_per_runner(market: &MarketSpec, matched: &[Bet]) -> Vec<(RunnerId, i64)> {
    Position::from_bets(matched, &[]).runner_positions(market)
}

/// [`Position::fancy_book`] of `matched` bets.
pub fn fancy_book(matched: &[Bet]) -> Vec<FancyBookRow> {
    Position::from_bets(matched, &[]).fancy_book()
}

/// The nearest `i64`: a display or an exposure beyond `i64` is as good as infinite (no
/// balance covers it), and no sum of bets within the limits gets there.
fn saturate(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exchange::Side;
    use crate::odds::Price;

    const A: RunnerId = RunnerId(1);
    const B: RunnerId = RunnerId(2);
    const C: RunnerId = RunnerId(3);
    const D: RunnerId = RunnerId(4);

    fn price(text: &str) -> Price {
        text.parse().unwrap()
    }

    fn exchange(runner: RunnerId, side: Side, at: &str, stake_minor: i64) -> Bet {
        Bet::exchange(runner, side, price(at), stake_minor).unwrap()
    }

    fn one_winner() -> MarketSpec {
        MarketSpec::new(MarketKind::OneWinner, vec![A, B, C], 0).unwrap()
    }

    #[test]
    fn no_bets_no_exposure() {
        assert_eq!(exposure_minor(&one_winner(), &[], &[]), 0);
        let fancy = MarketSpec::new(MarketKind::Fancy, vec![], 0).unwrap();
        assert_eq!(exposure_minor(&fancy, &[], &[]), 0);
        assert_eq!(fancy_book(&[]), vec![FancyBookRow { from: 0, to: None, pnl_minor: 0 }]);
    }

    #[test]
    fn one_winner_back_and_lay() {
        let market = one_winner();
        // A back risks its stake; a lay its liability.
        assert_eq!(
            exposure_minor(&market, &[exchange(A, Side::Back, "3.00", 100_00)], &[]),
            100_00
        );
        assert_eq!(exposure_minor(&market, &[exchange(A, Side::Lay, "3.00", 100_00)], &[]), 200_00);
        // Back A and back B: C winning loses both stakes.
        let both = [exchange(A, Side::Back, "3.00", 10_00), exchange(B, Side::Back, "3.00", 10_00)];
        assert_eq!(exposure_minor(&market, &both, &[]), 20_00);
        // Backing every runner at good odds wins in every outcome: no exposure.
        let dutch = [
            exchange(A, Side::Back, "4.00", 10_00),
            exchange(B, Side::Back, "4.00", 10_00),
            exchange(C, Side::Back, "4.00", 10_00),
        ];
        assert_eq!(exposure_minor(&market, &dutch, &[]), 0);
        assert_eq!(position_per_runner(&market, &dutch), vec![(A, 10_00), (B, 10_00), (C, 10_00)]);
        // Back at 3.00 and lay at 2.50, same stake: a green book.
        let trade = [exchange(A, Side::Back, "3.00", 10_00), exchange(A, Side::Lay, "2.50", 10_00)];
        assert_eq!(exposure_minor(&market, &trade, &[]), 0);
        assert_eq!(position_per_runner(&market, &trade), vec![(A, 5_00), (B, 0), (C, 0)]);
    }

    #[test]
    fn unmatched_orders_count_only_where_they_lose() {
        let market = one_winner();
        let matched = [exchange(A, Side::Back, "3.00", 100_00)];
        // An unmatched lay of A would hedge A winning but cannot be relied on…
        let hedge = [exchange(A, Side::Lay, "2.00", 100_00)];
        // …A wins: +200 − 100 (the lay's loss counts); B or C wins: −100 (its win does not).
        assert_eq!(exposure_minor(&market, &matched, &hedge), 100_00);
        // An unmatched back of B adds its stake where B loses: A wins +200 − 50; C wins −150.
        let other = [exchange(B, Side::Back, "5.00", 50_00)];
        assert_eq!(exposure_minor(&market, &matched, &other), 150_00);
    }

    #[test]
    fn place_sums_each_runners_worst() {
        let market =
            MarketSpec::new(MarketKind::Place { winners: 2 }, vec![A, B, C, D], 0).unwrap();
        // Lay A 10.00 at 2.00 (if placed −10), back B 10.00 at 1.50 (if not −10),
        // unmatched lay C 10.00 at 3.00 (if placed −20).
        let matched =
            [exchange(A, Side::Lay, "2.00", 10_00), exchange(B, Side::Back, "1.50", 10_00)];
        let unmatched = [exchange(C, Side::Lay, "3.00", 10_00)];
        assert_eq!(exposure_minor(&market, &matched, &unmatched), 40_00);
        // Positions: the bets on each runner if it is placed.
        assert_eq!(
            position_per_runner(&market, &matched),
            vec![(A, -10_00), (B, 5_00), (C, 0), (D, 0)]
        );
        // Back and lay one runner at the same price: flat whatever happens.
        let flat = [exchange(A, Side::Back, "2.00", 10_00), exchange(A, Side::Lay, "2.00", 10_00)];
        assert_eq!(exposure_minor(&market, &flat, &[]), 0);
    }

    #[test]
    fn fancy_book_ranges_and_exposure() {
        let market = MarketSpec::new(MarketKind::Fancy, vec![], 0).unwrap();
        // YES 57 rate 100 (10.00) and NO 60 rate 100 (10.00): a "middle".
        let bets = [
            Bet::fancy(57, Side::YES, 100, 10_00).unwrap(),
            Bet::fancy(60, Side::NO, 100, 10_00).unwrap(),
        ];
        assert_eq!(
            fancy_book(&bets),
            vec![
                FancyBookRow { from: 0, to: Some(56), pnl_minor: 0 },
                FancyBookRow { from: 57, to: Some(59), pnl_minor: 20_00 },
                FancyBookRow { from: 60, to: None, pnl_minor: 0 },
            ]
        );
        assert_eq!(exposure_minor(&market, &bets, &[]), 0);

        // YES and NO at one line, equal stake and rate: flat, one merged range.
        let flat = [
            Bet::fancy(30, Side::YES, 100, 5_00).unwrap(),
            Bet::fancy(30, Side::NO, 100, 5_00).unwrap(),
        ];
        assert_eq!(fancy_book(&flat), vec![FancyBookRow { from: 0, to: None, pnl_minor: 0 }]);

        // A line at 0 always happens: no range below it.
        let zero = [Bet::fancy(0, Side::NO, 150, 10_00).unwrap()];
        assert_eq!(fancy_book(&zero), vec![FancyBookRow { from: 0, to: None, pnl_minor: -15_00 }]);
        assert_eq!(exposure_minor(&market, &zero, &[]), 15_00);

        // Two NOs: the worst is above the higher line.
        let nos = [
            Bet::fancy(10, Side::NO, 100, 3_00).unwrap(),
            Bet::fancy(20, Side::NO, 200, 1_00).unwrap(),
        ];
        assert_eq!(exposure_minor(&market, &nos, &[]), 5_00);
    }

    #[test]
    fn bookmaker_is_one_winner_at_the_rate() {
        let market = MarketSpec::new(MarketKind::Bookmaker, vec![A, B], 0).unwrap();
        let bets = [
            Bet::bookmaker(A, Side::Back, 45, 100_00).unwrap(),
            Bet::bookmaker(B, Side::Lay, 80, 50_00).unwrap(),
        ];
        // A wins: +45 + 50 = +95; B wins: −100 − 40 = −140.
        assert_eq!(exposure_minor(&market, &bets, &[]), 140_00);
        assert_eq!(position_per_runner(&market, &bets), vec![(A, 95_00), (B, -140_00)]);
    }

    #[test]
    fn removing_an_unmatched_order_restores_the_position() {
        let market = one_winner();
        let mut position = Position::from_bets(&[exchange(A, Side::Back, "2.00", 10_00)], &[]);
        let before = position.clone();
        let order = exchange(B, Side::Lay, "7.00", 3_33);
        position.add_unmatched(&order);
        assert_eq!(position.exposure_minor(&market), 10_00 + 19_98);
        position.remove_unmatched(&order);
        assert_eq!(position, before);
    }
}
