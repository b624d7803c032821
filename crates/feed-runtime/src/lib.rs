//! The feed at work: an upstream's markets mirrored into Backlay's own.
//!
//! `backlay_feed` reads the upstream and holds it as a Betfair client sees it; this crate acts
//! on what moved, through the same operator actions and engine commands an operator uses:
//! - [`catalogue`] — an upstream market makes (or joins) its sport, series, match and market
//!   here, its runners named from a `listMarketCatalogue` answer when one is given, each made
//!   once: what the upstream calls it is linked to it in the same transaction
//!   (`backlay_store::upstream`); a match-odds market's bookmaker twin likewise.
//! - [`lifecycle`] — the upstream's state moves the market: open, suspended, in play (with the
//!   upstream's bet delay), and closed with its winners, settled as a trader's result is (held
//!   for an operator when Backlay cannot settle it as the upstream would).
//! - [`liquidity`] — the upstream's ladder offered to bettors by the house account, scaled,
//!   capped, re-quoted as it moves, pulled when the upstream is not open; a bookmaker twin's
//!   rates from the same ladder.
//! - [`scores`] — cricket scores on the match pages, through the desk's own service; a race
//!   running turns its match in play.
//! - [`stream`] — a live Exchange Stream read: TLS, log-in, subscription, heartbeats,
//!   reconnection.
//! - [`runner`] — the feeds' tasks: a recording read on its own thread, paced and bounded, a
//!   stream on a task of its own, each handed to the task that mirrors it; the feeds the
//!   operator adds, pauses and removes; their figures for the operator.

pub mod catalogue;
pub mod lifecycle;
pub mod liquidity;
pub mod runner;
pub mod scores;
pub mod stream;

pub use runner::{check, start, FeedHandle};
