//! The dealing algorithm's test vectors, shared with the web app so that a player's browser can
//! recompute a round exactly as this crate deals it: the round page's check
//! (`web/src/features/casino/fair-deal.ts`, checked by `fair-deal.test.ts` there) must give the
//! same commitment and the same deal, in the same JSON shape as `casino/round` sends as `deal`.
//!
//! This test writes, from [`backlay_casino::fair`] and [`GameKind::deal`], the file
//! `web/src/features/casino/deal-vectors.json` and fails when the committed file says anything
//! else. It holds:
//! - `draws`: the first `below(n)` answers of a stream, for bounds that reject often
//!   (`3 · 2³⁰ + 1` rejects about one draw in four), so the rejection step is exercised;
//! - `shuffles`: whole shuffled packs (the deck, the Bollywood pack, the baccarat shoe);
//! - `coups`: how many cards a baccarat coup uses, for every cell of the drawing rules (too
//!   many cells for random rounds to reach them all);
//! - `deals`: for each of the sixteen games, rounds under several seeds and round ids (one of
//!   them not ASCII, one of the longest allowed), with the commitment and the deal.
//!
//! It includes the vectors docs/casino.md publishes (seed `000102…1f`), and checks that the
//! table there still says what this crate deals. After a deliberate change to the dealing,
//! refresh the file with `UPDATE_VECTORS=1 cargo test -p backlay-casino --test deal_vectors`
//! and let the web's tests say what fair-deal.ts must change.

use std::collections::BTreeSet;
use std::path::PathBuf;

use backlay_casino::cards::{
    court_and_ace_pack, parse_cards, shoe, standard_deck, Card, Rank, Suit,
};
use backlay_casino::fair::{FairRng, ServerSeed, MAX_ROUND_ID_BYTES};
use backlay_casino::games::baccarat;
use backlay_casino::games::GameKind;
use backlay_casino::market::Deal;
use serde_json::{json, Value};

/// The vectors, from the workspace's root.
const VECTORS_PATH: &str = "web/src/features/casino/deal-vectors.json";
const DOCS_PATH: &str = "docs/casino.md";
const REFRESH: &str = "UPDATE_VECTORS=1 cargo test -p backlay-casino --test deal_vectors";

/// Rounds dealt for each game under each seed.
const ROUNDS_PER_SEED: usize = 6;

/// How many `below(n)` answers each draw vector lists.
const DRAWS_PER_VECTOR: usize = 64;

/// The seed docs/casino.md's test vectors use: the bytes 0x00, 0x01, …, 0x1f.
fn docs_seed() -> ServerSeed {
    ServerSeed::from_bytes(std::array::from_fn(|i| i as u8))
}

/// The seeds of the vectors: the docs' seed, all bits set, and two irregular ones.
fn seeds() -> Vec<ServerSeed> {
    vec![
        docs_seed(),
        ServerSeed::from_bytes([0xff; 32]),
        ServerSeed::from_bytes(std::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0x5c)),
        ServerSeed::from_hex("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
            .expect("64 hex digits"),
    ]
}

/// The round ids dealt for `game` under the seed numbered `seed_index`: the server's shape
/// (`teen20-000001`), then, under the first seed, a round id that is not ASCII (the stream
/// hashes its UTF-8 bytes) and one of the longest allowed.
fn round_ids(game: GameKind, seed_index: usize) -> Vec<String> {
    let mut ids: Vec<String> = (1..=ROUNDS_PER_SEED)
        .map(|n| format!("{}-{:06}", game.code(), seed_index * ROUNDS_PER_SEED + n))
        .collect();
    if seed_index == 0 {
        ids.push(format!("{}-ராவுண்ட்-७", game.code()));
        let long = format!("{}-{}", game.code(), "9".repeat(MAX_ROUND_ID_BYTES));
        ids.push(long[..MAX_ROUND_ID_BYTES].to_owned());
    }
    ids
}

#[test]
fn deal_vectors_match_the_committed_file() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(VECTORS_PATH);
    let generated = vectors();
    if std::env::var_os("UPDATE_VECTORS").is_some() {
        std::fs::write(&path, &generated).expect("write the deal vectors");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{VECTORS_PATH} is stale against crates/casino/src/fair.rs and games/: run `{REFRESH}` and commit it"
    );
}

