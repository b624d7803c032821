//! The live score of a match as the server holds it: what a feed, the demo's simulator or an
//! operator sends ([`ScoreInput`]), parsed once into a [`Score`] that can only hold a
//! consistent score, and shown to bettors as a [`ScoreView`] with the figures that follow
//! from it (run rates, target, runs needed).
//!
//! Cricket counts overs as cricket writes them: 5 overs and 3 balls is `overs: 5, balls: 3`
//! ("5.3"), and rates are runs per six legal balls. In a limited-overs chase the target is the
//! first innings' runs plus one:
//!
//! ```
//! use backlay_core::score::{CricketInnings, CricketInput, Score, ScoreInput, ScoreView};
//!
//! let innings = |side: &str, runs, wickets, overs, balls| CricketInnings {
//!     side: side.into(), runs, wickets, overs, balls,
//! };
//! let input = ScoreInput::Cricket(CricketInput {
//!     innings: vec![innings("Chennai", 180, 6, 20, 0), innings("Mumbai", 45, 2, 5, 0)],
//!     overs_limit: Some(20),
//!     last_balls: vec!["1".into(), "4".into(), "w".into(), "0".into(), "6".into(), ".".into()],
//! });
//! let ScoreView::Cricket(view) = Score::parse(input)?.view() else { unreachable!() };
//! assert_eq!(view.run_rate, Some(9.0)); // 45 from 30 balls
//! assert_eq!(view.target, Some(181));
//! assert_eq!(view.runs_needed, Some(136));
//! assert_eq!(view.balls_left, Some(90));
//! assert_eq!(view.required_rate, Some(9.07)); // 136 from 90 balls
//! assert_eq!(view.last_balls, ["1", "4", "W", "0", "6", "."]);
//! # Ok::<(), backlay_core::score::ScoreError>(())
//! ```
//!
//! Nothing here knows which match a score belongs to; the caller checks that a cricket score
//! goes to a cricket match.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

/// Longest side, runner or result text.
pub const NAME_MAX_CHARS: usize = 100;
/// Longest result text ("Chennai Super Kings won by 12 runs").
pub const RESULT_MAX_CHARS: usize = 200;
/// Most innings a cricket match has (a Test: two a side).
pub const MAX_INNINGS: usize = 4;
/// Balls in an over.
pub const BALLS_PER_OVER: u32 = 6;
/// Most overs an innings may be limited to (an ODI is 50).
pub const MAX_OVERS_LIMIT: u32 = 100;
/// Most overs an unlimited innings may have lasted.
pub const MAX_OVERS: u32 = 500;
/// The most runs an innings, goals a side or games in a set may reach (a bound, not a rule).
pub const MAX_RUNS: u32 = 2_000;
/// Most goals a side may have.
pub const MAX_GOALS: u32 = 99;
/// Last minute a football score may give (extra time and added time included).
pub const MAX_MINUTE: u32 = 150;
/// Most sets a player may have won (best of five).
pub const MAX_SETS: u32 = 3;
/// Most games a player may have in the current set (an advantage final set runs long).
pub const MAX_GAMES: u32 = 50;
/// Most finishers a race's placings list.
pub const MAX_PLACINGS: usize = 40;
/// The recent deliveries a cricket score shows.
pub const LAST_BALLS: usize = 6;

/// A score as sent, before it is checked; `sport` says which kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "sport", rename_all = "snake_case")]
pub enum ScoreInput {
    /// Innings by innings.
    Cricket(CricketInput),
    /// Goals and the minute.
    Football(FootballScore),
    /// Sets and games, and who serves.
    Tennis(TennisScore),
    /// A race once run: its finishing order.
    Race(RacePlacings),
}

/// A cricket score as sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CricketInput {
    /// In batting order; the last is the innings in progress (or the last one played).
    pub innings: Vec<CricketInnings>,
    /// Overs per innings (20 for a T20, 50 for an ODI); absent for a match without a limit.
    #[serde(default)]
    pub overs_limit: Option<u32>,
    /// The latest deliveries, oldest first, at most six: `.` or `0` a dot ball, `1`–`7` runs,
    /// `W` a wicket, `wd` a wide, `nb` a no-ball, `lb` leg byes and `b` byes (these four with
    /// the runs in front, e.g. `2lb`).
    #[serde(default)]
    pub last_balls: Vec<String>,
}

