//! Provably fair dealing: every deal is a published function of a secret seed and the round id.
//!
//! Before a round opens the server picks a 32-byte secret **server seed** (from the operating
//! system's random source; this crate never makes randomness, it is handed the bytes) and
//! publishes its **commitment** `hex(SHA-256(seed))`. After the result the seed is revealed, and
//! anyone can check `SHA-256(seed)` against the commitment and recompute the deal with
//! [`verify`]. The server cannot change the deal after committing, and nobody can predict it
//! before the reveal.
//!
//! The algorithm, exactly (docs/casino.md repeats it for re-implementers):
//!
//! 1. **Byte stream.** Block `i` (i = 0, 1, 2, …) is
//!    `HMAC-SHA256(key = seed, message = utf8(round_id) ‖ u64_be(i))`, 32 bytes. The stream is
//!    block 0, block 1, … concatenated.
//! 2. **Numbers.** Each `u32` is the next 4 stream bytes read big-endian.
//! 3. **Unbiased `below(n)`** for `1 ≤ n ≤ 2³²`: let `limit = 2³² − (2³² mod n)`; draw `x`; if
//!    `x < limit` answer `x mod n`, else draw again (rejection sampling: every answer has
//!    exactly `limit / n` preimages, so there is no modulo bias).
//! 4. **Shuffle** (Fisher–Yates): for `i` from `len − 1` down to `1`, `j = below(i + 1)`, swap
//!    positions `i` and `j`. The pack starts in its canonical order ([`crate::cards`]); the
//!    deal takes cards from the top, position 0 first.
//! 5. **Numbers games** (roulette, Worli Matka) draw their numbers with `below` from the same
//!    stream instead of shuffling.
//!
//! ```
//! use backlay_casino::fair::{FairRng, ServerSeed};
//!
//! let seed = ServerSeed::from_bytes([7; 32]);
//! // Published before the round:
//! assert_eq!(seed.commitment().len(), 64);
//! // The same seed and round id always give the same numbers; another round id does not.
//! let draws = |round: &str| {
//!     let mut rng = FairRng::new(&seed, round);
//!     (0..5).map(|_| rng.below(37)).collect::<Vec<_>>()
//! };
//! assert_eq!(draws("roulette-1"), draws("roulette-1"));
//! assert_ne!(draws("roulette-1"), draws("roulette-2"));
//! assert!(draws("roulette-1").iter().all(|&n| n < 37));
//! ```

use hmac::{Hmac, Mac};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::games::GameKind;
use crate::market::{Deal, Outcome};

type HmacSha256 = Hmac<Sha256>;

/// The length of a server seed in bytes.
pub const SEED_BYTES: usize = 32;

/// The longest round id accepted, in bytes; round ids are short labels such as `teen20-000123`.
pub const MAX_ROUND_ID_BYTES: usize = 128;

/// A round's secret: 32 bytes the server draws from the operating system's random source.
/// Its `Debug` does not print the bytes, so it cannot leak through a log line by accident.
#[derive(Clone, PartialEq, Eq)]
pub struct ServerSeed([u8; SEED_BYTES]);

impl std::fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ServerSeed(commitment {})", self.commitment())
    }
}

impl ServerSeed {
    /// The seed made of `bytes`.
    pub const fn from_bytes(bytes: [u8; SEED_BYTES]) -> ServerSeed {
        ServerSeed(bytes)
    }

    /// Reads a revealed seed: exactly 64 hex digits (either case).
    pub fn from_hex(text: &str) -> Result<ServerSeed, VerifyError> {
        let bytes = hex::decode(text.trim()).map_err(|_| VerifyError::SeedNotHex)?;
        let bytes: [u8; SEED_BYTES] = bytes.try_into().map_err(|_| VerifyError::SeedLength)?;
        Ok(ServerSeed(bytes))
    }

    /// The seed as 64 lower-case hex digits: what is revealed after the round.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The commitment published before the round: `hex(SHA-256(seed))`, lower case.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    /// The seed's bytes.
    pub fn as_bytes(&self) -> &[u8; SEED_BYTES] {
        &self.0
    }
}

/// The deterministic random stream of one round: HMAC-SHA256 blocks of (seed, round id,
/// counter), read 4 bytes at a time. See the module docs for the exact algorithm.
#[derive(Clone)]
pub struct FairRng {
    mac: HmacSha256,
    round_id: Vec<u8>,
    counter: u64,
    block: [u8; 32],
    used_bytes: usize,
}

impl FairRng {
    /// The stream for `round_id` under `seed`.
    ///
    /// # Panics
    /// If `round_id` is longer than [`MAX_ROUND_ID_BYTES`]: round ids are made by the server.
    pub fn new(seed: &ServerSeed, round_id: &str) -> FairRng {
        assert!(
            round_id.len() <= MAX_ROUND_ID_BYTES,
            "round id longer than {MAX_ROUND_ID_BYTES} bytes"
        );
        let mac = HmacSha256::new_from_slice(seed.as_bytes()).expect("HMAC takes any key length");
        FairRng {
            mac,
            round_id: round_id.as_bytes().to_vec(),
            counter: 0,
            block: [0; 32],
            used_bytes: 32,
        }
    }

    fn refill(&mut self) {
        let mut mac = self.mac.clone();
        mac.update(&self.round_id);
        mac.update(&self.counter.to_be_bytes());
        self.block = mac.finalize().into_bytes().into();
        self.counter += 1;
        self.used_bytes = 0;
    }

    /// The next 4 bytes of the stream, big-endian.
    pub fn next_u32(&mut self) -> u32 {
        if self.used_bytes == self.block.len() {
            self.refill();
        }
        let bytes = &self.block[self.used_bytes..self.used_bytes + 4];
        self.used_bytes += 4;
        u32::from_be_bytes(bytes.try_into().expect("4 bytes"))
    }

