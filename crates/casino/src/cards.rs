//! Playing cards, the 52-card deck, the multi-deck shoe, and the other packs the games use.
//!
//! A card is written as its rank then its suit: `AS` (ace of spades), `TD` (ten of diamonds),
//! `KC`. Ranks are `A 2 3 4 5 6 7 8 9 T J Q K`, suits `S H D C`. Every pack starts in one
//! fixed, published order (the *canonical order*) before it is shuffled, because the shuffle
//! (see [`crate::fair`]) is a permutation of positions: to recompute a deal one must start from
//! the same order. The canonical deck is suit by suit, spades, hearts, diamonds, clubs, and
//! within a suit ace, 2, …, king:
//!
//! ```
//! use backlay_casino::cards::{standard_deck, Card};
//!
//! let deck = standard_deck();
//! assert_eq!(deck.len(), 52);
//! assert_eq!((deck[0].to_string(), deck[12].to_string()), ("AS".into(), "KS".into()));
//! assert_eq!((deck[13].to_string(), deck[51].to_string()), ("AH".into(), "KC".into()));
//! assert_eq!("TD".parse::<Card>()?, deck[2 * 13 + 9]);
//! # Ok::<(), backlay_casino::cards::CardParseError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

/// A card's rank, ace low in its numeric value (`Ace.value() == 1`, `King.value() == 13`).
/// Games that play the ace high say so ([`Rank::high_value`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// A: value 1 (or 14 where a game plays aces high).
    Ace = 1,
    /// 2.
    Two,
    /// 3.
    Three,
    /// 4.
    Four,
    /// 5.
    Five,
    /// 6.
    Six,
    /// 7.
    Seven,
    /// 8.
    Eight,
    /// 9.
    Nine,
    /// T: 10.
    Ten,
    /// J: 11.
    Jack,
    /// Q: 12.
    Queen,
    /// K: 13.
    King,
}

impl Rank {
    /// The thirteen ranks, ace first.
    pub const ALL: [Rank; 13] = [
        Rank::Ace,
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
    ];

    /// 1 for an ace, 2–10 for the numbers, 11 12 13 for jack, queen, king.
    pub const fn value(self) -> u8 {
        self as u8
    }

    /// The value with the ace high: 2–13 as [`Rank::value`], 14 for an ace.
    pub const fn high_value(self) -> u8 {
        match self {
            Rank::Ace => 14,
            other => other as u8,
        }
    }

    /// The rank of value 1–13 (1 = ace).
    pub fn from_value(value: u8) -> Option<Rank> {
        Rank::ALL.get(usize::from(value).checked_sub(1)?).copied()
    }

    /// The rank's letter: `A 2 … 9 T J Q K`.
    pub const fn symbol(self) -> char {
        b"A23456789TJQK"[self as usize - 1] as char
    }
}

/// A card's suit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// S, black.
    Spades,
    /// H, red.
    Hearts,
    /// D, red.
    Diamonds,
    /// C, black.
    Clubs,
}

impl Suit {
    /// The suits in canonical deck order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// Hearts and diamonds are red; spades and clubs black.
    pub const fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    /// The suit's letter: `S H D C`.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }
}

/// One playing card. Serialises as its two-letter code (`"AS"`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    /// The rank.
    pub rank: Rank,
    /// The suit.
    pub suit: Suit,
}

impl Card {
    /// The card of `rank` and `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// Whether the card is a heart or a diamond.
    pub const fn is_red(self) -> bool {
        self.suit.is_red()
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.symbol(), self.suit.symbol())
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Text that is not a card code such as `AS` or `TD`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a card: write rank then suit, e.g. AS, TD, 7H (ranks A23456789TJQK, suits SHDC)"
)]
pub struct CardParseError(pub String);

impl FromStr for Card {
    type Err = CardParseError;

