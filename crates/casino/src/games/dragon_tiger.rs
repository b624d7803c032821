//! Dragon Tiger 1 Day: one card each, the higher wins.
//!
//! One shuffled 52-card deck; the first card is Dragon's, the second Tiger's. Cards rank by
//! value only, ace lowest: A(1) < 2 < … < 10 < J(11) < Q(12) < K(13); suits never rank.
//!
//! | market | wins when | pays |
//! |---|---|---|
//! | Dragon / Tiger | that card is higher; **on a tie the bet loses half** | 2.00 |
//! | Tie | both cards have the same value | 16.50 |
//! | Dragon Even / Tiger Even | that card's value is even (2 4 6 8 10 Q) | 2.10 |
//! | Dragon Odd / Tiger Odd | that card's value is odd (A 3 5 7 9 J K) | 1.80 |
//! | Dragon Red / Tiger Red, Black | that card's colour | 1.94 |
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::{payout, Deal};
//!
//! let game = GameKind::DragonTiger;
//! let outcome = game.result(&Deal::Cards(parse_cards("7S 7H").unwrap()));
//! assert_eq!(outcome.winner, "Tie");
//! let dragon = game.market(&[], "dragon").unwrap();
//! assert_eq!(payout(&dragon, 100_00, &outcome), 50_00); // half the stake back
//! let tie = game.market(&[], "tie").unwrap();
//! assert_eq!(payout(&tie, 100_00, &outcome), 1650_00);
//! ```

use std::cmp::Ordering;

use super::{cards, deal_from, odds};
use crate::cards::{standard_deck, Card};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Outcome, Verdict};

const SIDES: [(&str, &str); 2] = [("dragon", "Dragon"), ("tiger", "Tiger")];

/// The markets.
pub fn markets() -> Vec<Market> {
    let mut markets = vec![
        Market::new("dragon", "Dragon", "dragon-tiger", odds(200)),
        Market::new("tiger", "Tiger", "dragon-tiger", odds(200)),
        Market::new("tie", "Tie", "tie", odds(1650)),
    ];
    for (code, name) in SIDES {
        markets.push(Market::new(
            format!("{code}-even"),
            format!("{name} Even"),
            "even",
            odds(210),
        ));
        markets.push(Market::new(format!("{code}-odd"), format!("{name} Odd"), "odd", odds(180)));
        markets.push(Market::new(
            format!("{code}-red"),
            format!("{name} Red"),
            "colour",
            odds(194),
        ));
        markets.push(Market::new(
            format!("{code}-black"),
            format!("{name} Black"),
            "colour",
            odds(194),
        ));
    }
    markets
}

/// Two cards: Dragon, Tiger.
pub fn deal(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, standard_deck(), 2))
}

/// The result.
pub fn result(deal: &Deal) -> Outcome {
    let dealt = cards(deal, 2);
    let (dragon, tiger) = (dealt[0], dealt[1]);
    let order = dragon.rank.value().cmp(&tiger.rank.value());
    let mut outcome = Outcome::new(match order {
        Ordering::Greater => "Dragon",
        Ordering::Less => "Tiger",
        Ordering::Equal => "Tie",
    });
    outcome.show("Dragon", &[dragon], dragon.rank.value().to_string());
    outcome.show("Tiger", &[tiger], tiger.rank.value().to_string());
    match order {
        Ordering::Greater => outcome.set("dragon", Verdict::Won),
        Ordering::Less => outcome.set("tiger", Verdict::Won),
        Ordering::Equal => {
            outcome.set("tie", Verdict::Won);
            outcome.set("dragon", Verdict::HalfLost);
            outcome.set("tiger", Verdict::HalfLost);
        }
    }
    for ((code, _), card) in SIDES.into_iter().zip([dragon, tiger]) {
        set_card_sides(&mut outcome, code, card);
    }
    outcome
}

fn set_card_sides(outcome: &mut Outcome, side: &str, card: Card) {
    let parity = if card.rank.value() % 2 == 0 { "even" } else { "odd" };
    let colour = if card.is_red() { "red" } else { "black" };
    outcome.set(format!("{side}-{parity}"), Verdict::Won);
    outcome.set(format!("{side}-{colour}"), Verdict::Won);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::market::payout;

    fn judge(text: &str) -> Outcome {
        result(&Deal::Cards(parse_cards(text).unwrap()))
    }

    #[test]
    fn rounds_worked_by_hand() {
        // Dragon KH (13, odd, red) beats Tiger AS (1, odd, black): the ace is lowest.
        let outcome = judge("KH AS");
        assert_eq!(outcome.winner, "Dragon");
        assert_eq!(
            outcome.winning_markets(),
            vec!["dragon", "dragon-odd", "dragon-red", "tiger-black", "tiger-odd"]
        );
        // Tiger QC (12, even, black) beats Dragon JD.
        let outcome = judge("JD QC");
        assert_eq!(outcome.winner, "Tiger");
        assert_eq!(outcome.verdict("tiger-even"), Verdict::Won);
        assert_eq!(outcome.verdict("dragon-odd"), Verdict::Won);
        let pays: Vec<(String, i64)> =
            markets().iter().map(|m| (m.code.clone(), payout(m, 100_00, &outcome))).collect();
        let paid: Vec<_> = pays.into_iter().filter(|(_, back)| *back > 0).collect();
        assert_eq!(
            paid,
            vec![
                ("tiger".into(), 200_00),
                ("dragon-odd".into(), 180_00),
                ("dragon-red".into(), 194_00),
                ("tiger-even".into(), 210_00),
                ("tiger-black".into(), 194_00),
            ]
        );
    }

    #[test]
    fn a_tie_halves_dragon_and_tiger() {
        let outcome = judge("9S 9D");
        assert_eq!(outcome.verdict("tie"), Verdict::Won);
        assert_eq!(outcome.verdict("dragon"), Verdict::HalfLost);
        assert_eq!(outcome.verdict("tiger"), Verdict::HalfLost);
        assert_eq!(payout(&markets()[0], 99, &outcome), 49); // half of 0.99, down to 0.49
    }
}