/// One innings: its batting side, runs, wickets and overs bowled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CricketInnings {
    /// The batting side's name.
    pub side: String,
    /// Runs scored.
    pub runs: u32,
    /// Wickets fallen, 0 to 10.
    pub wickets: u32,
    /// Complete overs bowled.
    pub overs: u32,
    /// Legal balls of the over in progress, 0 to 5.
    pub balls: u32,
}

/// A football score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct FootballScore {
    /// Goals of the home side and the away side, in the match name's order.
    #[cfg_attr(feature = "openapi", schema(min_items = 2, max_items = 2))]
    pub goals: Vec<u32>,
    /// The minute being played (0 before kick-off, 45 at half time, 90 at full time).
    pub minute: u32,
}

/// A tennis score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TennisScore {
    /// Sets won by each player, in the match name's order.
    #[cfg_attr(feature = "openapi", schema(min_items = 2, max_items = 2))]
    pub sets: Vec<u32>,
    /// Games each player has in the set being played.
    #[cfg_attr(feature = "openapi", schema(min_items = 2, max_items = 2))]
    pub games: Vec<u32>,
    /// Who serves: 0 the first-named player, 1 the second.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 1))]
    pub serving: u32,
}

/// A race's finishing order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RacePlacings {
    /// Runner names, the winner first.
    pub placings: Vec<String>,
}

/// Which kind of score a score is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// [`ScoreInput::Cricket`].
    Cricket,
    /// [`ScoreInput::Football`].
    Football,
    /// [`ScoreInput::Tennis`].
    Tennis,
    /// [`ScoreInput::Race`].
    Race,
}

impl ScoreKind {
    /// The `sport` name a request uses.
    pub const fn as_str(self) -> &'static str {
        match self {
            ScoreKind::Cricket => "cricket",
            ScoreKind::Football => "football",
            ScoreKind::Tennis => "tennis",
            ScoreKind::Race => "race",
        }
    }
}

/// Why a score was refused: the field (a path under the score, e.g. `innings[1].wickets`) and
/// a message for the person or feed that sent it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ScoreError {
    /// Where under the score.
    pub field: String,
    /// What is wrong and how to put it right.
    pub message: String,
}

fn refuse(field: impl Into<String>, message: impl Into<String>) -> ScoreError {
    ScoreError { field: field.into(), message: message.into() }
}

/// A checked score: consistent figures within their bounds, names trimmed, delivery tokens
/// in one spelling. Only [`Score::parse`] makes one.
#[derive(Clone, Debug, PartialEq)]
pub struct Score(ScoreInput);

impl Score {
    /// Checks a score as sent.
    pub fn parse(input: ScoreInput) -> Result<Score, ScoreError> {
        Ok(Score(match input {
            ScoreInput::Cricket(cricket) => ScoreInput::Cricket(parse_cricket(cricket)?),
            ScoreInput::Football(football) => {
                pair("goals", &football.goals, MAX_GOALS, "goals")?;
                if football.minute > MAX_MINUTE {
                    return Err(refuse("minute", format!("minute must be 0 to {MAX_MINUTE}.")));
                }
                ScoreInput::Football(football)
            }
            ScoreInput::Tennis(tennis) => {
                pair("sets", &tennis.sets, MAX_SETS, "sets won")?;
                pair("games", &tennis.games, MAX_GAMES, "games")?;
                if tennis.serving > 1 {
                    return Err(refuse(
                        "serving",
                        "serving is 0 (the first-named player) or 1 (the second).",
                    ));
                }
                ScoreInput::Tennis(tennis)
            }
            ScoreInput::Race(race) => ScoreInput::Race(parse_race(race)?),
        }))
    }

    /// The score as it is stored and sent on (the same shape a feed sends).
    pub fn input(&self) -> &ScoreInput {
        &self.0
    }

