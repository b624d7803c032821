//! Non-runners: a runner withdrawn from a race (Betfair's `REMOVED`) takes its bets with it,
//! and the prices already matched on the others are reduced by its **reduction factor** (the
//! upstream's `adjustmentFactor`, its chance of winning as a percentage), as Betfair's rules
//! (13.7, "How the reductions are applied") do it:
//!
//! - every bet on the non-runner is void, matched or not;
//! - on a **win** market (one winner) the matched price is reduced: `price × (1 − RF)`;
//! - on a **place** market the winnings part is: `1 + (price − 1) × (1 − RF)`;
//! - only bets matched before the removal are reduced, and a later removal reduces them again,
//!   from the price the earlier one left;
//! - a reduction factor under [`MIN_REDUCTION_BP`] (2.5 %) reduces nothing.
//!
//! Backlay rounds each reduced price to the nearest hundredth (half up), as Betfair's worked
//! example does (8.60 less 16.2 % is 7.2068, paid as 7.21), and never below 1.01, so a back
//! bet that wins always wins something. The reduction changes the backer's profit, which is
//! the layer's liability: both sides of a fill move together and still sum to zero.
//!
//! ```
//! use backlay_core::exchange::{reduced_price_hundredths, MarketKind};
//!
//! // A non-runner with a reduction factor of 25 % (2500 basis points of a whole):
//! assert_eq!(reduced_price_hundredths(MarketKind::OneWinner, 800, &[2500]), 600); // 8.00 → 6.00
//! assert_eq!(reduced_price_hundredths(MarketKind::Place { winners: 3 }, 800, &[2500]), 625); // → 6.25
//! // Betfair's own example: 8.60 less 16.2 % → 7.21, so £10 backed wins £62.10, not £76.00.
//! assert_eq!(reduced_price_hundredths(MarketKind::OneWinner, 860, &[1620]), 721);
//! // Two non-runners, 25 % then 10 %: 8.00 → 6.00 → 5.40.
//! assert_eq!(reduced_price_hundredths(MarketKind::OneWinner, 800, &[2500, 1000]), 540);
//! // Under 2.5 %: nothing.
//! assert_eq!(reduced_price_hundredths(MarketKind::OneWinner, 800, &[240]), 800);
//! ```

use super::MarketKind;

/// A whole, in the basis points reduction factors are given in (100 % = 10 000).
pub const WHOLE_BP: u32 = 10_000;

/// The smallest reduction factor that reduces anything (2.5 %): Betfair applies none under it,
/// and leaves the market's unmatched bets (but the non-runner's) in place.
pub const MIN_REDUCTION_BP: u32 = 250;

/// The lowest price a reduction leaves (1.01), in hundredths.
const FLOOR_HUNDREDTHS: i64 = 101;

/// Whether a non-runner with reduction factor `factor_bp` reduces the others' prices (and so
/// cancels the market's unmatched bets, whose prices were set against a field that changed).
pub const fn reduces(factor_bp: u32) -> bool {
    factor_bp >= MIN_REDUCTION_BP
}

/// A matched price (in hundredths) after the reductions of the non-runners removed after it
/// was matched, oldest first, each a factor in basis points; see the module's rules. Factors
/// above a whole count as a whole. House-banked markets (bookmaker, fancy) are not reduced:
/// the price comes back as it was.
pub fn reduced_price_hundredths(
    kind: MarketKind,
    price_hundredths: u32,
    factors_bp: &[u32],
) -> i64 {
    let mut price = i64::from(price_hundredths);
    if kind.is_house_banked() {
        return price;
    }
    for factor in factors_bp.iter().copied().filter(|f| reduces(*f)) {
        let keep = i64::from(WHOLE_BP - factor.min(WHOLE_BP));
        let whole = i64::from(WHOLE_BP);
        // Rounded to the nearest hundredth, half up: (x + whole / 2) / whole on x ≥ 0.
        price = match kind {
            MarketKind::Place { .. } => 100 + ((price - 100) * keep + whole / 2) / whole,
            _ => (price * keep + whole / 2) / whole,
        };
        price = price.max(FLOOR_HUNDREDTHS);
    }
    price
}

