//! Teen Patti (three-card brag, as Indian tables play it): the hand evaluator and four games,
//! Teen Patti T20, Teen Patti 1 Day, Teen Patti Test and Muflis Teen Patti.
//!
//! # Hands, best first
//!
//! | hand | what | count of 22 100 |
//! |---|---|---|
//! | Trail (set) | three of a rank; A-A-A best, 2-2-2 lowest | 52 |
//! | Pure sequence | three in rank order, one suit | 48 |
//! | Sequence (run) | three in rank order, mixed suits | 720 |
//! | Colour (flush) | one suit, not in order | 1 096 |
//! | Pair | two of a rank | 3 744 |
//! | High card | anything else | 16 440 |
//!
//! Sequences rank **A-K-Q highest, then A-2-3, then K-Q-J, Q-J-T, … down to 4-3-2**; K-A-2 is
//! not a sequence. Otherwise the ace is high. Within a category: trails by rank; sequences by
//! the order above; a pair by its rank, then the odd card; colour and high card by the highest
//! card, then the second, then the third. Suits never rank: equal hands tie.
//!
//! # The games
//!
//! Cards come from one shuffled 52-card deck, dealt one at a time in turn.
//!
//! - **Teen Patti T20** and **Teen Patti 1 Day**: Player A and Player B get three cards each
//!   (A, B, A, B, A, B). The better hand wins; on a tie Player A and Player B bets push.
//!   T20 adds **Pair Plus A/B**, paid on that player's own hand whoever wins, from the pay
//!   table: pair 1:1 (2.00), colour 4:1 (5.00), sequence 6:1 (7.00), trail 30:1 (31.00), pure
//!   sequence 40:1 (41.00); high card loses. 1 Day adds **Tie** at 875.00.
//! - **Teen Patti Test**: Tiger, Lion and Dragon get three cards each (Tiger, Lion, Dragon, in
//!   turn). The best hand wins at 2.90; players sharing the best hand push, the rest lose.
//! - **Muflis Teen Patti**: dealt as T20, but the *lowest* hand wins: the ranking above is
//!   reversed entirely, so the best Muflis hand is 5-3-2 in mixed suits (the weakest high
//!   card; 4-3-2 is a sequence) and the worst is A-A-A. A tie pushes.
//!
//! ```
//! use backlay_casino::cards::parse_cards;
//! use backlay_casino::games::teen_patti::{evaluate, Category};
//!
//! let hand = |text: &str| evaluate(parse_cards(text).unwrap().try_into().unwrap());
//! assert_eq!(hand("AS KS QS").category, Category::PureSequence);
//! assert!(hand("AH KD QC") > hand("3S 2D AH")); // A-K-Q is the best sequence, A-2-3 next
//! assert!(hand("3S 2D AH") > hand("KH QD JC"));
//! assert!(hand("2S 2D 2H") > hand("AS KS QS")); // any trail beats any pure sequence
//! assert_eq!(hand("9S 9D 4H"), hand("9H 9C 4S")); // suits never rank
//! ```

use std::cmp::{Ordering, Reverse};

use super::{cards, deal_from, odds};
use crate::cards::{standard_deck, Card};
use crate::fair::FairRng;
use crate::market::{Deal, Market, Odds, Outcome, Verdict};

/// A teen patti hand category, weakest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// No pair, sequence or colour.
    HighCard,
    /// Two of a rank.
    Pair,
    /// One suit, not in sequence (flush).
    Colour,
    /// Three in rank order, mixed suits (run).
    Sequence,
    /// Three in rank order, one suit (straight flush).
    PureSequence,
    /// Three of a rank (set).
    Trail,
}

impl Category {
    /// The name the table shows.
    pub const fn name(self) -> &'static str {
        match self {
            Category::HighCard => "High card",
            Category::Pair => "Pair",
            Category::Colour => "Colour",
            Category::Sequence => "Sequence",
            Category::PureSequence => "Pure sequence",
            Category::Trail => "Trail",
        }
    }
}