    /// Which kind of score this is.
    pub fn kind(&self) -> ScoreKind {
        match &self.0 {
            ScoreInput::Cricket(_) => ScoreKind::Cricket,
            ScoreInput::Football(_) => ScoreKind::Football,
            ScoreInput::Tennis(_) => ScoreKind::Tennis,
            ScoreInput::Race(_) => ScoreKind::Race,
        }
    }

    /// The score as bettors see it, with what follows from it.
    pub fn view(&self) -> ScoreView {
        match &self.0 {
            ScoreInput::Cricket(cricket) => ScoreView::Cricket(cricket_view(cricket)),
            ScoreInput::Football(football) => ScoreView::Football(football.clone()),
            ScoreInput::Tennis(tennis) => ScoreView::Tennis(tennis.clone()),
            ScoreInput::Race(race) => ScoreView::Race(race.clone()),
        }
    }
}

/// Two figures, one per side, each at most `max`.
fn pair(field: &str, values: &[u32], max: u32, what: &str) -> Result<(), ScoreError> {
    if values.len() != 2 {
        return Err(refuse(field, format!("{field} has two numbers, one per side, e.g. [1, 0].")));
    }
    if let Some(side) = values.iter().position(|v| *v > max) {
        return Err(refuse(
            format!("{field}[{side}]"),
            format!("A side has at most {max} {what}."),
        ));
    }
    Ok(())
}

fn name(field: &str, what: &str, text: &str) -> Result<String, ScoreError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(refuse(field, format!("Give the {what}.")));
    }
    if text.chars().count() > NAME_MAX_CHARS {
        return Err(refuse(
            field,
            format!("The {what} must be at most {NAME_MAX_CHARS} characters."),
        ));
    }
    Ok(text.to_string())
}

fn parse_cricket(mut cricket: CricketInput) -> Result<CricketInput, ScoreError> {
    if cricket.innings.is_empty() || cricket.innings.len() > MAX_INNINGS {
        return Err(refuse(
            "innings",
            format!("innings lists 1 to {MAX_INNINGS} innings in batting order."),
        ));
    }
    if let Some(limit) = cricket.overs_limit {
        if !(1..=MAX_OVERS_LIMIT).contains(&limit) {
            return Err(refuse(
                "overs_limit",
                format!("overs_limit must be 1 to {MAX_OVERS_LIMIT} (20 for a T20), or absent."),
            ));
        }
        if cricket.innings.len() > 2 {
            return Err(refuse(
                "innings",
                "A limited-overs match has two innings: leave overs_limit out for a longer match.",
            ));
        }
    }
    let max_overs = cricket.overs_limit.unwrap_or(MAX_OVERS);
    for (i, innings) in cricket.innings.iter_mut().enumerate() {
        let at = |field: &str| format!("innings[{i}].{field}");
        innings.side = name(&at("side"), "batting side's name", &innings.side)?;
        if innings.runs > MAX_RUNS {
            return Err(refuse(at("runs"), format!("runs must be 0 to {MAX_RUNS}.")));
        }
        if innings.wickets > 10 {
            return Err(refuse(at("wickets"), "wickets must be 0 to 10."));
        }
        if innings.balls >= BALLS_PER_OVER {
            return Err(refuse(
                at("balls"),
                "balls are the legal balls of the over in progress, 0 to 5 (six make an over).",
            ));
        }
        if innings.overs > max_overs || (innings.overs == max_overs && innings.balls > 0) {
            return Err(refuse(
                at("overs"),
                format!("An innings lasts at most {max_overs} overs."),
            ));
        }
    }
    if cricket.last_balls.len() > LAST_BALLS {
        return Err(refuse(
            "last_balls",
            format!("last_balls holds at most the {LAST_BALLS} latest deliveries."),
        ));
    }
    for (i, token) in cricket.last_balls.iter_mut().enumerate() {
        *token = delivery_token(token).ok_or_else(|| {
            refuse(
                format!("last_balls[{i}]"),
                format!(
                    "{token:?} is not a delivery: use . or 0 to 7 for runs, W for a wicket, or \
                     wd, nb, lb, b with the runs in front (1wd, 4nb, 2lb)."
                ),
            )
        })?;
    }
    Ok(cricket)
}

