//! Property tests of the partnership split: whatever the depth and the shares, the parts add up
//! to the house's result to the paisa, no part has the opposite sign, and each level's part is
//! its share of the result less the one below it, within a paisa.

use backlay_core::money::Money;
use backlay_core::partnership::{split, Level, WHOLE_BP};
use proptest::prelude::*;

/// A valid chain of up to 8 levels: shares that never fall going up.
fn chain() -> impl Strategy<Value = Vec<Level>> {
    prop::collection::vec(0..=WHOLE_BP, 0..=8).prop_map(|mut shares| {
        shares.sort_unstable();
        shares
            .into_iter()
            .enumerate()
            .map(|(i, share_bp)| Level { user_id: 100 + i as i64, share_bp })
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(5_000))]

    #[test]
    fn the_parts_sum_to_the_result_exactly(
        result in -Money::MAX_AMOUNT_MINOR..=Money::MAX_AMOUNT_MINOR,
        chain in chain(),
    ) {
        let split = split(result, &chain).unwrap();
        prop_assert_eq!(split.levels.len(), chain.len());
        let total: i64 = split.levels.iter().map(|(_, part)| part).sum::<i64>() + split.operator_minor;
        prop_assert_eq!(total, result);
    }

    #[test]
    fn no_part_has_the_opposite_sign(
        result in -Money::MAX_AMOUNT_MINOR..=Money::MAX_AMOUNT_MINOR,
        chain in chain(),
    ) {
        let split = split(result, &chain).unwrap();
        for part in split.levels.iter().map(|(_, part)| *part).chain([split.operator_minor]) {
            prop_assert!(part == 0 || part.signum() == result.signum(), "{part} of {result}");
        }
    }

    #[test]
    fn each_level_takes_its_share_less_the_one_below_within_a_paisa(
        result in -1_000_000_00i64..=1_000_000_00,
        chain in chain(),
    ) {
        let split = split(result, &chain).unwrap();
        let mut below_bp = 0u32;
        for (level, (user_id, part)) in chain.iter().zip(&split.levels) {
            prop_assert_eq!(*user_id, level.user_id);
            let exact = result as f64 * f64::from(level.share_bp - below_bp) / f64::from(WHOLE_BP);
            prop_assert!((*part as f64 - exact).abs() <= 1.0, "{part} vs {exact}");
            below_bp = level.share_bp;
        }
    }
}
