//! Cash out against an independent computation, on random positions and books.
//!
//! Positions come from random backs and lays on a one-winner market; each runner's book offers
//! a price to back and a dearer one to lay (a book that is not crossed). The properties:
//! - the legs make every outcome equal within the stakes' rounding (half a paisa of stake at
//!   odds `o` moves its runner's outcome by `o / 2` paise, and each fill's profit rounds down);
//! - on two runners the value is the textbook hedge's, computed here from the positions alone
//!   (stake = position difference ÷ price: lay the higher runner at its lay price, or back the
//!   lower at its back price, whichever leaves more);
//! - no runner left unhedged instead would leave the bettor more (exact fractions here, no
//!   rounding), which is the optimum the module docs argue;
//! - a partial cash out of p% leaves each outcome at (1 − p)·P + p·V, within rounding.

use backlay_core::exchange::{cash_out, CashOutRefusal, HedgePrice, RunnerId, RunnerQuote, Side};
use backlay_core::odds::Price;
use proptest::prelude::*;

/// Ticks 0..=230 are 1.01 to 20.0: long enough odds to matter, short enough that a stake's
/// half-paisa rounding stays a few paise.
fn price_at(tick: usize) -> Price {
    Price::from_tick(tick).unwrap()
}

#[derive(Clone, Debug)]
struct Case {
    positions: Vec<i64>,
    /// Per runner: the tick to back at, and how many ticks dearer the lay is.
    books: Vec<(usize, usize)>,
}

fn case() -> impl Strategy<Value = Case> {
    (2usize..=6).prop_flat_map(|runners| {
        let bets =
            prop::collection::vec((0..runners, any::<bool>(), 5usize..200, 1i64..50_000), 1..8);
        let books = prop::collection::vec((5usize..200, 1usize..6), runners);
        (Just(runners), bets, books).prop_map(|(runners, bets, books)| {
            // Each bet's P&L per outcome, as the exchange pays it (profit rounded down).
            let mut positions = vec![0i64; runners];
            for (runner, back, tick, stake_rupees) in bets {
                let stake = stake_rupees * 100;
                let profit = backlay_core::exchange::backer_profit_minor(stake, price_at(tick));
                for (r, position) in positions.iter_mut().enumerate() {
                    let pnl = if r == runner { profit } else { -stake };
                    *position += if back { pnl } else { -pnl };
                }
            }
            Case { positions, books }
        })
    })
}

fn quotes(case: &Case) -> Vec<RunnerQuote> {
    case.positions
        .iter()
        .zip(&case.books)
        .enumerate()
        .map(|(r, (position, (back_tick, spread)))| RunnerQuote {
            runner: RunnerId(r as i64 + 1),
            position_minor: *position,
            back: Some((HedgePrice::Odds(price_at(*back_tick)), i64::MAX / 4)),
            lay: Some((HedgePrice::Odds(price_at(back_tick + spread)), i64::MAX / 4)),
        })
        .collect()
}

/// The exact value of leaving runner `j` unhedged (`K = P_j`), as a fraction-free f64 of the
/// formulas in the module docs: V = K − Σ (K − P_r) / o_r, each o_r the side's price.
fn exact_value(quotes: &[RunnerQuote], j: usize) -> f64 {
    let level = quotes[j].position_minor as f64;
    level
        - quotes
            .iter()
            .map(|q| {
                let difference = level - q.position_minor as f64;
                let price = if difference > 0.0 { q.back } else { q.lay }.unwrap().0;
                difference / (price.odds_hundredths() as f64 / 100.0)
            })
            .sum::<f64>()
}