    /// A uniform number in `0..n`, by rejection sampling (no modulo bias).
    ///
    /// # Panics
    /// If `n == 0`.
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "below(0) has no answer");
        let span = 1u64 << 32;
        let limit = span - span % u64::from(n);
        loop {
            let x = u64::from(self.next_u32());
            if x < limit {
                return (x % u64::from(n)) as u32;
            }
        }
    }

    /// Shuffles `items` in place by Fisher–Yates: for `i` from the end down to 1, swap `i` with
    /// `below(i + 1)`.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let bound = u32::try_from(i + 1).expect("packs are small");
            let j = self.below(bound) as usize;
            items.swap(i, j);
        }
    }
}

/// What [`verify`] recomputes: the deal and the result of the round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verified {
    /// The game.
    pub game: GameKind,
    /// The round id.
    pub round_id: String,
    /// The deal, exactly as the round dealt it.
    pub deal: Deal,
    /// The result: hands, winner and each market's verdict.
    pub outcome: Outcome,
}

/// Why a round does not verify.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerifyError {
    /// The revealed seed is not hex.
    #[error("the seed is not hexadecimal")]
    SeedNotHex,
    /// The revealed seed is not 32 bytes.
    #[error("the seed must be 32 bytes (64 hex digits)")]
    SeedLength,
    /// SHA-256 of the seed is not the published commitment.
    #[error("SHA-256 of the seed is {actual}, not the published commitment {published}")]
    CommitmentMismatch {
        /// `hex(SHA-256(seed))`.
        actual: String,
        /// What was published.
        published: String,
    },
    /// The round id is empty or too long.
    #[error("the round id must be 1 to {MAX_ROUND_ID_BYTES} bytes")]
    RoundId,
}

/// Recomputes a past round from its revealed seed: checks `SHA-256(seed)` against the
/// published commitment (hex, either case), then deals and judges the round again.
///
/// ```
/// use backlay_casino::fair::{verify, ServerSeed, VerifyError};
/// use backlay_casino::games::GameKind;
///
/// let seed = ServerSeed::from_bytes([42; 32]);
/// let commitment = seed.commitment();
/// let round = verify(&seed.to_hex(), &commitment, "dt-1", GameKind::DragonTiger)?;
/// assert_eq!(round.outcome, GameKind::DragonTiger.result(&round.deal));
///
/// let other = ServerSeed::from_bytes([43; 32]).to_hex();
/// assert!(matches!(
///     verify(&other, &commitment, "dt-1", GameKind::DragonTiger),
///     Err(VerifyError::CommitmentMismatch { .. })
/// ));
/// # Ok::<(), VerifyError>(())
/// ```
pub fn verify(
    seed_hex: &str,
    commitment: &str,
    round_id: &str,
    game: GameKind,
) -> Result<Verified, VerifyError> {
    if round_id.is_empty() || round_id.len() > MAX_ROUND_ID_BYTES {
        return Err(VerifyError::RoundId);
    }
    let seed = ServerSeed::from_hex(seed_hex)?;
    let actual = seed.commitment();
    if !actual.eq_ignore_ascii_case(commitment.trim()) {
        return Err(VerifyError::CommitmentMismatch { actual, published: commitment.to_owned() });
    }
    let deal = game.deal(&mut FairRng::new(&seed, round_id));
    let outcome = game.result(&deal);
    Ok(Verified { game, round_id: round_id.to_owned(), deal, outcome })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitment_is_sha256_of_the_seed_bytes() {
        // SHA-256 of 32 zero bytes, a published test vector.
        let seed = ServerSeed::from_bytes([0; 32]);
        assert_eq!(
            seed.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(ServerSeed::from_hex(&seed.to_hex()), Ok(seed));
    }

    #[test]
    fn the_stream_is_hmac_of_round_id_and_big_endian_counter() {
        let seed = ServerSeed::from_bytes([1; 32]);
        let mut mac = HmacSha256::new_from_slice(&[1; 32]).unwrap();
        mac.update(b"r-9");
        mac.update(&1u64.to_be_bytes());
        let block1: [u8; 32] = mac.finalize().into_bytes().into();
        let mut rng = FairRng::new(&seed, "r-9");
        for _ in 0..8 {
            rng.next_u32(); // block 0
        }
        let expected = u32::from_be_bytes(block1[..4].try_into().unwrap());
        assert_eq!(rng.next_u32(), expected);
    }

    #[test]
    fn below_rejects_the_biased_tail() {
        // n = 3 · 2^30 + 1 has limit = 2^32 − (2^32 mod n) = n: any draw ≥ n is rejected, so
        // many draws are rejected yet every answer is below n.
        let n = 3 * (1u32 << 30) + 1;
        let mut rng = FairRng::new(&ServerSeed::from_bytes([5; 32]), "bias");
        for _ in 0..1000 {
            assert!(rng.below(n) < n);
        }
        assert_eq!(rng.below(1), 0);
    }

    #[test]
    fn seeds_of_the_wrong_shape_are_refused() {
        assert_eq!(ServerSeed::from_hex("zz"), Err(VerifyError::SeedNotHex));
        assert_eq!(ServerSeed::from_hex("abcd"), Err(VerifyError::SeedLength));
        assert_eq!(
            verify(&"00".repeat(32), &"00".repeat(32), "", GameKind::Roulette).unwrap_err(),
            VerifyError::RoundId
        );
    }

    #[test]
    fn debug_does_not_print_the_seed() {
        let seed = ServerSeed::from_bytes([0xab; 32]);
        assert!(!format!("{seed:?}").contains("abab"));
    }
}
