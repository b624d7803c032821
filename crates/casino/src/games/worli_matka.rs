//! Worli Matka: an open draw and a close draw of three digits each.
//!
//! Each draw is three digits, each `below(10)` from the round's stream (open first, then close;
//! six numbers in all), so every ordered triple of digits has chance 1/1000. From a draw:
//!
//! - the **panna** (patti) is the three digits in matka order, ascending with 0 counted as 10
//!   (so 0 sorts last): digits 2, 0, 1 make panna `120`. There are 220 pannas: 120 *single
//!   patti* (three different digits, chance 6/1000 each), 90 *double patti* (two alike, 3/1000
//!   each), 10 *triple patti* (all alike, 1/1000 each);
//! - the **single** (ank) is the last digit of the digits' sum: panna `120` gives 3;
//! - the **jodi** is the open single followed by the close single, `00` to `99`.
//!
//! The result is written `open panna - jodi - close panna`, e.g. `120-38-567`.
//!
//! | market | wins when | chance | pays |
//! |---|---|---|---|
//! | Open Single 0–9 / Close Single 0–9 | that draw's single is the digit | 1/10 | 9.70 |
//! | Jodi 00–99 | the jodi is the pair | 1/100 | 97.00 |
//! | Open / Close Panna, single patti | that draw's panna is the panna | 6/1000 | 160.00 |
//! | Open / Close Panna, double patti | 〃 | 3/1000 | 320.00 |
//! | Open / Close Panna, triple patti | 〃 | 1/1000 | 960.00 |
//!
//! ```
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::{payout, Deal};
//!
//! let deal = Deal::Matka { open: [2, 0, 1], close: [7, 5, 6] };
//! let outcome = GameKind::WorliMatka.result(&deal);
//! assert_eq!(outcome.winner, "120-38-567");
//! let jodi = GameKind::WorliMatka.market(&[], "jodi-38").unwrap();
//! assert_eq!(payout(&jodi, 10_00, &outcome), 970_00);
//! ```

use super::odds;
use crate::fair::FairRng;
use crate::market::{Deal, Market, Odds, Outcome, Verdict};

/// The three kinds of panna, by how many digits repeat.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PannaKind {
    /// Three different digits.
    SinglePatti,
    /// Two digits alike.
    DoublePatti,
    /// All three alike.
    TriplePatti,
}

impl PannaKind {
    /// The odds of a panna of this kind.
    pub const fn odds(self) -> Odds {
        match self {
            PannaKind::SinglePatti => odds(16000),
            PannaKind::DoublePatti => odds(32000),
            PannaKind::TriplePatti => odds(96000),
        }
    }

    const fn family(self) -> &'static str {
        match self {
            PannaKind::SinglePatti => "single-patti",
            PannaKind::DoublePatti => "double-patti",
            PannaKind::TriplePatti => "triple-patti",
        }
    }
}

/// A single's odds.
pub const SINGLE_ODDS: Odds = odds(970);
/// A jodi's odds.
pub const JODI_ODDS: Odds = odds(9700);

/// The panna of three digits, as text in matka order (0 counts as 10).
pub fn panna(digits: [u8; 3]) -> String {
    let mut sorted = digits;
    sorted.sort_unstable_by_key(|&d| if d == 0 { 10 } else { d });
    sorted.iter().map(u8::to_string).collect()
}

/// The kind of a draw's panna.
pub fn panna_kind(digits: [u8; 3]) -> PannaKind {
    let [a, b, c] = digits;
    match (a == b, b == c, a == c) {
        (true, true, _) => PannaKind::TriplePatti,
        (false, false, false) => PannaKind::SinglePatti,
        _ => PannaKind::DoublePatti,
    }
}

/// The single (ank) of a draw: the last digit of the sum.
pub fn single(digits: [u8; 3]) -> u8 {
    digits.iter().sum::<u8>() % 10
}

/// All 220 pannas, each with its kind, in matka order of their digits.
pub fn all_pannas() -> Vec<([u8; 3], PannaKind)> {
    let order = [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 0];
    let mut pannas = Vec::with_capacity(220);
    for i in 0..10 {
        for j in i..10 {
            for k in j..10 {
                let digits = [order[i], order[j], order[k]];
                pannas.push((digits, panna_kind(digits)));
            }
        }
    }
    pannas
}

