//! Exact reading of decimal text, shared by [`crate::money`] and [`crate::odds`] so that an
//! amount and a price are written the same way. No `f64` is involved: the digits are read
//! straight into an integer count of hundredths.

/// Unsigned decimal text split at the point: `"12.50"` is whole `"12"` and fraction `"50"`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DecimalText<'a> {
    whole: &'a [u8],
    fraction: &'a [u8],
}

/// A decimal value measured in hundredths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hundredths {
    /// `floor(value × 100)`, saturating at `u64::MAX`; every caller's limit is far below that,
    /// so a saturated value is simply "too large".
    pub(crate) floor: u64,
    /// Whether the value is a whole number of hundredths, i.e. every digit past the second
    /// decimal is `0` (`"2.020"` is exact, `"2.015"` is not).
    pub(crate) exact: bool,
}

impl<'a> DecimalText<'a> {
    /// Splits `text`, or `None` unless it is one or more ASCII digits, optionally followed by a
    /// point and one or more ASCII digits. There is no sign, exponent, digit grouping or space;
    /// `".5"` and `"1."` are refused so that every number has a digit on both sides of a point.
    pub(crate) fn split(text: &'a str) -> Option<Self> {
        let (whole, fraction) = match text.split_once('.') {
            Some((_, "")) => return None,
            Some(parts) => parts,
            None => (text, ""),
        };
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        (!whole.is_empty() && all_digits(whole) && all_digits(fraction))
            .then_some(Self { whole: whole.as_bytes(), fraction: fraction.as_bytes() })
    }

    /// The value in hundredths, see [`Hundredths`].
    pub(crate) fn hundredths(self) -> Hundredths {
        let first_two = (0..2).map(|i| self.fraction.get(i).copied().unwrap_or(b'0'));
        let floor = self.whole.iter().copied().chain(first_two).fold(0u64, |acc, digit| {
            acc.saturating_mul(10).saturating_add(u64::from(digit - b'0'))
        });
        let exact = self.fraction.iter().skip(2).all(|&digit| digit == b'0');
        Hundredths { floor, exact }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<(u64, bool)> {
        DecimalText::split(text).map(|d| {
            let h = d.hundredths();
            (h.floor, h.exact)
        })
    }

    #[test]
    fn reads_whole_and_fractional_digits() {
        assert_eq!(read("0"), Some((0, true)));
        assert_eq!(read("12"), Some((1200, true)));
        assert_eq!(read("12.5"), Some((1250, true)));
        assert_eq!(read("12.05"), Some((1205, true)));
        assert_eq!(read("007.10"), Some((710, true)));
        assert_eq!(read("2.020"), Some((202, true)));
        assert_eq!(read("2.015"), Some((201, false)));
        assert_eq!(read("0.0001"), Some((0, false)));
    }

    #[test]
    fn refuses_anything_but_digits_point_digits() {
        for text in
            ["", ".", ".5", "1.", "1..2", "1.2.3", "-1", "+1", "1e3", "1,000", "1 0", " 1", "٣"]
        {
            assert_eq!(read(text), None, "{text:?}");
        }
    }

    #[test]
    fn saturates_instead_of_overflowing() {
        assert_eq!(read("99999999999999999999999999"), Some((u64::MAX, true)));
    }
}
