//! A round as a pure state machine: Betting until `close_at_ms`, then Closed, Dealt, Settled.
//!
//! ```text
//!   open(seed)          close(now ≥ close_at)      reveal()          settle()
//! ───────────▶ Betting ─────────────────────▶ Closed ─────────▶ Dealt ─────────▶ Settled
//!              bets accepted while now < close_at
//! ```
//!
//! The round is dealt the moment it opens (the deal is a function of the seed, so it is fixed
//! then anyway), but only the commitment, the markets and the open cards (Hi-Low's base card,
//! Andar Bahar's joker) are public until [`Round::reveal`]. Time is passed in by the caller as
//! milliseconds since the Unix epoch from the **server's** clock: a bet is refused at or after
//! `close_at_ms`, by even a millisecond. The round never reads a clock itself.
//!
//! ```
//! use backlay_casino::fair::{verify, ServerSeed};
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::{payout, Odds};
//! use backlay_casino::round::{BetRefusal, Phase, Round};
//!
//! let seed = ServerSeed::from_bytes([11; 32]); // the server draws these from the OS
//! let mut round = Round::open(GameKind::DragonTiger, "dt1day-1", seed, 60_000);
//! let commitment = round.commitment().to_owned(); // published now
//!
//! let dragon = round.check_bet(59_999, "dragon", Odds::from_hundredths(200), 100_00)?.clone();
//! assert_eq!(
//!     round.check_bet(60_000, "dragon", Odds::from_hundredths(200), 100_00),
//!     Err(BetRefusal::Closed { close_at_ms: 60_000, now_ms: 60_000 })
//! );
//!
//! round.close(60_000)?;
//! round.reveal()?;
//! let outcome = round.settle()?.clone();
//! assert_eq!(round.phase(), Phase::Settled);
//! let back_minor = payout(&dragon, 100_00, &outcome); // 0, 50_00 (tie) or 200_00
//!
//! // Anyone can recompute the round from the revealed seed.
//! let seed_hex = round.revealed_seed().unwrap().to_hex();
//! let again = verify(&seed_hex, &commitment, "dt1day-1", GameKind::DragonTiger).unwrap();
//! assert_eq!(again.outcome, outcome);
//! # let _ = back_minor;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use crate::cards::Card;
use crate::fair::{FairRng, ServerSeed, MAX_ROUND_ID_BYTES};
use crate::games::GameKind;
use crate::market::{Deal, Market, Odds, Outcome, MAX_STAKE_MINOR};

/// Where a round is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Taking bets until `close_at_ms`.
    Betting,
    /// No more bets; the cards are not shown yet.
    Closed,
    /// The deal and result are public, and the seed is revealed.
    Dealt,
    /// Bets have been paid.
    Settled,
}

/// Why a bet is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BetRefusal {
    /// The betting window has closed (at or after `close_at_ms`, or the round moved on).
    #[error("betting closed at {close_at_ms} ms; the bet came at {now_ms} ms")]
    Closed {
        /// When betting closed.
        close_at_ms: i64,
        /// When the bet came, by the server's clock.
        now_ms: i64,
    },
    /// The round has no such market.
    #[error("this round has no market {0:?}")]
    UnknownMarket(String),
    /// The bet asked for odds the round does not post.
    #[error("the odds are {posted}, not {asked}")]
    OddsNotPosted {
        /// The posted odds.
        posted: Odds,
        /// The odds the bet asked for.
        asked: Odds,
    },
    /// The stake is zero, negative, or above the limit.
    #[error("a stake must be more than 0 and at most {MAX_STAKE_MINOR} minor units")]
    Stake,
}

/// A transition asked for in the wrong phase, or too early.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoundError {
    /// The transition needs the round in another phase.
    #[error("the round is {actual:?}; this step needs {needed:?}")]
    Phase {
        /// The phase the step needs.
        needed: Phase,
        /// The round's phase.
        actual: Phase,
    },
    /// Closing before the window's end.
    #[error("betting is open until {close_at_ms} ms; it is {now_ms} ms")]
    TooEarly {
        /// When betting closes.
        close_at_ms: i64,
        /// Now, by the server's clock.
        now_ms: i64,
    },
}

/// One round of one game.
#[derive(Clone, Debug)]
pub struct Round {
    game: GameKind,
    round_id: String,
    seed: ServerSeed,
    commitment: String,
    close_at_ms: i64,
    phase: Phase,
    deal: Deal,
    outcome: Outcome,
    markets: Vec<Market>,
}

