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
mod match_state;
mod payee;
mod payments;
mod providers;
mod settings;

pub use accounts::{
    check_stake_allowed, create_user, mint, reset_password, set_account_terms, set_exposure_limit,
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
    CreateMarket, CreateMatch, CATALOGUE_NAME_MAX_CHARS,
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

use backlay_store::audit::NewAuditEntry;
use backlay_store::users::{Role, User};
use backlay_store::{Store, Writer};

use crate::clock::now_ms;
use crate::error::AppError;

/// Who is acting.
#[derive(Clone, Debug)]
pub enum Actor {
    /// `backlay admin …` on the server's machine.
    Console,
    User(User),
}

/// The actor and where the request came from, for permission checks and the audit log.
#[derive(Clone, Debug)]
pub struct OperatorContext<'a> {
    pub store: &'a Store,
    pub actor: Actor,
    pub client_ip: Option<String>,
}

/// 404 for an account outside an agent's downline, whether or not it exists (the console's
/// reads and the operator's actions answer alike).
pub(crate) fn not_in_downline() -> AppError {
    AppError::NotFound("No such account in your downline.".into())
}

impl OperatorContext<'_> {
    fn actor_user_id(&self) -> Option<i64> {
        match &self.actor {
            Actor::Console => None,
            Actor::User(user) => Some(user.id),
        }
    }

    fn is_admin(&self) -> bool {
        match &self.actor {
            Actor::Console => true,
            Actor::User(user) => user.role == Role::Admin,
        }
    }

    pub(crate) fn require_admin(&self, what: &str) -> Result<(), AppError> {
        if self.is_admin() {
            Ok(())
        } else {
            Err(AppError::Forbidden(format!("Only an admin can {what}.")))
        }
    }

    /// An admin manages everyone; an agent any account in its downline, at any depth
    /// ([`backlay_store::downline`]), never itself, its parent or another agent's accounts.
    async fn require_manages(&self, writer: &mut Writer, target: &User) -> Result<(), AppError> {
        match &self.actor {
            Actor::Console => Ok(()),
            Actor::User(user) if user.role == Role::Admin => Ok(()),
            Actor::User(user) if user.id == target.id => Err(AppError::Forbidden(
                "You cannot change your own account; the account above yours manages it.".into(),
            )),
            Actor::User(user) if writer.is_in_downline(user.id, target.id).await? => Ok(()),
            // The same answer as for an id that does not exist: nothing of another downline,
            // not even that the account is there.
            Actor::User(_) => Err(not_in_downline()),
        }
    }

    /// Chips move between an account and its parent only, so only the parent (or an admin)
    /// may move them: a master cannot spend its agents' chips on their clients.
    fn require_parent_of(&self, target: &User) -> Result<(), AppError> {
        match &self.actor {
            Actor::Console => Ok(()),
            Actor::User(user) if user.role == Role::Admin => Ok(()),
            Actor::User(user) if target.parent_id == Some(user.id) => Ok(()),
            Actor::User(_) => Err(AppError::Forbidden(format!(
                "Account {} is not one of your clients: chips move between an account and its own parent.",
                target.id
            ))),
        }
    }

    pub(crate) async fn audit(
        &self,
        writer: &mut Writer,
        action: &str,
        target: String,
        detail: serde_json::Value,
    ) -> Result<(), AppError> {
        writer
            .audit(
                NewAuditEntry {
                    actor_user_id: self.actor_user_id(),
                    action,
                    target,
                    detail,
                    client_ip: self.client_ip.as_deref(),
                },
                now_ms(),
            )
            .await?;
        Ok(())
    }
}
