//! Poker: Texas hold'em, two hands, all cards dealt at once (no betting rounds).
//!
//! One shuffled 52-card deck; Player A and Player B get two hole cards each (A, B, A, B), then
//! five community cards are dealt (no burn cards). Each player's hand is the best five of their
//! seven cards; the better hand wins, and an exact tie (the same five-card ranks) pushes both
//! bets. Markets: **Player A**, **Player B** at 1.98.
//!
//! Hands, best first: straight flush (A-K-Q-J-T, the royal flush, is the best), four of a
//! kind, full house, flush, straight, three of a kind, two pair, one pair, high card. The ace
//! is high, except in the **wheel** A-2-3-4-5, the lowest straight (its top card is the 5).
//! Ties break on the ranks that make the hand, then the kickers; suits never rank.
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::poker::{best_of, Category};
//!
//! let hand = |text: &str| best_of(&parse_cards(text).unwrap());
//! assert_eq!(hand("AS 2D 3C 4H 5S KD KC").category, Category::Straight); // the wheel
//! assert!(hand("2S 3D 4C 5H 6S KD KC") > hand("AS 2D 3C 4H 5S KD KC"));
//! assert_eq!(hand("AS KS QS JS TS 2D 3C").category, Category::StraightFlush);
//! ```

use std::cmp::Ordering;

use super::{cards, deal_from, odds};
use crate::cards::{standard_deck, Card};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Odds, Outcome, Verdict};

/// A poker hand category, weakest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// Nothing.
    HighCard,
    /// One pair.
    OnePair,
    /// Two pairs.
    TwoPair,
    /// Three of a kind.
    ThreeOfAKind,
    /// Five in rank order (A-2-3-4-5 the lowest, T-J-Q-K-A the highest).
    Straight,
    /// Five of one suit.
    Flush,
    /// Three of a kind and a pair.
    FullHouse,
    /// Four of a kind.
    FourOfAKind,
    /// A straight in one suit.
    StraightFlush,
}

impl Category {
    /// The name the table shows.
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "High card",
            Category::OnePair => "One pair",
            Category::TwoPair => "Two pair",
            Category::ThreeOfAKind => "Three of a kind",
            Category::Straight => "Straight",
            Category::Flush => "Flush",
            Category::FullHouse => "Full house",
            Category::FourOfAKind => "Four of a kind",
            Category::StraightFlush => "Straight flush",
        }
    }
}

/// A five-card hand's strength; equal strengths tie.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Strength {
    /// Compared first.
    pub category: Category,
    /// Then these, in order (ace 14): the ranks making the hand by group size then rank, then
    /// kickers; a straight's top card (5 for the wheel).
    pub tiebreak: [u8; 5],
}

/// Evaluates exactly five cards.
pub fn evaluate5(hand: [Card; 5]) -> Strength {
    let mut counts = [0u8; 15];
    for card in hand {
        counts[usize::from(card.rank.high_value())] += 1;
    }
    // (count, value) groups, biggest group first, then highest value.
    let mut groups: Vec<(u8, u8)> = (2..=14u8)
        .filter(|&v| counts[usize::from(v)] > 0)
        .map(|v| (counts[usize::from(v)], v))
        .collect();
    groups.sort_unstable_by(|a, b| b.cmp(a));
    let flush = hand.iter().all(|c| c.suit == hand[0].suit);
    let straight_top = if groups.len() == 5 {
        let (top, bottom) = (groups[0].1, groups[4].1);
        if top - bottom == 4 {
            Some(top)
        } else if top == 14 && groups[1].1 == 5 {
            Some(5) // the wheel: A-2-3-4-5, the ace plays low
        } else {
            None
        }
    } else {
        None
    };
    let mut tiebreak = [0u8; 5];
    for (slot, &(_, value)) in tiebreak.iter_mut().zip(&groups) {
        *slot = value;
    }
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let category = match (straight_top, flush, shape.as_slice()) {
        (Some(top), true, _) => {
            tiebreak = [top, 0, 0, 0, 0];
            Category::StraightFlush
        }
        (_, _, [4, 1]) => Category::FourOfAKind,
        (_, _, [3, 2]) => Category::FullHouse,
        (None, true, _) => Category::Flush,
        (Some(top), false, _) => {
            tiebreak = [top, 0, 0, 0, 0];
            Category::Straight
        }
        (_, _, [3, 1, 1]) => Category::ThreeOfAKind,
        (_, _, [2, 2, 1]) => Category::TwoPair,
        (_, _, [2, 1, 1, 1]) => Category::OnePair,
        _ => Category::HighCard,
    };
    Strength { category, tiebreak }
}

/// The best five-card strength among `cards` (five to seven cards): tries every five.
///
/// # Panics
/// Unless 5 ≤ `cards.len()` ≤ 7.
pub fn best_of(cards: &[Card]) -> Strength {
    let n = cards.len();
    assert!((5..=7).contains(&n), "best_of takes 5 to 7 cards");
    let mut best = None;
    // Every subset of five positions, as a bit mask over the (at most seven) cards.
    for mask in 0u32..(1 << n) {
        if mask.count_ones() != 5 {
            continue;
        }
        let five: Vec<Card> = (0..n).filter(|&i| mask & (1 << i) != 0).map(|i| cards[i]).collect();
        best = best.max(Some(evaluate5(five.try_into().expect("five cards"))));
    }
    best.expect("at least one five")
}

/// Player A's and B's odds.
pub const PLAYER_ODDS: Odds = odds(198);

/// The markets: Player A, Player B.
pub fn markets() -> Vec<Market> {
    vec![
        Market::new("player-a", "Player A", "player", PLAYER_ODDS),
        Market::new("player-b", "Player B", "player", PLAYER_ODDS),
    ]
}

