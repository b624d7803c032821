//! A demo cricket match's house lines, as the Indian sites offer them: for each side the
//! sessions ("6 over runs MI", "10 over runs MI", "15 over runs MI", "20 over runs MI"), the
//! fall of the first two wickets ("Fall of 1st wkt MI"), the runs of the top three batsmen
//! ("R Sharma runs"), and an odd/even market on the 6-over score. A yes/no line cannot say
//! "odd", so that one is a two-runner bookmaker-style market ("6 over runs MI odd/even":
//! Odd, Even). Twenty lines a match: [`fancy_lines`] and [`odd_even_lines`].
//!
//! Every line is priced from the simulator ([`FancyLine::figure`], [`OddEven::parity`]): the
//! projected figure while it is open, the true figure once it is known. The results follow
//! the fancy rules (product spec §9: limited-over events are void when their overs are not
//! bowled; an injured batsman is settled at his score):
//! - over runs: the score at the end of that over; an innings all out sooner is settled at
//!   its total; a chase won sooner did not bowl the overs, so the line is void;
//! - fall of a wicket: the score it fell at; an innings that ends first is settled at its
//!   total (the partnership never broke);
//! - batsman runs: his score when out, or when the innings ends with him not out; void if he
//!   never came in;
//! - odd/even: the parity of the over-runs figure, void when that is.
//!
//! Example: MI are 52 for 1 after 6 overs, R Sharma out for 20 at 31 for 1. "6 over runs MI"
//! is resulted 52 and its odd/even market Even; "Fall of 1st wkt MI" 31; "R Sharma runs" 20;
//! "Fall of 2nd wkt MI" is still open at 52 + 30 = 82.

use super::fixtures::{self, CricketSide};
use super::simulator::{
    batsman_projection, fall_of_wicket_projection, fancy_projection, odd_probability, Cricket,
    BALLS_PER_OVER, WICKETS_PER_INNINGS,
};

/// The sessions each side gets, in overs.
pub const SESSION_OVERS: [u32; 4] = [6, 10, 15, 20];
/// The wickets whose fall each side gets a line on.
pub const FALL_OF_WICKETS: [u32; 2] = [1, 2];
/// The batsmen of each side with a runs line: the top of the order.
pub const BATSMEN_WITH_LINES: usize = 3;
/// The session whose score gets an odd/even market.
pub const ODD_EVEN_OVERS: u32 = 6;

/// What a fancy line counts, for one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The side's score after this many overs.
    OverRuns(u32),
    /// The side's score when this wicket (1 is the first) falls.
    FallOfWicket(u32),
    /// The runs of the side's batsman at this batting position (0 and 1 open).
    BatsmanRuns(usize),
}

/// A yes/no fancy line on one side's innings (side 0 bats first).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FancyLine {
    pub side: usize,
    pub measure: Measure,
}

/// Where a fancy line stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Figure {
    /// Still open: the figure projected now (the No line; Yes is one more).
    Projected(u32),
    /// Known: the result.
    Known(u32),
    /// Cannot be decided: the line is void.
    Void,
}

/// An odd/even market on one side's score after some overs.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OddEven {
    pub side: usize,
    pub overs: u32,
}

/// Where an odd/even market stands.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Parity {
    /// Still open: the chance the figure ends odd.
    Open(f64),
    Odd,
    Even,
    Void,
}

/// The runners of an odd/even market, in order.
pub const ODD_EVEN_RUNNERS: [&str; 2] = ["Odd", "Even"];

/// Every fancy line of a match: each side's sessions, falls of wicket and top batsmen.
pub fn fancy_lines() -> Vec<FancyLine> {
    let mut lines = Vec::new();
    for side in 0..2 {
        let measures = SESSION_OVERS
            .into_iter()
            .map(Measure::OverRuns)
            .chain(FALL_OF_WICKETS.into_iter().map(Measure::FallOfWicket))
            .chain((0..BATSMEN_WITH_LINES).map(Measure::BatsmanRuns));
        lines.extend(measures.map(|measure| FancyLine { side, measure }));
    }
    lines
}

/// Every odd/even market of a match: one a side.
pub fn odd_even_lines() -> Vec<OddEven> {
    (0..2).map(|side| OddEven { side, overs: ODD_EVEN_OVERS }).collect()
}