/// The vectors as JSON, one vector a line so that a change reads well in a diff.
fn vectors() -> String {
    let draw_bounds = [2u32, 37, 52, 3 * (1 << 30) + 1, u32::MAX];
    let draws = seeds().into_iter().take(2).flat_map(|seed| {
        draw_bounds.map(|n| {
            let round_id = format!("draws-{n}");
            let mut rng = FairRng::new(&seed, &round_id);
            let values: Vec<u32> = (0..DRAWS_PER_VECTOR).map(|_| rng.below(n)).collect();
            json!({ "seed": seed.to_hex(), "round_id": round_id, "n": n, "values": values })
        })
    });

    let packs: [(&str, Vec<Card>); 3] = [
        ("deck", standard_deck()),
        ("bollywood", court_and_ace_pack()),
        ("shoe", shoe(baccarat::DECKS)),
    ];
    let mut shuffles = vec![shuffled(&docs_seed(), "shuffle-test", "deck", standard_deck())];
    for seed in seeds().iter().skip(1).take(2) {
        for (name, pack) in &packs {
            shuffles.push(shuffled(seed, &format!("shuffle-{name}"), name, pack.clone()));
        }
    }

    let deals = GameKind::ALL.into_iter().flat_map(|game| {
        seeds().into_iter().enumerate().flat_map(move |(seed_index, seed)| {
            round_ids(game, seed_index).into_iter().map(move |round_id| {
                let deal = game.deal(&mut FairRng::new(&seed, &round_id));
                json!({
                    "game": game.code(),
                    "seed": seed.to_hex(),
                    "round_id": round_id,
                    "commitment": seed.commitment(),
                    "deal": deal,
                })
            })
        })
    });

    // Every cell of baccarat's drawing rules: Player's two-card total, Banker's, and the points
    // of the card Player would draw, dealt P B P B then the third cards.
    let card_of_points = |points: u8| -> String {
        let rank = Rank::from_value(points).unwrap_or(Rank::King); // K counts 0
        Card::new(rank, Suit::Spades).to_string()
    };
    let coups = (0..10u8).flat_map(move |player| {
        (0..10u8).flat_map(move |banker| {
            (0..10u8).map(move |third| {
                let (p, b, t) =
                    (card_of_points(player), card_of_points(banker), card_of_points(third));
                let text = format!("{p} {b} KH KD {t} 9C");
                let cards = parse_cards(&text).expect("card codes");
                json!([text, baccarat::play(&cards).cards_used()])
            })
        })
    });

    let about = format!(
        "Written by crates/casino/tests/deal_vectors.rs from crates/casino/src/fair.rs and \
         games/; do not edit. Refresh: {REFRESH}. Seeds are 64 hex digits; commitment is \
         hex(SHA-256(seed bytes)). draws: the first {DRAWS_PER_VECTOR} answers of below(n) on the \
         stream of (seed, round_id). shuffles: the whole pack (deck, bollywood or the 8-deck \
         shoe) shuffled by the stream of (seed, round_id), top card first. coups: [six cards in \
         dealing order, how many a baccarat coup uses], for every Player total, Banker total and \
         Player third card. deals: what each game deals for a round, as casino/round sends it as \
         deal."
    );
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"about\": {},\n", Value::String(about)));
    push_array(&mut out, "draws", draws, false);
    push_array(&mut out, "shuffles", shuffles.into_iter(), false);
    push_array(&mut out, "coups", coups, false);
    push_array(&mut out, "deals", deals, true);
    out.push_str("}\n");
    out
}

fn shuffled(seed: &ServerSeed, round_id: &str, pack_name: &str, pack: Vec<Card>) -> Value {
    let mut cards = pack;
    FairRng::new(seed, round_id).shuffle(&mut cards);
    json!({ "seed": seed.to_hex(), "round_id": round_id, "pack": pack_name, "cards": cards })
}

fn push_array(out: &mut String, name: &str, items: impl Iterator<Item = Value>, last: bool) {
    let lines: Vec<String> = items.map(|item| format!("    {item}")).collect();
    out.push_str(&format!("  \"{name}\": [\n{}\n  ]", lines.join(",\n")));
    out.push_str(if last { "\n" } else { ",\n" });
}

