//! Money as an integer count of minor units (1/100 of the currency) in `i64`, never `f64`.
//!
//! Exchange money must be conserved to the minor unit: what a backer wins, a layer loses
//! exactly, and a ledger transaction's entries sum to zero. Floats cannot promise that
//! (`0.1 + 0.2 != 0.3`), integers can. So an amount is read from text digit by digit
//! ([`Money::parse_decimal`]), added with checked arithmetic, and rounded once where it is
//! scaled ([`mul_div_round_half_even`]; an exchange fill rounds down instead, for the reason
//! in [`crate::exchange`]). The only float is on the way out, to print a JSON number
//! ([`Money::to_f64_for_json`]).
//!
//! ```
//! use backlay_core::money::{mul_div_round_half_even, Money};
//!
//! let stake = Money::parse_decimal("10.05")?;
//! assert_eq!(stake.minor(), 1005);
//! // A bookmaker back at rate 50 wins stake × 0.50 = 5.025, which rounds half to even to 5.02.
//! let profit_minor = mul_div_round_half_even(stake.minor(), 50, 100).unwrap();
//! assert_eq!(Money::from_minor(profit_minor).to_string(), "5.02");
//! # Ok::<(), backlay_core::money::MoneyError>(())
//! ```

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, Neg, Sub};
use std::str::FromStr;

use serde::{Serialize, Serializer};

use crate::decimal::DecimalText;

/// An amount of money in minor units (1/100 of the currency); may be negative (a loss, a
/// debit). `Money::from_minor(1050)` is 10.50.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(i64);

impl Money {
    /// No money.
    pub const ZERO: Money = Money(0);

    /// The largest magnitude, in minor units, that [`Money::parse_decimal`] accepts: one
    /// trillion currency units. It bounds any single amount a user can send, and keeps every
    /// parsed amount exactly representable as an `f64` (below 2^53) for JSON output.
    pub const MAX_AMOUNT_MINOR: i64 = 100_000_000_000_000;

    /// The amount of `minor` minor units.
    pub const fn from_minor(minor: i64) -> Money {
        Money(minor)
    }

    /// The amount in minor units.
    pub const fn minor(self) -> i64 {
        self.0
    }

    /// `self + other`, or `None` on `i64` overflow.
    pub const fn checked_add(self, other: Money) -> Option<Money> {
        match self.0.checked_add(other.0) {
            Some(minor) => Some(Money(minor)),
            None => None,
        }
    }

    /// `self - other`, or `None` on `i64` overflow.
    pub const fn checked_sub(self, other: Money) -> Option<Money> {
        match self.0.checked_sub(other.0) {
            Some(minor) => Some(Money(minor)),
            None => None,
        }
    }

    /// `-self`, or `None` for `i64::MIN` minor units, whose negation does not fit.
    pub const fn checked_neg(self) -> Option<Money> {
        match self.0.checked_neg() {
            Some(minor) => Some(Money(minor)),
            None => None,
        }
    }

    /// `|self|`, or `None` for `i64::MIN` minor units, whose magnitude does not fit.
    pub const fn checked_abs(self) -> Option<Money> {
        match self.0.checked_abs() {
            Some(minor) => Some(Money(minor)),
            None => None,
        }
    }

    /// `|self|`.
    ///
    /// # Panics
    /// On `i64::MIN` minor units; see [`Money::checked_abs`].
    pub fn abs(self) -> Money {
        self.checked_abs().expect("money overflow")
    }

    /// Whether the amount is below zero.
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// Whether the amount is above zero.
    pub const fn is_positive(self) -> bool {
        self.0 > 0
    }

    /// Whether the amount is zero.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The sum of `amounts`, or `None` if any partial sum overflows. Use this, not [`Sum`],
    /// where the amounts come from outside (a user's bets, a market's fills).
    pub fn checked_sum(amounts: impl IntoIterator<Item = Money>) -> Option<Money> {
        amounts.into_iter().try_fold(Money::ZERO, |total, amount| total.checked_add(amount))
    }