/// One delivery in one spelling: `.` and `0`–`7` as given, `W` upper case, extras lower case
/// with their runs in front (`wd` is one wide, written `1wd`).
fn delivery_token(token: &str) -> Option<String> {
    let token = token.trim();
    match token {
        "." => return Some(".".into()),
        "w" | "W" => return Some("W".into()),
        _ => {}
    }
    let digits = token.chars().take_while(char::is_ascii_digit).count();
    let (runs, extra) = token.split_at(digits);
    let runs: Option<u32> = if runs.is_empty() { None } else { runs.parse().ok() };
    if runs.is_some_and(|r| r > 7) || digits > 1 {
        return None;
    }
    match extra.to_ascii_lowercase().as_str() {
        "" => runs.map(|r| r.to_string()),
        extra @ ("wd" | "nb" | "lb" | "b") => {
            // A wide or no-ball is worth one run by itself; leg byes and byes need their runs.
            let runs = match (runs, extra) {
                (Some(r), _) => r,
                (None, "wd" | "nb") => 1,
                (None, _) => return None,
            };
            Some(format!("{runs}{extra}"))
        }
        _ => None,
    }
}

fn parse_race(race: RacePlacings) -> Result<RacePlacings, ScoreError> {
    if race.placings.is_empty() || race.placings.len() > MAX_PLACINGS {
        return Err(refuse(
            "placings",
            format!("placings lists 1 to {MAX_PLACINGS} runners, the winner first."),
        ));
    }
    let mut seen = HashSet::new();
    let mut placings = Vec::with_capacity(race.placings.len());
    for (i, runner) in race.placings.iter().enumerate() {
        let runner = name(&format!("placings[{i}]"), "runner's name", runner)?;
        if !seen.insert(runner.to_lowercase()) {
            return Err(refuse(
                format!("placings[{i}]"),
                format!("{runner} is placed twice: each runner finishes once."),
            ));
        }
        placings.push(runner);
    }
    Ok(RacePlacings { placings })
}

/// A score as bettors see it: the cricket figures with their rates and chase; the others as
/// they were sent.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "sport", rename_all = "snake_case")]
pub enum ScoreView {
    /// Cricket.
    Cricket(CricketView),
    /// Football.
    Football(FootballScore),
    /// Tennis.
    Tennis(TennisScore),
    /// A race.
    Race(RacePlacings),
}

/// A cricket score with the figures a scoreboard shows beside it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CricketView {
    /// In batting order; the last is the current innings.
    pub innings: Vec<InningsView>,
    #[cfg_attr(feature = "openapi", schema(required = true))]
    /// Overs per innings; null without a limit.
    pub overs_limit: Option<u32>,
    /// The latest deliveries, oldest first ("1", "4", "W", "0", "6", ".").
    pub last_balls: Vec<String>,
    /// The current innings' runs per over, two decimals; null before a legal ball.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub run_rate: Option<f64>,
    /// In a limited-overs second innings: the runs to win.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub target: Option<u32>,
    /// In a limited-overs second innings: runs still needed.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub runs_needed: Option<u32>,
    /// In a limited-overs second innings: legal balls left.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub balls_left: Option<u32>,
    /// In a limited-overs chase still on: the runs per over needed, two decimals.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub required_rate: Option<f64>,
}

/// One innings on the scoreboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InningsView {
    /// The batting side.
    pub side: String,
    /// Runs scored.
    pub runs: u32,
    /// Wickets fallen.
    pub wickets: u32,
    /// Complete overs.
    pub overs: u32,
    /// Balls of the over in progress.
    pub balls: u32,
    /// Overs as cricket writes them: "5.3".
    pub overs_text: String,
}

/// Runs per over from `runs` in `balls` legal balls, rounded half up to two decimals.
fn per_over(runs: u32, balls: u32) -> Option<f64> {
    if balls == 0 {
        return None;
    }
    let hundredths = (u64::from(runs) * 600 * 2 + u64::from(balls)) / (2 * u64::from(balls));
    Some(hundredths as f64 / 100.0)
}