impl Round {
    /// Opens a round of `game` with id `round_id`, dealt from `seed`, taking bets until
    /// `close_at_ms` (server time, milliseconds since the Unix epoch).
    ///
    /// # Panics
    /// If `round_id` is empty or longer than [`MAX_ROUND_ID_BYTES`].
    pub fn open(game: GameKind, round_id: &str, seed: ServerSeed, close_at_ms: i64) -> Round {
        Round::resume(game, round_id, seed, close_at_ms, Phase::Betting)
    }

    /// Rebuilds a round the server stored, in `phase` (the deal is recomputed from the seed).
    ///
    /// # Panics
    /// If `round_id` is empty or longer than [`MAX_ROUND_ID_BYTES`].
    pub fn resume(
        game: GameKind,
        round_id: &str,
        seed: ServerSeed,
        close_at_ms: i64,
        phase: Phase,
    ) -> Round {
        assert!(
            !round_id.is_empty() && round_id.len() <= MAX_ROUND_ID_BYTES,
            "round ids are 1 to {MAX_ROUND_ID_BYTES} bytes"
        );
        let deal = game.deal(&mut FairRng::new(&seed, round_id));
        let outcome = game.result(&deal);
        let markets = game.markets(game.open_cards(&deal));
        Round {
            game,
            round_id: round_id.to_owned(),
            commitment: seed.commitment(),
            seed,
            close_at_ms,
            phase,
            deal,
            outcome,
            markets,
        }
    }

    /// The game.
    pub fn game(&self) -> GameKind {
        self.game
    }

    /// The round id.
    pub fn round_id(&self) -> &str {
        &self.round_id
    }

    /// `hex(SHA-256(seed))`, to publish when the round opens.
    pub fn commitment(&self) -> &str {
        &self.commitment
    }

    /// When betting closes, in milliseconds since the Unix epoch.
    pub fn close_at_ms(&self) -> i64 {
        self.close_at_ms
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The posted markets.
    pub fn markets(&self) -> &[Market] {
        &self.markets
    }

    /// The cards shown while betting (Hi-Low's base card, Andar Bahar's joker; else none).
    pub fn open_cards(&self) -> &[Card] {
        self.game.open_cards(&self.deal)
    }

    /// Checks a bet of `stake_minor` on `market_code` at `odds`, arriving at `now_ms` by the
    /// server's clock: accepted only while Betting and `now_ms < close_at_ms`, on a posted
    /// market at its posted odds. Returns the market the bet is on.
    pub fn check_bet(
        &self,
        now_ms: i64,
        market_code: &str,
        odds: Odds,
        stake_minor: i64,
    ) -> Result<&Market, BetRefusal> {
        if self.phase != Phase::Betting || now_ms >= self.close_at_ms {
            return Err(BetRefusal::Closed { close_at_ms: self.close_at_ms, now_ms });
        }
        let market = self
            .markets
            .iter()
            .find(|m| m.code == market_code)
            .ok_or_else(|| BetRefusal::UnknownMarket(market_code.to_owned()))?;
        if market.odds != odds {
            return Err(BetRefusal::OddsNotPosted { posted: market.odds, asked: odds });
        }
        if stake_minor <= 0 || stake_minor > MAX_STAKE_MINOR {
            return Err(BetRefusal::Stake);
        }
        Ok(market)
    }

    fn step(&mut self, needed: Phase, next: Phase) -> Result<(), RoundError> {
        if self.phase != needed {
            return Err(RoundError::Phase { needed, actual: self.phase });
        }
        self.phase = next;
        Ok(())
    }

    /// Betting → Closed, at or after `close_at_ms`.
    pub fn close(&mut self, now_ms: i64) -> Result<(), RoundError> {
        if self.phase == Phase::Betting && now_ms < self.close_at_ms {
            return Err(RoundError::TooEarly { close_at_ms: self.close_at_ms, now_ms });
        }
        self.step(Phase::Betting, Phase::Closed)
    }

    /// Closed → Dealt: the deal, the result and the seed become public.
    pub fn reveal(&mut self) -> Result<&Deal, RoundError> {
        self.step(Phase::Closed, Phase::Dealt)?;
        Ok(&self.deal)
    }

    /// Dealt → Settled: the caller pays every bet by [`crate::market::payout`] under the
    /// returned outcome, in the same transaction that records this step.
    pub fn settle(&mut self) -> Result<&Outcome, RoundError> {
        self.step(Phase::Dealt, Phase::Settled)?;
        Ok(&self.outcome)
    }

    fn public(&self) -> bool {
        self.phase >= Phase::Dealt
    }

    /// The deal, once revealed.
    pub fn deal(&self) -> Option<&Deal> {
        self.public().then_some(&self.deal)
    }

    /// The result, once revealed.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.public().then_some(&self.outcome)
    }