    fn from_str(text: &str) -> Result<Card, CardParseError> {
        let error = || CardParseError(text.to_owned());
        let mut chars = text.chars();
        let (Some(rank), Some(suit), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(error());
        };
        let rank = Rank::ALL
            .into_iter()
            .find(|r| r.symbol() == rank.to_ascii_uppercase())
            .ok_or_else(error)?;
        let suit = Suit::ALL
            .into_iter()
            .find(|s| s.symbol() == suit.to_ascii_uppercase())
            .ok_or_else(error)?;
        Ok(Card::new(rank, suit))
    }
}

/// Parses space-separated card codes (`"AS KD 7H"`); for tests, examples and the verifier.
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardParseError> {
    text.split_ascii_whitespace().map(str::parse).collect()
}

/// The 52-card deck in canonical order: spades, hearts, diamonds, clubs; ace to king in each.
pub fn standard_deck() -> Vec<Card> {
    Suit::ALL
        .into_iter()
        .flat_map(|suit| Rank::ALL.into_iter().map(move |rank| Card::new(rank, suit)))
        .collect()
}

/// A shoe of `decks` standard decks, each in canonical order, one after another
/// (baccarat uses eight: 416 cards).
pub fn shoe(decks: usize) -> Vec<Card> {
    let deck = standard_deck();
    (0..decks).flat_map(|_| deck.iter().copied()).collect()
}

/// The 16-card Bollywood pack: jacks, queens, kings and aces, in canonical order (suit by
/// suit; J, Q, K, A within a suit).
pub fn court_and_ace_pack() -> Vec<Card> {
    Suit::ALL
        .into_iter()
        .flat_map(|suit| {
            [Rank::Jack, Rank::Queen, Rank::King, Rank::Ace]
                .into_iter()
                .map(move |rank| Card::new(rank, suit))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn the_deck_has_52_distinct_cards_in_canonical_order() {
        let deck = standard_deck();
        assert_eq!(deck.iter().collect::<HashSet<_>>().len(), 52);
        assert_eq!(deck[0], Card::new(Rank::Ace, Suit::Spades));
        assert_eq!(deck[14], Card::new(Rank::Two, Suit::Hearts));
        assert_eq!(deck[26], Card::new(Rank::Ace, Suit::Diamonds));
        assert_eq!(deck[51], Card::new(Rank::King, Suit::Clubs));
        assert_eq!(deck.iter().filter(|c| c.is_red()).count(), 26);
    }

    #[test]
    fn the_shoe_repeats_the_deck() {
        let shoe = shoe(8);
        assert_eq!(shoe.len(), 416);
        assert_eq!(shoe[52..104], standard_deck()[..]);
        let aces = shoe.iter().filter(|c| c.rank == Rank::Ace).count();
        assert_eq!(aces, 32);
    }

    #[test]
    fn the_bollywood_pack_is_jacks_to_aces() {
        let pack = court_and_ace_pack();
        assert_eq!(pack.len(), 16);
        assert_eq!(pack.iter().collect::<HashSet<_>>().len(), 16);
        assert!(pack
            .iter()
            .all(|c| matches!(c.rank, Rank::Jack | Rank::Queen | Rank::King | Rank::Ace)));
    }

    #[test]
    fn codes_round_trip_and_bad_codes_are_refused() {
        for card in standard_deck() {
            assert_eq!(card.to_string().parse::<Card>(), Ok(card));
        }
        assert_eq!("th".parse::<Card>(), Ok(Card::new(Rank::Ten, Suit::Hearts)));
        for bad in ["", "A", "10H", "ASX", "1S", "AX", "ZZ"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
        assert_eq!(serde_json_like(&parse_cards("AS TD").unwrap()), "AS TD".to_owned());
    }

    fn serde_json_like(cards: &[Card]) -> String {
        cards.iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn rank_values() {
        assert_eq!(Rank::Ace.value(), 1);
        assert_eq!(Rank::Ace.high_value(), 14);
        assert_eq!(Rank::King.value(), 13);
        assert_eq!(Rank::from_value(10), Some(Rank::Ten));
        assert_eq!(Rank::from_value(0), None);
        assert_eq!(Rank::from_value(14), None);
    }
}
