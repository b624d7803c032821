//! T20 cricket, ball by ball: what a delivery can do and how often in each phase of the
//! innings, the scorecard it builds (runs, wickets, overs, the batsmen), the chance that the
//! side batting first wins, and the projections the fancy lines are priced from (session
//! runs, the fall of a wicket, a batsman's runs, odd or even).

use crate::rng::DemoRng;

/// The normal distribution's CDF, near enough for prices (the logistic approximation).
fn normal_cdf(z: f64) -> f64 {
    1.0 / (1.0 + (-1.702 * z).exp())
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-6, 1.0 - 1e-6);
    (p / (1.0 - p)).ln()
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

pub const BALLS_PER_OVER: u32 = 6;
pub const BALLS_PER_INNINGS: u32 = 120;
pub const WICKETS_PER_INNINGS: u32 = 10;
/// The par scoring rate, used for the first over's fancy lines and by the win model.
pub const PAR_RUNS_PER_OVER: u32 = 8;

/// What one delivery did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// Runs off the bat: 0 (a dot ball), 1, 2, 3, 4 or 6.
    Runs(u32),
    /// One run to the batting side, and the ball is bowled again.
    Wide,
    Wicket,
}

impl Delivery {
    pub fn runs(self) -> u32 {
        match self {
            Delivery::Runs(runs) => runs,
            Delivery::Wide => 1,
            Delivery::Wicket => 0,
        }
    }

    pub fn is_legal(self) -> bool {
        self != Delivery::Wide
    }
}

/// Chances per mille of a legal ball's outcomes in one phase of an innings, summing to 1000.
/// About 8 an over and 5 wickets an innings, faster at the death.
const POWERPLAY: [(Delivery, u32); 7] = [
    (Delivery::Runs(0), 395),
    (Delivery::Runs(1), 290),
    (Delivery::Runs(2), 60),
    (Delivery::Runs(3), 8),
    (Delivery::Runs(4), 150),
    (Delivery::Runs(6), 55),
    (Delivery::Wicket, 42),
];
const MIDDLE_OVERS: [(Delivery, u32); 7] = [
    (Delivery::Runs(0), 322),
    (Delivery::Runs(1), 420),
    (Delivery::Runs(2), 90),
    (Delivery::Runs(3), 8),
    (Delivery::Runs(4), 90),
    (Delivery::Runs(6), 35),
    (Delivery::Wicket, 35),
];
const DEATH_OVERS: [(Delivery, u32); 7] = [
    (Delivery::Runs(0), 279),
    (Delivery::Runs(1), 350),
    (Delivery::Runs(2), 90),
    (Delivery::Runs(3), 6),
    (Delivery::Runs(4), 140),
    (Delivery::Runs(6), 75),
    (Delivery::Wicket, 60),
];
const WIDES_PER_MILLE: u32 = 30;

/// One batsman's innings.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Batsman {
    pub runs: u32,
    /// Legal balls faced.
    pub balls: u32,
    pub out: bool,
}

/// One side's innings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Innings {
    pub runs: u32,
    pub wickets: u32,
    /// Legal deliveries bowled (wides do not count).
    pub legal_balls: u32,
    pub extras: u32,
    /// The score at the end of each completed over: `over_totals[5]` is the 6-over total.
    pub over_totals: Vec<u32>,
    /// The score when each wicket fell: `fall_of_wickets[0]` is the first wicket's.
    pub fall_of_wickets: Vec<u32>,
    /// The batsmen who have come in, in batting order (the openers from the first ball).
    pub batsmen: Vec<Batsman>,
    /// The batting positions (indexes of `batsmen`) on strike and at the other end.
    striker: usize,
    non_striker: usize,
}

impl Default for Innings {
    /// Before the first ball: no runs, the two openers in.
    fn default() -> Innings {
        Innings {
            runs: 0,
            wickets: 0,
            legal_balls: 0,
            extras: 0,
            over_totals: Vec::new(),
            fall_of_wickets: Vec::new(),
            batsmen: vec![Batsman::default(); 2],
            striker: 0,
            non_striker: 1,
        }
    }
}

impl Innings {
    pub fn balls_left(&self) -> u32 {
        BALLS_PER_INNINGS.saturating_sub(self.legal_balls)
    }

