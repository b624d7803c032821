//! 2 Card Teen Patti: teen patti with two cards a hand.
//!
//! One shuffled 52-card deck; Player A and Player B get two cards each (A, B, A, B). Hands,
//! best first (the three-card order with the pair in the trail's place; our stated variant):
//!
//! | hand | what | count of 1 326 |
//! |---|---|---|
//! | Pair | two of a rank; A-A best | 78 |
//! | Pure sequence | consecutive ranks, one suit | 52 |
//! | Sequence | consecutive ranks, mixed suits | 156 |
//! | Colour | one suit, not consecutive | 260 |
//! | High card | anything else | 780 |
//!
//! Sequences rank **A-K highest, then A-2, then K-Q, Q-J, … down to 3-2** (as A-K-Q and A-2-3
//! in three-card teen patti). Otherwise aces are high; colour and high card compare the higher
//! card, then the lower. Suits never rank: equal hands tie.
//!
//! Markets: **Player A**, **Player B** at 1.98 (a tie pushes both), **Pair A**, **Pair B** at
//! 16.50 (that player's two cards are a pair).
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::two_card_teen_patti::{evaluate, Category};
//!
//! let hand = |text: &str| evaluate(parse_cards(text).unwrap().try_into().unwrap());
//! assert_eq!(hand("2S 2D").category, Category::Pair);
//! assert!(hand("2S 2D") > hand("AS KS")); // the lowest pair beats the best pure sequence
//! assert!(hand("AH KD") > hand("AS 2D")); // A-K, then A-2, then K-Q
//! assert!(hand("AS 2D") > hand("KH QD"));
//! ```

use std::cmp::Ordering;

use super::{cards, deal_from, odds};
use crate::cards::{standard_deck, Card};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Odds, Outcome, Verdict};

/// A two-card hand category, weakest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Nothing.
    HighCard,
    /// One suit, not consecutive.
    Colour,
    /// Consecutive, mixed suits.
    Sequence,
    /// Consecutive, one suit.
    PureSequence,
    /// Two of a rank.
    Pair,
}

impl Category {
    /// The name the table shows.
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "High card",
            Category::Colour => "Colour",
            Category::Sequence => "Sequence",
            Category::PureSequence => "Pure sequence",
            Category::Pair => "Pair",
        }
    }
}

/// A two-card hand's strength; equal strengths tie.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Strength {
    /// Compared first.
    pub category: Category,
    /// Then these, in order (ace 14; sequences by place: A-K 16, A-2 15, K-Q 13, …, 3-2 3).
    pub tiebreak: [u8; 2],
}

/// Evaluates two cards.
pub fn evaluate(hand: [Card; 2]) -> Strength {
    let mut high = hand.map(|c| c.rank.high_value());
    high.sort_unstable_by(|a, b| b.cmp(a));
    let mut low = hand.map(|c| c.rank.value());
    low.sort_unstable();
    let suited = hand[0].suit == hand[1].suit;
    let sequence = match low {
        [1, 13] => Some(16),
        [1, 2] => Some(15),
        [a, b] if b == a + 1 => Some(b),
        _ => None,
    };
    let (category, tiebreak) = if high[0] == high[1] {
        (Category::Pair, [high[0], 0])
    } else if let Some(place) = sequence {
        let category = if suited { Category::PureSequence } else { Category::Sequence };
        (category, [place, 0])
    } else if suited {
        (Category::Colour, high)
    } else {
        (Category::HighCard, high)
    };
    Strength { category, tiebreak }
}

/// Player A's and B's odds.
pub const PLAYER_ODDS: Odds = odds(198);
/// Pair A's and Pair B's odds.
pub const PAIR_ODDS: Odds = odds(1650);

/// The markets: Player A, Player B, Pair A, Pair B.
pub fn markets() -> Vec<Market> {
    vec![
        Market::new("player-a", "Player A", "player", PLAYER_ODDS),
        Market::new("player-b", "Player B", "player", PLAYER_ODDS),
        Market::new("pair-a", "Pair A", "pair", PAIR_ODDS),
        Market::new("pair-b", "Pair B", "pair", PAIR_ODDS),
    ]
}

/// Four cards: A, B, A, B.
pub fn deal(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, standard_deck(), 4))
}

/// The result.
pub fn result(deal: &Deal) -> Outcome {
    let dealt = cards(deal, 4);
    let (a, b) = ([dealt[0], dealt[2]], [dealt[1], dealt[3]]);
    let (sa, sb) = (evaluate(a), evaluate(b));
    let order = sa.cmp(&sb);
    let mut outcome = Outcome::new(match order {
        Ordering::Greater => "Player A",
        Ordering::Less => "Player B",
        Ordering::Equal => "Tie",
    });
    outcome.show("Player A", &a, sa.category.name());
    outcome.show("Player B", &b, sb.category.name());
    match order {
        Ordering::Greater => outcome.set("player-a", Verdict::Won),
        Ordering::Less => outcome.set("player-b", Verdict::Won),
        Ordering::Equal => {
            outcome.set("player-a", Verdict::Push);
            outcome.set("player-b", Verdict::Push);
        }
    }
    if sa.category == Category::Pair {
        outcome.set("pair-a", Verdict::Won);
    }
    if sb.category == Category::Pair {
        outcome.set("pair-b", Verdict::Won);
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn strength(text: &str) -> Strength {
        evaluate(parse_cards(text).unwrap().try_into().unwrap())
    }

    #[test]
    fn known_hands() {
        let table = [
            ("AS AD", Category::Pair),
            ("2C 2H", Category::Pair),
            ("AS KS", Category::PureSequence),
            ("AH 2H", Category::PureSequence),
            ("AS KD", Category::Sequence),
            ("3C 2D", Category::Sequence),
            ("KS 2S", Category::Colour),
            ("AS 3D", Category::HighCard),
        ];
        for (text, category) in table {
            assert_eq!(strength(text).category, category, "{text}");
        }
        let ladder = [
            "AS AD", "2S 2D", "AS KS", "3S 2S", "AS KD", "AS 2D", "KS QD", "3S 2D", "AS QS",
            "AS QD", "3S 5D",
        ];
        for pair in ladder.windows(2) {
            assert!(strength(pair[0]) > strength(pair[1]), "{} should beat {}", pair[0], pair[1]);
        }
        assert_eq!(strength("AS 9D"), strength("AH 9C"));
        assert!(strength("AS 9D") > strength("AH 8C"));
    }

    #[test]
    fn category_counts_over_all_1326_hands() {
        let deck = standard_deck();
        let mut counts = [0u32; 5];
        for i in 0..52 {
            for j in i + 1..52 {
                counts[evaluate([deck[i], deck[j]]).category as usize] += 1;
            }
        }
        assert_eq!(counts, [780, 260, 156, 52, 78]);
    }

    #[test]
    fn rounds_worked_by_hand() {
        let deal = |t: &str| Deal::Cards(parse_cards(t).unwrap());
        // A: 7S 7D (pair), B: AH KH (pure sequence): A wins, Pair A pays 16.50.
        let outcome = result(&deal("7S AH 7D KH"));
        assert_eq!(outcome.winner, "Player A");
        assert_eq!(outcome.winning_markets(), vec!["pair-a", "player-a"]);
        let pair_a = &markets()[2];
        assert_eq!(crate::market::payout(pair_a, 10_00, &outcome), 165_00);
        // A: AS 9D, B: AH 9C: tie, both push.
        let outcome = result(&deal("AS AH 9D 9C"));
        assert_eq!(outcome.winner, "Tie");
        assert_eq!(outcome.verdict("player-b"), Verdict::Push);
    }
}
