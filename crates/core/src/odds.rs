//! The exchange price ladder: the only odds at which exchange orders may be placed.
//!
//! A price is decimal odds (the total return per 1 staked) held as integer hundredths, so
//! 1.50 is `150`. Prices are not continuous: the step between neighbours grows with the
//! price, as on every betting exchange, so that the gap stays a similar share of the odds:
//!
//! | from   | to     | step | ticks   |
//! |--------|--------|------|---------|
//! | 1.01   | 2      | 0.01 | 0–99    |
//! | 2      | 3      | 0.02 | 100–149 |
//! | 3      | 4      | 0.05 | 150–169 |
//! | 4      | 6      | 0.1  | 170–189 |
//! | 6      | 10     | 0.2  | 190–209 |
//! | 10     | 20     | 0.5  | 210–229 |
//! | 20     | 30     | 1    | 230–239 |
//! | 30     | 50     | 2    | 240–249 |
//! | 50     | 100    | 5    | 250–259 |
//! | 100    | 1000   | 10   | 260–349 |
//!
//! That is 350 prices. Each has a *tick*, its index on the ladder: 1.01 is tick 0, 2.00 is
//! tick 99, one tick up from 2.00 is 2.02 (tick 100), and 1000 is tick 349. The ladder is a
//! fixed array rather than a rule checked on the fly because the order book is indexed by
//! tick: each runner side is an array of 350 price levels, so finding a level is an index,
//! "one tick better" is `tick ± 1`, and walking the book is a loop over a small array.
//!
//! ```
//! use backlay_core::odds::{OddsError, Price};
//!
//! let price = Price::parse_decimal("2")?;
//! assert_eq!(price.tick(), 99);
//! assert_eq!(price.tick_up().map(|p| p.to_string()), Some("2.02".to_owned()));
//!
//! let off = Price::parse_decimal("2.01").unwrap_err();
//! assert_eq!(off.to_string(), "2.01 is not a valid price: the nearest valid prices are 2.00 and 2.02");
//! # Ok::<(), OddsError>(())
//! ```

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::decimal::DecimalText;

/// How many prices the ladder has, from 1.01 (tick 0) to 1000 (tick 349).
pub const TICK_COUNT: usize = 350;

/// The ladder's segments as (last price, step), both in hundredths. Each segment starts one
/// step above the previous segment's last price; the first starts one step above 1.00.
const SEGMENTS: [(u32, u32); 10] = [
    (200, 1),
    (300, 2),
    (400, 5),
    (600, 10),
    (1_000, 20),
    (2_000, 50),
    (3_000, 100),
    (5_000, 200),
    (10_000, 500),
    (100_000, 1_000),
];

/// Every valid price in hundredths, ascending; a price's tick is its index here.
const LADDER: [u32; TICK_COUNT] = build_ladder();

/// Expands [`SEGMENTS`] at compile time; the assertion makes a wrong table a build error.
const fn build_ladder() -> [u32; TICK_COUNT] {
    let mut ladder = [0; TICK_COUNT];
    let mut price = 100;
    let mut tick = 0;
    let mut segment = 0;
    while segment < SEGMENTS.len() {
        let (last, step) = SEGMENTS[segment];
        while price < last {
            price += step;
            ladder[tick] = price;
            tick += 1;
        }
        segment += 1;
    }
    assert!(tick == TICK_COUNT && price == 100_000);
    ladder
}

/// Texts longer than this are refused as malformed before they are read; no real price
/// needs more, and it bounds the copy an [`OddsError`] keeps of what was typed.
const MAX_PRICE_TEXT_BYTES: usize = 32;

/// A price on the exchange ladder, in hundredths (1.50 is `150`). It can only hold one of the
/// [`TICK_COUNT`] ladder prices, so code that receives a `Price` never re-checks it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Price(u32);

impl Price {
    /// The lowest price, 1.01 (tick 0).
    pub const MIN: Price = Price(LADDER[0]);
    /// The highest price, 1000 (tick 349).
    pub const MAX: Price = Price(LADDER[TICK_COUNT - 1]);

