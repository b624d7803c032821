//! Markets (the bet options of a round), deals, outcomes and payouts, in integer money.
//!
//! Every casino bet is a back bet against the house at the market's posted decimal odds,
//! held as integer hundredths ([`Odds`]: `198` is 1.98, the stake back plus 0.98 per 1). When
//! the round is judged, the [`Outcome`] gives every market a [`Verdict`], and [`payout`] turns
//! the verdict into what the bettor gets back, stake included, in minor units:
//!
//! | verdict | the bettor gets back |
//! |---|---|
//! | [`Verdict::Won`] | `⌊stake × odds / 100⌋` at the market's posted odds |
//! | [`Verdict::WonAt`] | `⌊stake × odds / 100⌋` at the odds the hand earned (pay-table markets) |
//! | [`Verdict::Push`] | the stake |
//! | [`Verdict::HalfLost`] | `⌊stake / 2⌋` |
//! | [`Verdict::Lost`] | nothing |
//!
//! Rounding is down to the minor unit, always in the house's favour, so the house edge stated
//! for each market is a floor at every stake. (At a stake of 1.00 or more the rounding is at
//! most one paisa.)
//!
//! ```
//! use backlay_casino::market::{payout, Market, Odds, Outcome, Verdict};
//!
//! let player_a = Market::new("player-a", "Player A", "player", Odds::from_hundredths(198));
//! let mut outcome = Outcome::new("Player A");
//! outcome.set("player-a", Verdict::Won);
//! assert_eq!(payout(&player_a, 100_00, &outcome), 198_00); // 100.00 back at 1.98
//! assert_eq!(payout(&player_a, 3, &outcome), 5); // 0.03 × 1.98 = 0.0594, down to 0.05
//! let player_b = Market::new("player-b", "Player B", "player", Odds::from_hundredths(198));
//! assert_eq!(payout(&player_b, 100_00, &outcome), 0); // no verdict: lost
//! ```

use std::collections::BTreeMap;
use std::fmt;

use serde::{Serialize, Serializer};

use crate::cards::Card;

/// Decimal odds as integer hundredths: what one unit staked returns on a win, stake included
/// (`Odds::from_hundredths(198)` is 1.98). Always above 1.00.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Odds(u32);

impl Odds {
    /// The highest odds a market may post: 10 000.00.
    pub const MAX_HUNDREDTHS: u32 = 1_000_000;

    /// Decimal odds of `hundredths / 100`.
    ///
    /// # Panics
    /// Unless `100 < hundredths ≤ Odds::MAX_HUNDREDTHS`: odds are written by the game modules,
    /// and a market that returns no more than the stake is a mistake.
    pub const fn from_hundredths(hundredths: u32) -> Odds {
        assert!(hundredths > 100 && hundredths <= Odds::MAX_HUNDREDTHS);
        Odds(hundredths)
    }

    /// The odds in hundredths.
    pub const fn hundredths(self) -> u32 {
        self.0
    }
}

impl fmt::Display for Odds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

/// Serialises as the decimal text (`"1.98"`), exact.
impl Serialize for Odds {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// One bet option of a game, as posted for a round.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Market {
    /// Stable code, unique within the game: `player-a`, `straight-17`, `jodi-47`. Bets name it.
    pub code: String,
    /// What the table shows: `Player A`, `Straight 17`, `Jodi 47`.
    pub name: String,
    /// The market's family: markets of one family pay alike and have the same house edge
    /// (`straight` groups the 37 straight-up numbers). The house-edge table has one row per
    /// family.
    pub family: String,
    /// The posted odds. For a pay-table market (Pair Plus) the lowest paying odds; the hand
    /// decides the odds paid ([`Verdict::WonAt`]).
    pub odds: Odds,
}

impl Market {
    /// A market.
    pub fn new(
        code: impl Into<String>,
        name: impl Into<String>,
        family: impl Into<String>,
        odds: Odds,
    ) -> Market {
        Market { code: code.into(), name: name.into(), family: family.into(), odds }
    }
}

