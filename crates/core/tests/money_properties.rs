//! Property tests of money through the public API.

use backlay_core::money::{mul_div_round_half_even, Money, MoneyError};
use proptest::prelude::*;

fn bounded_minor() -> impl Strategy<Value = i64> {
    -Money::MAX_AMOUNT_MINOR..=Money::MAX_AMOUNT_MINOR
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// What we print, we read back to the minor unit.
    #[test]
    fn display_round_trips(minor in bounded_minor()) {
        let money = Money::from_minor(minor);
        prop_assert_eq!(Money::parse_decimal(&money.to_string()), Ok(money));
    }

    /// The JSON number, printed shortest-round-trip (as serde_json and `Display` do), is the
    /// exact decimal amount.
    #[test]
    fn json_number_round_trips(minor in bounded_minor()) {
        let money = Money::from_minor(minor);
        prop_assert_eq!(Money::parse_decimal(&money.to_f64_for_json().to_string()), Ok(money));
    }

    /// A third significant decimal is always refused, never rounded or truncated.
    #[test]
    fn third_decimal_is_refused(minor in bounded_minor(), digit in 1u8..=9) {
        let text = format!("{}{digit}", Money::from_minor(minor));
        prop_assert_eq!(Money::parse_decimal(&text), Err(MoneyError::TooManyDecimals));
    }

    /// Anything past the bound is refused.
    #[test]
    fn beyond_the_bound_is_refused(excess in 1i64..=i64::MAX - Money::MAX_AMOUNT_MINOR) {
        let minor = Money::MAX_AMOUNT_MINOR + excess;
        prop_assert_eq!(Money::parse_decimal(&Money::from_minor(minor).to_string()), Err(MoneyError::TooLarge));
        prop_assert_eq!(Money::parse_decimal(&Money::from_minor(-minor).to_string()), Err(MoneyError::TooLarge));
    }

    /// Checked arithmetic equals exact (i128) arithmetic whenever that fits, and is `None`
    /// exactly when it does not: no silent wrap.
    #[test]
    fn checked_ops_never_wrap(a in any::<i64>(), b in any::<i64>()) {
        let (x, y) = (Money::from_minor(a), Money::from_minor(b));
        let fits = |exact: i128| i64::try_from(exact).ok().map(Money::from_minor);
        prop_assert_eq!(x.checked_add(y), fits(i128::from(a) + i128::from(b)));
        prop_assert_eq!(x.checked_sub(y), fits(i128::from(a) - i128::from(b)));
        prop_assert_eq!(x.checked_neg(), fits(-i128::from(a)));
        prop_assert_eq!(x.checked_abs(), fits(i128::from(a).abs()));
        prop_assert_eq!(Money::checked_sum([x, y]), fits(i128::from(a) + i128::from(b)));
    }

    /// The result is within half a unit of the exact quotient, and on an exact tie it is even.
    #[test]
    fn mul_div_rounds_to_nearest_half_even(amount in any::<i64>(), num in -100_000i64..100_000, den in 1i64..100_000) {
        let exact_numerator = i128::from(amount) * i128::from(num);
        match mul_div_round_half_even(amount, num, den) {
            Some(rounded) => {
                // |rounded − exact| ≤ ½  ⇔  |rounded·den − amount·num|·2 ≤ den
                let error_twice = (i128::from(rounded) * i128::from(den) - exact_numerator).abs() * 2;
                prop_assert!(error_twice <= i128::from(den));
                if error_twice == i128::from(den) {
                    prop_assert_eq!(rounded % 2, 0);
                }
            }
            None => {
                // Only when the nearest integer cannot be an i64.
                let floor = exact_numerator.div_euclid(i128::from(den));
                prop_assert!(floor >= i128::from(i64::MAX) || floor < i128::from(i64::MIN));
            }
        }
    }

    /// Any text at all gets an answer, never a panic.
    #[test]
    fn parse_never_panics(text in "\\PC{0,40}") {
        let _ = Money::parse_decimal(&text);
    }
}
