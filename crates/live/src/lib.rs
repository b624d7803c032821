//! Live data: what the streams send, outside any one request. The engine's changes become
//! serialised market books ([`books`], one task per server), the casino runner's steps become
//! round news ([`round_events`]), and on PostgreSQL both cross to the other nodes ([`relay`]).
//! [`market_book`] is a market as a page shows it; [`stream_locks`] ends the streams of users
//! who are locked.
//!
//! Below the web API, the bot API and the casino runtime, which all read from it; above the
//! engine, whose changes it carries.

pub mod books;
pub mod market_book;
pub mod relay;
pub mod round_events;
pub mod stream_locks;

pub use books::{
    is_in_play, stored_score, LiveBook, LiveBooks, LiveEvent, LiveScore, COALESCE_MS, TICKET_TTL_MS,
};
