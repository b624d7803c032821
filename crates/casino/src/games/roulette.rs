//! Roulette, single zero (European): 37 pockets, 0 to 36.
//!
//! The pocket is `below(37)` from the round's stream ([`crate::fair::FairRng::below`]). A bet
//! covering `k` numbers pays `36 / k` (decimal odds; `36/k − 1` to 1), so every bet returns
//! 36/37 of its stake on average: the house edge is 1/37 ≈ 2.70% on every market. Zero loses
//! every outside bet (no *la partage*).
//!
//! | family | numbers | how many markets | pays |
//! |---|---|---|---|
//! | Straight | one number, 0–36 | 37 | 36.00 (35:1) |
//! | Split | two neighbours on the layout (side by side or one above the other), and 0-1, 0-2, 0-3 | 60 | 18.00 (17:1) |
//! | Street | a row of three (1-2-3 … 34-35-36), and the trios 0-1-2, 0-2-3 | 14 | 12.00 (11:1) |
//! | Corner | a block of four (1-2-4-5 …), and the first four 0-1-2-3 | 23 | 9.00 (8:1) |
//! | Six line | two neighbouring rows | 11 | 6.00 (5:1) |
//! | Dozen | 1–12, 13–24, 25–36 | 3 | 3.00 (2:1) |
//! | Column | 1-4-…-34, 2-5-…-35, 3-6-…-36 | 3 | 3.00 (2:1) |
//! | Red / Black, Odd / Even, Low (1–18) / High (19–36) | 18 numbers | 6 | 2.00 (1:1) |
//!
//! Red: 1 3 5 7 9 12 14 16 18 19 21 23 25 27 30 32 34 36; the other numbers 1–36 are black.
//!
//! ```
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::{payout, Deal};
//!
//! let outcome = GameKind::Roulette.result(&Deal::Pocket(17));
//! assert_eq!(outcome.winner, "17 Black");
//! let split = GameKind::Roulette.market(&[], "split-14-17").unwrap();
//! assert_eq!(payout(&split, 10_00, &outcome), 180_00);
//! // Zero wins only the seven inside bets that cover it; every outside bet loses.
//! let zero = GameKind::Roulette.result(&Deal::Pocket(0));
//! assert_eq!(zero.winning_markets().len(), 7);
//! assert_eq!(zero.verdict("even"), backlay_casino::market::Verdict::Lost);
//! ```

use super::odds;
use crate::fair::FairRng;
use crate::market::{Deal, Market, Outcome, Verdict};

/// The red numbers.
pub const RED: [u8; 18] = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];

/// Whether `number` (1–36) is red.
pub fn is_red(number: u8) -> bool {
    RED.contains(&number)
}

/// A bet on the layout: its market and the numbers it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutBet {
    /// The market (odds `36 / numbers.len()`).
    pub market: Market,
    /// The numbers covered.
    pub numbers: Vec<u8>,
}

fn bet(code_prefix: &str, name_prefix: &str, family: &str, numbers: Vec<u8>) -> LayoutBet {
    let list: Vec<String> = numbers.iter().map(u8::to_string).collect();
    let covered = u32::try_from(numbers.len()).expect("small");
    LayoutBet {
        market: Market::new(
            format!("{code_prefix}-{}", list.join("-")),
            format!("{name_prefix} {}", list.join("/")),
            family,
            odds(3600 / covered),
        ),
        numbers,
    }
}

fn named(code: &str, name: &str, family: &str, numbers: impl Iterator<Item = u8>) -> LayoutBet {
    let numbers: Vec<u8> = numbers.collect();
    let covered = u32::try_from(numbers.len()).expect("small");
    LayoutBet { market: Market::new(code, name, family, odds(3600 / covered)), numbers }
}

