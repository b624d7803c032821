//! Andar Bahar: which side gets the card that matches the joker?
//!
//! One shuffled 52-card deck. The first card is the **joker**, shown when betting opens. After
//! betting closes, cards are dealt one at a time to **Andar** (inside) and **Bahar** (outside)
//! in turn, Andar first; the first card of the joker's rank ends the round, and its side wins.
//! Suits do not matter.
//!
//! Andar draws first, so it is a little more likely to win: the first of the three matching
//! cards among the 51 is at an odd position (Andar) with probability 429/833 ≈ 51.5%. Andar
//! pays **1.90** (0.9:1), Bahar **2.00** (1:1), as the Indian tables pay them.
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::Deal;
//!
//! // Joker 7H; Andar 2S, Bahar KD, Andar 7C: the match falls to Andar on the third card.
//! let outcome = GameKind::AndarBahar.result(&Deal::Cards(parse_cards("7H 2S KD 7C").unwrap()));
//! assert_eq!(outcome.winner, "Andar");
//! assert_eq!(outcome.winning_markets(), ["andar"]);
//! ```

use super::{cards, odds};
use crate::cards::{standard_deck, Card};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Outcome, Verdict};

/// The markets: Andar, Bahar.
pub fn markets() -> Vec<Market> {
    vec![
        Market::new("andar", "Andar", "andar", odds(190)),
        Market::new("bahar", "Bahar", "bahar", odds(200)),
    ]
}

/// The position (1-based, after the joker) of the first card matching the joker's rank.
fn first_match(cards: &[Card]) -> Option<usize> {
    let joker = cards.first()?;
    cards[1..].iter().position(|c| c.rank == joker.rank).map(|i| i + 1)
}

/// The joker and the cards up to the first match.
pub fn deal(rng: &mut FairRng) -> Deal {
    let mut deck = standard_deck();
    rng.shuffle(&mut deck);
    let matched = first_match(&deck).expect("three cards of the joker's rank remain");
    deck.truncate(matched + 1);
    Deal::Cards(deck)
}

/// The result.
///
/// # Panics
/// If no card after the joker matches it.
pub fn result(deal: &Deal) -> Outcome {
    let all = cards(deal, 2);
    let matched = first_match(all).expect("an Andar Bahar deal ends on a match");
    let dealt = &all[1..=matched];
    // Positions 1, 3, 5, … go to Andar; 2, 4, 6, … to Bahar.
    let andar_wins = matched % 2 == 1;
    let side =
        |first: usize| -> Vec<Card> { dealt.iter().skip(first).step_by(2).copied().collect() };
    let mut outcome = Outcome::new(if andar_wins { "Andar" } else { "Bahar" });
    outcome.show("Joker", &all[..1], "");
    outcome.show("Andar", &side(0), if andar_wins { "match" } else { "" });
    outcome.show("Bahar", &side(1), if andar_wins { "" } else { "match" });
    outcome.set(if andar_wins { "andar" } else { "bahar" }, Verdict::Won);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn judge(text: &str) -> Outcome {
        result(&Deal::Cards(parse_cards(text).unwrap()))
    }

    #[test]
    fn rounds_worked_by_hand() {
        // The very first card matches: Andar.
        assert_eq!(judge("QS QD").winner, "Andar");
        // The second card matches: Bahar.
        let outcome = judge("QS 3D QC");
        assert_eq!(outcome.winner, "Bahar");
        assert_eq!(outcome.hands[1].cards, parse_cards("3D").unwrap());
        assert_eq!(outcome.hands[2].cards, parse_cards("QC").unwrap());
        let bahar = &markets()[1];
        assert_eq!(crate::market::payout(bahar, 100_00, &outcome), 200_00);
        let andar = &markets()[0];
        assert_eq!(crate::market::payout(andar, 100_00, &judge("QS QD")), 190_00);
        // Cards after the match are ignored.
        assert_eq!(judge("5H 6H 7H 5C 5D").winner, "Andar");
    }
}
