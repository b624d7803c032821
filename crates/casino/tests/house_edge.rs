//! Every market gives the house a positive edge, and docs/casino.md states the edges the code
//! actually has.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use backlay_casino::cards::standard_deck;
use backlay_casino::games::GameKind;
use backlay_casino::house_edge::{game_table, markdown, Basis, EdgeRow};

const DOCS: &str = include_str!("../../../docs/casino.md");

/// Rounds simulated here for the three estimated games (a few seconds unoptimised);
/// docs/casino.md used 4 000 000, whose standard errors are 0.05–0.10%.
fn sim_rounds(game: GameKind) -> u64 {
    match game {
        GameKind::Queen => 50_000,
        GameKind::TeenPattiTest => 30_000,
        _ => 10_000,
    }
}

/// The whole table, computed once for all the tests here (it takes a few seconds).
fn all_rows() -> &'static [EdgeRow] {
    static ROWS: OnceLock<Vec<EdgeRow>> = OnceLock::new();
    ROWS.get_or_init(|| {
        GameKind::ALL.into_iter().flat_map(|game| game_table(game, sim_rounds(game))).collect()
    })
}

/// The table lines between the docs' `edge-table` markers.
fn documented_lines() -> Vec<String> {
    let start = DOCS.find("<!-- edge-table:start -->").expect("start marker in docs/casino.md");
    let end = DOCS.find("<!-- edge-table:end -->").expect("end marker in docs/casino.md");
    DOCS[start..end].lines().skip(1).filter(|l| l.starts_with('|')).map(str::to_owned).collect()
}

/// The last column of a table line, as a number of percent: `| … | ≈ 3.42% |` → 3.42.
fn edge_percent(line: &str) -> f64 {
    let cell = line.trim_end().trim_end_matches('|').rsplit('|').next().unwrap();
    cell.trim().trim_start_matches('≈').trim().trim_end_matches('%').parse().unwrap()
}

/// The columns that do not depend on sampling: game, market, pays.
fn fixed_columns(line: &str) -> String {
    line.split('|').take(4).collect::<Vec<_>>().join("|")
}

#[test]
fn every_market_has_a_positive_edge_and_the_docs_state_it() {
    let rows = all_rows();
    let computed: Vec<String> = markdown(rows).lines().map(str::to_owned).collect();
    let documented = documented_lines();
    assert_eq!(
        computed.len(),
        documented.len(),
        "docs/casino.md has {} table lines, the code {}; regenerate with the edge_table example",
        documented.len(),
        computed.len()
    );
    // The two header lines, then one line per row.
    assert_eq!(computed[..2], documented[..2]);
    for ((row, ours), theirs) in rows.iter().zip(&computed[2..]).zip(&documented[2..]) {
        assert!(row.uniform, "{:?} `{}`: the family's markets differ", row.game, row.family);
        match row.basis {
            Basis::Exact => {
                assert!(row.edge.is_positive(), "{ours}");
                assert_eq!(ours, theirs, "exact figures differ from docs/casino.md");
            }
            Basis::Simulated { edge_std_error, .. } => {
                assert_eq!(fixed_columns(ours), fixed_columns(theirs));
                let (estimate, documented) = (row.edge.to_f64() * 100.0, edge_percent(theirs));
                let error = edge_std_error * 100.0;
                assert!(
                    (estimate - documented).abs() <= 4.0 * error + 0.01,
                    "{ours}: {estimate:.3}% is more than 4 standard errors ({error:.3}%) from the documented {documented}%"
                );
                // The documented figure, from 4 000 000 rounds, is known to ±0.1%.
                assert!(documented >= 0.5, "{theirs}: the documented edge is not clearly positive");
            }
        }
    }
}

#[test]
fn every_market_of_every_game_is_in_the_table() {
    let rows = all_rows();
    for game in GameKind::ALL {
        let families: BTreeSet<&str> =
            rows.iter().filter(|r| r.game == game).map(|r| r.family.as_str()).collect();
        let opens: Vec<Vec<_>> = if game.open_card_count() == 0 {
            vec![vec![]]
        } else {
            standard_deck().into_iter().map(|card| vec![card]).collect()
        };
        for open in opens {
            for market in game.markets(&open) {
                assert!(
                    families.contains(market.family.as_str()),
                    "{game:?} {} has no row",
                    market.code
                );
            }
        }
    }
}

#[test]
fn closed_forms_hold() {
    let rows = all_rows();
    let row = |game: GameKind, family: &str| {
        rows.iter().find(|r| r.game == game && r.family == family).unwrap().clone()
    };
    // Roulette: every bet returns 36/37.
    for r in rows.iter().filter(|r| r.game == GameKind::Roulette) {
        assert_eq!((r.edge.num * 37, r.edge.den), (r.edge.den, r.edge.den), "{}", r.family);
    }
    // Poker, and every head-to-head pushing on a tie at 1.98: edge = (1 − P(tie)) / 100.
    for (game, family) in [
        (GameKind::Poker, "player"),
        (GameKind::TeenPattiT20, "player"),
        (GameKind::TwoCardTeenPatti, "player"),
        (GameKind::MuflisTeenPatti, "player"),
    ] {
        let r = row(game, family);
        let expected = (1.0 - r.push.to_f64()) / 100.0;
        assert!((r.edge.to_f64() - expected).abs() < 1e-12, "{game:?}");
    }
    // Teen patti: 450 528 tied ordered pairs of disjoint hands out of 22 100 × 18 424.
    let tp = row(GameKind::TeenPattiOneDay, "tie");
    assert_eq!(tp.win.num * 407_170_400, 450_528 * tp.win.den);
    // Andar Bahar: 429/833 to Andar.
    let andar = row(GameKind::AndarBahar, "andar");
    assert_eq!(andar.win.num * 833, 429 * andar.win.den);
    // Baccarat's well-known 8-deck figures.
    assert_eq!(row(GameKind::Baccarat, "banker").edge.to_percent(4), "1.0579%");
    assert_eq!(row(GameKind::Baccarat, "player").edge.to_percent(4), "1.2351%");
    assert_eq!(row(GameKind::Baccarat, "tie").win.to_fixed(6), "0.095156");
    // Pair Plus at 1/4/6/30/40: 21 588 / 22 100 returned.
    let pair_plus = row(GameKind::TeenPattiT20, "pair-plus");
    assert_eq!(pair_plus.edge.num * 22_100, 512 * pair_plus.edge.den);
    assert_eq!(pair_plus.pays, "2.00 to 41.00");
}
