//! Who acts on the exchange and what they may do: the [`Actor`] (the console or a signed-in
//! user), the [`OperatorContext`] every operator action and engine command runs with (its
//! permission checks and its audit entry), and the parent's terms every way of betting asks
//! ([`check_stake_allowed`]). Below the engine and the operator services, which both need them.

use backlay_office_store::audit::NewAuditEntry;
use backlay_store::users::{Role, User};
use backlay_store::{Store, Writer};

use crate::clock::now_ms;
use crate::error::AppError;
use crate::refusal::Refusal;
use backlay_office_store::AuditWrites;

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
pub fn not_in_downline() -> AppError {
    AppError::NotFound("No such account in your downline.".into())
}

impl OperatorContext<'_> {
    pub fn actor_user_id(&self) -> Option<i64> {
        match &self.actor {
            Actor::Console => None,
            Actor::User(user) => Some(user.id),
        }
    }

    pub fn is_admin(&self) -> bool {
        match &self.actor {
            Actor::Console => true,
            Actor::User(user) => user.role == Role::Admin,
        }
    }

    pub fn require_admin(&self, what: &str) -> Result<(), AppError> {
        if self.is_admin() {
            Ok(())
        } else {
            Err(AppError::Forbidden(format!("Only an admin can {what}.")))
        }
    }

    /// An admin manages everyone; an agent any account in its downline, at any depth
    /// ([`backlay_store::downline`]), never itself, its parent or another agent's accounts.
    pub async fn require_manages(
        &self,
        writer: &mut Writer,
        target: &User,
    ) -> Result<(), AppError> {
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
    pub fn require_parent_of(&self, target: &User) -> Result<(), AppError> {
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

    pub async fn audit(
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

/// The parent's terms on a bet: a bet-locked account may not bet, and a stake above the
/// account's cap is refused (422, so the client app keeps its session). Every way of betting
/// asks this: exchange and house markets, the casino tables and a provider's game launch.
pub fn check_stake_allowed(
    is_bet_locked: bool,
    max_stake_minor: Option<i64>,
    stake_minor: i64,
) -> Result<(), AppError> {
    if is_bet_locked {
        return Err(AppError::betting_locked());
    }
    match max_stake_minor {
        Some(cap_minor) if stake_minor > cap_minor => {
            Err(AppError::Refused(Refusal::StakeCap { cap_minor }))
        }
        _ => Ok(()),
    }
}

/// The bettor's own stake limit, or the operator's tree-wide one (`backlay_store::safer`): a
/// stake above it is refused. Asked wherever [`check_stake_allowed`] is.
pub fn check_own_stake_limit(limit_minor: Option<i64>, stake_minor: i64) -> Result<(), AppError> {
    match limit_minor {
        Some(limit_minor) if stake_minor > limit_minor => {
            Err(AppError::Refused(Refusal::OwnStakeLimit { limit_minor }))
        }
        _ => Ok(()),
    }
}

/// The bettor's own loss limit (`backlay_core::safer::loss_cap`: the most their exposure may
/// reach, and the limit that binds): raising the exposure from `exposure_minor` by
/// `delta_minor` past the cap is refused with what could still be lost. Asked by the engine's
/// placement and by a casino stake or a wallet debit.
pub fn check_loss_limit(
    cap: Option<(i64, backlay_core::safer::Room)>,
    exposure_minor: i64,
    delta_minor: i64,
) -> Result<(), AppError> {
    match cap {
        Some((cap_minor, room)) if exposure_minor + delta_minor > cap_minor => {
            Err(AppError::Refused(Refusal::LossLimit {
                left_minor: (cap_minor - exposure_minor).max(0),
                period: room.period,
                limit_minor: room.limit_minor,
            }))
        }
        _ => Ok(()),
    }
}
