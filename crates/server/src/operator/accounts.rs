//! Accounts: creating users, moving chips between a user and their parent ([`transfer`]),
//! issuing new chips ([`mint`]), locking, and exposure limits.

use backlay_core::money::Money;
use backlay_core::user::UserName;
use backlay_store::ledger::{NewTransaction, Posting, SystemAccount};
use backlay_store::users::{NewUser, Role, User};
use backlay_store::{StoreError, Writer};

use super::{Actor, OperatorContext};
use crate::clock::now_ms;
use crate::error::{AppError, OrNotFound};
use crate::input::{user_name_field, Checks};
use crate::password::{password_rule_violation, Passwords};

/// A user to create, parsed where the request comes in ([`CreateUser::parse`]). `Debug`
/// leaves the password out.
#[derive(Clone)]
pub struct CreateUser {
    pub user_name: UserName,
    /// Keeps the password rule.
    pub password: String,
    pub role: Role,
    /// Parent; defaults to the acting admin or agent. Ignored for an agent actor (always self).
    pub parent_id: Option<i64>,
    /// True for users a parent creates (they must choose their own password); the demo and the
    /// console may create users who need not.
    pub must_change_password: bool,
}

impl std::fmt::Debug for CreateUser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateUser")
            .field("user_name", &self.user_name)
            .field("role", &self.role)
            .field("parent_id", &self.parent_id)
            .field("must_change_password", &self.must_change_password)
            .finish_non_exhaustive()
    }
}

impl CreateUser {
    /// A user an operator or the console asks for: the name (trimmed) must be a user name and
    /// the password keep the rule, both reported at once when they do not.
    pub fn parse(
        user_name: &str,
        password: String,
        role: Role,
        parent_id: Option<i64>,
        must_change_password: bool,
    ) -> Result<CreateUser, AppError> {
        let mut checks = Checks::default();
        let user_name = user_name_field(&mut checks, "user_name", user_name);
        if let Some(problem) = password_rule_violation(&password) {
            checks.fail("password", problem);
        }
        checks.finish()?;
        Ok(CreateUser {
            user_name: user_name.expect("a user name that did not parse failed the checks"),
            password,
            role,
            parent_id,
            must_change_password,
        })
    }
}

/// Creates a user; the password is hashed by the caller's bounded hasher (the server's, or the
/// console's own).
pub async fn create_user(
    ctx: &OperatorContext<'_>,
    passwords: &Passwords,
    request: CreateUser,
) -> Result<User, AppError> {
    let user_name = request.user_name;
    let parent_id = match (&ctx.actor, request.role) {
        (Actor::User(actor), Role::Client) if actor.role == Role::Agent => Some(actor.id),
        (Actor::User(actor), _) if actor.role == Role::Agent => {
            return Err(AppError::Forbidden("An agent can create clients only.".into()))
        }
        (Actor::User(actor), Role::Admin) if actor.role == Role::Admin => {
            // Not a right the admin lacks (403 would end their session) but one no API call has.
            return Err(AppError::Unprocessable(
                "Admins are created from the console (backlay admin create-user).".into(),
            ));
        }
        (_, Role::Admin) => None,
        (Actor::User(actor), _) => Some(request.parent_id.unwrap_or(actor.id)),
        (Actor::Console, _) => request.parent_id,
    };
    let password_hash = passwords.hash(request.password).await?;
    let mut writer = ctx.store.begin_write().await?;
    if let Some(parent_id) = parent_id {
        let parent = writer
            .user_by_id(parent_id)
            .await
            .or_not_found(|| format!("There is no user with id {parent_id}."))?;
        let allowed = match request.role {
            Role::Client => matches!(parent.role, Role::Agent | Role::Admin),
            Role::Agent => parent.role == Role::Admin,
            Role::Admin => false,
        };
        if !allowed {
            return Err(AppError::field(
                "parent_id",
                format!(
                    "A {} cannot be placed under the {} {}.",
                    request.role.as_str(),
                    parent.role.as_str(),
                    parent.user_name
                ),
            ));
        }
    }
    let now = now_ms();
    let user_id = writer
        .insert_user(
            &NewUser {
                user_name: &user_name,
                password_hash: &password_hash,
                role: request.role,
                parent_id,
                is_change_password: request.must_change_password,
                dial_code: None,
                mobile: None,
            },
            now,
        )
        .await?;
    ctx.audit(
        &mut writer,
        "user.create",
        format!("user:{user_id}"),
        serde_json::json!({ "user_name": user_name, "role": request.role.as_str(), "parent_id": parent_id }),
    )
    .await?;
    let user = writer.user_by_id(user_id).await?;
    writer.commit().await?;
    Ok(user)
}

backlay_core::named_enum! {
    /// Which way chips move between a user and their parent.
    pub enum TransferDirection as "direction" {
        /// Parent → child.
        Deposit = "deposit",
        /// Child → parent.
        Withdraw = "withdraw",
    }
}

