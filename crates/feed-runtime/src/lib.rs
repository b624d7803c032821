//! The feed at work: an upstream's markets mirrored into Backlay's own.
//!
//! `backlay_feed` reads the upstream and holds it as a Betfair client sees it; this crate acts
//! on what moved, through the same operator actions and engine commands an operator uses:
//! - [`catalogue`] — an upstream market makes (or joins) its sport, series, match and market
//!   here, its runners named from a `listMarketCatalogue` answer when one is given, each made
//!   once: what the upstream calls it is linked to it in the same transaction
//!   (`backlay_store::upstream`).
//! - [`lifecycle`] — the upstream's state moves the market: open, suspended, in play (with the
//!   upstream's bet delay), and closed with its winners, settled as a trader's result is.
//! - [`liquidity`] — the upstream's ladder offered to bettors by the house account, scaled,
//!   re-quoted as it moves, pulled when the upstream is not open.
//! - [`scores`] — cricket scores on the match pages, through the desk's own service; a race
//!   running turns its match in play.
//! - [`runner`] — the feed's tasks: a recording read on its own thread, paced and bounded,
//!   handed to the task that mirrors it; the feed's figures for the operator.

pub mod catalogue;
pub mod lifecycle;
pub mod liquidity;
pub mod runner;
pub mod scores;
pub mod stream;

pub use runner::{start, FeedHandle};