/// The markets: open and close singles, jodis, open and close pannas.
pub fn markets() -> Vec<Market> {
    let mut markets = Vec::with_capacity(560);
    for (code, name) in [("open", "Open"), ("close", "Close")] {
        for d in 0..10 {
            markets.push(Market::new(
                format!("{code}-single-{d}"),
                format!("{name} Single {d}"),
                "single",
                SINGLE_ODDS,
            ));
        }
    }
    for jodi in 0..100 {
        markets.push(Market::new(
            format!("jodi-{jodi:02}"),
            format!("Jodi {jodi:02}"),
            "jodi",
            JODI_ODDS,
        ));
    }
    for (code, name) in [("open", "Open"), ("close", "Close")] {
        for (digits, kind) in all_pannas() {
            let text = panna(digits);
            markets.push(Market::new(
                format!("{code}-panna-{text}"),
                format!("{name} Panna {text}"),
                kind.family(),
                kind.odds(),
            ));
        }
    }
    markets
}

/// Draws six digits: the open draw's three, then the close draw's.
pub fn deal(rng: &mut FairRng) -> Deal {
    let mut digit = || u8::try_from(rng.below(10)).expect("below 10");
    let open = [digit(), digit(), digit()];
    let close = [digit(), digit(), digit()];
    Deal::Matka { open, close }
}

/// The result.
///
/// # Panics
/// If the deal is not a Worli Matka draw of digits 0–9.
pub fn result(deal: &Deal) -> Outcome {
    let Deal::Matka { open, close } = *deal else {
        panic!("a Worli Matka deal is two draws, got {deal:?}");
    };
    assert!(open.iter().chain(&close).all(|&d| d <= 9), "digits are 0-9");
    let (open_single, close_single) = (single(open), single(close));
    let (open_panna, close_panna) = (panna(open), panna(close));
    let mut outcome =
        Outcome::new(format!("{open_panna}-{open_single}{close_single}-{close_panna}"));
    outcome.show("Open", &[], format!("{open_panna}-{open_single}"));
    outcome.show("Close", &[], format!("{close_panna}-{close_single}"));
    outcome.set(format!("open-single-{open_single}"), Verdict::Won);
    outcome.set(format!("close-single-{close_single}"), Verdict::Won);
    outcome.set(format!("jodi-{open_single}{close_single}"), Verdict::Won);
    outcome.set(format!("open-panna-{open_panna}"), Verdict::Won);
    outcome.set(format!("close-panna-{close_panna}"), Verdict::Won);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pannas_worked_by_hand() {
        assert_eq!(panna([2, 0, 1]), "120");
        assert_eq!(panna([0, 0, 5]), "500");
        assert_eq!(panna([9, 9, 9]), "999");
        assert_eq!(single([2, 0, 1]), 3);
        assert_eq!(single([9, 9, 9]), 7);
        assert_eq!(single([0, 0, 0]), 0);
        assert_eq!(panna_kind([1, 2, 3]), PannaKind::SinglePatti);
        assert_eq!(panna_kind([1, 3, 1]), PannaKind::DoublePatti);
        assert_eq!(panna_kind([4, 4, 4]), PannaKind::TriplePatti);
    }

    #[test]
    fn there_are_220_pannas_120_90_10() {
        let pannas = all_pannas();
        assert_eq!(pannas.len(), 220);
        let count = |kind| pannas.iter().filter(|(_, k)| *k == kind).count();
        assert_eq!(count(PannaKind::SinglePatti), 120);
        assert_eq!(count(PannaKind::DoublePatti), 90);
        assert_eq!(count(PannaKind::TriplePatti), 10);
        let texts: std::collections::HashSet<String> =
            pannas.iter().map(|(d, _)| panna(*d)).collect();
        assert_eq!(texts.len(), 220);
        assert_eq!(markets().len(), 20 + 100 + 440);
    }

    #[test]
    fn a_draw_worked_by_hand() {
        // Open 5, 5, 0 → panna 550 (double patti), single 0; close 9, 9, 9 → 999, single 7.
        let outcome = result(&Deal::Matka { open: [5, 5, 0], close: [9, 9, 9] });
        assert_eq!(outcome.winner, "550-07-999");
        assert_eq!(
            outcome.winning_markets(),
            ["close-panna-999", "close-single-7", "jodi-07", "open-panna-550", "open-single-0"]
        );
        let ms = markets();
        let market = |code: &str| ms.iter().find(|m| m.code == code).unwrap();
        assert_eq!(crate::market::payout(market("open-panna-550"), 10_00, &outcome), 3200_00);
        assert_eq!(crate::market::payout(market("close-panna-999"), 10_00, &outcome), 9600_00);
        assert_eq!(crate::market::payout(market("open-single-0"), 10_00, &outcome), 97_00);
        assert_eq!(crate::market::payout(market("open-single-1"), 10_00, &outcome), 0);
    }
}