    /// Overs as cricket writes them: 5.3 is five overs and three balls.
    pub fn overs_text(&self) -> String {
        format!("{}.{}", self.legal_balls / BALLS_PER_OVER, self.legal_balls % BALLS_PER_OVER)
    }

    /// The batsman at `position` in the batting order (0 and 1 open), once he has come in.
    pub fn batsman(&self, position: usize) -> Option<&Batsman> {
        self.batsmen.get(position)
    }

    /// The batting positions of the two batsmen in: (on strike, at the other end).
    pub fn at_the_crease(&self) -> (usize, usize) {
        (self.striker, self.non_striker)
    }

    /// Records one delivery: the score, the batsman on strike, the fall of a wicket (the
    /// striker is out and the next in the order takes strike), and the change of ends after
    /// an odd number of runs and at the end of each over.
    fn record(&mut self, delivery: Delivery) {
        self.runs += delivery.runs();
        if delivery == Delivery::Wide {
            self.extras += 1;
            return;
        }
        self.legal_balls += 1;
        let striker = &mut self.batsmen[self.striker];
        striker.balls += 1;
        match delivery {
            Delivery::Runs(runs) => {
                striker.runs += runs;
                if runs % 2 == 1 {
                    std::mem::swap(&mut self.striker, &mut self.non_striker);
                }
            }
            Delivery::Wicket => {
                striker.out = true;
                self.wickets += 1;
                self.fall_of_wickets.push(self.runs);
                if self.wickets < WICKETS_PER_INNINGS {
                    self.batsmen.push(Batsman::default());
                    self.striker = self.batsmen.len() - 1;
                }
            }
            Delivery::Wide => {}
        }
        if self.legal_balls % BALLS_PER_OVER == 0 {
            self.over_totals.push(self.runs);
            std::mem::swap(&mut self.striker, &mut self.non_striker);
        }
    }
}

/// A T20 match: side 0 bats first.
#[derive(Clone, Debug)]
pub struct Cricket {
    rng: DemoRng,
    innings: [Innings; 2],
    batting: usize,
    /// Log-odds edge of side 0 before a ball is bowled (team strength).
    edge: f64,
    winner: Option<usize>,
}

impl Cricket {
    /// A match that starts at the first ball; `edge` is side 0's pre-match log-odds (0 for an
    /// even match), which also tilts each side's boundary rate a little.
    pub fn new(seed: u64, edge: f64) -> Cricket {
        Cricket {
            rng: DemoRng::new(seed),
            innings: Default::default(),
            batting: 0,
            edge,
            winner: None,
        }
    }

    pub fn innings(&self, side: usize) -> &Innings {
        &self.innings[side]
    }

    /// The side batting now (0 or 1).
    pub fn batting(&self) -> usize {
        self.batting
    }

    pub fn is_finished(&self) -> bool {
        self.winner.is_some()
    }

    /// The winning side once the match is over (a tie goes to a super over, settled here by a
    /// coin toss).
    pub fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// Whether `side`'s innings is over.
    pub fn innings_closed(&self, side: usize) -> bool {
        side < self.batting || self.is_finished()
    }

    /// Side `side`'s score after `overs` overs, once it is known: when that over is complete,
    /// or the final total of an innings that ended sooner.
    pub fn runs_after_overs(&self, side: usize, overs: u32) -> Option<u32> {
        let innings = &self.innings[side];
        match innings.over_totals.get(overs as usize - 1) {
            Some(total) => Some(*total),
            None if self.innings_closed(side) => Some(innings.runs),
            None => None,
        }
    }

    /// Bowls the next ball; `None` once the match is over.
    pub fn bowl(&mut self) -> Option<Delivery> {
        if self.is_finished() {
            return None;
        }
        let side = self.batting;
        let delivery = self.draw_delivery(side);
        let innings = &mut self.innings[side];
        innings.record(delivery);
        let all_out = innings.wickets == WICKETS_PER_INNINGS;
        let overs_done = innings.legal_balls == BALLS_PER_INNINGS;
        let chased = side == 1 && self.innings[1].runs > self.innings[0].runs;
        if all_out || overs_done || chased {
            if side == 0 {
                self.batting = 1;
            } else {
                self.winner = Some(match self.innings[1].runs.cmp(&self.innings[0].runs) {
                    std::cmp::Ordering::Greater => 1,
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Equal => self.rng.below(2) as usize,
                });
            }
        }
        Some(delivery)
    }