/// The backer's profit on `size_minor` matched at `price_hundredths` once reduced by
/// `factors_bp` ([`reduced_price_hundredths`]), rounded down to a minor unit as every
/// exchange profit is ([`backer_profit_minor`](super::backer_profit_minor)). Never more than
/// the profit at the price matched, never less than 0.
pub fn reduced_backer_profit_minor(
    kind: MarketKind,
    price_hundredths: u32,
    size_minor: i64,
    factors_bp: &[u32],
) -> i64 {
    let price = reduced_price_hundredths(kind, price_hundredths, factors_bp);
    // At most MAX_STAKE_MINOR × 99_900: no overflow; both factors ≥ 0, so `/` floors.
    size_minor * (price - 100) / 100
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::exchange::{backer_profit_minor, MAX_STAKE_MINOR};
    use crate::odds::Price;

    const WIN: MarketKind = MarketKind::OneWinner;
    const PLACE: MarketKind = MarketKind::Place { winners: 3 };

    #[test]
    fn betfairs_examples() {
        // Rules 13.7: 25 % makes a win price of 8.0 a 6.0 and a place price of 8.0 a 6.25.
        assert_eq!(reduced_backer_profit_minor(WIN, 800, 10_00, &[2500]), 50_00);
        assert_eq!(reduced_backer_profit_minor(PLACE, 800, 10_00, &[2500]), 52_50);
        // "Diamond Night", £10 at 8.6 less 16.2 %: profit £62.10 instead of £76.
        assert_eq!(reduced_backer_profit_minor(WIN, 860, 10_00, &[1620]), 62_10);
        // 9.69 % off 4.0: 3.6124 → 3.61, £1 wins £2.61.
        assert_eq!(reduced_backer_profit_minor(WIN, 400, 1_00, &[969]), 2_61);
    }

    #[test]
    fn the_floor_is_one_point_zero_one_and_small_factors_do_nothing() {
        assert_eq!(reduced_price_hundredths(WIN, 150, &[9000]), 101);
        assert_eq!(reduced_price_hundredths(WIN, 150, &[WHOLE_BP + 1]), 101);
        assert_eq!(reduced_price_hundredths(PLACE, 102, &[6000]), 101);
        assert_eq!(reduced_price_hundredths(WIN, 1000, &[MIN_REDUCTION_BP - 1]), 1000);
        assert_eq!(reduced_price_hundredths(WIN, 1000, &[MIN_REDUCTION_BP]), 975);
        assert_eq!(reduced_price_hundredths(MarketKind::Bookmaker, 1000, &[5000]), 1000);
    }

    proptest! {
        /// A reduction never raises a profit, never makes it negative, and a larger factor
        /// never leaves more.
        #[test]
        fn reductions_only_lower_profits(
            tick in 0usize..350,
            size in 1i64..=MAX_STAKE_MINOR,
            a in 0u32..=WHOLE_BP,
            b in 0u32..=WHOLE_BP,
            place in any::<bool>(),
        ) {
            let price = Price::from_tick(tick).unwrap();
            let kind = if place { PLACE } else { WIN };
            let full = backer_profit_minor(size, price);
            let one = reduced_backer_profit_minor(kind, price.hundredths(), size, &[a]);
            let two = reduced_backer_profit_minor(kind, price.hundredths(), size, &[a, b]);
            prop_assert!((0..=full).contains(&one));
            prop_assert!((0..=one).contains(&two));
            let (low, high) = (a.min(b), a.max(b));
            prop_assert!(
                reduced_backer_profit_minor(kind, price.hundredths(), size, &[high])
                    <= reduced_backer_profit_minor(kind, price.hundredths(), size, &[low])
            );
        }
    }
}
