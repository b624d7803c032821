//! Black-box API tests: the real server on a random port, over HTTP, on SQLite and PostgreSQL.

mod common;

mod admin;
mod auth;
mod betfair;
mod betfair_orders;
mod betfair_stream;
mod casino;
mod casino_lobby;
mod catalogue;
mod cluster;
mod console;
mod console_access;
mod console_casino;
mod crossed_book;
mod demo_feed;
mod desk;
mod errors;
mod exchange;
mod ledger;
mod live_relay;
mod match_state;
mod nodes;
mod openapi_snapshot;
mod partnership;
mod payee;
mod payment;
mod records;
mod secrets;
mod security;
mod serving;
mod straddle;
mod stream;
mod uploads;
mod user;
mod wallet;
