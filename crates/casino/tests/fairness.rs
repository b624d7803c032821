//! Provably fair dealing, from the outside: determinism, test vectors from an independent
//! re-implementation, the shuffle's uniformity, and verification of whole rounds.

use std::collections::HashMap;

use backlay_casino::cards::{parse_cards, standard_deck, Card};
use backlay_casino::fair::{verify, FairRng, ServerSeed, VerifyError};
use backlay_casino::games::GameKind;
use backlay_casino::market::Deal;
use backlay_casino::round::Round;

/// The seed of the test vectors: bytes 0x00, 0x01, …, 0x1f.
fn vector_seed() -> ServerSeed {
    ServerSeed::from_bytes(std::array::from_fn(|i| i as u8))
}

/// These vectors were produced by the Python reference implementation printed in
/// docs/casino.md (hmac + hashlib, written from the documented algorithm, not from this code).
#[test]
fn deals_match_the_independent_reference_implementation() {
    let seed = vector_seed();
    assert_eq!(
        seed.commitment(),
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    );

    let deal = GameKind::TeenPattiT20.deal(&mut FairRng::new(&seed, "teen20-000001"));
    assert_eq!(deal, Deal::Cards(parse_cards("7C TS QS 3D KS TH").unwrap()));

    let mut deck = standard_deck();
    FairRng::new(&seed, "shuffle-test").shuffle(&mut deck);
    let expected =
        "2D JS 2C QH 9H 8H KH TC 5C 2S 7C 6C QD 5D TH 6S 5H 8D AC KC 4H AH 4S 4D 3S 3D 3C 9C KS \
                    5S QS TD KD 4C 7H JH 2H JD 7S TS AS 9D AD 6H 9S JC 3H QC 8C 6D 8S 7D";
    assert_eq!(deck, parse_cards(expected).unwrap());

    assert_eq!(
        GameKind::Roulette.deal(&mut FairRng::new(&seed, "roulette-000001")),
        Deal::Pocket(21)
    );
    assert_eq!(
        GameKind::WorliMatka.deal(&mut FairRng::new(&seed, "worli-000001")),
        Deal::Matka { open: [1, 6, 9], close: [0, 6, 2] }
    );
    let matka = GameKind::WorliMatka.result(&Deal::Matka { open: [1, 6, 9], close: [0, 6, 2] });
    assert_eq!(matka.winner, "169-68-260");
    // Baccarat shuffles the whole 416-card shoe; the coup uses the top cards it needs.
    let Deal::Cards(coup) = GameKind::Baccarat.deal(&mut FairRng::new(&seed, "baccarat-000001"))
    else {
        panic!("baccarat deals cards");
    };
    let top6 = parse_cards("TH JD 6D KS 6C QS").unwrap();
    assert_eq!(coup[..], top6[..coup.len()]);
}

#[test]
fn the_same_seed_and_round_id_always_deal_the_same() {
    let seed = ServerSeed::from_bytes([77; 32]);
    for game in GameKind::ALL {
        for round in 0..20 {
            let id = format!("{}-{round}", game.code());
            let first = game.deal(&mut FairRng::new(&seed, &id));
            let second = game.deal(&mut FairRng::new(&seed.clone(), &id));
            assert_eq!(first, second, "{game:?} {id}");
            assert_eq!(game.result(&first), game.result(&second));
        }
    }
}

#[test]
fn another_seed_or_round_id_deals_differently() {
    let deal = |seed: u8, id: &str| {
        GameKind::TeenPattiTest.deal(&mut FairRng::new(&ServerSeed::from_bytes([seed; 32]), id))
    };
    assert_ne!(deal(1, "teentest-1"), deal(2, "teentest-1"));
    assert_ne!(deal(1, "teentest-1"), deal(1, "teentest-2"));
}

#[test]
fn every_shuffle_is_a_permutation() {
    let seed = ServerSeed::from_bytes([8; 32]);
    let mut sorted_deck = standard_deck();
    sorted_deck.sort();
    for round in 0..500 {
        let mut deck = standard_deck();
        FairRng::new(&seed, &format!("perm-{round}")).shuffle(&mut deck);
        let mut again = deck.clone();
        again.sort();
        assert_eq!(again, sorted_deck, "round {round} lost or duplicated a card");
    }
}

/// Pearson's chi-square statistic of `counts` against a uniform expectation.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts.iter().map(|&c| (c as f64 - expected).powi(2) / expected).sum()
}

/// How often each permutation of a `size`-card deck comes out of `shuffle`, over `samples`
/// fixed round ids.
fn permutation_counts(
    size: usize,
    samples: u32,
    shuffle: impl Fn(&mut FairRng, &mut Vec<u8>),
) -> Vec<u64> {
    let seed = ServerSeed::from_bytes([21; 32]);
    let mut counts: HashMap<Vec<u8>, u64> = HashMap::new();
    for sample in 0..samples {
        let mut deck: Vec<u8> = (0..size as u8).collect();
        shuffle(&mut FairRng::new(&seed, &format!("chi-{sample}")), &mut deck);
        *counts.entry(deck).or_default() += 1;
    }
    counts.into_values().collect()
}