    fn draw_delivery(&mut self, side: usize) -> Delivery {
        if self.rng.below(1000) < WIDES_PER_MILLE {
            return Delivery::Wide;
        }
        let over = self.innings[side].legal_balls / BALLS_PER_OVER;
        let table = match over {
            0..=5 => POWERPLAY,
            6..=15 => MIDDLE_OVERS,
            _ => DEATH_OVERS,
        };
        // The stronger side hits a few more fours instead of dot balls.
        let strength = if side == 0 { self.edge } else { -self.edge };
        let bonus = (strength.clamp(-1.0, 1.0) * 15.0).round() as i64;
        let mut roll = i64::from(self.rng.below(1000));
        for (delivery, per_mille) in table {
            let weight = i64::from(per_mille)
                + match delivery {
                    Delivery::Runs(0) => -bonus,
                    Delivery::Runs(4) => bonus,
                    _ => 0,
                };
            if roll < weight {
                return delivery;
            }
            roll -= weight;
        }
        Delivery::Runs(0)
    }

    /// The chance that side 0 (batting first) wins, from runs, wickets and balls left: the
    /// innings' projected total against what the other side can be expected to make (first
    /// innings), or the runs still needed against the resources left (the chase), with the
    /// pre-match edge counting for the share of the match still to play.
    pub fn win_probability(&self) -> f64 {
        match self.winner {
            Some(0) => return 1.0,
            Some(_) => return 0.0,
            None => {}
        }
        let first = &self.innings[0];
        let state = if self.batting == 0 {
            let projected =
                f64::from(first.runs) + expected_more_runs(first.balls_left(), first.wickets);
            let reply = expected_more_runs(BALLS_PER_INNINGS, 0);
            let spread = (runs_spread(first.balls_left()).powi(2)
                + runs_spread(BALLS_PER_INNINGS).powi(2))
            .sqrt();
            normal_cdf((projected - reply) / spread)
        } else {
            let second = &self.innings[1];
            let needed = f64::from(first.runs + 1) - f64::from(second.runs);
            let expected = expected_more_runs(second.balls_left(), second.wickets);
            1.0 - normal_cdf((expected - needed + 0.5) / runs_spread(second.balls_left()))
        };
        let balls_left = first.balls_left() + self.innings[1].balls_left();
        let share_left = f64::from(balls_left) / f64::from(2 * BALLS_PER_INNINGS);
        logistic(logit(state) + self.edge * share_left)
    }

    /// "India 45/2 (5.3)"-style score of both innings, for logs.
    pub fn score_text(&self, sides: &[&str; 2]) -> String {
        let mut text = String::new();
        for (side, innings) in self.innings.iter().enumerate() {
            if side > self.batting {
                break;
            }
            if side > 0 {
                text.push_str(", ");
            }
            text.push_str(&format!(
                "{} {}/{} ({})",
                sides[side],
                innings.runs,
                innings.wickets,
                innings.overs_text()
            ));
        }
        text
    }
}

/// Runs a side can expect from `balls_left` balls with `wickets_lost` down: par a ball, less
/// as wickets fall.
fn expected_more_runs(balls_left: u32, wickets_lost: u32) -> f64 {
    if wickets_lost >= WICKETS_PER_INNINGS {
        return 0.0;
    }
    let per_ball = f64::from(PAR_RUNS_PER_OVER) / f64::from(BALLS_PER_OVER);
    let in_hand = f64::from(WICKETS_PER_INNINGS - wickets_lost) / f64::from(WICKETS_PER_INNINGS);
    f64::from(balls_left) * per_ball * in_hand.powf(0.6)
}

/// The spread (one standard deviation) of the runs still to come.
fn runs_spread(balls_left: u32) -> f64 {
    3.0 + 22.0 * (f64::from(balls_left) / f64::from(BALLS_PER_INNINGS)).sqrt()
}

