//! Baccarat (punto banco): the hand closer to 9 wins, with fixed drawing rules.
//!
//! A fresh 8-deck shoe (416 cards) is shuffled for every round. Cards go Player, Banker,
//! Player, Banker; then a third card to the Player, then to the Banker, when the rules say so.
//! Points: A = 1, 2–9 as marked, 10 J Q K = 0; a hand's total is its points' sum modulo 10.
//!
//! **Drawing rules** (nobody chooses):
//! 1. *Natural*: if either two-card total is 8 or 9, both stand.
//! 2. *Player*: draws a third card on 0–5, stands on 6–7.
//! 3. *Banker*, if the Player stood: draws on 0–5, stands on 6–7.
//! 4. *Banker*, if the Player drew a third card worth `p` points:
//!
//! | Banker total | Banker draws when `p` is |
//! |---|---|
//! | 0, 1, 2 | always |
//! | 3 | anything but 8 |
//! | 4 | 2–7 |
//! | 5 | 4–7 |
//! | 6 | 6–7 |
//! | 7 | never |
//!
//! | market | wins when | pays |
//! |---|---|---|
//! | Player | Player's total is higher; a tie pushes | 2.00 (1:1) |
//! | Banker | Banker's total is higher; a tie pushes | 1.95 (1:1 less 5% commission) |
//! | Tie | equal totals | 10.00 (9:1) |
//! | Player Pair / Banker Pair | that hand's first two cards share a rank (K-K, not K-Q) | 13.00 (12:1) |
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::baccarat::play;
//!
//! // Player 2+3 = 5 draws a 4: total 9. Banker K+6 = 6 draws only on a Player third card of 6
//! // or 7, so stands. Player wins 9 to 6; the last card is not used.
//! let coup = play(&parse_cards("2S KD 3H 6C 4D 9S").unwrap());
//! assert_eq!((coup.player_total(), coup.banker_total()), (9, 6));
//! assert_eq!((coup.player.len(), coup.banker.len()), (3, 2));
//! ```

use std::cmp::Ordering;

use super::{cards, odds};
use crate::cards::{shoe, Card};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Outcome, Verdict};

/// Decks in the shoe.
pub const DECKS: usize = 8;

/// A card's baccarat points: A = 1, 2–9 as marked, 10 and court cards 0.
pub const fn points(card: Card) -> u8 {
    let value = card.rank.value();
    if value >= 10 {
        0
    } else {
        value
    }
}

fn total(hand: &[Card]) -> u8 {
    hand.iter().map(|&c| points(c)).sum::<u8>() % 10
}

/// Whether the Banker, on `banker_total`, draws a third card, given the Player's third card's
/// points (`None` if the Player stood). Applies only when neither hand is a natural.
pub const fn banker_draws(banker_total: u8, player_third: Option<u8>) -> bool {
    match player_third {
        None => banker_total <= 5,
        Some(p) => match banker_total {
            0..=2 => true,
            3 => p != 8,
            4 => matches!(p, 2..=7),
            5 => matches!(p, 4..=7),
            6 => matches!(p, 6..=7),
            _ => false,
        },
    }
}

/// One coup: the two hands as dealt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coup {
    /// Player's cards, two or three.
    pub player: Vec<Card>,
    /// Banker's cards, two or three.
    pub banker: Vec<Card>,
}

impl Coup {
    /// Player's total, 0–9.
    pub fn player_total(&self) -> u8 {
        total(&self.player)
    }

    /// Banker's total, 0–9.
    pub fn banker_total(&self) -> u8 {
        total(&self.banker)
    }

    /// How many cards the coup used.
    pub fn cards_used(&self) -> usize {
        self.player.len() + self.banker.len()
    }
}

/// Plays a coup from `cards` in dealing order (at least the cards it needs: 4 to 6).
///
/// # Panics
/// If the rules call for a card `cards` does not have.
pub fn play(cards: &[Card]) -> Coup {
    let mut next = cards.iter().copied();
    let mut draw = || next.next().expect("the shoe has the cards the coup needs");
    let (p1, b1, p2, b2) = (draw(), draw(), draw(), draw());
    let mut player = vec![p1, p2];
    let mut banker = vec![b1, b2];
    let natural = total(&player) >= 8 || total(&banker) >= 8;
    if !natural {
        let player_third = if total(&player) <= 5 {
            let card = draw();
            player.push(card);
            Some(points(card))
        } else {
            None
        };
        if banker_draws(total(&banker), player_third) {
            banker.push(draw());
        }
    }
    Coup { player, banker }
}

/// The markets.
pub fn markets() -> Vec<Market> {
    vec![
        Market::new("player", "Player", "player", odds(200)),
        Market::new("banker", "Banker", "banker", odds(195)),
        Market::new("tie", "Tie", "tie", odds(1000)),
        Market::new("player-pair", "Player Pair", "pair", odds(1300)),
        Market::new("banker-pair", "Banker Pair", "pair", odds(1300)),
    ]
}