/// A hand's strength: compare two with `<`/`>`; equal strengths tie.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Strength {
    /// The category, compared first.
    pub category: Category,
    /// Tie-breaking values within the category, compared in order (ace = 14; for sequences
    /// the sequence's place: A-K-Q 16, A-2-3 15, K-Q-J 13, …, 4-3-2 4).
    pub tiebreak: [u8; 3],
}

/// Evaluates three cards.
pub fn evaluate(hand: [Card; 3]) -> Strength {
    let mut high = hand.map(|c| c.rank.high_value());
    high.sort_unstable_by(|a, b| b.cmp(a));
    let mut low = hand.map(|c| c.rank.value());
    low.sort_unstable();
    let flush = hand.iter().all(|c| c.suit == hand[0].suit);
    let sequence = match low {
        [1, 12, 13] => Some(16), // A-K-Q
        [1, 2, 3] => Some(15),   // A-2-3, second only to A-K-Q
        [a, b, c] if b == a + 1 && c == b + 1 => Some(c),
        _ => None,
    };
    let (category, tiebreak) = if high[0] == high[2] {
        (Category::Trail, [high[0], 0, 0])
    } else if let Some(place) = sequence {
        let category = if flush { Category::PureSequence } else { Category::Sequence };
        (category, [place, 0, 0])
    } else if flush {
        (Category::Colour, high)
    } else if high[0] == high[1] {
        (Category::Pair, [high[0], high[2], 0])
    } else if high[1] == high[2] {
        (Category::Pair, [high[1], high[0], 0])
    } else {
        (Category::HighCard, high)
    };
    Strength { category, tiebreak }
}

/// The Muflis strength of three cards: the teen patti order reversed, so that comparing
/// Muflis strengths with `>` picks the lower teen patti hand.
pub fn evaluate_muflis(hand: [Card; 3]) -> Reverse<Strength> {
    Reverse(evaluate(hand))
}

/// Pair Plus pays on the bettor's own hand: the odds for `category`, or `None` (lost).
pub const fn pair_plus_odds(category: Category) -> Option<Odds> {
    match category {
        Category::HighCard => None,
        Category::Pair => Some(odds(200)),
        Category::Colour => Some(odds(500)),
        Category::Sequence => Some(odds(700)),
        Category::Trail => Some(odds(3100)),
        Category::PureSequence => Some(odds(4100)),
    }
}

/// Player A's and B's odds (T20, 1 Day, Muflis).
pub const PLAYER_ODDS: Odds = odds(198);
/// Teen Patti 1 Day's Tie odds.
pub const TIE_ODDS: Odds = odds(87500);
/// Teen Patti Test's odds for each player.
pub const TEST_WINNER_ODDS: Odds = odds(290);

fn player_markets() -> Vec<Market> {
    vec![
        Market::new("player-a", "Player A", "player", PLAYER_ODDS),
        Market::new("player-b", "Player B", "player", PLAYER_ODDS),
    ]
}

/// Teen Patti T20's markets: Player A, Player B, Pair Plus A, Pair Plus B.
pub fn t20_markets() -> Vec<Market> {
    let mut markets = player_markets();
    let lowest = pair_plus_odds(Category::Pair).expect("a pair pays");
    markets.push(Market::new("pair-plus-a", "Pair Plus A", "pair-plus", lowest));
    markets.push(Market::new("pair-plus-b", "Pair Plus B", "pair-plus", lowest));
    markets
}

/// Teen Patti 1 Day's markets: Player A, Player B, Tie.
pub fn one_day_markets() -> Vec<Market> {
    let mut markets = player_markets();
    markets.push(Market::new("tie", "Tie", "tie", TIE_ODDS));
    markets
}

/// Muflis Teen Patti's markets: Player A, Player B.
pub fn muflis_markets() -> Vec<Market> {
    player_markets()
}

/// Teen Patti Test's players, in dealing order.
pub const TEST_PLAYERS: [&str; 3] = ["Tiger", "Lion", "Dragon"];

/// Teen Patti Test's markets: Tiger, Lion, Dragon.
pub fn test_markets() -> Vec<Market> {
    TEST_PLAYERS
        .iter()
        .map(|name| Market::new(name.to_lowercase(), *name, "winner", TEST_WINNER_ODDS))
        .collect()
}

