//! Betfair's Exchange Stream API (issue 17; docs/bot-api.md): a TLS listener of its own
//! (`--betfair-stream-addr`, [`tls`]) speaking CRLF-delimited JSON, so that
//! betfairlightweight's and flumine's streaming clients get a market's image and deltas and
//! their own order changes.
//!
//! A connection: the server says `connection` first; the client authenticates (app key and a
//! bot API session, [`crate::session_user`]) within [`AUTH_TIMEOUT_MS`]; then it
//! subscribes to markets and/or its orders, and gets a `SUB_IMAGE` and then deltas.
//!
//! Where the changes come from: [`backlay_live::LiveBooks`], the same events the web app's live
//! stream uses. Each names a market that changed and the users whose bets there changed; on
//! PostgreSQL they include the markets other nodes own ([`backlay_live::relay`]). On an event the
//! connection re-reads the market ([`market::read_snapshot`]) and sends what differs from what
//! it sent that connection ([`market::change`]); for its user it re-reads their bets in that
//! market and sends each order whose state differs ([`orders`]). A missed event (a lagging
//! listener, a relay gap) re-reads everything subscribed, so nothing is lost, only merged.
//!
//! Limits: [`MAX_CONNECTIONS`] authenticated in all and [`MAX_CONNECTIONS_PER_USER`] per client;
//! before authenticating (handshake within [`HANDSHAKE_TIMEOUT_MS`], then authentication within
//! [`AUTH_TIMEOUT_MS`]) [`MAX_PENDING`] in all and [`MAX_PENDING_PER_ADDRESS`] per address; a line of
//! at most [`MAX_LINE_BYTES`], at most [`MAX_MARKETS`] markets a subscription, heartbeat and
//! conflation clamped to Betfair's ranges, a write that cannot finish in [`WRITE_TIMEOUT_MS`]
//! (a reader that does not keep up) closes the connection, and the session is checked again
//! every [`SESSION_CHECK_MS`]. Refusals are `status` FAILURE with `connectionClosed: true`,
//! and the connection closes.
//!
//! Where each part lives: [`Bound`] binds and accepts ([`listener`]); [`registry`] counts the
//! connections, in all and per client, and keeps the market reads they share; [`lines`] reads
//! and writes the CRLF-delimited lines within the limits; [`connection`] is one connection's
//! state machine, with its market and order subscriptions in [`market_subscription`] and
//! [`order_subscription`]; [`protocol`] reads requests and words the answers.

mod connection;
mod lines;
mod listener;
mod market;
mod market_subscription;
mod order_subscription;
mod orders;
mod protocol;
mod registry;
pub mod tls;

pub use listener::Bound;

use std::time::Duration;

use tokio::time::Instant;

/// Authenticated stream connections served at once.
pub const MAX_CONNECTIONS: usize = 200;
/// Connections handshaking or not yet authenticated, in all: they hold no place among
/// [`MAX_CONNECTIONS`], so idle sockets cannot keep bots off the stream.
pub const MAX_PENDING: usize = 256;
/// Connections handshaking or not yet authenticated from one address at once; more are closed
/// unanswered.
pub const MAX_PENDING_PER_ADDRESS: usize = 8;
/// Stream connections of one client at once.
pub const MAX_CONNECTIONS_PER_USER: usize = 10;
/// The longest request line.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Most markets one subscription covers.
pub const MAX_MARKETS: usize = 1_000;
/// A connection must finish its TLS handshake within this.
pub const HANDSHAKE_TIMEOUT_MS: u64 = 5_000;
/// A connection must authenticate within this of connecting.
pub const AUTH_TIMEOUT_MS: u64 = 5_000;
/// A message that cannot be written within this closes the connection (the reader is not
/// keeping up; nothing queues for it meanwhile).
pub const WRITE_TIMEOUT_MS: u64 = 10_000;
/// How often a connection's session is checked again (a revoked or expired session ends it).
pub const SESSION_CHECK_MS: u64 = 30_000;
/// Requests read ahead of the connection's handling.
const REQUEST_BACKLOG: usize = 8;
/// Most order states a connection remembers having sent; past it, it forgets them all (and
/// may send a few again, which is harmless).
const MAX_REMEMBERED_ORDERS: usize = 100_000;
/// Most markets whose last read the connections share.
const MAX_CACHED_SNAPSHOTS: usize = 10_000;
/// Most of one client's orders an order image holds.
const MAX_IMAGE_ORDERS: i64 = 1_000;

/// When a subscription next has something to send: its conflated changes at `flush_at`, or
/// else a heartbeat `heartbeat_ms` after it last sent.
fn due_at(last_sent: Instant, heartbeat_ms: u64, flush_at: Option<Instant>) -> Instant {
    let heartbeat = last_sent + Duration::from_millis(heartbeat_ms);
    flush_at.map_or(heartbeat, |at| at.min(heartbeat))
}