/// The two sides of a demo cricket match ("Mumbai Indians v Chennai Super Kings"), when the
/// feed knows both.
pub fn sides_of(match_name: &str) -> Option<[&'static CricketSide; 2]> {
    let (home, away) = fixtures::sides(match_name)?;
    Some([fixtures::cricket_side(home)?, fixtures::cricket_side(away)?])
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl FancyLine {
    /// The market's name: "6 over runs MI", "Fall of 1st wkt MI", "R Sharma runs".
    pub fn name(&self, sides: [&CricketSide; 2]) -> String {
        let side = sides[self.side];
        match self.measure {
            Measure::OverRuns(overs) => format!("{overs} over runs {}", side.short),
            Measure::FallOfWicket(wicket) => {
                format!("Fall of {} wkt {}", ordinal(wicket), side.short)
            }
            Measure::BatsmanRuns(position) => format!("{} runs", side.batting_order[position]),
        }
    }

    /// The line's figure in this state of the match (see the module's rules).
    pub fn figure(&self, game: &Cricket) -> Figure {
        let innings = game.innings(self.side);
        let closed = game.innings_closed(self.side);
        let all_out = innings.wickets == WICKETS_PER_INNINGS;
        match self.measure {
            Measure::OverRuns(overs) => match innings.over_totals.get(overs as usize - 1) {
                Some(total) => Figure::Known(*total),
                None if closed && all_out => Figure::Known(innings.runs),
                None if closed => Figure::Void,
                None => {
                    Figure::Projected(fancy_projection(innings.runs, innings.legal_balls, overs))
                }
            },
            Measure::FallOfWicket(wicket) => {
                match innings.fall_of_wickets.get(wicket as usize - 1) {
                    Some(score) => Figure::Known(*score),
                    None if closed => Figure::Known(innings.runs),
                    None => Figure::Projected(fall_of_wicket_projection(innings, wicket)),
                }
            }
            Measure::BatsmanRuns(position) => match innings.batsman(position) {
                Some(batsman) if batsman.out || closed => Figure::Known(batsman.runs),
                None if closed => Figure::Void,
                _ => Figure::Projected(batsman_projection(innings, position)),
            },
        }
    }
}

impl OddEven {
    /// The market's name: "6 over runs MI odd/even".
    pub fn name(&self, sides: [&CricketSide; 2]) -> String {
        format!("{} over runs {} odd/even", self.overs, sides[self.side].short)
    }

    /// The over-runs line whose figure decides it.
    pub fn over_runs(&self) -> FancyLine {
        FancyLine { side: self.side, measure: Measure::OverRuns(self.overs) }
    }

    /// The market in this state of the match: the chance of odd while open, then the result.
    pub fn parity(&self, game: &Cricket) -> Parity {
        match self.over_runs().figure(game) {
            Figure::Known(total) if total % 2 == 1 => Parity::Odd,
            Figure::Known(_) => Parity::Even,
            Figure::Void => Parity::Void,
            Figure::Projected(_) => {
                let innings = game.innings(self.side);
                let balls_to_come =
                    (self.overs * BALLS_PER_OVER).saturating_sub(innings.legal_balls);
                Parity::Open(odd_probability(innings.runs, balls_to_come))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{CRICKET, SERIES_TEAMS};

    fn play_out(seed: u64) -> Cricket {
        let mut game = Cricket::new(seed, 0.0);
        while game.bowl().is_some() {}
        game
    }

    #[test]
    fn every_match_gets_15_to_30_lines_with_full_distinct_names() {
        let lines = fancy_lines().len() + odd_even_lines().len();
        assert!((15..=30).contains(&lines), "{lines} lines");
        for (_, series, teams) in SERIES_TEAMS.iter().filter(|(sport, _, _)| *sport == CRICKET) {
            for home in teams.iter() {
                for away in teams.iter().filter(|away| *away != home) {
                    let name = format!("{home} v {away}");
                    let sides = sides_of(&name).unwrap_or_else(|| panic!("{series}: {name}"));
                    let mut names: Vec<String> =
                        fancy_lines().iter().map(|line| line.name(sides)).collect();
                    names.extend(odd_even_lines().iter().map(|line| line.name(sides)));
                    for (i, line) in names.iter().enumerate() {
                        assert!(!names[i + 1..].contains(line), "{name}: {line} twice");
                        // Each names its side in full: its short name or one of its batsmen.
                        let of_a_side = sides.iter().any(|side| {
                            line.split(' ').any(|word| word == side.short)
                                || side.batting_order.iter().any(|b| *line == format!("{b} runs"))
                        });
                        assert!(of_a_side, "{name}: {line}");
                    }
                }
            }
        }
        let sides = sides_of("Mumbai Indians v Chennai Super Kings").unwrap();
        let names: Vec<String> = fancy_lines().iter().map(|line| line.name(sides)).collect();
        for expected in [
            "6 over runs MI",
            "10 over runs MI",
            "20 over runs CSK",
            "Fall of 1st wkt MI",
            "Fall of 2nd wkt CSK",
            "R Sharma runs",
            "R Gaikwad runs",
        ] {
            assert!(names.iter().any(|n| n == expected), "{expected} in {names:?}");
        }
        assert_eq!(odd_even_lines()[0].name(sides), "6 over runs MI odd/even");
        assert_eq!(sides_of("Lions v Tigers"), None);
    }

    #[test]
    fn lines_are_resulted_with_the_simulators_figures() {
        for seed in 0..300 {
            let game = play_out(seed);
            for line in fancy_lines() {
                let innings = game.innings(line.side);
                let figure = line.figure(&game);
                let all_out = innings.wickets == WICKETS_PER_INNINGS;
                let expected = match line.measure {
                    Measure::OverRuns(overs) => {
                        if innings.legal_balls >= overs * BALLS_PER_OVER {
                            Figure::Known(innings.over_totals[overs as usize - 1])
                        } else if all_out {
                            Figure::Known(innings.runs)
                        } else {
                            assert_eq!(line.side, 1, "seed {seed}: only a chase ends early");
                            Figure::Void
                        }
                    }
                    Measure::FallOfWicket(wicket) => Figure::Known(
                        innings
                            .fall_of_wickets
                            .get(wicket as usize - 1)
                            .copied()
                            .unwrap_or(innings.runs),
                    ),
                    Measure::BatsmanRuns(position) => innings
                        .batsmen
                        .get(position)
                        .map_or(Figure::Void, |batsman| Figure::Known(batsman.runs)),
                };
                assert_eq!(figure, expected, "seed {seed}: {line:?}");
            }
            for odd_even in odd_even_lines() {
                let parity = odd_even.parity(&game);
                match odd_even.over_runs().figure(&game) {
                    Figure::Known(total) => assert_eq!(
                        parity,
                        if total % 2 == 1 { Parity::Odd } else { Parity::Even },
                        "seed {seed}"
                    ),
                    other => assert_eq!((other, parity), (Figure::Void, Parity::Void)),
                }
            }
        }
    }

    #[test]
    fn a_line_is_known_as_soon_as_its_figure_is_and_never_changes_after() {
        for seed in 0..50 {
            let mut game = Cricket::new(seed, 0.3);
            let mut known: Vec<Option<Figure>> = vec![None; fancy_lines().len()];
            loop {
                for (line, was) in fancy_lines().iter().zip(known.iter_mut()) {
                    let figure = line.figure(&game);
                    if let Some(was) = was {
                        assert_eq!(figure, *was, "seed {seed}: {line:?} changed once known");
                    } else if !matches!(figure, Figure::Projected(_)) {
                        *was = Some(figure);
                    }
                }
                // The 6-over line is known from the ball the sixth over ends.
                let first = game.innings(0);
                if first.legal_balls >= 36 {
                    assert_eq!(
                        fancy_lines()[0].figure(&game),
                        Figure::Known(first.over_totals[5]),
                        "seed {seed}"
                    );
                }
                if game.bowl().is_none() {
                    break;
                }
            }
            assert!(known.iter().all(Option::is_some), "seed {seed}: all decided at the end");
        }
    }

    #[test]
    fn open_lines_follow_the_play() {
        let game = Cricket::new(1, 0.0);
        let figure = |measure| FancyLine { side: 0, measure }.figure(&game);
        assert_eq!(figure(Measure::OverRuns(6)), Figure::Projected(48));
        assert_eq!(figure(Measure::OverRuns(20)), Figure::Projected(160));
        assert_eq!(figure(Measure::FallOfWicket(1)), Figure::Projected(30));
        assert_eq!(figure(Measure::FallOfWicket(2)), Figure::Projected(60));
        assert_eq!(figure(Measure::BatsmanRuns(0)), Figure::Projected(27));
        assert_eq!(figure(Measure::BatsmanRuns(2)), Figure::Projected(26));
        let odd = OddEven { side: 0, overs: 6 }.parity(&game);
        assert!(matches!(odd, Parity::Open(p) if (p - 0.5).abs() < 1e-6), "{odd:?}");
        // Odd/even: on the last ball of the session the present parity tells most.
        assert!(odd_probability(47, 1) > 0.6 && odd_probability(48, 1) < 0.4);
        assert_eq!(odd_probability(47, 0), 1.0);
        assert_eq!(odd_probability(48, 0), 0.0);
    }

    #[test]
    fn ordinals_read_as_cricket_writes_them() {
        let written: Vec<String> = [1, 2, 3, 4, 11, 12, 21].into_iter().map(ordinal).collect();
        assert_eq!(written, ["1st", "2nd", "3rd", "4th", "11th", "12th", "21st"]);
    }
}