/// The balances after a transfer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferOutcome {
    pub transaction_id: i64,
    pub user_balance: Money,
    pub parent_balance: Money,
}

/// Moves chips between a user and their parent, in a transaction of its own.
pub async fn transfer(
    ctx: &OperatorContext<'_>,
    user_id: i64,
    amount: Money,
    direction: TransferDirection,
    remark: &str,
) -> Result<TransferOutcome, AppError> {
    let mut writer = ctx.store.begin_write().await?;
    let outcome = transfer_in(ctx, &mut writer, user_id, amount, direction, remark).await?;
    writer.commit().await?;
    Ok(outcome)
}

/// [`transfer`] inside the caller's transaction, so that what caused it (an approved payment
/// request) commits with it or not at all. A refusal writes nothing the caller must undo,
/// but the caller should drop the transaction.
pub async fn transfer_in(
    ctx: &OperatorContext<'_>,
    writer: &mut Writer,
    user_id: i64,
    amount: Money,
    direction: TransferDirection,
    remark: &str,
) -> Result<TransferOutcome, AppError> {
    if !amount.is_positive() {
        return Err(AppError::field("amount", "Amount must be more than 0."));
    }
    if remark.chars().count() > 200 {
        return Err(AppError::field("remark", "Remark must be at most 200 characters."));
    }
    let user = writer
        .user_by_id(user_id)
        .await
        .or_not_found(|| format!("There is no user with id {user_id}."))?;
    ctx.require_parent_of(&user)?;
    let parent_id = user.parent_id.ok_or_else(|| {
        AppError::Conflict(format!("{} has no parent to transfer chips with.", user.user_name))
    })?;
    let parent = writer.user_by_id(parent_id).await?;
    let user_account = writer.account_of_user(user.id).await?;
    let parent_account = writer.account_of_user(parent.id).await?;
    let (kind, debited, user_text, parent_text) = match direction {
        TransferDirection::Deposit => (
            "deposit",
            &parent,
            format!("Deposit from {}", parent.user_name),
            format!("Deposit to {}", user.user_name),
        ),
        TransferDirection::Withdraw => (
            "withdraw",
            &user,
            format!("Withdrawal by {}", parent.user_name),
            format!("Withdrawal from {}", user.user_name),
        ),
    };
    let with_remark = |text: String| {
        if remark.trim().is_empty() {
            text
        } else {
            format!("{text}: {}", remark.trim())
        }
    };
    let (user_amount, parent_amount) = match direction {
        TransferDirection::Deposit => (amount.minor(), -amount.minor()),
        TransferDirection::Withdraw => (-amount.minor(), amount.minor()),
    };
    let posted = writer
        .post(
            NewTransaction {
                kind,
                actor_user_id: ctx.actor_user_id(),
                remark: remark.trim().to_string(),
                market_id: None,
                postings: vec![
                    Posting {
                        account_id: user_account,
                        amount_minor: user_amount,
                        description: with_remark(user_text),
                    },
                    Posting {
                        account_id: parent_account,
                        amount_minor: parent_amount,
                        description: with_remark(parent_text),
                    },
                ],
            },
            now_ms(),
        )
        .await;
    let posted = match posted {
        Ok(posted) => posted,
        Err(StoreError::InsufficientFunds { available_minor }) => {
            return Err(AppError::Unprocessable(format!(
                "{} has only {} available.",
                debited.user_name,
                Money::from_minor(available_minor).rupees()
            )))
        }
        Err(other) => return Err(other.into()),
    };
    ctx.audit(
        writer,
        "chips.transfer",
        format!("user:{}", user.id),
        serde_json::json!({ "direction": kind, "amount_minor": amount.minor(), "parent_id": parent.id, "transaction_id": posted.transaction_id }),
    )
    .await?;
    let balance_after = |account_id| {
        Money::from_minor(
            posted.balance_after(account_id).expect("the transfer posted to this account"),
        )
    };
    Ok(TransferOutcome {
        transaction_id: posted.transaction_id,
        user_balance: balance_after(user_account),
        parent_balance: balance_after(parent_account),
    })
}