    /// Reads an amount from decimal text, exactly (no `f64`).
    ///
    /// Accepts an optional sign (`-` or `+`), one or more digits, and optionally a point
    /// followed by one or more digits: `"10"`, `"10.5"`, `"10.50"`, `"0.01"`, `"-3.25"`.
    /// ASCII whitespace around the text is ignored. Callers decide whether a negative amount
    /// makes sense (a stake never does).
    ///
    /// Refused: empty text, exponents (`"1e3"`), digit grouping (`"1,000"`), a bare point on
    /// either side (`"1."` and `".5"`: every number has a digit before and after its point),
    /// an amount that is not a whole number of minor units (`"10.005"`; trailing zeros such
    /// as `"10.500"` are fine, the value is exact), and a magnitude above
    /// [`Money::MAX_AMOUNT_MINOR`].
    pub fn parse_decimal(text: &str) -> Result<Money, MoneyError> {
        let text = text.trim_ascii();
        if text.is_empty() {
            return Err(MoneyError::Empty);
        }
        let (negative, unsigned) = match text.as_bytes()[0] {
            b'-' => (true, &text[1..]),
            b'+' => (false, &text[1..]),
            _ => (false, text),
        };
        let value = DecimalText::split(unsigned).ok_or(MoneyError::Malformed)?.hundredths();
        if !value.exact {
            return Err(MoneyError::TooManyDecimals);
        }
        let magnitude_minor = i64::try_from(value.floor)
            .ok()
            .filter(|&minor| minor <= Money::MAX_AMOUNT_MINOR)
            .ok_or(MoneyError::TooLarge)?;
        Ok(Money(if negative { -magnitude_minor } else { magnitude_minor }))
    }

    /// The amount in currency units as an `f64`, **only** for emitting a JSON number.
    ///
    /// `minor / 100` is exact enough: any `|minor| ≤ 2^53` (every parsed amount is) is an exact
    /// `f64`, and IEEE division rounds correctly, so the result is the `f64` nearest to the
    /// true decimal value and a shortest-round-trip printer (serde_json, Rust's `Display`)
    /// prints that decimal back, e.g. `10.5` for 1050 minor units. Never compute with it.
    pub fn to_f64_for_json(self) -> f64 {
        self.0 as f64 / 100.0
    }
}

/// Panics on overflow, like integer `+` in debug builds; prefer [`Money::checked_add`] for
/// amounts from outside.
impl Add for Money {
    type Output = Money;
    fn add(self, other: Money) -> Money {
        self.checked_add(other).expect("money overflow")
    }
}

/// Panics on overflow; prefer [`Money::checked_sub`] for amounts from outside.
impl Sub for Money {
    type Output = Money;
    fn sub(self, other: Money) -> Money {
        self.checked_sub(other).expect("money overflow")
    }
}

/// Panics on `i64::MIN` minor units; see [`Money::checked_neg`].
impl Neg for Money {
    type Output = Money;
    fn neg(self) -> Money {
        self.checked_neg().expect("money overflow")
    }
}

/// Panics on overflow; prefer [`Money::checked_sum`] for amounts from outside.
impl Sum for Money {
    fn sum<I: Iterator<Item = Money>>(amounts: I) -> Money {
        Money::checked_sum(amounts).expect("money overflow")
    }
}

/// Panics on overflow; prefer [`Money::checked_sum`] for amounts from outside.
impl<'a> Sum<&'a Money> for Money {
    fn sum<I: Iterator<Item = &'a Money>>(amounts: I) -> Money {
        amounts.copied().sum()
    }
}

/// Always two decimals, with a leading `-` when negative: `-0.05`, `1234.56`, `0.00`.
impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let magnitude_minor = self.0.unsigned_abs();
        write!(f, "{sign}{}.{:02}", magnitude_minor / 100, magnitude_minor % 100)
    }
}

/// Money as a person reads it in a message: the rupee sign, Indian digit grouping (the last
/// three digits, then pairs: lakh and crore) and two decimals, a minus before the sign for a
/// loss: `₹1,00,000.00`, `-₹1,250.50`. The web app shows money the same way
/// (web/src/lib/format.ts, `formatMinorMoney`). JSON, the ledger and the CLI's figures keep the
/// plain decimal of [`Money`]'s `Display`, which programs read.
#[derive(Copy, Clone, Debug)]
pub struct Rupees(pub Money);