/// Six cards: A, B, A, B, A, B.
pub fn deal_two_players(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, standard_deck(), 6))
}

/// Nine cards: Tiger, Lion, Dragon, three times.
pub fn deal_test(rng: &mut FairRng) -> Deal {
    Deal::Cards(deal_from(rng, standard_deck(), 9))
}

/// Player `seat`'s three cards when `players` are dealt in turn.
pub(crate) fn seat(cards: &[Card], players: usize, seat: usize) -> [Card; 3] {
    [cards[seat], cards[seat + players], cards[seat + 2 * players]]
}

fn describe(strength: Strength) -> String {
    strength.category.name().to_owned()
}

/// Judges A against B with `better` (teen patti or Muflis order), sets the player markets,
/// and shows both hands.
fn two_players<K: Ord>(
    deal: &Deal,
    key: impl Fn([Card; 3]) -> K,
) -> (Outcome, [Card; 3], [Card; 3]) {
    let dealt = cards(deal, 6);
    let (a, b) = (seat(dealt, 2, 0), seat(dealt, 2, 1));
    let order = key(a).cmp(&key(b));
    let winner = match order {
        Ordering::Greater => "Player A",
        Ordering::Less => "Player B",
        Ordering::Equal => "Tie",
    };
    let mut outcome = Outcome::new(winner);
    outcome.show("Player A", &a, describe(evaluate(a)));
    outcome.show("Player B", &b, describe(evaluate(b)));
    match order {
        Ordering::Greater => outcome.set("player-a", Verdict::Won),
        Ordering::Less => outcome.set("player-b", Verdict::Won),
        Ordering::Equal => {
            outcome.set("player-a", Verdict::Push);
            outcome.set("player-b", Verdict::Push);
        }
    }
    (outcome, a, b)
}

/// Teen Patti T20's result.
pub fn t20_result(deal: &Deal) -> Outcome {
    let (mut outcome, a, b) = two_players(deal, evaluate);
    for (code, hand) in [("pair-plus-a", a), ("pair-plus-b", b)] {
        if let Some(odds) = pair_plus_odds(evaluate(hand).category) {
            outcome.set(code, Verdict::WonAt(odds));
        }
    }
    outcome
}

/// Teen Patti 1 Day's result.
pub fn one_day_result(deal: &Deal) -> Outcome {
    let (mut outcome, _, _) = two_players(deal, evaluate);
    if outcome.winner == "Tie" {
        outcome.set("tie", Verdict::Won);
    }
    outcome
}

/// Muflis Teen Patti's result: the lower teen patti hand wins.
pub fn muflis_result(deal: &Deal) -> Outcome {
    two_players(deal, evaluate_muflis).0
}

