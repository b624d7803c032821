//! Operator actions, shared by the HTTP API (`/api/admin/…`) and the `backlay admin` command so
//! that each rule is written once.
//!
//! Who may do what:
//! - the console (`backlay admin …`, someone with the database) and an admin may do everything;
//! - an agent may create clients under themselves; lock, unlock and limit any account in its
//!   downline, at any depth (a master over its agents' clients too, [`backlay_store::downline`]),
//!   never itself, its parent or its siblings;
//! - chips move between an account and its parent only, and only the parent (or an admin) moves
//!   them: a master cannot spend an agent's chips on the agent's clients;
//! - a client is no operator (the API refuses them before reaching this module).
//!
//! Chips move between a user and their parent only: a deposit debits the parent and credits the
//! child, a withdrawal the reverse; neither side may go below zero. New chips enter through
//! [`mint`] (admin only), which debits the `issuance` account.

mod accounts;
mod cash;
mod casino_categories;
mod casino_games;
mod catalogue;
mod correction;
mod desk;
pub mod feeds;
pub mod house_orders;
mod match_state;
mod payee;
mod payments;
mod providers;
pub mod safer;
pub mod session;
mod settings;

pub use accounts::{
    create_demo_user, create_user, mint, reset_password, set_account_terms, set_exposure_limit,
    set_locked, transfer, transfer_in, AccountTerms, CreateUser, TransferDirection,
    TransferOutcome,
};
pub use cash::{settle_cash, CashDirection, CashSettlement, CASH_REMARK_MAX_CHARS};
pub use casino_categories::{
    add_casino_category, move_casino_category, order_casino_category, remove_casino_category,
    rename_casino_category,
};
pub use casino_games::{set_casino_game_active, set_casino_game_image};
pub use catalogue::{
    create_market, create_match, create_series, create_sport, set_match_active, set_match_in_play,
    set_runner_cards, CreateMarket, CreateMatch, RunnerCardInput, UpstreamMarket,
    CATALOGUE_NAME_MAX_CHARS, MAX_RUNNER_CARDS,
};
pub use correction::{unsettle_market, CorrectedAccount, Correction, CorrectionLine};
pub use desk::set_desk_spread;
pub use match_state::{score_kind_of_sport, set_match_state, MatchStateUpdate};
pub use payee::{set_payment_details, PayeeDetails};
pub use payments::{approve_request, reject_request, REMARK_MAX_CHARS};
pub use providers::{
    add_casino_provider, add_world_casino_game, rotate_provider_secret,
    set_world_casino_game_active, AddProvider, AddWorldCasinoGame,
};
pub use settings::{read_settings, update_settings};

mod state;

pub use backlay_kit::actor::not_in_downline;
pub use backlay_kit::actor::{check_stake_allowed, Actor, OperatorContext};
pub use state::AppState;