impl Money {
    /// This amount written for a person: see [`Rupees`].
    pub fn rupees(self) -> Rupees {
        Rupees(self)
    }
}

impl fmt::Display for Rupees {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let minor = self.0.minor();
        let sign = if minor < 0 { "-" } else { "" };
        let magnitude = minor.unsigned_abs();
        let whole = (magnitude / 100).to_string();
        // Indian grouping: the last three digits, then pairs from the right.
        let (head, last3) = whole.split_at(whole.len().saturating_sub(3));
        let mut grouped = String::with_capacity(whole.len() + whole.len() / 2);
        for (i, digit) in head.chars().enumerate() {
            if i > 0 && (head.len() - i) % 2 == 0 {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        if !head.is_empty() {
            grouped.push(',');
        }
        grouped.push_str(last3);
        write!(f, "{sign}₹{grouped}.{:02}", magnitude % 100)
    }
}

impl FromStr for Money {
    type Err = MoneyError;
    fn from_str(text: &str) -> Result<Money, MoneyError> {
        Money::parse_decimal(text)
    }
}

/// A JSON number in currency units (`10.5` for 1050 minor units), because the API shows
/// amounts as numbers with 2 decimals, not as strings or minor units. See
/// [`Money::to_f64_for_json`] for why the number is exact.
impl Serialize for Money {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.to_f64_for_json())
    }
}

/// Why a text is not an amount; each message is meant for the bettor who typed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    /// Nothing (or only spaces) was given.
    #[error("please enter an amount")]
    Empty,
    /// Not a plain decimal number.
    #[error("an amount is written as a plain number such as 10, 10.5 or 10.50")]
    Malformed,
    /// Finer than one minor unit.
    #[error("amounts have at most 2 decimal places")]
    TooManyDecimals,
    /// Magnitude above [`Money::MAX_AMOUNT_MINOR`].
    #[error("amounts can be at most {}", Money(Money::MAX_AMOUNT_MINOR))]
    TooLarge,
}

/// `amount_minor × num / den`, rounded half to even to a whole minor unit, or `None` if
/// `den ≤ 0` or the result does not fit in `i64`.
///
/// The rounding rule for money that is scaled once and never split: a house bet's win
/// `stake × rate / 100`, commission `winnings × bp / 10_000`. Half to even, unlike half up, has
/// no bias over many bets. (An exchange fill's profit rounds down instead, so that the pieces
/// an order is matched in never add up to more than the whole: see
/// [`crate::exchange::backer_profit_minor`].) The product is taken in `i128`, so it never
/// overflows.
///
/// ```
/// use backlay_core::money::mul_div_round_half_even;
/// assert_eq!(mul_div_round_half_even(5, 1, 2), Some(2)); // 2.5 → 2
/// assert_eq!(mul_div_round_half_even(7, 1, 2), Some(4)); // 3.5 → 4
/// assert_eq!(mul_div_round_half_even(-5, 1, 2), Some(-2)); // −2.5 → −2
/// ```
pub fn mul_div_round_half_even(amount_minor: i64, num: i64, den: i64) -> Option<i64> {
    if den <= 0 {
        return None;
    }
    let product = i128::from(amount_minor) * i128::from(num);
    i64::try_from(div_round_half_even(product, i128::from(den))).ok()
}

/// `numerator / den` rounded half to even; `den` > 0.
fn div_round_half_even(numerator: i128, den: i128) -> i128 {
    // Floor division: `numerator = quotient × den + remainder` with `0 ≤ remainder < den`, so
    // the exact result lies in [quotient, quotient + 1) for negatives as well.
    let quotient = numerator.div_euclid(den);
    let twice_remainder = 2 * numerator.rem_euclid(den);
    match twice_remainder.cmp(&den) {
        std::cmp::Ordering::Less => quotient,
        std::cmp::Ordering::Greater => quotient + 1,
        std::cmp::Ordering::Equal => quotient + (quotient & 1),
    }
}

