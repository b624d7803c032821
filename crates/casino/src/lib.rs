//! Backlay's in-house casino: the sixteen games of the sidebar's "Others" list as pure rules.
//!
//! Nothing here does IO, reads a clock, awaits, or makes randomness: the server hands in the
//! round's 32-byte secret seed and the time, and gets back deals, results and payouts in
//! integer minor units. That keeps every rule testable by enumeration and every round
//! recomputable by anyone who has its revealed seed.
//!
//! - [`cards`]: cards, the 52-card deck, the 8-deck shoe, the 16-card Bollywood pack.
//! - [`fair`]: the provably fair stream (HMAC-SHA256 of seed and round id), the unbiased
//!   shuffle, the commitment, and [`fair::verify`].
//! - [`games`]: one module per game family, each opening with its rules; [`games::GameKind`]
//!   names a game and dispatches to it.
//! - [`market`]: markets and odds, the deal, the outcome with each market's verdict, and
//!   [`market::payout`], what a bettor gets back in minor units.
//! - [`dealing`]: the dealing phase after betting closes: the cards shown one at a time.
//! - [`round`]: a round's life as a state machine (Betting → Closed → Dealt → Settled).
//! - [`house_edge`]: the exact probability and house edge of every market, by enumeration
//!   (or, for three games, a documented calculation); docs/casino.md prints the table.
//! - [`rules`]: each game's rules as players read them ([`games::GameKind::rules`]), with the
//!   odds and house edges of docs/casino.md.
//!
//! A whole round, as the server will run it:
//!
//! ```
//! use backlay_casino::games::GameKind;
//! use backlay_casino::fair::{verify, ServerSeed};
//! use backlay_casino::market::payout;
//! use backlay_casino::round::Round;
//!
//! let seed = ServerSeed::from_bytes([0x5a; 32]); // from the OS random source, in the server
//! let mut round = Round::open(GameKind::Baccarat, "baccarat-42", seed, 1_700_000_030_000);
//! let commitment = round.commitment().to_owned(); // shown with the round
//! let odds = round.markets()[1].odds; // Banker at 1.95
//! let banker = round.check_bet(1_700_000_010_000, "banker", odds, 500_00)?.clone();
//!
//! round.close(1_700_000_030_000)?;
//! round.reveal()?;
//! let outcome = round.settle()?.clone();
//! let back_minor = payout(&banker, 500_00, &outcome);
//! assert!([0, 500_00, 975_00].contains(&back_minor)); // lost, tie (push), won at 1.95
//!
//! let seed_hex = round.revealed_seed().unwrap().to_hex();
//! let again = verify(&seed_hex, &commitment, "baccarat-42", GameKind::Baccarat)?;
//! assert_eq!(again.outcome, outcome);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cards;
pub mod dealing;
pub mod fair;
pub mod games;
pub mod house_edge;
pub mod market;
pub mod round;
pub mod rules;