/// Shuffles a fresh 8-deck shoe and keeps the cards the coup uses.
pub fn deal(rng: &mut FairRng) -> Deal {
    let mut cards = shoe(DECKS);
    rng.shuffle(&mut cards);
    cards.truncate(play(&cards).cards_used());
    Deal::Cards(cards)
}

/// The result.
pub fn result(deal: &Deal) -> Outcome {
    let coup = play(cards(deal, 4));
    let (p, b) = (coup.player_total(), coup.banker_total());
    let order = p.cmp(&b);
    let mut outcome = Outcome::new(match order {
        Ordering::Greater => "Player",
        Ordering::Less => "Banker",
        Ordering::Equal => "Tie",
    });
    outcome.show("Player", &coup.player, format!("{p} points"));
    outcome.show("Banker", &coup.banker, format!("{b} points"));
    match order {
        Ordering::Greater => outcome.set("player", Verdict::Won),
        Ordering::Less => outcome.set("banker", Verdict::Won),
        Ordering::Equal => {
            outcome.set("tie", Verdict::Won);
            outcome.set("player", Verdict::Push);
            outcome.set("banker", Verdict::Push);
        }
    }
    if coup.player[0].rank == coup.player[1].rank {
        outcome.set("player-pair", Verdict::Won);
    }
    if coup.banker[0].rank == coup.banker[1].rank {
        outcome.set("banker-pair", Verdict::Won);
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn coup(text: &str) -> Coup {
        play(&parse_cards(text).unwrap())
    }

    #[test]
    fn the_banker_third_card_table() {
        // Rows: Banker total 0..=7; columns: Player stood, then Player third card 0..=9.
        // 'D' draws, 'S' stands — the standard punto banco tableau.
        let table = [
            "D DDDDDDDDDD", // 0
            "D DDDDDDDDDD", // 1
            "D DDDDDDDDDD", // 2
            "D DDDDDDDDSD", // 3: stands on an 8
            "D SSDDDDDDSS", // 4: draws on 2-7
            "D SSSSDDDDSS", // 5: draws on 4-7
            "S SSSSSSDDSS", // 6: draws on 6-7
            "S SSSSSSSSSS", // 7
        ];
        for (banker, row) in table.iter().enumerate() {
            let row: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            let banker = banker as u8;
            assert_eq!(banker_draws(banker, None), row[0] == 'D', "banker {banker}, player stood");
            for p in 0..=9u8 {
                assert_eq!(
                    banker_draws(banker, Some(p)),
                    row[1 + p as usize] == 'D',
                    "banker {banker}, player third {p}"
                );
            }
        }
    }

    #[test]
    fn coups_worked_by_hand() {
        // Naturals stand: Player 4+4 = 8, Banker 9+K = 9; the extra cards are not drawn.
        let c = coup("4S 9H 4D KC 5S 5H");
        assert_eq!((c.player_total(), c.banker_total(), c.cards_used()), (8, 9, 4));
        // Player 6 stands; Banker 5 draws (Player stood): 5 + 3 = 8.
        let c = coup("3S 2H 3D 3C 3H 9S");
        assert_eq!((c.player.len(), c.banker.len()), (2, 3));
        assert_eq!((c.player_total(), c.banker_total()), (6, 8));
        // Player 7 stands, Banker 6 stands.
        let c = coup("7S 6H KD KC 5S");
        assert_eq!(c.cards_used(), 4);
        // Player 0 draws an 8 (8); Banker 3 stands on a Player 8.
        let c = coup("KS 3H QD KC 8S 9S");
        assert_eq!((c.player_total(), c.banker_total(), c.banker.len()), (8, 3, 2));
        // Player 1 draws a 2 (3); Banker 4 draws on a 2: 4 + 5 = 9.
        let c = coup("AS 4H KD KC 2S 5D");
        assert_eq!((c.player_total(), c.banker_total(), c.cards_used()), (3, 9, 6));
        // Totals are modulo 10: 9 + 8 = 17 → 7.
        let c = coup("9S KH 8D KC 2S");
        assert_eq!(c.player_total(), 7);
    }

    #[test]
    fn rounds_worked_by_hand() {
        let judge = |t: &str| result(&Deal::Cards(parse_cards(t).unwrap()));
        // Player KS KD (0, a pair) draws 7 (7); Banker 5+AC = 6 draws on a 7: 6 + 3 = 9.
        let outcome = judge("KS 5H KD AC 7S 3D");
        assert_eq!(outcome.winner, "Banker");
        assert_eq!(outcome.winning_markets(), vec!["banker", "player-pair"]);
        let banker = &markets()[1];
        assert_eq!(crate::market::payout(banker, 100_00, &outcome), 195_00);
        // K+Q is not a pair. A tie pushes Player and Banker.
        let outcome = judge("KS 4H QD 3C 7S TD");
        assert_eq!(outcome.winner, "Tie");
        assert_eq!(outcome.verdict("player-pair"), Verdict::Lost);
        assert_eq!(outcome.verdict("player"), Verdict::Push);
        assert_eq!(outcome.verdict("tie"), Verdict::Won);
    }
}