/// `total_minor` shared out over `weights` in proportion, to the minor unit, so that the
/// shares add up to the total exactly: each share is the total × the weights so far ÷ all the
/// weights, rounded half to even, less the same for the weights before it (the amounts
/// telescope, as a partnership's split does). Each share has the total's sign (or is 0), and a
/// share depends only on the weights up to it and the sum. `None` unless every weight is ≥ 0,
/// some weight is > 0 and their sum fits in `i64`.
///
/// What a bet pays of its market's commission (Bet History): the commission charged on the
/// user's net winnings there, over their winning bets by what each won.
///
/// ```
/// use backlay_core::money::share_out;
/// assert_eq!(share_out(7_50, &[100_00, 50_00]), Some(vec![5_00, 2_50]));
/// assert_eq!(share_out(1, &[1, 1, 1]), Some(vec![0, 1, 0])); // 1/3 → 0, 2/3 → 1, 3/3 → 1
/// ```
pub fn share_out(total_minor: i64, weights: &[i64]) -> Option<Vec<i64>> {
    if weights.iter().any(|weight| *weight < 0) {
        return None;
    }
    let sum: i128 = weights.iter().map(|weight| i128::from(*weight)).sum();
    if sum == 0 || sum > i128::from(i64::MAX) {
        return None;
    }
    let total = i128::from(total_minor);
    let mut so_far: i128 = 0;
    let mut before: i128 = 0;
    let shares = weights
        .iter()
        .map(|weight| {
            so_far += i128::from(*weight);
            // |total × so_far| ≤ 2^63 × 2^63: within i128.
            let cumulative = div_round_half_even(total * so_far, sum);
            let share = cumulative - before;
            before = cumulative;
            // Each cumulative amount lies between 0 and the total, so each share does too.
            i64::try_from(share).expect("a share lies between 0 and the total")
        })
        .collect();
    Some(shares)
}

#[cfg(test)]
mod tests {
    #[test]
    fn shares_add_up_to_the_total_and_follow_the_weights() {
        use super::share_out;
        assert_eq!(share_out(0, &[5, 7]), Some(vec![0, 0]));
        assert_eq!(share_out(10, &[1]), Some(vec![10]));
        assert_eq!(share_out(-9, &[1, 2]), Some(vec![-3, -6]));
        assert_eq!(share_out(5, &[0, 3, 0]), Some(vec![0, 5, 0]));
        assert_eq!(share_out(5, &[0, 0]), None);
        assert_eq!(share_out(5, &[]), None);
        assert_eq!(share_out(5, &[2, -1]), None);
        assert_eq!(share_out(5, &[i64::MAX, 1]), None);
        for (total, weights) in [
            (1_00_i64, vec![1_i64, 1, 1]),
            (7, vec![3, 3, 3, 3, 3, 3, 3, 3]),
            (123_456_789, vec![i64::MAX - 18, 1, 17]),
            (i64::MAX, vec![i64::MAX - 1, 1]),
            (i64::MIN + 1, vec![3, 4]),
            (2_000, vec![1_000_00, 1, 99_999, 5_00]),
        ] {
            let shares = share_out(total, &weights).unwrap();
            assert_eq!(shares.iter().map(|s| i128::from(*s)).sum::<i128>(), i128::from(total));
            // Never more than one minor unit from the exact proportion.
            let sum: i128 = weights.iter().map(|w| i128::from(*w)).sum();
            for (share, weight) in shares.iter().zip(&weights) {
                let exact = i128::from(total) * i128::from(*weight);
                assert!((i128::from(*share) * sum - exact).abs() <= sum, "{total} {weights:?}");
                assert!((total.min(0)..=total.max(0)).contains(share));
            }
        }
    }

    #[test]
    fn rupees_are_written_with_the_sign_and_indian_grouping() {
        let cases = [
            (0, "₹0.00"),
            (5, "₹0.05"),
            (99_999, "₹999.99"),
            (100_000, "₹1,000.00"),
            (100_000_00, "₹1,00,000.00"),
            (12_345_678_90, "₹1,23,45,678.90"),
            (-125_050, "-₹1,250.50"),
            (i64::MIN, "-₹92,23,37,20,36,85,47,758.08"),
        ];
        for (minor, text) in cases {
            assert_eq!(Money::from_minor(minor).rupees().to_string(), text, "{minor} minor units");
        }
    }

