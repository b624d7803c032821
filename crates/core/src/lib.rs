//! Backlay's pure exchange domain: the types and rules that decide who owes whom.
//!
//! Nothing here does IO, reads a clock or awaits; callers pass everything in. That keeps the
//! exchange rules fast and lets them be tested exhaustively and by property.
//!
//! - [`money`]: amounts as integer minor units ([`money::Money`]) and half-to-even rounding
//!   of scaled amounts ([`money::mul_div_round_half_even`]).
//! - [`odds`]: the exchange price ladder ([`odds::Price`]), 350 ticks from 1.01 to 1000.
//! - [`exchange`]: order books and matching, exposure, and settlement of exchange, bookmaker
//!   and fancy markets, and the states a market and a bet go through.
//! - [`partnership`]: the house's result with a client shared up the agent tree
//!   ([`partnership::split`]), exact to the paisa.
//! - [`safer`]: safer gambling's periods, limits' room and cooling-off ([`safer::loss_cap`]).
//! - [`score`]: a match's live score as a feed sends it and bettors see it
//!   ([`score::Score`]), checked once.
//! - [`user`]: a user name that can only hold a valid name ([`user::UserName`]).
//! - [`named`]: enums whose values travel as text under one name each, in JSON and in the
//!   database ([`named_enum!`]).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod decimal;
pub mod exchange;
pub mod money;
pub mod named;
pub mod odds;
pub mod partnership;
pub mod safer;
pub mod score;
pub mod user;

/// What [`named_enum!`] expands to refers to these, so that callers need not depend on them.
#[doc(hidden)]
pub mod __private {
    pub use serde;
    #[cfg(feature = "openapi")]
    pub use utoipa;
}