/// The fancy line for "`overs` over runs": the runs projected at `overs` overs from the current
/// run rate, rounded half up. Before the first over is complete the missing balls of it count
/// at par (8 an over), so the opening line is 48 for 6 overs and one big hit does not send it
/// flying. Once `overs` overs are bowled it is the total itself.
///
/// 30 runs from 18 balls → 60 at 6 overs; 45 from 24 → 112.5 → 113 at 10 overs; 3 from 2 balls
/// → (3 + 8·4/6) per over → 50 at 6 overs.
pub fn fancy_projection(runs: u32, legal_balls: u32, overs: u32) -> u32 {
    let target_balls = u64::from(overs * BALLS_PER_OVER);
    let (runs, balls) = (u64::from(runs), u64::from(legal_balls));
    if balls >= target_balls {
        return runs as u32;
    }
    let per_over = u64::from(BALLS_PER_OVER);
    let (numerator, denominator) = if balls < per_over {
        // (runs + par × missing balls / 6) × target_balls / 6, all in sixths.
        (
            (runs * per_over + u64::from(PAR_RUNS_PER_OVER) * (per_over - balls)) * target_balls,
            per_over * per_over,
        )
    } else {
        (runs * target_balls, balls)
    };
    ((2 * numerator + denominator) / (2 * denominator)) as u32
}

/// Runs an innings makes, on average, for each wicket it loses (par 8 an over, about one
/// wicket every 22 balls), and the balls that takes.
pub const RUNS_PER_WICKET: u32 = 30;
const BALLS_PER_WICKET: u32 = 22;
/// A batsman's runs a ball faced, and his chance of getting out each ball he faces.
const BATSMAN_RUNS_PER_BALL: f64 = 1.3;
const BATSMAN_OUT_PER_BALL: f64 = 0.045;
/// The chance that a legal ball changes the parity of the score (a single, a three, a wide
/// before it).
const PARITY_FLIP_PER_BALL: f64 = 0.36;

/// The fancy line for "Fall of `wicket` wkt": the score when that wicket falls. Once it has,
/// the score it fell at; before, the score now plus [`RUNS_PER_WICKET`] for each wicket still
/// to fall, but never more than the innings can be expected to make.
///
/// 0 for 0: 30 for the first wicket, 60 for the second; 45 for 1 after 5 overs: 75 for the
/// second.
pub fn fall_of_wicket_projection(innings: &Innings, wicket: u32) -> u32 {
    if let Some(score) = innings.fall_of_wickets.get(wicket as usize - 1) {
        return *score;
    }
    let to_fall = wicket - innings.wickets.min(wicket);
    let rest = expected_more_runs(innings.balls_left(), innings.wickets);
    innings.runs + f64::from(to_fall * RUNS_PER_WICKET).min(rest).round() as u32
}

/// The balls a batsman can expect to face with `balls_left` in the innings: about half of
/// them, less his chance of getting out first.
fn expected_balls_faced(balls_left: u32) -> f64 {
    let his_share = f64::from(balls_left) / 2.0;
    (1.0 - (1.0 - BATSMAN_OUT_PER_BALL).powf(his_share)) / BATSMAN_OUT_PER_BALL
}

/// The fancy line for the runs of the batsman at `position` (0 and 1 open): his runs so far
/// plus what he can expect from the balls left; for one not in yet, what he can expect from
/// the balls left when the wickets before him have fallen. Once he is out, his score.
///
/// An opener before the first ball: 1.3 runs × 20.8 balls → 27. The number 3 (position 2)
/// before the first ball comes in after about 22 balls: 1.3 × 19.9 → 26.
pub fn batsman_projection(innings: &Innings, position: usize) -> u32 {
    let balls_left = innings.balls_left();
    let (runs, balls_left) = match innings.batsman(position) {
        Some(batsman) if batsman.out => return batsman.runs,
        Some(batsman) => (batsman.runs, balls_left),
        None => {
            let wickets_before_him = (position as u32).saturating_sub(1);
            let to_fall = wickets_before_him.saturating_sub(innings.wickets);
            (0, balls_left.saturating_sub(to_fall * BALLS_PER_WICKET))
        }
    };
    runs + (BATSMAN_RUNS_PER_BALL * expected_balls_faced(balls_left)).round() as u32
}

