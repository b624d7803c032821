//! The single-card games: Amar Akbar Anthony and Bollywood Casino. One card is dealt from a
//! shuffled pack and every market is a question about it.
//!
//! # Amar Akbar Anthony
//!
//! One card from a 52-card deck. Values A = 1, 2–10, J = 11, Q = 12, K = 13.
//!
//! | market | wins when the card is | pays |
//! |---|---|---|
//! | Amar | A, 2, 3, 4, 5 or 6 | 2.10 |
//! | Akbar | 7, 8, 9 or 10 | 3.15 |
//! | Anthony | J, Q or K | 4.20 |
//! | Even / Odd | value even (2 4 6 8 10 Q) / odd (A 3 5 7 9 J K) | 2.10 / 1.80 |
//! | Red / Black | hearts or diamonds / spades or clubs | 1.94 |
//! | Under 7 / Over 7 | A–6 / 8–K (a 7 loses both) | 2.10 |
//! | Card A … Card K | that rank | 12.60 |
//!
//! # Bollywood Casino
//!
//! One card from a 16-card pack of jacks, queens, kings and aces (our stated variant of the
//! Indian table: each film takes a fixed set of cards).
//!
//! | market | wins when the card is | chance | pays |
//! |---|---|---|---|
//! | Don | any ace | 4/16 | 3.85 |
//! | Amar Akbar Anthony | any king | 4/16 | 3.85 |
//! | Sahib Bibi aur Ghulam | Q♠ or Q♣ | 2/16 | 7.75 |
//! | Kis Kisko Pyaar Karoon | Q♥ or Q♦ | 2/16 | 7.75 |
//! | Dharam Veer | J♠ or J♣ | 2/16 | 7.75 |
//! | Ghulam | J♥ or J♦ | 2/16 | 7.75 |
//! | Red / Black | the card's colour | 8/16 | 1.94 |
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::Deal;
//!
//! let outcome = GameKind::AmarAkbarAnthony.result(&Deal::Cards(parse_cards("7H").unwrap()));
//! assert_eq!(outcome.winner, "Akbar");
//! assert_eq!(outcome.winning_markets(), ["akbar", "card-7", "odd", "red"]);
//!
//! let outcome = GameKind::Bollywood.result(&Deal::Cards(parse_cards("QD").unwrap()));
//! assert_eq!(outcome.winner, "Kis Kisko Pyaar Karoon");
//! ```

use super::{cards, deal_from, odds};
use crate::cards::{court_and_ace_pack, standard_deck, Card, Rank, Suit};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Outcome, Verdict};

/// One card from a shuffled 52-card deck (Amar Akbar Anthony).
pub fn deal_standard(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, standard_deck(), 1))
}

/// One card from the shuffled 16-card Bollywood pack ([`court_and_ace_pack`]).
pub fn deal_bollywood(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, court_and_ace_pack(), 1))
}

/// Amar Akbar Anthony's markets.
pub fn amar_akbar_anthony_markets() -> Vec<Market> {
    let mut markets = vec![
        Market::new("amar", "Amar", "amar", odds(210)),
        Market::new("akbar", "Akbar", "akbar", odds(315)),
        Market::new("anthony", "Anthony", "anthony", odds(420)),
        Market::new("even", "Even", "even", odds(210)),
        Market::new("odd", "Odd", "odd", odds(180)),
        Market::new("red", "Red", "colour", odds(194)),
        Market::new("black", "Black", "colour", odds(194)),
        Market::new("under-7", "Under 7", "under-over-7", odds(210)),
        Market::new("over-7", "Over 7", "under-over-7", odds(210)),
    ];
    for rank in Rank::ALL {
        let symbol = rank.symbol();
        markets.push(Market::new(
            format!("card-{symbol}"),
            format!("Card {symbol}"),
            "card",
            odds(1260),
        ));
    }
    markets
}

/// Amar Akbar Anthony's result.
pub fn amar_akbar_anthony_result(deal: &Deal) -> Outcome {
    let card = cards(deal, 1)[0];
    let value = card.rank.value();
    let (code, name) = match value {
        1..=6 => ("amar", "Amar"),
        7..=10 => ("akbar", "Akbar"),
        _ => ("anthony", "Anthony"),
    };
    let mut outcome = Outcome::new(name);
    outcome.show("Card", &[card], name);
    outcome.set(code, Verdict::Won);
    outcome.set(if value % 2 == 0 { "even" } else { "odd" }, Verdict::Won);
    outcome.set(if card.is_red() { "red" } else { "black" }, Verdict::Won);
    if value < 7 {
        outcome.set("under-7", Verdict::Won);
    } else if value > 7 {
        outcome.set("over-7", Verdict::Won);
    }
    outcome.set(format!("card-{}", card.rank.symbol()), Verdict::Won);
    outcome
}