/// How one market came out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(tag = "verdict", content = "odds", rename_all = "snake_case")]
pub enum Verdict {
    /// Lost: nothing back.
    Lost,
    /// Won at the market's posted odds.
    Won,
    /// Won at these odds (a pay-table market: the hand decides the odds).
    WonAt(Odds),
    /// Void for this bet: the stake comes back (a tie where the game pushes).
    Push,
    /// Half the stake comes back (Dragon Tiger's Dragon and Tiger bets on a tie).
    HalfLost,
}

/// What a round dealt, in dealing order. Each game reads its cards by position, as its module
/// documents (Teen Patti: A, B, A, B, A, B).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Deal {
    /// The cards dealt from the top of the shuffled pack, in order; only the cards used.
    Cards(Vec<Card>),
    /// The roulette pocket, 0–36.
    Pocket(u8),
    /// Worli Matka's two draws of three digits each, in drawing order.
    Matka {
        /// The open draw.
        open: [u8; 3],
        /// The close draw.
        close: [u8; 3],
    },
}

impl Deal {
    /// The cards of a card deal; empty for roulette and Worli Matka.
    pub fn cards(&self) -> &[Card] {
        match self {
            Deal::Cards(cards) => cards,
            Deal::Pocket(_) | Deal::Matka { .. } => &[],
        }
    }
}

/// One position on the table as the result shows it: `Player A: KS KH KD — Trail of kings`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct HandView {
    /// The position: `Player A`, `Dragon`, `Joker`, `Pocket`.
    pub name: String,
    /// Its cards, in dealing order (none for roulette and Worli Matka).
    pub cards: Vec<Card>,
    /// What it makes: `Trail of kings`, `7 points`, `17 red`.
    pub description: String,
}

/// The result of a round: the winner line for the Casino Result report, each position's
/// hand, and every market's verdict (a market without one lost).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    /// The winner as the Casino Result report prints it: `Player A`, `Tie`, `17`.
    pub winner: String,
    /// The table's positions and what they made.
    pub hands: Vec<HandView>,
    verdicts: BTreeMap<String, Verdict>,
}

impl Outcome {
    /// An outcome with `winner` and no hands or verdicts yet (every market lost).
    pub fn new(winner: impl Into<String>) -> Outcome {
        Outcome { winner: winner.into(), hands: Vec::new(), verdicts: BTreeMap::new() }
    }

    /// Adds a position to show.
    pub fn show(
        &mut self,
        name: impl Into<String>,
        cards: &[Card],
        description: impl Into<String>,
    ) {
        self.hands.push(HandView {
            name: name.into(),
            cards: cards.to_vec(),
            description: description.into(),
        });
    }

    /// Sets `code`'s verdict; [`Verdict::Lost`] removes it (lost is the default).
    pub fn set(&mut self, code: impl Into<String>, verdict: Verdict) {
        let code = code.into();
        if verdict == Verdict::Lost {
            self.verdicts.remove(&code);
        } else {
            self.verdicts.insert(code, verdict);
        }
    }

    /// `code`'s verdict: [`Verdict::Lost`] unless the outcome says otherwise.
    pub fn verdict(&self, code: &str) -> Verdict {
        self.verdicts.get(code).copied().unwrap_or(Verdict::Lost)
    }

    /// The markets that did not simply lose (won, pushed or half lost), by code.
    pub fn settled_markets(&self) -> impl Iterator<Item = (&str, Verdict)> {
        self.verdicts.iter().map(|(code, verdict)| (code.as_str(), *verdict))
    }

    /// The codes of the markets that won.
    pub fn winning_markets(&self) -> Vec<&str> {
        self.settled_markets()
            .filter(|(_, v)| matches!(v, Verdict::Won | Verdict::WonAt(_)))
            .map(|(code, _)| code)
            .collect()
    }
}

/// The largest stake [`payout`] accepts, in minor units: one trillion currency units, the
/// same bound as the exchange's amounts. With odds at most 10 000.00 no product overflows.
pub const MAX_STAKE_MINOR: i64 = 100_000_000_000_000;

