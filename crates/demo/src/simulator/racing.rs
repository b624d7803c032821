//! Horse and greyhound races: a field of named runners of different strengths, their chances
//! of winning and of placing (Harville), and the finishing order.

use crate::fixtures;
use crate::rng::DemoRng;

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
        let runners = fixtures::runner_names(&mut rng, greyhounds, field);
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
