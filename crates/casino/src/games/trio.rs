//! Trio: three cards, many questions.
//!
//! Three cards from one shuffled 52-card deck. Values A = 1, 2–10, J = 11, Q = 12, K = 13;
//! the hand categories are teen patti's ([`super::teen_patti`]).
//!
//! | market | wins when the three cards | pays |
//! |---|---|---|
//! | Total Over 21 / Under 21 | add up to 22 or more / 20 or less (21 loses both) | 2.06 |
//! | Judgement 1 2 4 | include an A, a 2 or a 4 | 1.75 |
//! | Judgement J Q K | include a J, a Q or a K | 1.75 |
//! | Two Red Only / Two Black Only | are exactly two red / two black | 2.54 |
//! | Two Odd Only | have exactly two odd values | 2.36 |
//! | Two Even Only | have exactly two even values | 2.77 |
//! | Pair | make a pair (not a trail) | 5.72 |
//! | Colour | make a colour (flush, not in sequence) | 19.55 |
//! | Sequence | make a sequence in mixed suits | 29.75 |
//! | Trail | make a trail | 412.00 |
//! | Pure Sequence | make a pure sequence | 446.00 |
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::Deal;
//!
//! let outcome = GameKind::Trio.result(&Deal::Cards(parse_cards("KS KH 4D").unwrap()));
//! assert_eq!(outcome.winner, "30 · Pair");
//! assert_eq!(
//!     outcome.winning_markets(),
//!     ["judgement-124", "judgement-jqk", "pair", "total-over-21", "two-odd", "two-red"]
//! );
//! ```

use super::teen_patti::{evaluate, Category};
use super::{cards, deal_from, odds};
use crate::cards::standard_deck;
use crate::fair::FairRng;
use crate::market::{Deal, Market, Outcome, Verdict};

/// The markets.
pub fn markets() -> Vec<Market> {
    vec![
        Market::new("total-over-21", "Total Over 21", "total", odds(206)),
        Market::new("total-under-21", "Total Under 21", "total", odds(206)),
        Market::new("judgement-124", "Judgement 1 2 4", "judgement", odds(175)),
        Market::new("judgement-jqk", "Judgement J Q K", "judgement", odds(175)),
        Market::new("two-red", "Two Red Only", "two-colour", odds(254)),
        Market::new("two-black", "Two Black Only", "two-colour", odds(254)),
        Market::new("two-odd", "Two Odd Only", "two-odd", odds(236)),
        Market::new("two-even", "Two Even Only", "two-even", odds(277)),
        Market::new("pair", "Pair", "pair", odds(572)),
        Market::new("colour", "Colour", "colour", odds(1955)),
        Market::new("sequence", "Sequence", "sequence", odds(2975)),
        Market::new("trail", "Trail", "trail", odds(41200)),
        Market::new("pure-sequence", "Pure Sequence", "pure-sequence", odds(44600)),
    ]
}

/// Three cards.
pub fn deal(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, standard_deck(), 3))
}

/// The result.
pub fn result(deal: &Deal) -> Outcome {
    let hand: [crate::cards::Card; 3] = cards(deal, 3)[..3].try_into().expect("three cards");
    let values = hand.map(|c| c.rank.value());
    let total: u8 = values.iter().sum();
    let category = evaluate(hand).category;
    let mut outcome = Outcome::new(format!("{total} · {}", category.name()));
    outcome.show("Cards", &hand, format!("{total} · {}", category.name()));
    let mut win = |code: &str| outcome.set(code, Verdict::Won);
    if total >= 22 {
        win("total-over-21");
    } else if total <= 20 {
        win("total-under-21");
    }
    if values.iter().any(|v| [1, 2, 4].contains(v)) {
        win("judgement-124");
    }
    if values.iter().any(|v| [11, 12, 13].contains(v)) {
        win("judgement-jqk");
    }
    let red = hand.iter().filter(|c| c.is_red()).count();
    let odd = values.iter().filter(|&&v| v % 2 == 1).count();
    match red {
        2 => win("two-red"),
        1 => win("two-black"),
        _ => {}
    }
    match odd {
        2 => win("two-odd"),
        1 => win("two-even"),
        _ => {}
    }
    match category {
        Category::HighCard => {}
        Category::Pair => win("pair"),
        Category::Colour => win("colour"),
        Category::Sequence => win("sequence"),
        Category::Trail => win("trail"),
        Category::PureSequence => win("pure-sequence"),
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn winners(text: &str) -> Vec<String> {
        result(&Deal::Cards(parse_cards(text).unwrap()))
            .winning_markets()
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn hands_worked_by_hand() {
        // 7 + 7 + 7 = 21: neither total market wins. A trail; H and D make two red; three odd.
        assert_eq!(winners("7S 7H 7D"), ["trail", "two-red"]);
        // A + 2 + 3 = 6 in one suit: a pure sequence, under 21; A and 3 are the two odd values.
        assert_eq!(
            winners("AS 2S 3S"),
            ["judgement-124", "pure-sequence", "total-under-21", "two-odd"]
        );
        // Q + K + A = 26: a sequence (A-K-Q), mixed suits, two red.
        assert_eq!(
            winners("QH KD AC"),
            ["judgement-124", "judgement-jqk", "sequence", "total-over-21", "two-odd", "two-red"]
        );
        // 9 + 5 + 8 = 22 in clubs, not in sequence: a colour, no red card, two odd values.
        assert_eq!(winners("9C 5C 8C"), ["colour", "total-over-21", "two-odd"]);
        // 10 + 6 + 2 = 18: all even (so no two-odd/two-even), two black, a 2 for 1 2 4.
        assert_eq!(winners("TS 6C 2H"), ["judgement-124", "total-under-21", "two-black"]);
    }
}
