//! The feed: events, markets, prices and scores read from an upstream Betfair Exchange Stream,
//! recorded (Betfair's historical data, betfairlightweight's and flumine's recordings) or live.
//!
//! This crate reads; it does not act. It holds the upstream's state as a Betfair client sees it,
//! and says what moved, for the service that mirrors it into Backlay's markets:
//! - [`message`] — one line of the stream (`mcm` market changes, `ccm` cricket scores, `rcm`
//!   race progress) read into types once: prices on Betfair's ladder, sizes in minor units, a
//!   runner's state as a name. A line that cannot be read is refused whole, with the reason.
//! - [`mirror`] — every market's definition and ladders and every match's score, changed by
//!   messages exactly as betfairlightweight's stream cache changes them (its historical reader
//!   is the reference the tests hold this to), so that at any line the book is the one a
//!   Betfair client would see.
//! - [`recording`] — recorded files, plain, gzip or bzip2, a folder of them, several merged
//!   into one timeline by publish time, paced at a speed and stopped at a moment.
//!
//! Memory is bounded by what is mirrored, not by a recording's length: a recording is read a
//! line at a time (each line at most [`recording::MAX_LINE_BYTES`]), one line ahead per file.

pub mod message;
pub mod mirror;
pub mod recording;

pub use message::{Message, Refusal};
pub use mirror::Mirror;
