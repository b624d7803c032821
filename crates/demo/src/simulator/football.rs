//! Football, minute by minute: side 0 at home, each side scoring at its own steady rate, and
//! the match odds (home, draw, away) from the score and the goals still to come.

use crate::rng::DemoRng;

pub const FOOTBALL_MINUTES: u32 = 90;
/// Goals a side scores in an average match.
const GOALS_PER_MATCH: f64 = 1.35;

/// A football match, minute by minute: side 0 at home.
#[derive(Clone, Debug)]
pub struct Football {
    rng: DemoRng,
    minute: u32,
    goals: [u32; 2],
    /// Each side's expected goals over a whole match.
    goals_per_match: [f64; 2],
}

impl Football {
    /// `edge` is the home side's pre-match log-odds over the away side.
    pub fn new(seed: u64, edge: f64) -> Football {
        let tilt = 0.5 * edge.tanh();
        Football {
            rng: DemoRng::new(seed),
            minute: 0,
            goals: [0, 0],
            goals_per_match: [GOALS_PER_MATCH + tilt, GOALS_PER_MATCH - tilt],
        }
    }

    pub fn minute(&self) -> u32 {
        self.minute
    }

    pub fn goals(&self) -> [u32; 2] {
        self.goals
    }

    pub fn is_finished(&self) -> bool {
        self.minute >= FOOTBALL_MINUTES
    }

    /// Plays a minute; returns the side that scored, if one did.
    pub fn play_minute(&mut self) -> Option<usize> {
        if self.is_finished() {
            return None;
        }
        self.minute += 1;
        for side in 0..2 {
            if self.rng.chance(self.goals_per_match[side] / f64::from(FOOTBALL_MINUTES)) {
                self.goals[side] += 1;
                return Some(side);
            }
        }
        None
    }

    /// (home win, draw, away win) from the score and the goals each side can still expect
    /// (Poisson) in the minutes left.
    pub fn probabilities(&self) -> [f64; 3] {
        let left = f64::from(FOOTBALL_MINUTES - self.minute.min(FOOTBALL_MINUTES))
            / f64::from(FOOTBALL_MINUTES);
        let home = poisson(self.goals_per_match[0] * left, 12);
        let away = poisson(self.goals_per_match[1] * left, 12);
        let mut result = [0.0; 3];
        for (h, ph) in home.iter().enumerate() {
            for (a, pa) in away.iter().enumerate() {
                let (home_goals, away_goals) =
                    (self.goals[0] as usize + h, self.goals[1] as usize + a);
                let slot = match home_goals.cmp(&away_goals) {
                    std::cmp::Ordering::Greater => 0,
                    std::cmp::Ordering::Equal => 1,
                    std::cmp::Ordering::Less => 2,
                };
                result[slot] += ph * pa;
            }
        }
        let total: f64 = result.iter().sum();
        result.map(|p| p / total)
    }

    /// The result once the match is over, as the runner index: 0 home, 1 the draw, 2 away.
    pub fn result(&self) -> Option<usize> {
        self.is_finished().then(|| match self.goals[0].cmp(&self.goals[1]) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        })
    }
}

/// P(X = k) for k in 0..=max of a Poisson variable with mean `mean`.
fn poisson(mean: f64, max: usize) -> Vec<f64> {
    let mut p = (-mean).exp();
    let mut out = Vec::with_capacity(max + 1);
    for k in 0..=max {
        out.push(p);
        p *= mean / (k + 1) as f64;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn football_goals_move_the_prices() {
        let mut game = Football::new(3, 0.0);
        let start = game.probabilities();
        assert!((start.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((start[0] - start[2]).abs() < 1e-9, "even sides: home and away alike");
        game.goals = [1, 0];
        game.minute = 30;
        assert!(game.probabilities()[0] > start[0] + 0.15, "a goal up");
        game.minute = 89;
        assert!(game.probabilities()[0] > 0.95, "a goal up in the last minute");
        let mut played = Football::new(3, 0.4);
        while !played.is_finished() {
            played.play_minute();
        }
        assert_eq!(played.minute(), FOOTBALL_MINUTES);
        assert!(played.result().is_some());
    }
}