    /// The seed, once revealed (with the deal).
    pub fn revealed_seed(&self) -> Option<&ServerSeed> {
        self.public().then_some(&self.seed)
    }

    /// The seed at any phase, for the server to store (secretly) so it can [`Round::resume`].
    pub fn seed_for_storage(&self) -> &ServerSeed {
        &self.seed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round() -> Round {
        Round::open(GameKind::TeenPattiT20, "teen20-7", ServerSeed::from_bytes([1; 32]), 1_000)
    }

    const AT_198: Odds = Odds::from_hundredths(198);

    #[test]
    fn bets_are_refused_from_the_closing_millisecond() {
        let round = round();
        assert!(round.check_bet(999, "player-a", AT_198, 100).is_ok());
        assert_eq!(
            round.check_bet(1_000, "player-a", AT_198, 100),
            Err(BetRefusal::Closed { close_at_ms: 1_000, now_ms: 1_000 })
        );
        assert!(round.check_bet(1_001, "player-a", AT_198, 100).is_err());
    }

    #[test]
    fn bad_bets_are_refused() {
        let round = round();
        assert_eq!(
            round.check_bet(0, "player-c", AT_198, 100),
            Err(BetRefusal::UnknownMarket("player-c".into()))
        );
        assert_eq!(
            round.check_bet(0, "player-a", Odds::from_hundredths(200), 100),
            Err(BetRefusal::OddsNotPosted { posted: AT_198, asked: Odds::from_hundredths(200) })
        );
        assert_eq!(round.check_bet(0, "player-a", AT_198, 0), Err(BetRefusal::Stake));
        assert_eq!(
            round.check_bet(0, "player-a", AT_198, MAX_STAKE_MINOR + 1),
            Err(BetRefusal::Stake)
        );
    }

    #[test]
    fn the_phases_run_in_order_and_hide_the_deal_until_revealed() {
        let mut round = round();
        assert_eq!(round.close(999), Err(RoundError::TooEarly { close_at_ms: 1_000, now_ms: 999 }));
        assert_eq!(
            round.reveal().unwrap_err(),
            RoundError::Phase { needed: Phase::Closed, actual: Phase::Betting }
        );
        assert!(
            round.deal().is_none() && round.outcome().is_none() && round.revealed_seed().is_none()
        );
        round.close(1_000).unwrap();
        assert!(round.check_bet(500, "player-a", AT_198, 100).is_err()); // closed, whatever the clock says
        assert!(round.settle().is_err());
        assert!(round.deal().is_none());
        assert_eq!(round.reveal().unwrap().cards().len(), 6);
        assert!(round.outcome().is_some());
        assert_eq!(round.revealed_seed().unwrap().commitment(), round.commitment());
        round.settle().unwrap();
        assert_eq!(round.phase(), Phase::Settled);
        assert!(round.settle().is_err());
        assert!(round.close(2_000).is_err());
    }

    #[test]
    fn resume_recomputes_the_same_round() {
        let mut first = round();
        first.close(1_000).unwrap();
        let deal = first.reveal().unwrap().clone();
        let mut again = Round::resume(
            GameKind::TeenPattiT20,
            "teen20-7",
            ServerSeed::from_bytes([1; 32]),
            1_000,
            Phase::Closed,
        );
        assert_eq!(again.reveal().unwrap(), &deal);
    }

    #[test]
    fn hi_low_posts_odds_from_its_open_base_card() {
        let round = Round::open(GameKind::HiLow, "hilow-1", ServerSeed::from_bytes([2; 32]), 1_000);
        let base = round.open_cards()[0];
        assert_eq!(round.open_cards().len(), 1);
        assert_eq!(round.markets(), GameKind::HiLow.markets(&[base]).as_slice());
    }
}
