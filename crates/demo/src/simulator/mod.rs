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

mod cricket;
mod football;
mod tennis;

use backlay_core::odds::{self, Price};

pub use crate::rng::DemoRng;
pub use cricket::{
    batsman_projection, fall_of_wicket_projection, fancy_projection, odd_probability, Batsman,
    Cricket, Delivery, Innings, BALLS_PER_INNINGS, BALLS_PER_OVER, PAR_RUNS_PER_OVER,
    RUNS_PER_WICKET, WICKETS_PER_INNINGS,
};
pub use football::{Football, FOOTBALL_MINUTES};
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

// ---------------------------------------------------------------------------------------------
// Racing

/// A race: its runners, how strong each is, and how many places the place market pays.
#[derive(Clone, Debug)]
pub struct Race {
    pub runners: Vec<String>,
    strengths: Vec<f64>,
    pub places: usize,
    seed: u64,
}

/// Places paid for a field: 2 for 5 to 7 runners, 3 for 8 or more.
pub fn places_for_field(runners: usize) -> usize {
    match runners {
        0..=4 => 1,
        5..=7 => 2,
        _ => 3,
    }
}

impl Race {
    /// A field of 6 to 10 horses, or 6 or 8 greyhounds, the same for the same seed.
    pub fn new(seed: u64, greyhounds: bool) -> Race {
        let mut rng = DemoRng::new(seed);
        let field =
            if greyhounds { 6 + 2 * rng.below(2) as usize } else { 6 + rng.below(5) as usize };
        let runners = super::fixtures::runner_names(&mut rng, greyhounds, field);
        let strengths = (0..field).map(|_| (rng.unit() * 2.2).exp()).collect();
        Race { runners, strengths, places: places_for_field(field), seed }
    }

    /// Each runner's chance of winning.
    pub fn win_probabilities(&self) -> Vec<f64> {
        let total: f64 = self.strengths.iter().sum();
        self.strengths.iter().map(|s| s / total).collect()
    }

    /// Each runner's chance of finishing in the first [`Race::places`] (Harville: the
    /// second place goes among the rest in proportion to strength, and so on).
    pub fn place_probabilities(&self) -> Vec<f64> {
        let mut placed = vec![0.0; self.strengths.len()];
        let mut taken = vec![false; self.strengths.len()];
        harville(&self.strengths, &mut taken, self.places, 1.0, &mut placed);
        placed
    }

    /// Runs the race: the finishing order, as runner indexes. Each place goes to one of the
    /// runners left, in proportion to strength.
    pub fn run(&self) -> Vec<usize> {
        let mut rng = DemoRng::new(self.seed.wrapping_add(1));
        let mut left: Vec<usize> = (0..self.strengths.len()).collect();
        let mut order = Vec::with_capacity(left.len());
        while !left.is_empty() {
            let total: f64 = left.iter().map(|i| self.strengths[*i]).sum();
            let mut roll = rng.unit() * total;
            let mut chosen = left.len() - 1;
            for (slot, runner) in left.iter().enumerate() {
                roll -= self.strengths[*runner];
                if roll < 0.0 {
                    chosen = slot;
                    break;
                }
            }
            order.push(left.remove(chosen));
        }
        order
    }
}

fn harville(
    strengths: &[f64],
    taken: &mut [bool],
    places_left: usize,
    chance: f64,
    placed: &mut [f64],
) {
    if places_left == 0 {
        return;
    }
    let rest: f64 = strengths.iter().zip(taken.iter()).filter(|(_, t)| !**t).map(|(s, _)| s).sum();
    for runner in 0..strengths.len() {
        if taken[runner] {
            continue;
        }
        let here = chance * strengths[runner] / rest;
        placed[runner] += here;
        taken[runner] = true;
        harville(strengths, taken, places_left - 1, here, placed);
        taken[runner] = false;
    }
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

    #[test]
    fn races_are_fields_of_runners_with_consistent_chances() {
        for seed in 0..50 {
            let greyhounds = seed % 2 == 0;
            let race = Race::new(seed, greyhounds);
            let field = race.runners.len();
            assert!(if greyhounds { field == 6 || field == 8 } else { (6..=10).contains(&field) });
            let win: f64 = race.win_probabilities().iter().sum();
            assert!((win - 1.0).abs() < 1e-9);
            let place = race.place_probabilities();
            assert!(
                (place.iter().sum::<f64>() - race.places as f64).abs() < 1e-9,
                "k places are shared out"
            );
            for (w, p) in race.win_probabilities().iter().zip(&place) {
                assert!(p >= w && *p <= 1.0, "placing is likelier than winning");
            }
            let order = race.run();
            assert_eq!(order, race.run(), "the same race finishes the same way");
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, (0..field).collect::<Vec<_>>());
            assert_eq!(Race::new(seed, greyhounds).runners, race.runners);
        }
        assert_eq!(places_for_field(6), 2);
        assert_eq!(places_for_field(8), 3);
    }
}