/// Nine cards: A, B, A, B, then the five community cards.
pub fn deal(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, standard_deck(), 9))
}

/// The result.
pub fn result(deal: &Deal) -> Outcome {
    let dealt = cards(deal, 9);
    let board = &dealt[4..9];
    let a = [dealt[0], dealt[2]];
    let b = [dealt[1], dealt[3]];
    let seven = |hole: [Card; 2]| -> Vec<Card> { hole.iter().chain(board).copied().collect() };
    let (sa, sb) = (best_of(&seven(a)), best_of(&seven(b)));
    let order = sa.cmp(&sb);
    let mut outcome = Outcome::new(match order {
        Ordering::Greater => "Player A",
        Ordering::Less => "Player B",
        Ordering::Equal => "Tie",
    });
    outcome.show("Player A", &a, sa.category.name());
    outcome.show("Player B", &b, sb.category.name());
    outcome.show("Board", board, "");
    match order {
        Ordering::Greater => outcome.set("player-a", Verdict::Won),
        Ordering::Less => outcome.set("player-b", Verdict::Won),
        Ordering::Equal => {
            outcome.set("player-a", Verdict::Push);
            outcome.set("player-b", Verdict::Push);
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn five(text: &str) -> Strength {
        evaluate5(parse_cards(text).unwrap().try_into().unwrap())
    }

    #[test]
    fn categories_of_known_hands() {
        let table = [
            ("AS KS QS JS TS", Category::StraightFlush),
            ("5D 4D 3D 2D AD", Category::StraightFlush),
            ("9C 9D 9H 9S 2C", Category::FourOfAKind),
            ("3C 3D 3H 2S 2C", Category::FullHouse),
            ("AH 9H 7H 4H 2H", Category::Flush),
            ("AS KD QC JH TS", Category::Straight),
            ("AS 2D 3C 4H 5S", Category::Straight),
            ("KS AD 2C 3H 4S", Category::HighCard), // no wrap-around straights
            ("7S 7D 7C KH 2S", Category::ThreeOfAKind),
            ("7S 7D KC KH 2S", Category::TwoPair),
            ("7S 7D KC QH 2S", Category::OnePair),
            ("AS JD 9C 7H 2S", Category::HighCard),
        ];
        for (text, category) in table {
            assert_eq!(five(text).category, category, "{text}");
        }
    }

    #[test]
    fn ladder_and_ties_worked_by_hand() {
        let ladder = [
            "AS KS QS JS TS",
            "6D 5D 4D 3D 2D",
            "5C 4C 3C 2C AC", // the steel wheel is the lowest straight flush
            "AS AD AC AH KS",
            "2S 2D 2C 2H 3S",
            "AS AD AC KH KS",
            "2S 2D 2C 3H 3S",
            "AH QH 9H 7H 2H",
            "AH QD 9H 7H 2H", // a high card
        ];
        for pair in ladder.windows(2) {
            assert!(five(pair[0]) > five(pair[1]), "{} should beat {}", pair[0], pair[1]);
        }
        assert!(five("6S 5D 4C 3H 2S") > five("5S 4D 3C 2H AS")); // wheel is the lowest straight
        assert!(five("AS KD QC JH TS") > five("KS QD JC TH 9S"));
        assert!(five("KS KD 5C 5H 2S") > five("QS QD JC JH AS")); // two pair by the top pair
        assert!(five("KS KD 5C 5H 3S") > five("KH KC 5S 5D 2S")); // two pair kicker
        assert!(five("8S 8D AC 4H 3S") > five("8H 8C KS QD JS")); // pair kicker
        assert_eq!(five("8S 8D AC 4H 3S"), five("8H 8C AS 4D 3D")); // suits never rank
        assert!(five("3S 3D 3C 2H 2S") > five("2H 2C 2D AS AD")); // full houses by the trips
    }

    #[test]
    fn best_five_of_seven() {
        let best = |t: &str| best_of(&parse_cards(t).unwrap());
        // Flush on the board with a pair in hand: the flush plays.
        assert_eq!(best("KS KD 2H 5H 9H JH 3H").category, Category::Flush);
        // Two trips make a full house.
        assert_eq!(best("KS KD KC 5H 5S 5D 2H").category, Category::FullHouse);
        assert_eq!(best("KS KD KC 5H 5S 5D 2H").tiebreak[..2], [13, 5]);
        // A wheel with a six above makes 2-6.
        assert_eq!(best("AS 2D 3C 4H 5S 6D KC").tiebreak[0], 6);
        // Three pairs: the best two and the best kicker.
        assert_eq!(best("AS AD KC KH QS QD 2C").tiebreak, [14, 13, 12, 0, 0]);
        // Six and five cards work too.
        assert_eq!(best("AS AD KC KH QS").category, Category::TwoPair);
        assert_eq!(best("AS AD KC KH QS QD").tiebreak, [14, 13, 12, 0, 0]);
    }

    #[test]
    fn rounds_worked_by_hand() {
        let deal = |t: &str| Deal::Cards(parse_cards(t).unwrap());
        // A: AS AD, B: KS KD, board 2C 7H 9S JD 3C: A's aces win.
        let outcome = result(&deal("AS KS AD KD 2C 7H 9S JD 3C"));
        assert_eq!(outcome.winner, "Player A");
        assert_eq!(outcome.verdict("player-a"), Verdict::Won);
        // The board plays a broadway straight for both: a tie, both push.
        let outcome = result(&deal("2S 3S 2D 3D AC KH QS JD TC"));
        assert_eq!(outcome.winner, "Tie");
        assert_eq!(outcome.verdict("player-a"), Verdict::Push);
        assert_eq!(outcome.verdict("player-b"), Verdict::Push);
    }
}
