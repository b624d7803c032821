//! Hi-Low: will the next card be higher or lower than the base card?
//!
//! One shuffled 52-card deck. The first card is the **base card**, shown when betting opens;
//! the second is the **next card**, dealt after betting closes. Values: A(1) lowest, 2–10,
//! J(11), Q(12), K(13) highest; suits never rank.
//!
//! - **High** wins if the next card's value is above the base card's; **Low** if below. A next
//!   card of the same value loses both.
//! - The odds depend on the base card. With `n` of the 51 unseen cards winning, the fair odds
//!   are `51 / n`; the posted odds keep 97% of that, rounded down to the hundredth:
//!   `odds_hundredths = ⌊97 × 51 / n⌋`. A side that cannot win (High on a king, Low on an ace)
//!   is not posted.
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::GameKind;
//!
//! let base = parse_cards("7H").unwrap();
//! let markets = GameKind::HiLow.markets(&base);
//! // 24 of the 51 unseen cards are 8 to K: 97 × 51 / 24 = 206.1, posted at 2.06.
//! assert_eq!(markets[0].code, "high");
//! assert_eq!(markets[0].odds.to_string(), "2.06");
//! let on_a_king = GameKind::HiLow.markets(&parse_cards("KS").unwrap());
//! assert_eq!(on_a_king.iter().map(|m| m.code.as_str()).collect::<Vec<_>>(), ["low"]);
//! ```

use super::{cards, deal_from};
use crate::cards::{standard_deck, Card};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Odds, Outcome, Verdict};

/// The share of the fair odds that is posted, in percent.
pub const PRICE_PERCENT: u32 = 97;

/// How many of the 51 unseen cards are above (`high`) or below the base card.
pub fn winning_cards(base: Card, high: bool) -> u32 {
    let value = u32::from(base.rank.value());
    4 * if high { 13 - value } else { value - 1 }
}

/// The odds posted for High (`high`) or Low on `base`, or `None` when that side cannot win.
pub fn posted_odds(base: Card, high: bool) -> Option<Odds> {
    let winning = winning_cards(base, high);
    (winning > 0).then(|| Odds::from_hundredths(PRICE_PERCENT * 51 / winning))
}

/// The markets for a round whose base card is `open[0]`.
///
/// # Panics
/// If no base card is given: Hi-Low's markets are priced from it.
pub fn markets(open: &[Card]) -> Vec<Market> {
    let base = *open.first().expect("Hi-Low prices its markets from the base card");
    let symbol = base.rank.symbol();
    [(true, "high", "High"), (false, "low", "Low")]
        .into_iter()
        .filter_map(|(high, code, name)| {
            let odds = posted_odds(base, high)?;
            Some(Market::new(code, name, format!("{code}-on-{symbol}"), odds))
        })
        .collect()
}

/// Two cards: the base card, then the next card.
pub fn deal(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, standard_deck(), 2))
}

/// The result.
pub fn result(deal: &Deal) -> Outcome {
    let dealt = cards(deal, 2);
    let (base, next) = (dealt[0], dealt[1]);
    let (b, n) = (base.rank.value(), next.rank.value());
    let winner = if n > b {
        "High"
    } else if n < b {
        "Low"
    } else {
        "Same"
    };
    let mut outcome = Outcome::new(winner);
    outcome.show("Base card", &[base], b.to_string());
    outcome.show("Next card", &[next], n.to_string());
    if n > b {
        outcome.set("high", Verdict::Won);
    } else if n < b {
        outcome.set("low", Verdict::Won);
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::market::payout;

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    #[test]
    fn odds_by_base_card_worked_by_hand() {
        // Ace: High has 48 winners, 97 × 51 / 48 = 103.06 → 1.03; Low is not posted.
        assert_eq!(posted_odds(card("AS"), true), Some(Odds::from_hundredths(103)));
        assert_eq!(posted_odds(card("AS"), false), None);
        // Seven: 24 each way, 97 × 51 / 24 = 206.12 → 2.06.
        assert_eq!(posted_odds(card("7D"), true), Some(Odds::from_hundredths(206)));
        assert_eq!(posted_odds(card("7D"), false), Some(Odds::from_hundredths(206)));
        // Queen: High has the 4 kings, 97 × 51 / 4 = 1236.75 → 12.36; Low has 44 → 1.12.
        assert_eq!(posted_odds(card("QC"), true), Some(Odds::from_hundredths(1236)));
        assert_eq!(posted_odds(card("QC"), false), Some(Odds::from_hundredths(112)));
    }

    #[test]
    fn rounds_worked_by_hand() {
        let deal = Deal::Cards(parse_cards("QC KD").unwrap());
        let outcome = result(&deal);
        assert_eq!(outcome.winner, "High");
        let posted = markets(&[card("QC")]);
        assert_eq!(payout(&posted[0], 10_00, &outcome), 123_60);
        assert_eq!(payout(&posted[1], 10_00, &outcome), 0);
        // Same value: both lose.
        let same = result(&Deal::Cards(parse_cards("5S 5H").unwrap()));
        assert_eq!(same.winner, "Same");
        assert_eq!(same.settled_markets().count(), 0);
    }
}