/// What a bettor gets back, stake included, in minor units, for `stake_minor` on `market`
/// under `outcome`. Rounds down to the minor unit.
///
/// # Panics
/// Unless `0 < stake_minor ≤ MAX_STAKE_MINOR`: stakes are checked where bets are accepted.
pub fn payout(market: &Market, stake_minor: i64, outcome: &Outcome) -> i64 {
    assert!(stake_minor > 0 && stake_minor <= MAX_STAKE_MINOR, "stake out of range: {stake_minor}");
    let at = |odds: Odds| win_return_minor(stake_minor, odds);
    let back_minor = match outcome.verdict(&market.code) {
        Verdict::Lost => 0,
        Verdict::Won => at(market.odds),
        Verdict::WonAt(odds) => at(odds),
        Verdict::Push => stake_minor,
        Verdict::HalfLost => stake_minor / 2,
    };
    debug_assert!((0..=stake_minor * 10_000).contains(&back_minor));
    back_minor
}

/// What a won bet of `stake_minor` at `odds` gets back, stake included: `⌊stake × odds⌋` (what
/// [`payout`] pays on [`Verdict::Won`] at the posted odds; a current bet's potential profit is
/// this less the stake).
///
/// # Panics
/// Unless `0 < stake_minor ≤ MAX_STAKE_MINOR`.
pub fn win_return_minor(stake_minor: i64, odds: Odds) -> i64 {
    assert!(stake_minor > 0 && stake_minor <= MAX_STAKE_MINOR, "stake out of range: {stake_minor}");
    let back = i128::from(stake_minor) * i128::from(odds.hundredths()) / 100;
    i64::try_from(back).expect("bounded stake and odds")
}

/// What a verdict returns per 100 staked (the posted odds' hundredths on a win, 100 on a push,
/// 50 on a half loss, 0 on a loss): the exact, unrounded return used by the house-edge tables.
pub fn return_per_100(market: &Market, verdict: Verdict) -> u32 {
    match verdict {
        Verdict::Lost => 0,
        Verdict::Won => market.odds.hundredths(),
        Verdict::WonAt(odds) => odds.hundredths(),
        Verdict::Push => 100,
        Verdict::HalfLost => 50,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn market(odds: u32) -> Market {
        Market::new("m", "M", "m", Odds::from_hundredths(odds))
    }

    fn outcome(verdict: Verdict) -> Outcome {
        let mut outcome = Outcome::new("x");
        outcome.set("m", verdict);
        outcome
    }

    #[test]
    fn payouts_by_verdict_worked_by_hand() {
        let m = market(195);
        assert_eq!(payout(&m, 100_00, &outcome(Verdict::Won)), 195_00);
        assert_eq!(payout(&m, 1, &outcome(Verdict::Won)), 1); // 1.95 paise → 1
        assert_eq!(payout(&m, 33, &outcome(Verdict::Won)), 64); // 64.35 → 64
        assert_eq!(
            payout(&m, 100_00, &outcome(Verdict::WonAt(Odds::from_hundredths(4100)))),
            4100_00
        );
        assert_eq!(payout(&m, 100_00, &outcome(Verdict::Push)), 100_00);
        assert_eq!(payout(&m, 101, &outcome(Verdict::HalfLost)), 50);
        assert_eq!(payout(&m, 100_00, &outcome(Verdict::Lost)), 0);
        assert_eq!(payout(&m, 100_00, &Outcome::new("nobody")), 0);
    }

    #[test]
    fn the_largest_stake_at_the_highest_odds_fits() {
        let m = market(Odds::MAX_HUNDREDTHS);
        assert_eq!(payout(&m, MAX_STAKE_MINOR, &outcome(Verdict::Won)), MAX_STAKE_MINOR * 10_000);
    }

    #[test]
    #[should_panic(expected = "stake out of range")]
    fn a_zero_stake_is_a_bug() {
        payout(&market(200), 0, &outcome(Verdict::Won));
    }

    #[test]
    fn setting_lost_clears_a_verdict() {
        let mut o = outcome(Verdict::Won);
        assert_eq!(o.winning_markets(), vec!["m"]);
        o.set("m", Verdict::Lost);
        assert_eq!(o.settled_markets().count(), 0);
    }

    #[test]
    fn odds_print_with_two_decimals() {
        assert_eq!(Odds::from_hundredths(198).to_string(), "1.98");
        assert_eq!(Odds::from_hundredths(3600).to_string(), "36.00");
        assert_eq!(Odds::from_hundredths(105).to_string(), "1.05");
    }
}
