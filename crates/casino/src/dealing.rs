//! The dealing phase: after betting closes, a round's cards are shown one at a time, in the
//! order the table's rules deal them, before the result.
//!
//! The deal is fixed when the round opens (it is a function of the seed), so dealing is
//! presentation with a clock: [`Dealing`] lists the steps — each a card to a position, or, for
//! roulette and Worli Matka, a position's draw shown whole — and when each step is shown after
//! the deal began. The server settles the round when the last step has been shown
//! ([`Dealing::duration_ms`]), and every table page shows the same step at the same moment,
//! because each reads the time since the deal from the server.
//!
//! The steps follow [`Deal`]'s order, which is each game's dealing order (Teen Patti: A, B, A,
//! B, A, B; Baccarat: Player, Banker, Player, Banker, then the third cards; Andar Bahar: the
//! joker, then Andar and Bahar in turn). Each card goes to the position ([`Outcome::hands`])
//! whose next card it is. The open cards (Hi-Low's base card, Andar Bahar's joker) were shown
//! while betting, so they are shown from the start.
//!
//! Pace: one step every [`Pace::step_ms`], but the whole deal takes at most
//! [`Pace::max_ms`], so Andar Bahar's long runs deal faster; one more step's time passes
//! after the last card before the result, for the eye to land on it.
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::dealing::{Dealing, Pace};
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::Deal;
//!
//! let deal = Deal::Cards(parse_cards("KS 2H").unwrap()); // Dragon KS, Tiger 2H
//! let outcome = GameKind::DragonTiger.result(&deal);
//! let dealing = Dealing::new(GameKind::DragonTiger, &deal, &outcome, Pace { step_ms: 1_000, max_ms: 9_000 });
//! assert_eq!(dealing.steps().len(), 2);
//! assert_eq!(dealing.shown_at_ms(0), 1_000); // the Dragon's card one second in
//! assert_eq!(dealing.shown_at_ms(1), 2_000); // then the Tiger's
//! assert_eq!(dealing.shown(1_999), 1);
//! assert_eq!(dealing.duration_ms(), 3_000); // the result a second after the last card
//! ```

use crate::cards::Card;
use crate::games::GameKind;
use crate::market::{Deal, Outcome};

/// How fast a round is dealt.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pace {
    /// Time between two steps (cards), at most.
    pub step_ms: i64,
    /// The longest a whole deal may take, the pause before the result included.
    pub max_ms: i64,
}

impl Pace {
    /// A card every 1.2 s, a deal of at most 9 s: a Teen Patti hand (six cards) takes 8.4 s,
    /// Dragon Tiger 3.6 s.
    pub const DEFAULT: Pace = Pace { step_ms: 1_200, max_ms: 9_000 };
}

/// One step of the deal: a card to a position, or a position's draw shown whole.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DealStep {
    /// The position, an index into [`Outcome::hands`].
    pub hand: usize,
    /// The card dealt; `None` when the step shows the position's draw (roulette's pocket, a
    /// matka draw), which its hand's description states.
    pub card: Option<Card>,
}

/// A round's deal as a timeline of steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dealing {
    steps: Vec<DealStep>,
    open: usize,
    step_ms: i64,
}

impl Dealing {
    /// The steps of `deal` (judged as `outcome`) of `game`, at `pace`.
    ///
    /// # Panics
    /// If a card of the deal belongs to no position of the outcome: a game's result shows
    /// every card it deals (a test checks every game).
    pub fn new(game: GameKind, deal: &Deal, outcome: &Outcome, pace: Pace) -> Dealing {
        let steps = if deal.cards().is_empty() {
            (0..outcome.hands.len()).map(|hand| DealStep { hand, card: None }).collect()
        } else {
            card_steps(deal.cards(), outcome)
        };
        let open = game.open_card_count().min(steps.len());
        let dealt = i64::try_from(steps.len() - open).unwrap_or(i64::MAX);
        // The dealt steps and one more beat before the result share the time at most.
        let step_ms = pace.step_ms.min(pace.max_ms / (dealt + 1)).max(1);
        Dealing { steps, open, step_ms }
    }

    /// Every step, open cards first.
    pub fn steps(&self) -> &[DealStep] {
        &self.steps
    }

    /// The time between two steps.
    pub fn step_ms(&self) -> i64 {
        self.step_ms
    }

    /// When step `index` is shown, in ms after the deal began (0 for an open card).
    pub fn shown_at_ms(&self, index: usize) -> i64 {
        if index < self.open {
            return 0;
        }
        i64::try_from(index - self.open + 1).unwrap_or(i64::MAX).saturating_mul(self.step_ms)
    }

    /// How many steps are shown `elapsed_ms` after the deal began.
    pub fn shown(&self, elapsed_ms: i64) -> usize {
        (0..self.steps.len()).take_while(|i| self.shown_at_ms(*i) <= elapsed_ms).count()
    }

