//! The price ladder's test vectors, shared with the web app so that its copy of the ladder
//! (`web/src/features/betting/ladder.ts`, checked by `ladder-vectors.test.ts` there) cannot
//! drift from this crate's.
//!
//! This test writes what [`backlay_core::odds`] answers for every ladder price, for every
//! value around one, and for a set of typed texts, and fails when the committed file
//! `web/src/features/betting/ladder-vectors.json` says anything else. After a deliberate
//! change to the ladder, refresh the file with
//! `UPDATE_VECTORS=1 cargo test -p backlay-core --test ladder_vectors` and let the web's tests
//! say what ladder.ts must change.

use std::collections::BTreeSet;
use std::path::PathBuf;

use backlay_core::odds::{nearest, OddsError, Price, TICK_COUNT};
use serde_json::{json, Value};

/// The vectors, from the workspace's root.
const VECTORS_PATH: &str = "web/src/features/betting/ladder-vectors.json";
const REFRESH: &str = "UPDATE_VECTORS=1 cargo test -p backlay-core --test ladder_vectors";

/// Texts a bettor might type, beyond those built from each ladder price: exact and trailing
/// zeros, between two prices, beyond each end, whitespace, and malformed.
const TYPED_TEXTS: &[&str] = &[
    "2",
    "2.5",
    "2.020",
    "007.10",
    " 4.1\n",
    "\t3.05 ",
    "1000",
    "1000.00",
    "2.01",
    "2.015",
    "3.01",
    "999.99",
    "999.995",
    "2.020000000001",
    "0",
    "0.5",
    "1",
    "1.00",
    "1.005",
    "1000.001",
    "1001",
    "1005",
    "9999999",
    "",
    "  ",
    "abc",
    "two",
    "-2",
    "+2",
    "2e1",
    ".5",
    "2.",
    "1,000",
    "2 .5",
    "1..2",
    "١٫٥",
];

/// The web's odds field takes at most this many whole digits and decimals; texts beyond them
/// are malformed there but are read by the core, so the shared vectors stay within them.
const WEB_MAX_WHOLE_DIGITS: usize = 7;
const WEB_MAX_DECIMALS: usize = 12;

#[test]
fn ladder_vectors_match_the_committed_file() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(VECTORS_PATH);
    let generated = vectors();
    if std::env::var_os("UPDATE_VECTORS").is_some() {
        std::fs::write(&path, &generated).expect("write the ladder vectors");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{VECTORS_PATH} is stale against crates/core/src/odds.rs: run `{REFRESH}` and commit it"
    );
}

/// The vectors as JSON, one vector a line so that a change reads well in a diff.
fn vectors() -> String {
    let ladder = (0..TICK_COUNT).map(|tick| {
        let price = Price::from_tick(tick).expect("a tick on the ladder");
        json!({
            "tick": tick,
            "price": price.hundredths(),
            "text": price.to_string(),
            "up": price.tick_up().map(Price::hundredths),
            "down": price.tick_down().map(Price::hundredths),
        })
    });
    let nearest = around_the_ladder().into_iter().map(|hundredths| {
        let (below, above) = nearest(hundredths);
        json!([hundredths, below.map(Price::hundredths), above.map(Price::hundredths)])
    });
    let texts = typed_texts().into_iter().map(|text| {
        let verdict = match Price::parse_decimal(&text) {
            Ok(price) => json!({ "ok": price.hundredths() }),
            Err(error @ OddsError::OffLadder { below, above, .. }) => json!({
                "off_ladder": [below.hundredths(), above.hundredths()],
                "message": error.to_string(),
            }),
            Err(error @ OddsError::OutOfRange { nearest, .. }) => json!({
                "out_of_range": nearest.hundredths(),
                "message": error.to_string(),
            }),
            Err(OddsError::Malformed) => json!({ "malformed": true }),
        };
        json!({ "text": text, "verdict": verdict })
    });

    let about = format!(
        "Written by crates/core/tests/ladder_vectors.rs from crates/core/src/odds.rs; do not edit. \
         Refresh: {REFRESH}. Prices are in hundredths (1.50 is 150). ladder: every price with its \
         tick, text and the next price up and down (null at the ends). nearest: [value, the \
         price at or below, the price at or above] for values around every price. texts: what \
         parsing typed odds gives, for texts within the web's odds field limits (at most \
         {WEB_MAX_WHOLE_DIGITS} whole digits and {WEB_MAX_DECIMALS} decimals)."
    );
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"about\": {},\n", Value::String(about)));
    push_array(&mut out, "ladder", ladder, false);
    push_array(&mut out, "nearest", nearest, false);
    push_array(&mut out, "texts", texts, true);
    out.push_str("}\n");
    out
}

fn push_array(out: &mut String, name: &str, items: impl Iterator<Item = Value>, last: bool) {
    let lines: Vec<String> = items.map(|item| format!("    {item}")).collect();
    out.push_str(&format!("  \"{name}\": [\n{}\n  ]", lines.join(",\n")));
    out.push_str(if last { "\n" } else { ",\n" });
}

/// Every value up to 12.00 (where the steps are small and every segment of the first four
/// is covered one hundredth at a time), each ladder price and its two neighbouring
/// hundredths, and values beyond the top.
fn around_the_ladder() -> BTreeSet<u32> {
    let mut values: BTreeSet<u32> = (0..=1_200).collect();
    for tick in 0..TICK_COUNT {
        let price = Price::from_tick(tick).expect("a tick on the ladder").hundredths();
        values.extend([price - 1, price, price + 1]);
    }
    values.extend([100_500, 1_000_000, u32::MAX]);
    values
}

/// [`TYPED_TEXTS`], and for every price its two-decimal text, its shortest text ("2", "1.5"),
/// and the value half a hundredth above it ("2.005").
fn typed_texts() -> Vec<String> {
    let mut texts: Vec<String> = TYPED_TEXTS.iter().map(|text| (*text).to_owned()).collect();
    for tick in 0..TICK_COUNT {
        let price = Price::from_tick(tick).expect("a tick on the ladder");
        texts.push(price.to_string());
        texts.push(price.to_f64_for_json().to_string());
        texts.push(format!("{price}5"));
    }
    let mut seen = BTreeSet::new();
    texts.retain(|text| seen.insert(text.clone()));
    for text in &texts {
        let (whole, decimals) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
        assert!(
            whole.len() <= WEB_MAX_WHOLE_DIGITS && decimals.len() <= WEB_MAX_DECIMALS,
            "{text:?} is beyond the web's odds field limits"
        );
    }
    texts
}