/// The vectors reach the corners of every deal procedure a port could get wrong: each
/// length of a baccarat coup, both Andar Bahar sides, at least three Queen boxes winning,
/// and draws that were rejected.
#[test]
fn the_vectors_cover_every_branch_of_the_deals() {
    let deals = |game: GameKind| -> Vec<Deal> {
        seeds()
            .iter()
            .enumerate()
            .flat_map(|(i, seed)| {
                round_ids(game, i)
                    .into_iter()
                    .map(move |id| game.deal(&mut FairRng::new(seed, &id)))
            })
            .collect()
    };
    let lengths = |game: GameKind| -> BTreeSet<usize> {
        deals(game).iter().map(|deal| deal.cards().len()).collect()
    };
    assert_eq!(lengths(GameKind::Baccarat), BTreeSet::from([4, 5, 6]), "coups of 4, 5, 6 cards");
    let andar_bahar = lengths(GameKind::AndarBahar);
    assert!(andar_bahar.iter().any(|n| n % 2 == 0), "Andar wins: joker + an odd count");
    assert!(andar_bahar.iter().any(|n| n % 2 == 1), "Bahar wins: joker + an even count");
    let queen_winners: BTreeSet<String> =
        deals(GameKind::Queen).iter().map(|deal| GameKind::Queen.result(deal).winner).collect();
    assert!(queen_winners.len() >= 3, "Queen winners {queen_winners:?}");

    // 3 · 2³⁰ + 1 rejects every draw from n up: the answers take more draws than they number.
    let n = 3 * (1u32 << 30) + 1;
    let mut raw = FairRng::new(&docs_seed(), &format!("draws-{n}"));
    let (mut drawn, mut answers) = (0, 0);
    while answers < DRAWS_PER_VECTOR {
        drawn += 1;
        if raw.next_u32() < n {
            answers += 1;
        }
    }
    assert!(drawn > DRAWS_PER_VECTOR, "no draw of the vector was rejected");
}

/// docs/casino.md's table of test vectors says what this crate deals.
#[test]
fn the_published_vectors_are_the_deals() {
    let docs = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(DOCS_PATH),
    )
    .expect("read docs/casino.md");
    let seed = docs_seed();
    let cards_of = |game: GameKind, id: &str| -> String {
        let deal = game.deal(&mut FairRng::new(&seed, id));
        deal.cards().iter().map(Card::to_string).collect::<Vec<_>>().join(" ")
    };
    let mut deck = standard_deck();
    FairRng::new(&seed, "shuffle-test").shuffle(&mut deck);
    let deck = deck.iter().map(Card::to_string).collect::<Vec<_>>().join(" ");
    let Deal::Pocket(pocket) = GameKind::Roulette.deal(&mut FairRng::new(&seed, "roulette-000001"))
    else {
        panic!("roulette deals a pocket");
    };
    let Deal::Matka { open, close } =
        GameKind::WorliMatka.deal(&mut FairRng::new(&seed, "worli-000001"))
    else {
        panic!("Worli Matka deals two draws");
    };
    let digits = |d: [u8; 3]| d.map(|x| x.to_string()).join(" ");
    let expected_rows = [
        format!("| commitment | `{}` |", seed.commitment()),
        {
            let cards = cards_of(GameKind::TeenPattiT20, "teen20-000001");
            let c: Vec<&str> = cards.split(' ').collect();
            format!(
                "| `teen20` round `teen20-000001`, the six cards | `{cards}` (A: {} {} {}, B: {} {} {}) |",
                c[0], c[2], c[4], c[1], c[3], c[5]
            )
        },
        format!("| round id `shuffle-test`, the whole shuffled deck | `{deck}` |"),
        format!("| `roulette` round `roulette-000001` | pocket {pocket} |"),
        format!(
            "| `worli` round `worli-000001` | digits {}, then {}: result `{}` |",
            digits(open),
            digits(close),
            GameKind::WorliMatka.result(&Deal::Matka { open, close }).winner
        ),
        format!(
            "| `baccarat` round `baccarat-000001`, the cards the coup used | `{}` |",
            cards_of(GameKind::Baccarat, "baccarat-000001")
        ),
        format!(
            "| `andarbahar` round `andarbahar-000001`, joker then the cards to the match | `{}` |",
            cards_of(GameKind::AndarBahar, "andarbahar-000001")
        ),
    ];
    for row in expected_rows {
        assert!(docs.contains(&row), "{DOCS_PATH} should have the row\n{row}");
    }
}