    /// How long the deal takes, from its start to the result: the last step and one more
    /// step's pause.
    pub fn duration_ms(&self) -> i64 {
        i64::try_from(self.steps.len() - self.open + 1)
            .unwrap_or(i64::MAX)
            .saturating_mul(self.step_ms)
    }
}

/// Each card of the deal, in order, to the position whose next card it is; of two positions
/// waiting for the same card (two Baccarat hands from an eight-deck shoe can), the one with
/// fewer cards so far, as cards go round the table.
fn card_steps(cards: &[Card], outcome: &Outcome) -> Vec<DealStep> {
    let mut dealt = vec![0usize; outcome.hands.len()];
    cards
        .iter()
        .map(|card| {
            let hand = (0..outcome.hands.len())
                .filter(|h| outcome.hands[*h].cards.get(dealt[*h]) == Some(card))
                .min_by_key(|h| dealt[*h])
                .unwrap_or_else(|| {
                    panic!("the card {card} of the deal is in no hand of the result")
                });
            dealt[hand] += 1;
            DealStep { hand, card: Some(*card) }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::fair::{FairRng, ServerSeed};

    const PACE: Pace = Pace { step_ms: 1_000, max_ms: 9_000 };

    #[test]
    fn every_game_deals_each_hand_its_cards_in_order() {
        let seed = ServerSeed::from_bytes([7; 32]);
        for game in GameKind::ALL {
            for round in 0..300 {
                let deal = game.deal(&mut FairRng::new(&seed, &format!("{}-{round}", game.code())));
                let outcome = game.result(&deal);
                let dealing = Dealing::new(game, &deal, &outcome, PACE);
                let mut hands: Vec<Vec<Card>> = vec![Vec::new(); outcome.hands.len()];
                for step in dealing.steps() {
                    hands[step.hand].extend(step.card);
                }
                for (dealt, shown) in hands.iter().zip(&outcome.hands) {
                    assert_eq!(dealt, &shown.cards, "{game:?} round {round}: {}", shown.name);
                }
                if deal.cards().is_empty() {
                    assert_eq!(dealing.steps().len(), outcome.hands.len(), "{game:?}");
                } else {
                    assert_eq!(dealing.steps().len(), deal.cards().len(), "{game:?}");
                }
                assert!(dealing.duration_ms() <= PACE.max_ms, "{game:?} deals too long");
                assert!(dealing.duration_ms() >= 2 * dealing.step_ms(), "{game:?} deals nothing");
            }
        }
    }

    #[test]
    fn teen_patti_goes_round_the_table() {
        let deal = Deal::Cards(parse_cards("AS KS AH KH AD KD").unwrap());
        let outcome = GameKind::TeenPattiT20.result(&deal);
        let dealing = Dealing::new(GameKind::TeenPattiT20, &deal, &outcome, PACE);
        let seats: Vec<usize> = dealing.steps().iter().map(|s| s.hand).collect();
        assert_eq!(seats, [0, 1, 0, 1, 0, 1]);
        assert_eq!(dealing.shown(0), 0);
        assert_eq!(dealing.shown(999), 0);
        assert_eq!(dealing.shown(1_000), 1);
        assert_eq!(dealing.shown(6_000), 6);
        assert_eq!(dealing.duration_ms(), 7_000);
    }

    #[test]
    fn the_open_card_shows_from_the_start_and_long_deals_go_faster() {
        // Joker 7H; Andar and Bahar take 2S, KD, 3C, 4C … and the 7C falls to the 11th card.
        let deal = Deal::Cards(parse_cards("7H 2S KD 3C 4C 5C 6C 8C 9C TC JC 7C").unwrap());
        let outcome = GameKind::AndarBahar.result(&deal);
        let dealing = Dealing::new(GameKind::AndarBahar, &deal, &outcome, PACE);
        assert_eq!(outcome.hands[dealing.steps()[0].hand].name, "Joker");
        assert_eq!(dealing.shown(0), 1, "the joker was shown while betting");
        // Eleven dealt cards and the pause share 9 s: 750 ms a step.
        assert_eq!(dealing.step_ms(), 750);
        assert_eq!(dealing.duration_ms(), 9_000);
        assert_eq!(dealing.shown(8_999), 12);
    }

    #[test]
    fn roulette_shows_its_pocket_as_one_step() {
        let deal = Deal::Pocket(17);
        let outcome = GameKind::Roulette.result(&deal);
        let dealing = Dealing::new(GameKind::Roulette, &deal, &outcome, PACE);
        assert_eq!(dealing.steps(), [DealStep { hand: 0, card: None }]);
        assert_eq!(dealing.duration_ms(), 2_000);
    }
}