fn cricket_view(cricket: &CricketInput) -> CricketView {
    let balls_of = |i: &CricketInnings| i.overs * BALLS_PER_OVER + i.balls;
    let current = cricket.innings.last();
    let run_rate = current.and_then(|i| per_over(i.runs, balls_of(i)));
    let chase = match (cricket.overs_limit, cricket.innings.as_slice()) {
        (Some(limit), [first, second]) => Some((limit, first, second)),
        _ => None,
    };
    let target = chase.map(|(_, first, _)| first.runs + 1);
    let runs_needed = chase.map(|(_, first, second)| (first.runs + 1).saturating_sub(second.runs));
    let balls_left =
        chase.map(|(limit, _, second)| (limit * BALLS_PER_OVER).saturating_sub(balls_of(second)));
    let chase_on = chase.is_some_and(|(_, _, second)| second.wickets < 10)
        && runs_needed.is_some_and(|r| r > 0);
    let required_rate = match (runs_needed, balls_left) {
        (Some(runs), Some(balls)) if chase_on => per_over(runs, balls),
        _ => None,
    };
    CricketView {
        innings: cricket
            .innings
            .iter()
            .map(|i| InningsView {
                side: i.side.clone(),
                runs: i.runs,
                wickets: i.wickets,
                overs: i.overs,
                balls: i.balls,
                overs_text: format!("{}.{}", i.overs, i.balls),
            })
            .collect(),
        overs_limit: cricket.overs_limit,
        last_balls: cricket.last_balls.clone(),
        run_rate,
        target,
        runs_needed,
        balls_left,
        required_rate,
    }
}