    /// The price of `hundredths` (e.g. `202` for 2.02), if it is on the ladder; otherwise the
    /// error names the nearest valid prices.
    pub fn from_hundredths(hundredths: u32) -> Result<Price, OddsError> {
        let (below, above) = nearest(hundredths);
        classify(below, above, || format_hundredths(hundredths))
    }

    /// The price in hundredths.
    pub const fn hundredths(self) -> u32 {
        self.0
    }

    /// The price at `tick` (0 is 1.01, 349 is 1000), or `None` past the ladder's end.
    pub const fn from_tick(tick: usize) -> Option<Price> {
        if tick < TICK_COUNT {
            Some(Price(LADDER[tick]))
        } else {
            None
        }
    }

    /// The price's index on the ladder, `0..TICK_COUNT` (binary search, no float).
    pub fn tick(self) -> usize {
        LADDER
            .binary_search(&self.0)
            .unwrap_or_else(|_| unreachable!("a Price always holds a ladder price"))
    }

    /// The next higher price, or `None` at [`Price::MAX`].
    pub fn tick_up(self) -> Option<Price> {
        Price::from_tick(self.tick() + 1)
    }

    /// The next lower price, or `None` at [`Price::MIN`].
    pub fn tick_down(self) -> Option<Price> {
        self.tick().checked_sub(1).and_then(Price::from_tick)
    }

    /// Reads a price from decimal text, exactly (no `f64`): digits, optionally a point and
    /// more digits, e.g. `"1.5"`, `"2.02"`, `"1000"`; ASCII whitespace around it is ignored.
    ///
    /// The value must be a ladder price. Digits past the second decimal are allowed only if
    /// they are zeros (`"2.020"` is 2.02): the text is judged by the number it means. A value
    /// that is not on the ladder, `"2.015"` and `"1.005"` included, gets an error naming the
    /// nearest valid prices. No sign, exponent, `".5"` or `"1."` (see [`OddsError::Malformed`]).
    pub fn parse_decimal(text: &str) -> Result<Price, OddsError> {
        let text = text.trim_ascii();
        if text.len() > MAX_PRICE_TEXT_BYTES {
            return Err(OddsError::Malformed);
        }
        let value = DecimalText::split(text).ok_or(OddsError::Malformed)?.hundredths();
        let (below, above) = if value.exact {
            (at_or_below(value.floor), at_or_above(value.floor))
        } else {
            // The value lies strictly between `floor` and `floor + 1` hundredths.
            (at_or_below(value.floor), at_or_above(value.floor.saturating_add(1)))
        };
        classify(below, above, || text.to_owned())
    }

    /// The price as an `f64` (`hundredths / 100`), **only** for emitting a JSON number. Every
    /// ladder price is a small integer over 100, so the `f64` is the one nearest the decimal
    /// and prints back as it (`1.5`, `2.02`, `1000`).
    pub fn to_f64_for_json(self) -> f64 {
        f64::from(self.0) / 100.0
    }
}

/// The valid prices just below and just above `hundredths`; both are the same price when
/// `hundredths` is on the ladder, and one side is `None` beyond the ladder's ends.
///
/// ```
/// use backlay_core::odds::{nearest, Price};
/// let price = |h| Price::from_hundredths(h).ok();
/// assert_eq!(nearest(201), (price(200), price(202)));
/// assert_eq!(nearest(202), (price(202), price(202)));
/// assert_eq!(nearest(100), (None, Some(Price::MIN)));
/// ```
pub fn nearest(hundredths: u32) -> (Option<Price>, Option<Price>) {
    let hundredths = u64::from(hundredths);
    (at_or_below(hundredths), at_or_above(hundredths))
}

/// The highest ladder price ≤ `hundredths`.
fn at_or_below(hundredths: u64) -> Option<Price> {
    let count = LADDER.partition_point(|&price| u64::from(price) <= hundredths);
    count.checked_sub(1).and_then(Price::from_tick)
}