/// How far rounding may move outcomes: per leg, half a paisa of stake at its odds, and a paisa
/// for the profit's floor.
fn rounding_bound(legs: &[backlay_core::exchange::HedgeLeg]) -> f64 {
    legs.iter().map(|leg| leg.price.odds_hundredths() as f64 / 200.0 + 1.0).sum::<f64>() + 1.0
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn a_full_cash_out_is_equal_everywhere_and_no_other_level_pays_more(case in case()) {
        let quotes = quotes(&case);
        let done = match cash_out(&quotes, 100) {
            Ok(done) => done,
            Err(CashOutRefusal::Flat) => {
                prop_assert!(case.positions.iter().all(|p| *p == case.positions[0]));
                return Ok(());
            }
            Err(other) => return Err(TestCaseError::fail(format!("refused: {other}"))),
        };
        let bound = rounding_bound(&done.legs);
        prop_assert!(done.spread_minor() as f64 <= bound, "spread {} > {bound}: {done:?}", done.spread_minor());
        // Each leg at the side its runner needs: backs below the level, lays above.
        for leg in &done.legs {
            let quote = quotes.iter().find(|q| q.runner == leg.runner).unwrap();
            let expected = if leg.side == Side::Back { quote.back } else { quote.lay };
            prop_assert_eq!(Some(leg.price), expected.map(|(p, _)| p));
        }
        let best = (0..quotes.len()).map(|j| exact_value(&quotes, j)).fold(f64::MIN, f64::max);
        let value = done.value_minor() as f64;
        prop_assert!((value - best).abs() <= bound, "value {value}, best level gives {best}");
        if quotes.len() == 2 {
            // The textbook two-runner hedge, from the positions alone.
            let (high, low) = if quotes[0].position_minor >= quotes[1].position_minor { (0, 1) } else { (1, 0) };
            let gap = (quotes[high].position_minor - quotes[low].position_minor) as f64;
            let lay_high = quotes[low].position_minor as f64
                + gap / (quotes[high].lay.unwrap().0.odds_hundredths() as f64 / 100.0);
            let back_low = quotes[high].position_minor as f64
                - gap / (quotes[low].back.unwrap().0.odds_hundredths() as f64 / 100.0);
            let textbook = lay_high.max(back_low);
            prop_assert!((value - textbook).abs() <= bound, "value {value}, textbook {textbook}");
        }
    }

    #[test]
    fn a_partial_cash_out_keeps_the_rest_open_in_proportion(case in case(), percent in 1u32..100) {
        let quotes = quotes(&case);
        let (Ok(full), Ok(part)) = (cash_out(&quotes, 100), cash_out(&quotes, percent)) else {
            return Ok(());
        };
        let p = f64::from(percent) / 100.0;
        // The partial's legs are the full one's scaled, so both round alike; the full value is
        // its lowest outcome, within its own rounding.
        let bound = rounding_bound(&full.legs) + rounding_bound(&part.legs);
        for ((runner, after), quote) in part.outcomes.iter().zip(&quotes) {
            prop_assert_eq!(*runner, quote.runner);
            let expected = (1.0 - p) * quote.position_minor as f64 + p * full.value_minor() as f64;
            prop_assert!((*after as f64 - expected).abs() <= bound, "{runner:?}: {after} vs {expected}");
        }
    }

    #[test]
    fn a_bookmaker_cash_out_at_posted_rates_is_equal_everywhere(case in case(), rates in prop::collection::vec((1u32..300, 1u32..10), 6)) {
        // The same positions hedged against a house that backs at rate r and lays at r + spread.
        let quotes: Vec<RunnerQuote> = case
            .positions
            .iter()
            .zip(&rates)
            .enumerate()
            .map(|(r, (position, (rate, spread)))| RunnerQuote {
                runner: RunnerId(r as i64 + 1),
                position_minor: *position,
                back: Some((HedgePrice::Rate(*rate), i64::MAX / 4)),
                lay: Some((HedgePrice::Rate(rate + spread), i64::MAX / 4)),
            })
            .collect();
        let Ok(done) = cash_out(&quotes, 100) else {
            prop_assert!(case.positions.iter().all(|p| *p == case.positions[0]));
            return Ok(());
        };
        let bound = rounding_bound(&done.legs);
        prop_assert!(done.spread_minor() as f64 <= bound, "spread {} > {bound}: {done:?}", done.spread_minor());
        let best = (0..quotes.len()).map(|j| exact_value(&quotes, j)).fold(f64::MIN, f64::max);
        prop_assert!((done.value_minor() as f64 - best).abs() <= bound, "value {}, best level gives {best}", done.value_minor());
    }
}