/// The chance that a total now at `runs`, with `balls_to_come` legal balls still to be bowled
/// towards it, ends odd: each ball flips the parity with [`PARITY_FLIP_PER_BALL`], so the
/// present parity's pull fades as (1 − 2·0.36) = 0.28 a ball. Exact once no ball is left.
pub fn odd_probability(runs: u32, balls_to_come: u32) -> f64 {
    let pull = 0.5 * (1.0 - 2.0 * PARITY_FLIP_PER_BALL).powi(balls_to_come.min(1_000) as i32);
    if runs % 2 == 1 {
        0.5 + pull
    } else {
        0.5 - pull
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_out(seed: u64) -> Cricket {
        let mut game = Cricket::new(seed, 0.0);
        let mut deliveries = 0;
        while game.bowl().is_some() {
            deliveries += 1;
            assert!(deliveries < 400, "a T20 match ends");
        }
        game
    }

    #[test]
    fn the_same_seed_plays_the_same_match() {
        let (a, b) = (play_out(42), play_out(42));
        assert_eq!(a.innings, b.innings);
        assert_eq!(a.winner(), b.winner());
        let c = play_out(43);
        assert_ne!(a.innings, c.innings, "another seed, another match");
    }

    #[test]
    fn totals_and_over_counts_add_up() {
        for seed in 0..200 {
            let mut game = Cricket::new(seed, 0.0);
            let mut by_ball = [(0u32, 0u32, 0u32, 0u32); 2]; // runs, wickets, legal balls, wides
            while !game.is_finished() {
                let side = game.batting();
                let delivery = game.bowl().unwrap();
                let tally = &mut by_ball[side];
                tally.0 += delivery.runs();
                tally.1 += u32::from(delivery == Delivery::Wicket);
                tally.2 += u32::from(delivery.is_legal());
                tally.3 += u32::from(!delivery.is_legal());
            }
            for (side, tally) in by_ball.iter().enumerate() {
                let innings = game.innings(side);
                assert_eq!(
                    (innings.runs, innings.wickets, innings.legal_balls, innings.extras),
                    *tally,
                    "seed {seed}"
                );
                assert!(
                    innings.legal_balls <= BALLS_PER_INNINGS
                        && innings.wickets <= WICKETS_PER_INNINGS
                );
                // One over total per completed over, never falling, none past the total.
                assert_eq!(
                    innings.over_totals.len() as u32,
                    innings.legal_balls / BALLS_PER_OVER,
                    "seed {seed}"
                );
                assert!(innings.over_totals.windows(2).all(|w| w[0] <= w[1]));
                assert!(innings.over_totals.last().is_none_or(|last| *last <= innings.runs));
                // The batsmen's runs and the extras make the total; a wicket's fall is recorded
                // at the score it fell, one batsman out for each.
                let off_the_bat: u32 = innings.batsmen.iter().map(|b| b.runs).sum();
                assert_eq!(off_the_bat + innings.extras, innings.runs, "seed {seed}");
                let balls_faced: u32 = innings.batsmen.iter().map(|b| b.balls).sum();
                assert_eq!(balls_faced, innings.legal_balls, "seed {seed}");
                assert_eq!(innings.fall_of_wickets.len() as u32, innings.wickets);
                assert_eq!(
                    innings.batsmen.iter().filter(|b| b.out).count() as u32,
                    innings.wickets
                );
                assert_eq!(innings.batsmen.len() as u32, (innings.wickets + 2).min(11));
                assert!(innings.fall_of_wickets.windows(2).all(|w| w[0] <= w[1]));
                let (striker, other) = innings.at_the_crease();
                assert!(striker != other || innings.wickets == WICKETS_PER_INNINGS);
            }
            let (first, second) = (game.innings(0), game.innings(1));
            assert!(
                first.wickets == 10 || first.legal_balls == BALLS_PER_INNINGS,
                "seed {seed}: the first innings ran its course"
            );
            let winner = game.winner().unwrap();
            if second.runs > first.runs {
                assert_eq!(winner, 1);
            } else if second.runs < first.runs {
                assert_eq!(winner, 0);
                assert!(second.wickets == 10 || second.legal_balls == BALLS_PER_INNINGS);
            }
            assert!(second.runs <= first.runs + 6, "the chase stops once the target is passed");
        }
    }

    #[test]
    fn scoring_is_t20_like() {
        let games: Vec<Cricket> = (0..300).map(play_out).collect();
        let mean_first = games.iter().map(|g| f64::from(g.innings(0).runs)).sum::<f64>() / 300.0;
        let mean_wickets =
            games.iter().map(|g| f64::from(g.innings(0).wickets)).sum::<f64>() / 300.0;
        assert!((140.0..185.0).contains(&mean_first), "mean first-innings total {mean_first}");
        assert!((4.0..8.0).contains(&mean_wickets), "mean wickets {mean_wickets}");
        let chasers = games.iter().filter(|g| g.winner() == Some(1)).count();
        assert!((90..210).contains(&chasers), "even sides win about half each: {chasers}/300");
    }

    #[test]
    fn the_fancy_line_projects_the_run_rate() {
        // Before a ball: par, 8 an over.
        assert_eq!(fancy_projection(0, 0, 6), 48);
        assert_eq!(fancy_projection(0, 0, 10), 80);
        // 3 off 2 balls: the over's other 4 balls at par → 3 + 5.33 = 8.33 an over → 50.
        assert_eq!(fancy_projection(3, 2, 6), 50);
        // 30 off 3 overs: 10 an over → 60 at 6 overs, 100 at 10.
        assert_eq!(fancy_projection(30, 18, 6), 60);
        assert_eq!(fancy_projection(30, 18, 10), 100);
        // 45 off 4 overs → 112.5 at 10 overs, rounded half up.
        assert_eq!(fancy_projection(45, 24, 10), 113);
        // 41 off 31 balls → 41 × 36 / 31 = 47.6 → 48.
        assert_eq!(fancy_projection(41, 31, 6), 48);
        // Once the overs are bowled the line is the total.
        assert_eq!(fancy_projection(57, 36, 6), 57);
        assert_eq!(fancy_projection(57, 40, 6), 57);
    }

    #[test]
    fn the_six_over_total_is_the_score_at_the_end_of_the_sixth_over() {
        let mut game = Cricket::new(9, 0.0);
        while game.innings(0).legal_balls < 36 {
            assert_eq!(
                game.runs_after_overs(0, 6),
                None,
                "not known before six overs (unless all out)"
            );
            game.bowl();
            if game.batting() == 1 {
                break;
            }
        }
        let at_six = game.runs_after_overs(0, 6).unwrap();
        game.bowl();
        assert_eq!(game.runs_after_overs(0, 6), Some(at_six), "later balls do not change it");
        if game.innings(0).legal_balls >= 36 {
            assert_eq!(game.innings(0).over_totals[5], at_six);
        }
    }

    /// A match in a given state, for the win-probability tests.
    fn at(first: (u32, u32, u32), second: Option<(u32, u32, u32)>) -> Cricket {
        let mut game = Cricket::new(1, 0.0);
        game.innings[0] =
            Innings { runs: first.0, wickets: first.1, legal_balls: first.2, ..Innings::default() };
        if let Some(second) = second {
            game.batting = 1;
            game.innings[1] = Innings {
                runs: second.0,
                wickets: second.1,
                legal_balls: second.2,
                ..Innings::default()
            };
        }
        game
    }

    #[test]
    fn the_win_probability_moves_the_right_way() {
        let p = |game: Cricket| game.win_probability();
        assert!((p(at((0, 0, 0), None)) - 0.5).abs() < 1e-9, "even sides start level");
        assert!(p(Cricket::new(1, 0.8)) > 0.68, "the favourite starts ahead");
        // First innings: runs help the batting side, a wicket hurts it.
        assert!(p(at((40, 0, 24), None)) > p(at((30, 0, 24), None)));
        assert!(p(at((30, 3, 24), None)) < p(at((30, 0, 24), None)));
        assert!(p(at((200, 4, 120), Some((0, 0, 0)))) > 0.9, "200 is a big total");
        // The chase: runs help the chasers (side 1), wickets and dot balls hurt them.
        let chase = |runs, wickets, balls| 1.0 - p(at((160, 6, 120), Some((runs, wickets, balls))));
        assert!(chase(130, 3, 108) > chase(124, 3, 108), "a six helps the chasers");
        assert!(chase(130, 4, 108) < chase(130, 3, 108), "a wicket hurts them");
        assert!(
            chase(130, 3, 109) < chase(130, 3, 108),
            "a dot ball with 31 needed off 12 hurts them"
        );
        assert!(
            chase(159, 9, 119) > 0.3 && chase(159, 9, 119) < 0.7,
            "scores level, one ball left: anyone's"
        );
        assert!(chase(100, 8, 114) < 0.01, "61 off 6 with two wickets left is all but lost");
    }

    #[test]
    fn a_finished_match_is_certain() {
        let game = play_out(5);
        let p = game.win_probability();
        assert_eq!(p, if game.winner() == Some(0) { 1.0 } else { 0.0 });
    }
}