    use super::*;

    fn minor(text: &str) -> Result<i64, MoneyError> {
        Money::parse_decimal(text).map(Money::minor)
    }

    #[test]
    fn parses_plain_decimals_exactly() {
        assert_eq!(minor("10"), Ok(1000));
        assert_eq!(minor("10.5"), Ok(1050));
        assert_eq!(minor("10.50"), Ok(1050));
        assert_eq!(minor("10.500"), Ok(1050));
        assert_eq!(minor("0.01"), Ok(1));
        assert_eq!(minor("-3.25"), Ok(-325));
        assert_eq!(minor("+3.25"), Ok(325));
        assert_eq!(minor("-0"), Ok(0));
        assert_eq!(minor("007"), Ok(700));
        assert_eq!(minor(" \t12.34\n"), Ok(1234));
        // 0.1 + 0.2 in f64 is 0.30000000000000004; text never goes through a float.
        assert_eq!(minor("0.29"), Ok(29));
    }

    #[test]
    fn refuses_what_is_not_an_amount() {
        assert_eq!(minor(""), Err(MoneyError::Empty));
        assert_eq!(minor("   "), Err(MoneyError::Empty));
        for text in [
            "-", "+", "abc", "1e3", "1E3", "1.", ".5", "-.5", "1,000", "1 000", "--1", "-+1",
            "- 1", "1-", "0x10", "NaN", "inf", "١٢", "10.5.0",
        ] {
            assert_eq!(minor(text), Err(MoneyError::Malformed), "{text:?}");
        }
    }

    #[test]
    fn refuses_fractions_of_a_minor_unit() {
        assert_eq!(minor("10.005"), Err(MoneyError::TooManyDecimals));
        assert_eq!(minor("-0.001"), Err(MoneyError::TooManyDecimals));
        assert_eq!(minor("1.0000000001"), Err(MoneyError::TooManyDecimals));
        assert_eq!(
            MoneyError::TooManyDecimals.to_string(),
            "amounts have at most 2 decimal places"
        );
    }

    #[test]
    fn bounds_the_magnitude() {
        assert_eq!(minor("1000000000000"), Ok(Money::MAX_AMOUNT_MINOR));
        assert_eq!(minor("-1000000000000.00"), Ok(-Money::MAX_AMOUNT_MINOR));
        assert_eq!(minor("1000000000000.01"), Err(MoneyError::TooLarge));
        assert_eq!(minor("-1000000000000.01"), Err(MoneyError::TooLarge));
        assert_eq!(minor("99999999999999999999999999999"), Err(MoneyError::TooLarge));
        assert_eq!(MoneyError::TooLarge.to_string(), "amounts can be at most 1000000000000.00");
    }

    #[test]
    fn displays_two_decimals_always() {
        assert_eq!(Money(-5).to_string(), "-0.05");
        assert_eq!(Money(123_456).to_string(), "1234.56");
        assert_eq!(Money(0).to_string(), "0.00");
        assert_eq!(Money(7).to_string(), "0.07");
        assert_eq!(Money(-100).to_string(), "-1.00");
        assert_eq!(Money(i64::MIN).to_string(), "-92233720368547758.08");
        assert_eq!(Money(i64::MAX).to_string(), "92233720368547758.07");
    }

    #[test]
    fn json_number_is_the_decimal_value() {
        assert_eq!(Money(1050).to_f64_for_json(), 10.5);
        assert_eq!(Money(-1).to_f64_for_json(), -0.01);
        assert_eq!(Money(Money::MAX_AMOUNT_MINOR).to_f64_for_json(), 1e12);
    }

    #[test]
    fn checked_ops_report_overflow() {
        let max = Money(i64::MAX);
        let min = Money(i64::MIN);
        assert_eq!(max.checked_add(Money(1)), None);
        assert_eq!(min.checked_sub(Money(1)), None);
        assert_eq!(min.checked_neg(), None);
        assert_eq!(min.checked_abs(), None);
        assert_eq!(Money(-7).checked_abs(), Some(Money(7)));
        assert_eq!(Money(-7).abs(), Money(7));
        assert_eq!(Money(5).checked_sub(Money(8)), Some(Money(-3)));
        assert_eq!(-Money(5), Money(-5));
        assert_eq!(Money(2) + Money(3) - Money(10), Money(-5));
        assert!(Money(-1).is_negative() && !Money(-1).is_positive());
        assert!(Money(1).is_positive() && !Money(1).is_negative());
        assert!(Money::ZERO.is_zero() && !Money::ZERO.is_positive() && !Money::ZERO.is_negative());
    }