/// The lowest ladder price ≥ `hundredths`.
fn at_or_above(hundredths: u64) -> Option<Price> {
    Price::from_tick(LADDER.partition_point(|&price| u64::from(price) < hundredths))
}

/// Turns the ladder prices around a value into the answer; `given` is the value as the
/// bettor should see it, built only for an error.
fn classify(
    below: Option<Price>,
    above: Option<Price>,
    given: impl FnOnce() -> String,
) -> Result<Price, OddsError> {
    match (below, above) {
        (Some(below), Some(above)) if below == above => Ok(below),
        (Some(below), Some(above)) => Err(OddsError::OffLadder { given: given(), below, above }),
        (None, Some(nearest)) | (Some(nearest), None) => {
            Err(OddsError::OutOfRange { given: given(), nearest })
        }
        (None, None) => unreachable!("the ladder is not empty"),
    }
}

fn format_hundredths(hundredths: u32) -> String {
    format!("{}.{:02}", hundredths / 100, hundredths % 100)
}

/// Always two decimals: `1.50`, `2.02`, `1000.00`.
impl fmt::Display for Price {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

impl FromStr for Price {
    type Err = OddsError;
    fn from_str(text: &str) -> Result<Price, OddsError> {
        Price::parse_decimal(text)
    }
}

/// A JSON number (`1.5` for 150 hundredths), as the API shows odds; see
/// [`Price::to_f64_for_json`].
impl Serialize for Price {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.to_f64_for_json())
    }
}

/// A price as a bettor quoted it, read once where it arrives (the web API's body, the bot
/// API's instruction, the demo's quotes) into both things it can mean, for the market to pick
/// by its kind: a ladder price on an exchange market ([`Quote::ladder_price`]), a whole-number
/// rate on a bookmaker or fancy market ([`Quote::whole`]). The text stays with it, for a
/// refusal that names what was typed, and is how it travels between servers.
///
/// ```
/// use backlay_core::odds::{Price, Quote};
/// let quote = Quote::read("2.50");
/// assert_eq!(quote.ladder_price(), Ok(Price::from_hundredths(250).unwrap()));
/// assert_eq!(quote.whole(), None);
/// assert_eq!(Quote::read("45").whole(), Some(45));
/// assert!(Quote::read("2.51").ladder_price().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quote {
    text: String,
    ladder: Result<Price, OddsError>,
    whole: Option<i64>,
}

impl Quote {
    /// Reads `text` (a plain decimal such as `2.5` or `45`; anything else is kept, and refused
    /// by whichever meaning the market asks for).
    pub fn read(text: &str) -> Quote {
        Quote {
            text: text.to_owned(),
            ladder: Price::parse_decimal(text),
            whole: text.trim().parse().ok(),
        }
    }

    /// A ladder price, quoted as itself.
    pub fn of_price(price: Price) -> Quote {
        Quote { text: price.to_string(), ladder: Ok(price), whole: None }
    }

    /// The ladder price it is, or why it is none (off the ladder, out of range, malformed).
    pub fn ladder_price(&self) -> Result<Price, OddsError> {
        self.ladder.clone()
    }

    /// The whole number it is (a bookmaker's or fancy's rate); `None` for a fraction.
    pub fn whole(&self) -> Option<i64> {
        self.whole
    }

    /// As it was quoted.
    pub fn as_text(&self) -> &str {
        &self.text
    }
}

/// As its text: `"2.50"`, `"45"`.
impl Serialize for Quote {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de> Deserialize<'de> for Quote {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Quote, D::Error> {
        Ok(Quote::read(&String::deserialize(deserializer)?))
    }
}