/// Checks a match's result text ("Chennai Super Kings won by 12 runs"): trimmed, not empty,
/// at most [`RESULT_MAX_CHARS`].
pub fn parse_result(text: &str) -> Result<String, ScoreError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(refuse(
            "result",
            "result must say how the match ended; send null to clear it.",
        ));
    }
    if text.chars().count() > RESULT_MAX_CHARS {
        return Err(refuse(
            "result",
            format!("result must be at most {RESULT_MAX_CHARS} characters."),
        ));
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn innings(side: &str, runs: u32, wickets: u32, overs: u32, balls: u32) -> CricketInnings {
        CricketInnings { side: side.into(), runs, wickets, overs, balls }
    }

    fn cricket(innings: Vec<CricketInnings>, last_balls: &[&str]) -> ScoreInput {
        ScoreInput::Cricket(CricketInput {
            innings,
            overs_limit: Some(20),
            last_balls: last_balls.iter().map(|t| t.to_string()).collect(),
        })
    }

    fn cricket_view_of(input: ScoreInput) -> CricketView {
        match Score::parse(input).expect("valid").view() {
            ScoreView::Cricket(view) => view,
            other => panic!("not cricket: {other:?}"),
        }
    }

    #[test]
    fn first_innings_has_a_run_rate_and_no_chase() {
        let view = cricket_view_of(cricket(vec![innings("A", 45, 2, 5, 3)], &["1"]));
        assert_eq!(view.run_rate, Some(8.18)); // 45 from 33 balls = 8.1818…
        assert_eq!(view.target, None);
        assert_eq!(view.required_rate, None);
        assert_eq!(view.innings[0].overs_text, "5.3");
    }

    #[test]
    fn a_chase_won_or_lost_needs_no_rate() {
        let won = cricket_view_of(cricket(
            vec![innings("A", 150, 8, 20, 0), innings("B", 152, 4, 18, 2)],
            &[],
        ));
        assert_eq!(won.runs_needed, Some(0));
        assert_eq!(won.required_rate, None);
        let all_out = cricket_view_of(cricket(
            vec![innings("A", 150, 8, 20, 0), innings("B", 120, 10, 17, 0)],
            &[],
        ));
        assert_eq!(all_out.runs_needed, Some(31));
        assert_eq!(all_out.required_rate, None);
        assert_eq!(all_out.balls_left, Some(18));
    }

    #[test]
    fn no_balls_bowled_has_no_rate() {
        let view = cricket_view_of(cricket(
            vec![innings("A", 150, 8, 20, 0), innings("B", 0, 0, 0, 0)],
            &[],
        ));
        assert_eq!(view.run_rate, None);
        assert_eq!(view.target, Some(151));
        assert_eq!(view.required_rate, Some(7.55));
    }

    #[test]
    fn deliveries_are_spelt_one_way() {
        let view = cricket_view_of(cricket(
            vec![innings("A", 10, 1, 1, 0)],
            &["w", ".", "0", "Wd", "4NB", "2lb"],
        ));
        assert_eq!(view.last_balls, ["W", ".", "0", "1wd", "4nb", "2lb"]);
        for bad in ["8", "x", "12", "lb", "W2", ""] {
            let err = Score::parse(cricket(vec![innings("A", 10, 1, 1, 0)], &[bad])).unwrap_err();
            assert_eq!(err.field, "last_balls[0]", "{bad:?}");
        }
    }

    #[test]
    fn impossible_cricket_is_refused_with_its_field() {
        let cases = [
            (cricket(vec![innings("A", 10, 11, 1, 0)], &[]), "innings[0].wickets"),
            (cricket(vec![innings("A", 10, 1, 1, 6)], &[]), "innings[0].balls"),
            (cricket(vec![innings("A", 10, 1, 20, 1)], &[]), "innings[0].overs"),
            (cricket(vec![innings(" ", 10, 1, 1, 0)], &[]), "innings[0].side"),
            (cricket(vec![], &[]), "innings"),
            (cricket(vec![innings("A", 1, 0, 0, 1)], &["1"; 7]), "last_balls"),
        ];
        for (input, field) in cases {
            assert_eq!(Score::parse(input).unwrap_err().field, field);
        }
    }

    #[test]
    fn football_tennis_and_races_are_bounded() {
        let football =
            |goals: Vec<u32>, minute| ScoreInput::Football(FootballScore { goals, minute });
        assert!(Score::parse(football(vec![2, 1], 67)).is_ok());
        assert_eq!(Score::parse(football(vec![2], 67)).unwrap_err().field, "goals");
        assert_eq!(Score::parse(football(vec![2, 100], 67)).unwrap_err().field, "goals[1]");
        assert_eq!(Score::parse(football(vec![2, 1], 151)).unwrap_err().field, "minute");
        let tennis = |serving| {
            ScoreInput::Tennis(TennisScore { sets: vec![1, 0], games: vec![3, 2], serving })
        };
        assert!(Score::parse(tennis(1)).is_ok());
        assert_eq!(Score::parse(tennis(2)).unwrap_err().field, "serving");
        let race = |names: &[&str]| {
            ScoreInput::Race(RacePlacings {
                placings: names.iter().map(|n| n.to_string()).collect(),
            })
        };
        assert_eq!(
            Score::parse(race(&[" Red Rum ", "Arkle"])).unwrap().input(),
            &race(&["Red Rum", "Arkle"])
        );
        assert_eq!(Score::parse(race(&["Arkle", "arkle"])).unwrap_err().field, "placings[1]");
        assert_eq!(Score::parse(race(&[])).unwrap_err().field, "placings");
    }

    #[test]
    fn the_wire_shape_is_tagged_by_sport() {
        let input: ScoreInput =
            serde_json::from_str(r#"{"sport":"football","goals":[1,0],"minute":12}"#).unwrap();
        assert_eq!(input, ScoreInput::Football(FootballScore { goals: vec![1, 0], minute: 12 }));
        assert!(serde_json::from_str::<ScoreInput>(
            r#"{"sport":"football","goals":[1,0],"minute":12,"minutes":3}"#
        )
        .is_err());
        let json = serde_json::to_value(Score::parse(input).unwrap().view()).unwrap();
        assert_eq!(json["sport"], "football");
    }

    #[test]
    fn results_are_trimmed_and_bounded() {
        assert_eq!(parse_result("  A won by 12 runs ").unwrap(), "A won by 12 runs");
        assert_eq!(parse_result(" ").unwrap_err().field, "result");
        assert!(parse_result(&"x".repeat(RESULT_MAX_CHARS + 1)).is_err());
    }
}