/// Bollywood's films: (code, name, the cards that win it).
fn bollywood_film(card: Card) -> (&'static str, &'static str) {
    let black = matches!(card.suit, Suit::Spades | Suit::Clubs);
    match (card.rank, black) {
        (Rank::Ace, _) => ("don", "Don"),
        (Rank::King, _) => ("amar-akbar-anthony", "Amar Akbar Anthony"),
        (Rank::Queen, true) => ("sahib-bibi-aur-ghulam", "Sahib Bibi aur Ghulam"),
        (Rank::Queen, false) => ("kis-kisko-pyaar-karoon", "Kis Kisko Pyaar Karoon"),
        (Rank::Jack, true) => ("dharam-veer", "Dharam Veer"),
        (Rank::Jack, false) => ("ghulam", "Ghulam"),
        _ => panic!("{card} is not in the Bollywood pack"),
    }
}

/// Bollywood's markets.
pub fn bollywood_markets() -> Vec<Market> {
    vec![
        Market::new("don", "Don", "any-rank", odds(385)),
        Market::new("amar-akbar-anthony", "Amar Akbar Anthony", "any-rank", odds(385)),
        Market::new("sahib-bibi-aur-ghulam", "Sahib Bibi aur Ghulam", "two-cards", odds(775)),
        Market::new("kis-kisko-pyaar-karoon", "Kis Kisko Pyaar Karoon", "two-cards", odds(775)),
        Market::new("dharam-veer", "Dharam Veer", "two-cards", odds(775)),
        Market::new("ghulam", "Ghulam", "two-cards", odds(775)),
        Market::new("red", "Red", "colour", odds(194)),
        Market::new("black", "Black", "colour", odds(194)),
    ]
}

/// Bollywood's result.
///
/// # Panics
/// If the card is not a jack, queen, king or ace.
pub fn bollywood_result(deal: &Deal) -> Outcome {
    let card = cards(deal, 1)[0];
    let (code, name) = bollywood_film(card);
    let mut outcome = Outcome::new(name);
    outcome.show("Card", &[card], name);
    outcome.set(code, Verdict::Won);
    outcome.set(if card.is_red() { "red" } else { "black" }, Verdict::Won);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn one(text: &str) -> Deal {
        Deal::Cards(parse_cards(text).unwrap())
    }

    #[test]
    fn amar_akbar_anthony_worked_by_hand() {
        let table = [
            ("AS", vec!["amar", "black", "card-A", "odd", "under-7"]),
            ("6D", vec!["amar", "card-6", "even", "red", "under-7"]),
            ("7C", vec!["akbar", "black", "card-7", "odd"]),
            ("TH", vec!["akbar", "card-T", "even", "over-7", "red"]),
            ("JS", vec!["anthony", "black", "card-J", "odd", "over-7"]),
            ("QD", vec!["anthony", "card-Q", "even", "over-7", "red"]),
        ];
        for (card, winners) in table {
            assert_eq!(amar_akbar_anthony_result(&one(card)).winning_markets(), winners, "{card}");
        }
        let outcome = amar_akbar_anthony_result(&one("KC"));
        let anthony = &amar_akbar_anthony_markets()[2];
        assert_eq!(crate::market::payout(anthony, 50_00, &outcome), 210_00);
    }

    #[test]
    fn bollywood_worked_by_hand() {
        let table = [
            ("AH", "Don", "red"),
            ("KS", "Amar Akbar Anthony", "black"),
            ("QC", "Sahib Bibi aur Ghulam", "black"),
            ("QH", "Kis Kisko Pyaar Karoon", "red"),
            ("JS", "Dharam Veer", "black"),
            ("JD", "Ghulam", "red"),
        ];
        for (card, film, colour) in table {
            let outcome = bollywood_result(&one(card));
            assert_eq!(outcome.winner, film);
            assert_eq!(outcome.winning_markets().len(), 2);
            assert_eq!(outcome.verdict(colour), Verdict::Won);
        }
        // Every card of the pack wins exactly one film; the films split 4/4/2/2/2/2.
        let mut wins = std::collections::BTreeMap::new();
        for card in court_and_ace_pack() {
            *wins.entry(bollywood_film(card).0).or_insert(0) += 1;
        }
        assert_eq!(wins.values().copied().collect::<Vec<_>>().iter().sum::<i32>(), 16);
        assert_eq!(wins["don"], 4);
        assert_eq!(wins["ghulam"], 2);
    }
}
