//! Queen: four totals race to 20.
//!
//! Four boxes, **Total 0**, **Total 1**, **Total 2** and **Total 3**, start with 0, 1, 2 and 3
//! points. Cards from one shuffled 52-card deck go to the boxes in turn, Total 0 first
//! (Total 0, 1, 2, 3, 0, 1, …), each adding its value: A = 1, 2–10 as marked, J = 11, Q = 12,
//! K = 13. The first box to reach **20 or more** wins and dealing stops (a deck always finishes
//! the race: its 364 points are far more than the 70 the four boxes can hold below 20). Bet on
//! the box that gets there first.
//!
//! Total 0 starts lowest but draws first; the race is uneven, so each box has its own odds.
//! No formula gives the exact probabilities (they depend on which cards have gone), so they
//! were estimated from 4 000 000 rounds dealt by this module (Total 0 ≈ 33.5%, Total 1 ≈ 26.8%,
//! Total 2 ≈ 21.9%, Total 3 ≈ 17.8%; see docs/casino.md). The posted odds, 2.88, 3.60, 4.40 and
//! 5.41, keep about 96.5% of the estimated fair odds: an edge near 3.6%, some 35 standard errors
//! of the estimate above zero.
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::Deal;
//!
//! // Totals after each card: T0 10, T1 1+9 = 10, T2 2+8 = 10, T3 3+2 = 5, T0 10+K = 23: Total 0 wins.
//! let deal = Deal::Cards(parse_cards("TS 9H 8D 2C KS").unwrap());
//! assert_eq!(GameKind::Queen.result(&deal).winner, "Total 0");
//! ```

use super::{cards, odds};
use crate::cards::{standard_deck, Card};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Odds, Outcome, Verdict};

/// The total a box must reach.
pub const TARGET: u32 = 20;

/// Each box's odds: Total 0, 1, 2, 3.
pub const BOX_ODDS: [Odds; 4] = [odds(288), odds(360), odds(440), odds(541)];

/// The markets: Total 0 to Total 3.
pub fn markets() -> Vec<Market> {
    (0..4)
        .map(|b| {
            Market::new(
                format!("total-{b}"),
                format!("Total {b}"),
                format!("total-{b}"),
                BOX_ODDS[b],
            )
        })
        .collect()
}

/// Plays the race over `cards` in order: the winning box and how many cards it took, or
/// `None` if the cards run out first.
pub fn race(cards: &[Card]) -> Option<(usize, usize)> {
    let mut totals = [0u32, 1, 2, 3];
    for (i, card) in cards.iter().enumerate() {
        let b = i % 4;
        totals[b] += u32::from(card.rank.value());
        if totals[b] >= TARGET {
            return Some((b, i + 1));
        }
    }
    None
}

/// The cards of the race, from a shuffled deck: as many as the race uses.
pub fn deal(rng: &mut FairRng) -> Deal {
    let mut deck = standard_deck();
    rng.shuffle(&mut deck);
    let (_, used) = race(&deck).expect("a 52-card deck always finishes the race");
    deck.truncate(used);
    Deal::Cards(deck)
}

/// The result.
///
/// # Panics
/// If the cards do not finish the race.
pub fn result(deal: &Deal) -> Outcome {
    let all = cards(deal, 1);
    let (winner, used) = race(all).expect("a Queen deal finishes the race");
    let dealt = &all[..used];
    let mut outcome = Outcome::new(format!("Total {winner}"));
    for b in 0..4 {
        let own: Vec<Card> = dealt.iter().skip(b).step_by(4).copied().collect();
        let total = b as u32 + own.iter().map(|c| u32::from(c.rank.value())).sum::<u32>();
        outcome.show(format!("Total {b}"), &own, total.to_string());
    }
    outcome.set(format!("total-{winner}"), Verdict::Won);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    #[test]
    fn races_worked_by_hand() {
        // T0 A, T1 1+K = 14, T2 2+Q = 14, T3 3+J = 14, T0 1+2 = 3, T1 14+6 = 20: Total 1 wins.
        let deal = Deal::Cards(parse_cards("AS KS QS JS 2D 6H").unwrap());
        let outcome = result(&deal);
        assert_eq!(outcome.winner, "Total 1");
        assert_eq!(outcome.verdict("total-1"), Verdict::Won);
        assert_eq!(outcome.hands[1].description, "20");
        assert_eq!(outcome.hands[3].cards, parse_cards("JS").unwrap());
        // Total 3 needs 17: 3 + 9 + 8 = 20 on the eighth card, before T0..T2 get there.
        let deal = Deal::Cards(parse_cards("2S 2H 2D 9C 3S 3H 3D 8C").unwrap());
        assert_eq!(race(deal.cards()), Some((3, 8)));
        assert_eq!(result(&deal).winner, "Total 3");
    }

    #[test]
    fn the_slowest_order_worked_by_hand() {
        // The deck sorted by value: each box gets A, 2, 3, 4, 5 in the first 20 cards, ending on
        // 15, 16, 17, 18; the 21st card, a 6, takes Total 0 to 21.
        let mut deck = standard_deck();
        deck.sort_by_key(|c| c.rank.value());
        assert_eq!(race(&deck), Some((0, 21)));
        assert_eq!(race(&deck[..20]), None);
    }
}
