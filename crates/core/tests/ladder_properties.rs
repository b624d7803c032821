//! Property tests of the price ladder through the public API.

use backlay_core::odds::{nearest, OddsError, Price, TICK_COUNT};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// A value is a price exactly when it is its own nearest price; otherwise it sits strictly
    /// between two neighbouring valid prices, and the error says so.
    #[test]
    fn from_hundredths_agrees_with_nearest(hundredths in 0u32..200_000) {
        let (below, above) = nearest(hundredths);
        match Price::from_hundredths(hundredths) {
            Ok(price) => {
                prop_assert_eq!(price.hundredths(), hundredths);
                prop_assert_eq!((below, above), (Some(price), Some(price)));
            }
            Err(error) => {
                prop_assert_ne!(below, above);
                if let Some(below) = below {
                    prop_assert!(below.hundredths() < hundredths);
                    prop_assert_eq!(Price::from_hundredths(below.hundredths()), Ok(below));
                }
                if let Some(above) = above {
                    prop_assert!(hundredths < above.hundredths());
                    prop_assert_eq!(Price::from_hundredths(above.hundredths()), Ok(above));
                }
                // Neighbours: nothing valid in between.
                if let (Some(below), Some(above)) = (below, above) {
                    prop_assert_eq!(below.tick_up(), Some(above));
                    prop_assert!(
                        matches!(error, OddsError::OffLadder { below: b, above: a, .. } if b == below && a == above),
                        "{:?}", error
                    );
                } else {
                    let nearest = below.or(above).unwrap();
                    prop_assert!(nearest == Price::MIN || nearest == Price::MAX);
                    prop_assert!(
                        matches!(error, OddsError::OutOfRange { nearest: n, .. } if n == nearest),
                        "{:?}", error
                    );
                }
            }
        }
    }

    /// Text and hundredths agree: writing a value with 2 decimals and parsing it gives the
    /// same answer as asking by hundredths.
    #[test]
    fn parse_agrees_with_from_hundredths(hundredths in 0u32..200_000) {
        let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
        prop_assert_eq!(Price::parse_decimal(&text), Price::from_hundredths(hundredths));
    }

    /// Moving one tick keeps the ladder order and stays on the ladder.
    #[test]
    fn ticks_move_one_price_at_a_time(tick in 0usize..TICK_COUNT) {
        let price = Price::from_tick(tick).unwrap();
        if let Some(up) = price.tick_up() {
            prop_assert!(up > price);
            prop_assert_eq!(up.tick(), tick + 1);
            prop_assert_eq!(nearest(price.hundredths() + 1).1, Some(up));
        }
        if let Some(down) = price.tick_down() {
            prop_assert!(down < price);
            prop_assert_eq!(down.tick(), tick - 1);
        }
    }

    /// Any text at all gets an answer, never a panic.
    #[test]
    fn parse_never_panics(text in "\\PC{0,40}") {
        let _ = Price::parse_decimal(&text);
    }
}