/// Every bet on the layout, inside bets first.
pub fn layout() -> Vec<LayoutBet> {
    let mut bets = Vec::new();
    for n in 0..=36u8 {
        bets.push(bet("straight", "Straight", "straight", vec![n]));
    }
    for n in 1..=35u8 {
        if n % 3 != 0 {
            bets.push(bet("split", "Split", "split", vec![n, n + 1]));
        }
    }
    for n in 1..=33u8 {
        bets.push(bet("split", "Split", "split", vec![n, n + 3]));
    }
    for n in 1..=3u8 {
        bets.push(bet("split", "Split", "split", vec![0, n]));
    }
    for row in 0..12u8 {
        let first = 3 * row + 1;
        bets.push(bet("street", "Street", "street", vec![first, first + 1, first + 2]));
    }
    bets.push(bet("street", "Street", "street", vec![0, 1, 2]));
    bets.push(bet("street", "Street", "street", vec![0, 2, 3]));
    for n in 1..=32u8 {
        if n % 3 != 0 {
            bets.push(bet("corner", "Corner", "corner", vec![n, n + 1, n + 3, n + 4]));
        }
    }
    bets.push(bet("corner", "Corner", "corner", vec![0, 1, 2, 3]));
    for row in 0..11u8 {
        let first = 3 * row + 1;
        bets.push(bet("six-line", "Six Line", "six-line", (first..first + 6).collect()));
    }
    for d in 1..=3u8 {
        let range = 12 * (d - 1) + 1..=12 * d;
        bets.push(named(&format!("dozen-{d}"), &format!("Dozen {d}"), "dozen", range));
    }
    for c in 1..=3u8 {
        let column = (1..=36u8).filter(move |n| (n - 1) % 3 == c - 1);
        bets.push(named(&format!("column-{c}"), &format!("Column {c}"), "column", column));
    }
    bets.push(named("red", "Red", "even-money", (1..=36).filter(|&n| is_red(n))));
    bets.push(named("black", "Black", "even-money", (1..=36).filter(|&n| !is_red(n))));
    bets.push(named("odd", "Odd", "even-money", (1..=36).filter(|n| n % 2 == 1)));
    bets.push(named("even", "Even", "even-money", (1..=36).filter(|n| n % 2 == 0)));
    bets.push(named("low", "Low 1-18", "even-money", 1..=18));
    bets.push(named("high", "High 19-36", "even-money", 19..=36));
    bets
}

/// The markets: every bet on the layout.
pub fn markets() -> Vec<Market> {
    layout().into_iter().map(|b| b.market).collect()
}

/// Spins: the pocket is `below(37)`.
pub fn deal(rng: &mut FairRng) -> Deal {
    Deal::Pocket(u8::try_from(rng.below(37)).expect("below 37"))
}

/// The result: every bet covering the pocket wins.
///
/// # Panics
/// If the deal is not a pocket 0–36.
pub fn result(deal: &Deal) -> Outcome {
    let Deal::Pocket(pocket) = *deal else {
        panic!("a roulette deal is a pocket, got {deal:?}");
    };
    assert!(pocket <= 36, "no pocket {pocket}");
    let colour = match pocket {
        0 => "Green",
        n if is_red(n) => "Red",
        _ => "Black",
    };
    let mut outcome = Outcome::new(format!("{pocket} {colour}"));
    outcome.show("Pocket", &[], format!("{pocket} {colour}"));
    for bet in layout() {
        if bet.numbers.contains(&pocket) {
            outcome.set(bet.market.code, Verdict::Won);
        }
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn the_layout_has_the_standard_bets() {
        let mut families: BTreeMap<String, usize> = BTreeMap::new();
        for bet in layout() {
            *families.entry(bet.market.family.clone()).or_default() += 1;
            // Every bet pays 36 / k exactly.
            assert_eq!(
                bet.market.odds.hundredths() as usize * bet.numbers.len(),
                3600,
                "{}",
                bet.market.code
            );
        }
        let expected = [
            ("column", 3),
            ("corner", 23),
            ("dozen", 3),
            ("even-money", 6),
            ("six-line", 11),
            ("split", 60),
            ("straight", 37),
            ("street", 14),
        ];
        let expected: BTreeMap<String, usize> =
            expected.iter().map(|(f, n)| (f.to_string(), *n)).collect();
        assert_eq!(families, expected);
        assert_eq!(RED.len(), 18);
    }

    #[test]
    fn pockets_worked_by_hand() {
        let winners = |pocket: u8| -> Vec<String> {
            result(&Deal::Pocket(pocket)).winning_markets().into_iter().map(str::to_owned).collect()
        };
        let mut seventeen = winners(17);
        seventeen.sort();
        let mut expected = vec![
            "straight-17",
            "split-16-17",
            "split-17-18",
            "split-14-17",
            "split-17-20",
            "street-16-17-18",
            "corner-13-14-16-17",
            "corner-14-15-17-18",
            "corner-16-17-19-20",
            "corner-17-18-20-21",
            "six-line-13-14-15-16-17-18",
            "six-line-16-17-18-19-20-21",
            "dozen-2",
            "column-2",
            "black",
            "odd",
            "low",
        ];
        expected.sort();
        assert_eq!(seventeen, expected);
        let mut zero = winners(0);
        zero.sort();
        assert_eq!(
            zero,
            [
                "corner-0-1-2-3",
                "split-0-1",
                "split-0-2",
                "split-0-3",
                "straight-0",
                "street-0-1-2",
                "street-0-2-3"
            ]
        );
        let thirty_six = winners(36);
        assert!(thirty_six.contains(&"red".to_owned()));
        assert!(thirty_six.contains(&"column-3".to_owned()));
        assert!(thirty_six.contains(&"high".to_owned()));
        assert_eq!(thirty_six.len(), 1 + 2 + 1 + 1 + 1 + 1 + 1 + 3); // straight, splits 35-36 33-36, street, corner, six line, dozen, column, red/even/high
    }
}