    #[test]
    #[should_panic(expected = "money overflow")]
    fn add_panics_rather_than_wrapping() {
        let _ = Money(i64::MAX) + Money(1);
    }

    #[test]
    fn sums() {
        let amounts = [Money(100), Money(-30), Money(5)];
        assert_eq!(amounts.iter().sum::<Money>(), Money(75));
        assert_eq!(amounts.into_iter().sum::<Money>(), Money(75));
        assert_eq!(Money::checked_sum(amounts), Some(Money(75)));
        assert_eq!(Money::checked_sum([]), Some(Money::ZERO));
        assert_eq!(Money::checked_sum([Money(i64::MAX), Money(1), Money(-1)]), None);
    }

    #[test]
    fn rounds_half_to_even() {
        // Exact results need no rounding.
        assert_eq!(mul_div_round_half_even(1000, 50, 100), Some(500));
        assert_eq!(mul_div_round_half_even(0, 7, 3), Some(0));
        // Ties go to the even neighbour, up or down.
        assert_eq!(mul_div_round_half_even(1005, 50, 100), Some(502)); // 502.5
        assert_eq!(mul_div_round_half_even(1015, 50, 100), Some(508)); // 507.5
        assert_eq!(mul_div_round_half_even(1, 1, 2), Some(0)); // 0.5
        assert_eq!(mul_div_round_half_even(3, 1, 2), Some(2)); // 1.5
                                                               // Non-ties round to nearest.
        assert_eq!(mul_div_round_half_even(1005, 55, 100), Some(553)); // 552.75
        assert_eq!(mul_div_round_half_even(1001, 55, 100), Some(551)); // 550.55
        assert_eq!(mul_div_round_half_even(1001, 51, 100), Some(511)); // 510.51
        assert_eq!(mul_div_round_half_even(1001, 49, 100), Some(490)); // 490.49
        assert_eq!(mul_div_round_half_even(10, 1, 3), Some(3)); // 3.33…
        assert_eq!(mul_div_round_half_even(20, 1, 3), Some(7)); // 6.66…
                                                                // Negatives mirror positives: ties to even, others to nearest.
        assert_eq!(mul_div_round_half_even(-1, 1, 2), Some(0)); // −0.5
        assert_eq!(mul_div_round_half_even(-3, 1, 2), Some(-2)); // −1.5
        assert_eq!(mul_div_round_half_even(-5, 1, 2), Some(-2)); // −2.5
        assert_eq!(mul_div_round_half_even(1005, -50, 100), Some(-502)); // −502.5
        assert_eq!(mul_div_round_half_even(-1015, 50, 100), Some(-508)); // −507.5
        assert_eq!(mul_div_round_half_even(-1005, 55, 100), Some(-553)); // −552.75
        assert_eq!(mul_div_round_half_even(-10, 1, 3), Some(-3)); // −3.33…
        assert_eq!(mul_div_round_half_even(-20, 1, 3), Some(-7)); // −6.66…
    }

    #[test]
    fn mul_div_refuses_bad_denominators_and_overflow() {
        assert_eq!(mul_div_round_half_even(10, 1, 0), None);
        assert_eq!(mul_div_round_half_even(10, 1, -2), None);
        // The i128 product does not overflow; only an unrepresentable result is refused.
        assert_eq!(mul_div_round_half_even(i64::MAX, i64::MAX, i64::MAX), Some(i64::MAX));
        assert_eq!(mul_div_round_half_even(i64::MIN, 2, 2), Some(i64::MIN));
        assert_eq!(mul_div_round_half_even(i64::MAX, 2, 1), None);
        assert_eq!(mul_div_round_half_even(i64::MIN, -1, 1), None);
    }
}