#[test]
fn the_shuffle_is_uniform_over_all_permutations() {
    // 4 cards have 24 permutations; 48 000 shuffles expect 2 000 each. With 23 degrees of
    // freedom, chi-square exceeds 49.73 with probability 0.001 for a fair shuffle.
    let counts = permutation_counts(4, 48_000, |rng, deck| rng.shuffle(deck));
    assert_eq!(counts.len(), 24, "every permutation appears");
    let statistic = chi_square(&counts);
    assert!(statistic < 49.73, "chi-square {statistic:.1} over 23 degrees of freedom");
}

#[test]
fn the_uniformity_check_catches_a_biased_shuffle() {
    // The classic mistake, swapping every position with any position (`below(len)`), makes
    // 27 equally likely paths onto 6 permutations: some come up 5/27, some 4/27 of the time.
    let naive = |rng: &mut FairRng, deck: &mut Vec<u8>| {
        for i in 0..deck.len() {
            let j = rng.below(deck.len() as u32) as usize;
            deck.swap(i, j);
        }
    };
    let biased = chi_square(&permutation_counts(3, 27_000, naive));
    assert!(biased > 100.0, "chi-square {biased:.1}: the check should reject the naive shuffle");
    let fair = chi_square(&permutation_counts(3, 27_000, |rng, deck| rng.shuffle(deck)));
    assert!(fair < 20.52, "chi-square {fair:.1} over 5 degrees of freedom"); // p = 0.001
}

#[test]
fn every_card_lands_in_every_position_evenly() {
    // 52 × 52 (card, position) cells over 5 200 shuffles: 100 expected in each. The statistic
    // has (52 − 1)² = 2 601 degrees of freedom: mean 2 601, sd ≈ 72; 3 000 is 5.5 sd up.
    let seed = ServerSeed::from_bytes([34; 32]);
    let deck = standard_deck();
    let index: HashMap<Card, usize> = deck.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let mut counts = vec![0u64; 52 * 52];
    for sample in 0..5_200 {
        let mut shuffled = deck.clone();
        FairRng::new(&seed, &format!("pos-{sample}")).shuffle(&mut shuffled);
        for (position, card) in shuffled.iter().enumerate() {
            counts[index[card] * 52 + position] += 1;
        }
    }
    let statistic = chi_square(&counts);
    assert!(statistic < 3_000.0, "chi-square {statistic:.0} over 2 601 degrees of freedom");
}

#[test]
fn below_is_uniform_for_roulette() {
    // 37 pockets × 1 000 expected; 36 degrees of freedom, p = 0.001 at 67.98.
    let mut rng = FairRng::new(&ServerSeed::from_bytes([55; 32]), "wheel");
    let mut counts = [0u64; 37];
    for _ in 0..37_000 {
        counts[rng.below(37) as usize] += 1;
    }
    let statistic = chi_square(&counts);
    assert!(statistic < 67.98, "chi-square {statistic:.1}");
}

#[test]
fn verify_recomputes_every_game_from_a_played_round() {
    for game in GameKind::ALL {
        let seed = ServerSeed::from_bytes([game as u8 + 100; 32]);
        let id = format!("{}-000042", game.code());
        let mut round = Round::open(game, &id, seed, 10_000);
        let commitment = round.commitment().to_owned();
        round.close(10_000).unwrap();
        let deal = round.reveal().unwrap().clone();
        let outcome = round.settle().unwrap().clone();
        let seed_hex = round.revealed_seed().unwrap().to_hex();

        let verified = verify(&seed_hex, &commitment, &id, game).unwrap();
        assert_eq!(verified.deal, deal, "{game:?}");
        assert_eq!(verified.outcome, outcome, "{game:?}");
        // Upper-case hex is the same commitment.
        assert!(verify(&seed_hex.to_uppercase(), &commitment.to_uppercase(), &id, game).is_ok());
    }
}

#[test]
fn verify_rejects_a_wrong_seed_or_commitment() {
    let seed = ServerSeed::from_bytes([1; 32]);
    let commitment = seed.commitment();
    let other = ServerSeed::from_bytes([2; 32]);
    let game = GameKind::AndarBahar;

    let wrong_seed = verify(&other.to_hex(), &commitment, "ab-1", game).unwrap_err();
    assert_eq!(
        wrong_seed,
        VerifyError::CommitmentMismatch {
            actual: other.commitment(),
            published: commitment.clone()
        }
    );
    assert!(verify(&seed.to_hex(), &other.commitment(), "ab-1", game).is_err());
    let mut flipped = commitment.clone().into_bytes();
    flipped[0] = if flipped[0] == b'0' { b'1' } else { b'0' };
    assert!(verify(&seed.to_hex(), &String::from_utf8(flipped).unwrap(), "ab-1", game).is_err());
    assert_eq!(verify("xyz", &commitment, "ab-1", game).unwrap_err(), VerifyError::SeedNotHex);
    assert_eq!(
        verify(&seed.to_hex()[..62], &commitment, "ab-1", game).unwrap_err(),
        VerifyError::SeedLength
    );
    assert!(verify(&seed.to_hex(), &commitment, "ab-1", game).is_ok());
}
