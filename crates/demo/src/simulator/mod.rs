//! The demo's sport, simulated: T20 cricket ball by ball, football minute by minute, tennis
//! game by game, and horse and greyhound races. Pure and deterministic — no clock, no IO, and
//! every random draw comes from a [`DemoRng`] the caller seeds (the feed uses the match id),
//! so a match replays identically for the same seed and the tests can pin numbers down.
//!
//! Each model also prices itself: a win probability from the state of play, which the feed
//! turns into the match-odds fair price ([`fair_price`]), bookmaker rates
//! ([`bookmaker_rates`]) and fancy lines ([`fancy_projection`]).
//!
//! Example: India bat first and are 30 for 1 after 3 overs. The "6 over runs" fancy is offered
//! at No 60 / Yes 61 (30 runs from 18 balls projects to 60 from 36), and India's win
//! probability is above the pre-match figure, because 10 an over beats the par of 8.
//!
//! One file per sport, each with its rules, its win model and their tests: `cricket.rs` (with
//! the fancy lines' projections), `football.rs`, `tennis.rs` and `racing.rs`. This file holds
//! what they share — the prices a probability turns into — and exports every sport's names,
//! so that users write `simulator::Cricket`.

mod cricket;
mod football;
mod racing;
mod tennis;

use backlay_core::odds::{self, Price};

pub use crate::rng::DemoRng;
pub use cricket::{
    batsman_projection, fall_of_wicket_projection, fancy_projection, odd_probability, Batsman,
    Cricket, Delivery, Innings, BALLS_PER_INNINGS, BALLS_PER_OVER, PAR_RUNS_PER_OVER,
    RUNS_PER_WICKET, WICKETS_PER_INNINGS,
};
pub use football::{Football, FOOTBALL_MINUTES};
pub use racing::{places_for_field, Race};
pub use tennis::Tennis;

// ---------------------------------------------------------------------------------------------
// Prices from probabilities

/// The exchange price of probability `p`: 1/p, on the ladder (nearest tick), 1.01 to 1000.
pub fn fair_price(p: f64) -> Price {
    let hundredths = (100.0 / p.clamp(0.001, 1.0)).round() as u32;
    match odds::nearest(hundredths) {
        (Some(below), Some(above)) => {
            if hundredths - below.hundredths() <= above.hundredths() - hundredths {
                below
            } else {
                above
            }
        }
        (None, _) => Price::MIN,
        (Some(below), None) => below,
    }
}

/// Pre-match win probabilities from decimal prices (hundredths), the bookmaker's margin taken
/// out so that they sum to 1.
pub fn probabilities_of_prices(prices: &[u32]) -> Vec<f64> {
    let inverse: Vec<f64> = prices.iter().map(|p| 100.0 / f64::from((*p).max(101))).collect();
    let total: f64 = inverse.iter().sum();
    inverse.iter().map(|i| i / total).collect()
}

/// The largest bookmaker rate the demo posts (99.00 in decimal odds).
pub const MAX_BOOKMAKER_RATE: i64 = 9_800;

/// How many points the bookmaker's lay rate stands above its back rate: 1 for a short
/// favourite (rates under 20), 2 up to evens, 3 beyond, as the Indian sites quote them.
pub fn bookmaker_spread(back: i64) -> i64 {
    match back {
        ..20 => 1,
        20..100 => 2,
        _ => 3,
    }
}

/// Bookmaker rates for a runner with win probability `p`, Indian style (45 is decimal odds
/// 1.45): back just under the fair rate, lay ("khai") one to three points above back
/// ([`bookmaker_spread`]), so that back ≤ fair ≤ lay: at p = 0.69 the fair rate is 44.9,
/// quoted back 44 lay 46.
pub fn bookmaker_rates(p: f64) -> (i64, i64) {
    let p = p.clamp(0.01, 0.99);
    let fair = 100.0 * (1.0 - p) / p;
    let floor = (fair.floor() as i64).clamp(1, MAX_BOOKMAKER_RATE);
    let spread = bookmaker_spread(floor);
    // Centre the spread on the fair rate: back the whole rate below it less half the spread.
    let back = (((fair - spread as f64 / 2.0).round()) as i64).clamp(1, floor);
    (back, back + spread)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bookmaker_lay_stands_one_to_three_points_above_back_around_the_fair_rate() {
        for step in 1..1000 {
            let p = f64::from(step) / 1000.0;
            let (back, lay) = bookmaker_rates(p);
            assert!((1..=3).contains(&(lay - back)), "p {p}: back {back} lay {lay}");
            let fair = 100.0 * (1.0 - p.clamp(0.01, 0.99)) / p.clamp(0.01, 0.99);
            if fair <= MAX_BOOKMAKER_RATE as f64 {
                assert!(back as f64 <= fair && fair <= lay as f64, "p {p}: {back}/{lay} {fair}");
            }
            // A likelier runner never gets a longer rate.
            let (next_back, _) = bookmaker_rates(p + 0.001);
            assert!(next_back <= back, "p {p}");
        }
    }

    #[test]
    fn prices_and_rates_follow_probability() {
        assert_eq!(fair_price(0.5).hundredths(), 200);
        assert_eq!(fair_price(0.4).hundredths(), 250);
        assert_eq!(fair_price(0.3).hundredths(), 335, "3.333 → 3.35, the nearest tick");
        assert_eq!(fair_price(1.0), Price::MIN);
        assert_eq!(fair_price(0.0), Price::MAX);
        assert_eq!(bookmaker_rates(0.5), (99, 102));
        assert_eq!(bookmaker_rates(0.69), (44, 46), "fair 44.9");
        assert_eq!(bookmaker_rates(0.9), (11, 12), "fair 11.1");
        let probabilities = probabilities_of_prices(&[200, 200]);
        assert_eq!(probabilities, vec![0.5, 0.5]);
    }
}