/// Issues new chips to an admin (the console names the admin; an admin mints to themselves).
pub async fn mint(
    ctx: &OperatorContext<'_>,
    admin_id: i64,
    amount: Money,
) -> Result<Money, AppError> {
    ctx.require_admin("issue chips")?;
    if !amount.is_positive() {
        return Err(AppError::field("amount", "Amount must be more than 0."));
    }
    let mut writer = ctx.store.begin_write().await?;
    let admin = writer
        .user_by_id(admin_id)
        .await
        .or_not_found(|| format!("There is no user with id {admin_id}."))?;
    if admin.role != Role::Admin {
        return Err(AppError::field(
            "user",
            format!(
                "Chips are issued to an admin; {} is an {}.",
                admin.user_name,
                admin.role.as_str()
            ),
        ));
    }
    let issuance = writer.system_account(SystemAccount::Issuance).await?;
    let admin_account = writer.account_of_user(admin.id).await?;
    let posted = writer
        .post(
            NewTransaction {
                kind: "mint",
                actor_user_id: ctx.actor_user_id(),
                remark: String::new(),
                market_id: None,
                postings: vec![
                    Posting {
                        account_id: issuance,
                        amount_minor: -amount.minor(),
                        description: format!("Chips issued to {}", admin.user_name),
                    },
                    Posting {
                        account_id: admin_account,
                        amount_minor: amount.minor(),
                        description: "Chips issued".into(),
                    },
                ],
            },
            now_ms(),
        )
        .await?;
    ctx.audit(
        &mut writer,
        "chips.mint",
        format!("user:{}", admin.id),
        serde_json::json!({ "amount_minor": amount.minor(), "transaction_id": posted.transaction_id }),
    )
    .await?;
    writer.commit().await?;
    Ok(Money::from_minor(
        posted.balance_after(admin_account).expect("the mint posted to the admin"),
    ))
}

/// Locks or unlocks a user. Locking ends their sessions at once.
pub async fn set_locked(
    ctx: &OperatorContext<'_>,
    user_id: i64,
    locked: bool,
) -> Result<User, AppError> {
    let mut writer = ctx.store.begin_write().await?;
    let user = writer
        .user_by_id(user_id)
        .await
        .or_not_found(|| format!("There is no user with id {user_id}."))?;
    ctx.require_manages(&mut writer, &user).await?;
    if let Actor::User(actor) = &ctx.actor {
        if actor.id == user.id {
            return Err(AppError::Conflict("You cannot lock yourself.".into()));
        }
    }
    writer.set_locked(user.id, locked).await?;
    if locked {
        writer.revoke_user_sessions(user.id, -1, now_ms()).await?;
    }
    ctx.audit(
        &mut writer,
        if locked { "user.lock" } else { "user.unlock" },
        format!("user:{}", user.id),
        serde_json::json!({}),
    )
    .await?;
    let user = writer.user_by_id(user.id).await?;
    writer.commit().await?;
    Ok(user)
}

/// Sets the most exposure a user may hold across all markets (`None`: no limit).
pub async fn set_exposure_limit(
    ctx: &OperatorContext<'_>,
    user_id: i64,
    limit: Option<Money>,
) -> Result<User, AppError> {
    if limit.is_some_and(|l| l.is_negative()) {
        return Err(AppError::field("max_exposure", "max_exposure cannot be negative."));
    }
    let mut writer = ctx.store.begin_write().await?;
    let user = writer
        .user_by_id(user_id)
        .await
        .or_not_found(|| format!("There is no user with id {user_id}."))?;
    ctx.require_manages(&mut writer, &user).await?;
    writer.set_max_exposure(user.id, limit.map(Money::minor)).await?;
    ctx.audit(
        &mut writer,
        "user.exposure_limit",
        format!("user:{}", user.id),
        serde_json::json!({ "max_exposure_minor": limit.map(Money::minor) }),
    )
    .await?;
    let user = writer.user_by_id(user.id).await?;
    writer.commit().await?;
    Ok(user)
}

#[cfg(test)]
mod tests {
    use super::{CreateUser, TransferDirection};
    use crate::error::AppError;
    use backlay_store::users::Role;

    #[test]
    fn a_direction_reads_as_serde_derived_it() {
        for direction in TransferDirection::ALL {
            let json = format!("\"{direction}\"");
            assert_eq!(serde_json::from_str::<TransferDirection>(&json).unwrap(), *direction);
        }
        let err = serde_json::from_str::<TransferDirection>("\"sideways\"").unwrap_err();
        assert_eq!(err.to_string(), "unknown variant `sideways`, expected `deposit` or `withdraw`");
        assert_eq!(
            "up".parse::<TransferDirection>().unwrap_err().to_string(),
            r#""up" is not a direction: use deposit or withdraw"#
        );
    }

    #[test]
    fn a_user_to_create_is_parsed_with_every_problem_named() {
        let user = CreateUser::parse(" ravi_22 ", "First@123".into(), Role::Client, None, true);
        assert_eq!(user.unwrap().user_name.as_str(), "ravi_22");
        let Err(AppError::Invalid { errors, .. }) =
            CreateUser::parse("1 bad", "short".into(), Role::Client, None, true)
        else {
            panic!("a bad name and a weak password are refused")
        };
        assert_eq!(errors["user_name"], "User name may contain only letters, digits and _.");
        assert!(errors["password"].contains("at least 8"), "{errors:?}");
    }

    #[test]
    fn debug_leaves_the_password_out() {
        let user = CreateUser {
            user_name: "demo".parse().unwrap(),
            password: "s3cret-pass".into(),
            role: Role::Client,
            parent_id: None,
            must_change_password: true,
        };
        let printed = format!("{user:?}");
        assert!(!printed.contains("s3cret-pass"), "{printed}");
        assert!(printed.contains("demo"), "{printed}");
    }
}