/// Teen Patti Test's result.
pub fn test_result(deal: &Deal) -> Outcome {
    let dealt = cards(deal, 9);
    let hands: Vec<[Card; 3]> = (0..3).map(|s| seat(dealt, 3, s)).collect();
    let strengths: Vec<Strength> = hands.iter().map(|&h| evaluate(h)).collect();
    let best = *strengths.iter().max().expect("three players");
    let best_seats: Vec<usize> = (0..3).filter(|&s| strengths[s] == best).collect();
    let winner = if best_seats.len() == 1 {
        TEST_PLAYERS[best_seats[0]].to_owned()
    } else {
        let names: Vec<&str> = best_seats.iter().map(|&s| TEST_PLAYERS[s]).collect();
        format!("Tie: {}", names.join(", "))
    };
    let mut outcome = Outcome::new(winner);
    for (s, name) in TEST_PLAYERS.iter().enumerate() {
        outcome.show(*name, &hands[s], describe(strengths[s]));
    }
    let verdict = if best_seats.len() == 1 { Verdict::Won } else { Verdict::Push };
    for s in best_seats {
        outcome.set(TEST_PLAYERS[s].to_lowercase(), verdict);
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::games::GameKind;

    fn hand(text: &str) -> [Card; 3] {
        parse_cards(text).unwrap().try_into().unwrap()
    }

    fn strength(text: &str) -> Strength {
        evaluate(hand(text))
    }

    #[test]
    fn categories_of_known_hands() {
        let table = [
            ("AS AH AD", Category::Trail),
            ("2C 2D 2H", Category::Trail),
            ("AS KS QS", Category::PureSequence),
            ("AH 2H 3H", Category::PureSequence),
            ("4D 3D 2D", Category::PureSequence),
            ("AS KD QS", Category::Sequence),
            ("AC 2D 3H", Category::Sequence),
            ("TC JD QH", Category::Sequence),
            ("KS AH 2D", Category::HighCard), // K-A-2 wraps: not a sequence
            ("KS AS 2S", Category::Colour),
            ("2S 5S 9S", Category::Colour),
            ("QS QD 3C", Category::Pair),
            ("3S QD 3C", Category::Pair),
            ("AS KD JC", Category::HighCard),
            ("5S 3D 2C", Category::HighCard),
        ];
        for (text, category) in table {
            assert_eq!(strength(text).category, category, "{text}");
        }
    }

    #[test]
    fn the_category_ladder() {
        let ladder = ["2S 2D 2H", "AS KS QS", "AS KD QS", "AS KS 9S", "AS AD KC", "AS KD JC"];
        for pair in ladder.windows(2) {
            assert!(strength(pair[0]) > strength(pair[1]), "{} should beat {}", pair[0], pair[1]);
        }
        // Trails among themselves: A-A-A is the best hand of all.
        assert!(strength("AS AD AH") > strength("KS KD KH"));
        assert!(strength("KS KD KH") > strength("2S 2D 2H"));
    }

    #[test]
    fn sequences_rank_akq_then_a23_then_kqj_down_to_432() {
        let order = ["AS KD QC", "AS 2D 3C", "KS QD JC", "QS JD TC", "5S 4D 3C", "4S 3D 2C"];
        for pair in order.windows(2) {
            assert!(strength(pair[0]) > strength(pair[1]), "{} should beat {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn ties_and_kickers_worked_by_hand() {
        // Pairs: the pair first, then the odd card.
        assert!(strength("KS KD 2C") > strength("QS QD AC"));
        assert!(strength("KS KD 5C") > strength("KH KC 4D"));
        assert_eq!(strength("KS KD 5C"), strength("KH KC 5D"));
        // High card: highest, then second, then third, ace high.
        assert!(strength("AS 3D 2C") > strength("KS QD JH"));
        assert!(strength("AS 9D 4C") > strength("AH 9S 3C"));
        assert_eq!(strength("AS 9D 4C"), strength("AH 9S 4D"));
        // Colours compare like high cards.
        assert!(strength("AH 5H 3H") > strength("KS QS 9S"));
        // Equal sequences tie whatever the suits.
        assert_eq!(strength("AS 2D 3C"), strength("AH 2C 3S"));
    }

    #[test]
    fn muflis_reverses_the_whole_order() {
        let m = |t: &str| evaluate_muflis(hand(t));
        assert!(m("5S 3D 2C") > m("6S 3D 2C")); // the lowest high card is best
        assert!(m("5S 3D 2C") > m("4S 3D 2C")); // 4-3-2 is a sequence, not a high card
        assert!(m("AS KD JC") > m("2S 2D 3C")); // any high card beats any pair
        assert!(m("2S 2D 3C") > m("AS AD AH")); // A-A-A is the worst hand
        assert!(m("4S 3D 2C") > m("AS 2D 3C")); // lowest sequence beats A-2-3
    }

    #[test]
    fn category_counts_over_all_22100_hands() {
        let deck = standard_deck();
        let mut counts = std::collections::BTreeMap::new();
        for i in 0..52 {
            for j in i + 1..52 {
                for k in j + 1..52 {
                    *counts.entry(evaluate([deck[i], deck[j], deck[k]]).category).or_insert(0) += 1;
                }
            }
        }
        let expected = [
            (Category::HighCard, 16_440),
            (Category::Pair, 3_744),
            (Category::Colour, 1_096),
            (Category::Sequence, 720),
            (Category::PureSequence, 48),
            (Category::Trail, 52),
        ];
        assert_eq!(counts.into_iter().collect::<Vec<_>>(), expected);
    }

    fn deal(text: &str) -> Deal {
        Deal::Cards(parse_cards(text).unwrap())
    }

    #[test]
    fn t20_rounds_worked_by_hand() {
        // A: KS KD 5C (pair), B: 9H 8H 7H (pure sequence): B wins; Pair Plus A pays 1:1,
        // Pair Plus B 40:1.
        let outcome = GameKind::TeenPattiT20.result(&deal("KS 9H KD 8H 5C 7H"));
        assert_eq!(outcome.winner, "Player B");
        assert_eq!(outcome.verdict("player-b"), Verdict::Won);
        assert_eq!(outcome.verdict("player-a"), Verdict::Lost);
        assert_eq!(outcome.verdict("pair-plus-a"), Verdict::WonAt(odds(200)));
        assert_eq!(outcome.verdict("pair-plus-b"), Verdict::WonAt(odds(4100)));
        let markets = t20_markets();
        let pay = |code: &str| {
            crate::market::payout(
                markets.iter().find(|m| m.code == code).unwrap(),
                100_00,
                &outcome,
            )
        };
        assert_eq!((pay("player-a"), pay("player-b")), (0, 198_00));
        assert_eq!((pay("pair-plus-a"), pay("pair-plus-b")), (200_00, 4100_00));
        // A tie pushes both players; high cards lose Pair Plus.
        let tie = GameKind::TeenPattiT20.result(&deal("AS AH 9D 9C 4C 4S"));
        assert_eq!(tie.winner, "Tie");
        assert_eq!(
            (tie.verdict("player-a"), tie.verdict("player-b")),
            (Verdict::Push, Verdict::Push)
        );
        assert_eq!(tie.verdict("pair-plus-a"), Verdict::Lost);
    }

    #[test]
    fn one_day_tie_market() {
        let tie = GameKind::TeenPattiOneDay.result(&deal("AS AH 9D 9C 4C 4S"));
        assert_eq!(tie.verdict("tie"), Verdict::Won);
        assert_eq!(tie.verdict("player-a"), Verdict::Push);
        let a_wins = GameKind::TeenPattiOneDay.result(&deal("AS KH AD 9C 4C 4S"));
        assert_eq!((a_wins.winner.as_str(), a_wins.verdict("tie")), ("Player A", Verdict::Lost));
    }

    #[test]
    fn muflis_rounds_worked_by_hand() {
        // A: 5S 3D 2C (best Muflis hand), B: AS AD AH (worst).
        let outcome = GameKind::MuflisTeenPatti.result(&deal("5S AS 3D AD 2C AH"));
        assert_eq!(outcome.winner, "Player A");
        assert_eq!(outcome.verdict("player-a"), Verdict::Won);
        // A: QS JD 9C (high card), B: 2S 2D 3C (pair): the high card is lower, A wins.
        let outcome = GameKind::MuflisTeenPatti.result(&deal("QS 2S JD 2D 9C 3C"));
        assert_eq!(outcome.winner, "Player A");
    }

    #[test]
    fn test_rounds_worked_by_hand() {
        // Tiger AS AD AH, Lion KS QS JS, Dragon 2C 3D 4H: Tiger wins.
        let outcome = GameKind::TeenPattiTest.result(&deal("AS KS 2C AD QS 3D AH JS 4H"));
        assert_eq!(outcome.winner, "Tiger");
        assert_eq!(outcome.verdict("tiger"), Verdict::Won);
        assert_eq!(outcome.winning_markets(), vec!["tiger"]);
        // Lion and Dragon share A-K-Q sequences above Tiger's pair: they push, Tiger loses.
        let outcome = GameKind::TeenPattiTest.result(&deal("5S AS AC 5D KD KC 9H QC QH"));
        assert_eq!(outcome.winner, "Tie: Lion, Dragon");
        assert_eq!(
            (outcome.verdict("tiger"), outcome.verdict("lion"), outcome.verdict("dragon")),
            (Verdict::Lost, Verdict::Push, Verdict::Push)
        );
    }
}
