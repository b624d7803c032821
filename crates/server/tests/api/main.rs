//! Black-box API tests: the real server on a random port, over HTTP, on SQLite and PostgreSQL.

mod common;

mod admin;
mod auth;
mod casino;
mod casino_lobby;
mod catalogue;
mod console;
mod console_access;
mod console_casino;
mod demo_feed;
mod desk;
mod errors;
mod exchange;
mod ledger;
mod match_state;
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