/// Why a value is not a valid price; each message is meant for the bettor who typed it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OddsError {
    /// Between 1.01 and 1000 but not on the ladder.
    #[error("{given} is not a valid price: the nearest valid prices are {below} and {above}")]
    OffLadder {
        /// The value as given, e.g. `"2.01"`.
        given: String,
        /// The valid price just below it.
        below: Price,
        /// The valid price just above it.
        above: Price,
    },
    /// Below 1.01 or above 1000.
    #[error(
        "{given} is not a valid price: prices run from {} to {}, so the nearest valid price is {nearest}",
        Price::MIN,
        Price::MAX
    )]
    OutOfRange {
        /// The value as given, e.g. `"1001"`.
        given: String,
        /// [`Price::MIN`] or [`Price::MAX`], whichever is nearer.
        nearest: Price,
    },
    /// Not a plain decimal number.
    #[error("a price is written as a plain number such as 1.5, 2.02 or 1000")]
    Malformed,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn price(hundredths: u32) -> Price {
        Price::from_hundredths(hundredths).unwrap()
    }

    /// The step after `hundredths`, restated from the ladder rules rather than [`SEGMENTS`].
    fn rule_step(hundredths: u32) -> u32 {
        match hundredths {
            ..200 => 1,
            200..300 => 2,
            300..400 => 5,
            400..600 => 10,
            600..1_000 => 20,
            1_000..2_000 => 50,
            2_000..3_000 => 100,
            3_000..5_000 => 200,
            5_000..10_000 => 500,
            _ => 1_000,
        }
    }

    #[test]
    fn ladder_has_350_prices_each_one_rule_step_apart() {
        assert_eq!(LADDER.len(), 350);
        assert_eq!(LADDER[0], 101);
        assert_eq!(LADDER[349], 100_000);
        for pair in LADDER.windows(2) {
            assert_eq!(pair[1] - pair[0], rule_step(pair[0]), "after {}", pair[0]);
        }
    }

    #[test]
    fn segment_boundaries_step_as_on_an_exchange() {
        let cases = [
            ("1.01", "1.02", 0),
            ("1.99", "2.00", 98),
            ("2.00", "2.02", 99),
            ("3.00", "3.05", 149),
            ("4.00", "4.10", 169),
            ("6.00", "6.20", 189),
            ("10.00", "10.50", 209),
            ("20.00", "21.00", 229),
            ("30.00", "32.00", 239),
            ("50.00", "55.00", 249),
            ("100.00", "110.00", 259),
            ("990.00", "1000.00", 348),
        ];
        for (from, to, from_tick) in cases {
            let from_price = Price::parse_decimal(from).unwrap();
            assert_eq!(from_price.tick(), from_tick, "{from}");
            let up = from_price.tick_up().unwrap();
            assert_eq!(up.to_string(), to);
            assert_eq!(up.tick_down(), Some(from_price));
        }
    }

    #[test]
    fn ends_of_the_ladder() {
        assert_eq!(Price::MIN, price(101));
        assert_eq!(Price::MAX, price(100_000));
        assert_eq!(Price::MIN.tick(), 0);
        assert_eq!(Price::MAX.tick(), TICK_COUNT - 1);
        assert_eq!(Price::MIN.tick_down(), None);
        assert_eq!(Price::MAX.tick_up(), None);
        assert_eq!(Price::from_tick(TICK_COUNT), None);
        assert_eq!(Price::from_tick(usize::MAX), None);
    }

    #[test]
    fn every_price_round_trips_through_tick_hundredths_and_text() {
        for tick in 0..TICK_COUNT {
            let p = Price::from_tick(tick).unwrap();
            assert_eq!(p.tick(), tick);
            assert_eq!(Price::from_hundredths(p.hundredths()), Ok(p));
            assert_eq!(Price::parse_decimal(&p.to_string()), Ok(p));
            assert_eq!(nearest(p.hundredths()), (Some(p), Some(p)));
            // The JSON number prints back as the same price.
            assert_eq!(Price::parse_decimal(&p.to_f64_for_json().to_string()), Ok(p));
        }
    }

    #[test]
    fn displays_two_decimals_always() {
        assert_eq!(price(150).to_string(), "1.50");
        assert_eq!(price(101).to_string(), "1.01");
        assert_eq!(price(100_000).to_string(), "1000.00");
        assert_eq!(price(150).to_f64_for_json(), 1.5);
    }

    #[test]
    fn parses_exact_text() {
        assert_eq!(Price::parse_decimal("1.5"), Ok(price(150)));
        assert_eq!(Price::parse_decimal("2.02"), Ok(price(202)));
        assert_eq!(Price::parse_decimal("1000"), Ok(price(100_000)));
        assert_eq!(Price::parse_decimal(" 4.1\n"), Ok(price(410)));
        assert_eq!(Price::parse_decimal("2.020"), Ok(price(202)));
        assert_eq!("3.05".parse::<Price>(), Ok(price(305)));
    }

    fn off_ladder(below: u32, above: u32, given: &str) -> OddsError {
        OddsError::OffLadder { given: given.to_owned(), below: price(below), above: price(above) }
    }

    fn out_of_range(nearest: u32, given: &str) -> OddsError {
        OddsError::OutOfRange { given: given.to_owned(), nearest: price(nearest) }
    }

    #[test]
    fn off_ladder_prices_name_their_neighbours() {
        assert_eq!(Price::from_hundredths(201), Err(off_ladder(200, 202, "2.01")));
        assert_eq!(Price::from_hundredths(301), Err(off_ladder(300, 305, "3.01")));
        assert_eq!(Price::from_hundredths(405), Err(off_ladder(400, 410, "4.05")));
        assert_eq!(Price::from_hundredths(99_999), Err(off_ladder(99_000, 100_000, "999.99")));
        assert_eq!(Price::parse_decimal("2.015"), Err(off_ladder(200, 202, "2.015")));
        assert_eq!(Price::parse_decimal("999.995"), Err(off_ladder(99_000, 100_000, "999.995")));
        assert_eq!(
            Price::from_hundredths(201).unwrap_err().to_string(),
            "2.01 is not a valid price: the nearest valid prices are 2.00 and 2.02"
        );
        assert_eq!(
            Price::parse_decimal("3.01").unwrap_err().to_string(),
            "3.01 is not a valid price: the nearest valid prices are 3.00 and 3.05"
        );
    }

    #[test]
    fn prices_beyond_the_ends_name_the_nearest_end() {
        assert_eq!(Price::parse_decimal("1.005"), Err(out_of_range(101, "1.005")));
        assert_eq!(Price::parse_decimal("0.5"), Err(out_of_range(101, "0.5")));
        assert_eq!(Price::from_hundredths(100), Err(out_of_range(101, "1.00")));
        assert_eq!(Price::from_hundredths(0), Err(out_of_range(101, "0.00")));
        assert_eq!(Price::parse_decimal("1001"), Err(out_of_range(100_000, "1001")));
        assert_eq!(Price::from_hundredths(100_500), Err(out_of_range(100_000, "1005.00")));
        assert_eq!(Price::parse_decimal("1000.001"), Err(out_of_range(100_000, "1000.001")));
        assert_eq!(
            Price::from_hundredths(u32::MAX).unwrap_err(),
            out_of_range(100_000, "42949672.95")
        );
        assert_eq!(
            Price::parse_decimal("99999999999999999999999999999"),
            Err(out_of_range(100_000, "99999999999999999999999999999"))
        );
        assert_eq!(
            Price::parse_decimal("1.00").unwrap_err().to_string(),
            "1.00 is not a valid price: prices run from 1.01 to 1000.00, so the nearest valid price is 1.01"
        );
        assert_eq!(
            Price::parse_decimal("1005").unwrap_err().to_string(),
            "1005 is not a valid price: prices run from 1.01 to 1000.00, so the nearest valid price is 1000.00"
        );
    }

    #[test]
    fn malformed_text_is_refused() {
        let too_long = format!("2.{}", "0".repeat(MAX_PRICE_TEXT_BYTES));
        for text in [
            "",
            "  ",
            "abc",
            "-2",
            "+2",
            "2e1",
            ".5",
            "2.",
            "1,000",
            "2 .5",
            "١٫٥",
            too_long.as_str(),
        ] {
            assert_eq!(Price::parse_decimal(text), Err(OddsError::Malformed), "{text:?}");
        }
    }
}
