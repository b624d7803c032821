//! What every part of the server shares and none owns: the clock, configuration, the error
//! envelope every answer is written in, reading input once at the edge, passwords, TOTP,
//! tokens and the secret key, the log-in throttle, request logs, site settings, uploaded
//! images, and who is acting ([`actor`]).
//!
//! The bottom of the server's crates: it knows the store and the pure core, nothing of the
//! engine, the live streams or the services built on them.

pub mod actor;
pub mod clock;
pub mod config;
pub mod error;
pub mod input;
pub mod market_analysis;
pub mod metrics;
pub mod node_lock;
pub mod password;
pub mod refusal;
pub mod request_log;
pub mod secret_key;
pub mod settings;
pub mod stake_buttons;
pub mod throttle;
pub mod token;
pub mod totp;
pub mod uploads;
