//! The players' rules state what the games actually pay: every posted odds figure and every
//! house edge of docs/casino.md appears in its game's rules.

use std::collections::{BTreeMap, BTreeSet};

use backlay_casino::cards::parse_cards;
use backlay_casino::fair::{FairRng, ServerSeed};
use backlay_casino::games::GameKind;

const DOCS: &str = include_str!("../../../docs/casino.md");

fn rules_text(game: GameKind) -> String {
    game.rules().join("\n")
}

/// True when `figure` ("2.00") stands alone in `text`: not the tail of "12.00" or "2.005".
fn mentions(text: &str, figure: &str) -> bool {
    text.match_indices(figure).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + figure.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_digit() || c == '.')
            && !after.is_some_and(|c| c.is_ascii_digit())
    })
}

/// Each game's house edges as docs/casino.md's table states them ("≈ 3.37%" → "3.37%").
fn documented_edges() -> BTreeMap<String, BTreeSet<String>> {
    let start = DOCS.find("<!-- edge-table:start -->").expect("start marker");
    let end = DOCS.find("<!-- edge-table:end -->").expect("end marker");
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in DOCS[start..end].lines().skip(3).filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let game = cells[1].to_owned();
        let edge = cells[cells.len() - 2].trim_start_matches('≈').trim().to_owned();
        edges.entry(game).or_default().insert(edge);
    }
    edges
}

#[test]
fn every_game_has_rules() {
    for game in GameKind::ALL {
        let rules = game.rules();
        assert!(rules.len() >= 2, "{game:?} has too few rules");
        assert!(rules.iter().all(|line| !line.trim().is_empty()), "{game:?} has an empty rule");
        assert!(
            rules_text(game).contains("House edge") || rules_text(game).contains("house edge"),
            "{game:?} does not state its house edge"
        );
    }
}

#[test]
fn the_rules_state_every_posted_odds() {
    let seed = ServerSeed::from_bytes([11; 32]);
    for game in GameKind::ALL.into_iter().filter(|g| *g != GameKind::HiLow) {
        let deal = game.deal(&mut FairRng::new(&seed, "rules-1"));
        let text = rules_text(game);
        let posted: BTreeSet<String> =
            game.markets(game.open_cards(&deal)).iter().map(|m| m.odds.to_string()).collect();
        for odds in posted {
            assert!(mentions(&text, &odds), "{game:?}'s rules do not state its odds {odds}");
        }
    }
    // Hi-Low's odds follow the base card; the rules work one example.
    let on_a_seven = GameKind::HiLow.markets(&parse_cards("7H").unwrap());
    for market in on_a_seven {
        assert!(mentions(&rules_text(GameKind::HiLow), &market.odds.to_string()));
    }
}

#[test]
fn the_rules_state_the_documented_house_edges() {
    let edges = documented_edges();
    assert_eq!(edges.len(), 16, "docs/casino.md's table covers every game");
    for (code, figures) in edges {
        let game = GameKind::from_code(&code).unwrap_or_else(|| panic!("unknown game {code}"));
        let text = rules_text(game);
        // Hi-Low has one edge per base card: its rules give the range.
        let wanted: Vec<&String> = if game == GameKind::HiLow {
            vec![figures.first().unwrap(), figures.last().unwrap()]
        } else {
            figures.iter().collect()
        };
        for edge in wanted {
            assert!(mentions(&text, edge), "{code}'s rules do not state the house edge {edge}");
        }
    }
}

#[test]
fn mentions_does_not_match_inside_a_longer_number() {
    assert!(mentions("pays 2.00.", "2.00"));
    assert!(!mentions("pays 12.00", "2.00"));
    assert!(!mentions("pays 2.005", "2.00"));
}
