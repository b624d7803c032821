//! Accounts: creating users in the agent tree with their partnerships, moving chips between a
//! user and their parent ([`transfer`]), issuing new chips ([`mint`]), locking, bet-locking,
//! credit references, stake and exposure limits, and password resets.
//!
//! The tree: an admin (the operator) at the top, agents under it down to the `agent_levels`
//! setting (3: super master → master → agent), clients under an admin or an agent. An agent's
//! partnership (basis points of the house's result against its downline, cumulative from the
//! bottom; `backlay_core::partnership`) is fixed when it is created and is never more than its
//! parent agent's, so every chain a settlement splits is valid.

use backlay_core::money::Money;
use backlay_core::partnership::WHOLE_BP;
use backlay_core::user::UserName;
use backlay_store::ledger::{NewTransaction, Posting, SystemAccount, TransactionKind};
use backlay_store::users::{NewUser, Role, User};
use backlay_store::{StoreError, Writer};

use super::{Actor, OperatorContext};
use backlay_kit::clock::now_ms;
use backlay_kit::error::{AppError, OrNotFound};
use backlay_kit::input::{user_name_field, Checks};
use backlay_kit::password::{password_rule_violation, PasswordError, Passwords};

/// A user to create, parsed where the request comes in ([`CreateUser::parse`]). `Debug`
/// leaves the password out.
#[derive(Clone)]
pub struct CreateUser {
    pub user_name: UserName,
    /// Keeps the password rule.
    pub password: String,
    pub role: Role,
    /// Parent; defaults to the acting admin or agent. An agent may name itself or an agent of its
    /// downline.
    pub parent_id: Option<i64>,
    /// True for users a parent creates (they must choose their own password); the demo and the
    /// console may create users who need not.
    pub must_change_password: bool,
    /// An agent's partnership in basis points (None: 0). Only agents have one.
    pub partnership_bp: Option<u32>,
    /// What the new account's terms start as (credit reference, limits).
    pub terms: AccountTerms,
}

/// The terms a parent sets on an account; `None` leaves one as it is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AccountTerms {
    /// What the parent says the account owes or is owed (not money).
    pub credit_reference: Option<Money>,
    /// Can log in, cannot bet.
    pub bet_locked: Option<bool>,
    /// The largest stake of one bet (`Some(None)` removes the cap).
    pub max_stake: Option<Option<Money>>,
    /// The most exposure across markets (`Some(None)` removes the limit).
    pub max_exposure: Option<Option<Money>>,
}

impl AccountTerms {
    /// Each term that is out of range, by its field name.
    fn check(&self, checks: &mut Checks) {
        if self.credit_reference.is_some_and(|m| m.is_negative()) {
            checks.fail("credit_reference", "The credit reference cannot be negative.");
        }
        if self.max_stake.flatten().is_some_and(|m| !m.is_positive()) {
            checks.fail("max_stake", "The most a bet may stake is more than 0 (or empty: no cap).");
        }
        if self.max_exposure.flatten().is_some_and(|m| m.is_negative()) {
            checks.fail(
                "max_exposure",
                "The exposure limit cannot be negative (or empty: no limit).",
            );
        }
    }
}

impl std::fmt::Debug for CreateUser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateUser")
            .field("user_name", &self.user_name)
            .field("role", &self.role)
            .field("parent_id", &self.parent_id)
            .field("must_change_password", &self.must_change_password)
            .field("partnership_bp", &self.partnership_bp)
            .field("terms", &self.terms)
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
            partnership_bp: None,
            terms: AccountTerms::default(),
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
    create_user_hashed_by(ctx, request, async |password| passwords.hash(password).await).await
}

/// [`create_user`] for the demo's log-ins, whose passwords are printed at start: their hashes
/// are made once per process ([`Passwords::hash_published`]), not once per fresh database.
pub async fn create_demo_user(
    ctx: &OperatorContext<'_>,
    passwords: &Passwords,
    request: CreateUser,
) -> Result<User, AppError> {
    create_user_hashed_by(ctx, request, async |password| passwords.hash_published(&password).await)
        .await
}

/// Creates the user, its password hashed by `hash` once the request has passed its checks.
async fn create_user_hashed_by(
    ctx: &OperatorContext<'_>,
    request: CreateUser,
    hash: impl AsyncFnOnce(String) -> Result<String, PasswordError>,
) -> Result<User, AppError> {
    let user_name = request.user_name;
    let parent_id = match (&ctx.actor, request.role) {
        // An agent creates sub-agents and clients under itself or an agent of its downline
        // (checked below, with the parent read).
        (Actor::User(actor), Role::Agent | Role::Client) if actor.role == Role::Agent => {
            Some(request.parent_id.unwrap_or(actor.id))
        }
        (Actor::User(actor), Role::Admin) if actor.role == Role::Admin => {
            // Not a right the admin lacks (403 would end their session) but one no API call has.
            return Err(AppError::Unprocessable(
                "Admins are created from the console (backlay admin create-user).".into(),
            ));
        }
        (Actor::User(_), Role::Admin) => {
            return Err(AppError::Forbidden("An agent cannot create an admin.".into()))
        }
        (_, Role::Admin) => None,
        (Actor::User(actor), _) => Some(request.parent_id.unwrap_or(actor.id)),
        (Actor::Console, _) => request.parent_id,
    };
    let mut checks = Checks::default();
    request.terms.check(&mut checks);
    if request.role != Role::Agent && request.partnership_bp.is_some_and(|bp| bp > 0) {
        checks.fail("partnership", "Only an agent carries a partnership.");
    }
    if request.partnership_bp.is_some_and(|bp| bp > WHOLE_BP) {
        checks.fail("partnership", "A partnership is 0 to 100%.");
    }
    checks.finish()?;
    let agent_levels = backlay_kit::settings::agent_levels(ctx.store).await?;
    let password_hash = hash(request.password).await?;
    let mut writer = ctx.store.begin_write().await?;
    let partnership_bp = request.partnership_bp.unwrap_or(0);
    let mut parent_name = None;
    if let Some(parent_id) = parent_id {
        let parent = match &ctx.actor {
            // An agent's own downline only; anyone else's account, or nobody's, is the same 404.
            Actor::User(actor) if actor.role == Role::Agent && actor.id != parent_id => {
                if !writer.is_in_downline(actor.id, parent_id).await? {
                    return Err(super::not_in_downline());
                }
                writer.user_by_id(parent_id).await?
            }
            _ => writer
                .user_by_id(parent_id)
                .await
                .or_not_found(|| format!("There is no user with id {parent_id}."))?,
        };
        let allowed = match request.role {
            Role::Client | Role::Agent => matches!(parent.role, Role::Agent | Role::Admin),
            Role::Admin => false,
        };
        parent_name = Some(parent.user_name.clone());
        if !allowed {
            return Err(AppError::field(
                "parent_id",
                format!(
                    "{} cannot be placed under the {} {}.",
                    if request.role == Role::Agent { "An agent" } else { "A client" },
                    parent.role.as_str(),
                    parent.user_name
                ),
            ));
        }
        if parent.role == Role::Agent && request.role == Role::Agent {
            // The parent's agents above it, the parent, and the new agent.
            let level = writer.partnership_chain(parent.id).await?.len() + 2;
            if level > agent_levels as usize {
                return Err(AppError::field(
                    "role",
                    format!(
                        "{} is at the deepest agent level the operator allows ({agent_levels}): it can create clients only.",
                        parent.user_name
                    ),
                ));
            }
            if partnership_bp > parent.partnership_bp {
                return Err(AppError::field(
                    "partnership",
                    format!(
                        "A partnership cannot be more than {}'s own {}.",
                        parent.user_name,
                        percent(parent.partnership_bp)
                    ),
                ));
            }
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
                partnership_bp,
            },
            now,
        )
        .await?;
    if request.role == Role::Client {
        // The operator's default loss limit, if set (issue 33).
        writer.apply_default_limits(user_id, now).await?;
    }
    let terms = &request.terms;
    writer
        .set_account_terms(
            user_id,
            terms.credit_reference.unwrap_or(Money::ZERO).minor(),
            terms.bet_locked.unwrap_or(false),
            terms.max_stake.flatten().map(Money::minor),
        )
        .await?;
    if let Some(limit) = terms.max_exposure.flatten() {
        writer.set_max_exposure(user_id, Some(limit.minor())).await?;
    }
    let user = writer.user_by_id(user_id).await?;
    ctx.audit(
        &mut writer,
        "user.create",
        format!("user:{user_id}"),
        serde_json::json!({
            "user_name": user_name,
            "role": request.role.as_str(),
            "parent_id": parent_id,
            "parent_name": parent_name,
            "after": terms_json(&user),
        }),
    )
    .await?;
    writer.commit().await?;
    Ok(user)
}

/// The account `user_id` when the actor manages it ([`OperatorContext::require_manages`]).
/// An agent is told "No such account in your downline." whether the id is another branch's or
/// nobody's.
async fn managed_account(
    ctx: &OperatorContext<'_>,
    writer: &mut Writer,
    user_id: i64,
) -> Result<User, AppError> {
    let user = match writer.user_by_id(user_id).await {
        Err(StoreError::NotFound) if !ctx.is_admin() => return Err(super::not_in_downline()),
        found => found.or_not_found(|| format!("There is no user with id {user_id}."))?,
    };
    ctx.require_manages(writer, &user).await?;
    Ok(user)
}

/// A partnership as people write it: 4000 → "40%", 1250 → "12.5%".
fn percent(bp: u32) -> String {
    let whole = bp / 100;
    match bp % 100 {
        0 => format!("{whole}%"),
        rest if rest % 10 == 0 => format!("{whole}.{}%", rest / 10),
        rest => format!("{whole}.{rest:02}%"),
    }
}

/// The account's terms as the audit log records them (before and after a change).
fn terms_json(user: &User) -> serde_json::Value {
    serde_json::json!({
        "partnership": percent(user.partnership_bp),
        "credit_reference": Money::from_minor(user.credit_reference_minor),
        "is_bet_locked": user.is_bet_locked,
        "max_stake": user.max_stake_minor.map(Money::from_minor),
        "max_exposure": user.max_exposure_minor.map(Money::from_minor),
    })
}

/// Changes an account's terms (credit reference, bet-lock, stake and exposure limits): only the
/// ones given; each checked before any is written; audited with before and after.
pub async fn set_account_terms(
    ctx: &OperatorContext<'_>,
    user_id: i64,
    terms: &AccountTerms,
) -> Result<User, AppError> {
    let mut checks = Checks::default();
    terms.check(&mut checks);
    if *terms == AccountTerms::default() {
        checks.fail(
            "terms",
            "Send at least one of credit_reference, bet_locked, max_stake, max_exposure.",
        );
    }
    checks.finish()?;
    let mut writer = ctx.store.begin_write().await?;
    let user = managed_account(ctx, &mut writer, user_id).await?;
    writer
        .set_account_terms(
            user.id,
            terms.credit_reference.map_or(user.credit_reference_minor, Money::minor),
            terms.bet_locked.unwrap_or(user.is_bet_locked),
            terms.max_stake.map_or(user.max_stake_minor, |m| m.map(Money::minor)),
        )
        .await?;
    if let Some(limit) = terms.max_exposure {
        writer.set_max_exposure(user.id, limit.map(Money::minor)).await?;
    }
    let after = writer.user_by_id(user.id).await?;
    ctx.audit(
        &mut writer,
        "user.terms",
        format!("user:{}", user.id),
        serde_json::json!({ "user_name": user.user_name, "before": terms_json(&user), "after": terms_json(&after) }),
    )
    .await?;
    writer.commit().await?;
    Ok(after)
}

/// Gives a downline account a new password that it must change at its next log-in, and ends
/// its sessions.
pub async fn reset_password(
    ctx: &OperatorContext<'_>,
    passwords: &Passwords,
    user_id: i64,
    new_password: String,
) -> Result<User, AppError> {
    if let Some(problem) = password_rule_violation(&new_password) {
        return Err(AppError::field("password", problem));
    }
    // Checked before the hashing, in a transaction of its own: the write transaction below is
    // not held while the password is hashed.
    let mut check = ctx.store.begin_write().await?;
    let user = managed_account(ctx, &mut check, user_id).await?;
    drop(check);
    if let Actor::User(actor) = &ctx.actor {
        if actor.id == user.id {
            return Err(AppError::Conflict(
                "Change your own password on the change-password page.".into(),
            ));
        }
    }
    let password_hash = passwords.hash(new_password).await?;
    let mut writer = ctx.store.begin_write().await?;
    writer.set_password(user.id, &password_hash, true).await?;
    writer.revoke_user_sessions(user.id, -1, now_ms()).await?;
    ctx.audit(
        &mut writer,
        "user.password_reset",
        format!("user:{}", user.id),
        serde_json::json!({ "user_name": user.user_name }),
    )
    .await?;
    let user = writer.user_by_id(user.id).await?;
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
    // A client's own deposit limit and break from betting hold against its agent's chips too
    // (issue 33); an approved request was checked when it was made.
    if direction == TransferDirection::Deposit
        && writer.user_by_id(user_id).await?.role == Role::Client
    {
        crate::safer::check_deposit(&mut writer, user_id, amount.minor(), true, now_ms()).await?;
    }
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
    // Outside the downline: 404 as everywhere; inside it but not a child: why not.
    let user = managed_account(ctx, writer, user_id).await?;
    ctx.require_parent_of(&user)?;
    let parent_id = user.parent_id.ok_or_else(|| {
        AppError::Conflict(format!("{} has no parent to transfer chips with.", user.user_name))
    })?;
    let parent = writer.user_by_id(parent_id).await?;
    let user_account = writer.account_of_user(user.id).await?;
    let parent_account = writer.account_of_user(parent.id).await?;
    let (kind, debited, user_text, parent_text) = match direction {
        TransferDirection::Deposit => (
            TransactionKind::Deposit,
            &parent,
            format!("Deposit from {}", parent.user_name),
            format!("Deposit to {}", user.user_name),
        ),
        TransferDirection::Withdraw => (
            TransactionKind::Withdraw,
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
    let balance_after = |account_id| {
        Money::from_minor(
            posted.balance_after(account_id).expect("the transfer posted to this account"),
        )
    };
    let (user_after, parent_after) = (balance_after(user_account), balance_after(parent_account));
    let before_after = |after: Money, moved_minor: i64| serde_json::json!({ "before": Money::from_minor(after.minor() - moved_minor), "after": after });
    ctx.audit(
        writer,
        "chips.transfer",
        format!("user:{}", user.id),
        serde_json::json!({
            "direction": kind,
            "amount": amount,
            "user_name": user.user_name,
            "parent_id": parent.id,
            "parent_name": parent.user_name,
            "remark": remark.trim(),
            "user_balance": before_after(user_after, user_amount),
            "parent_balance": before_after(parent_after, parent_amount),
            "transaction_id": posted.transaction_id,
        }),
    )
    .await?;
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
                kind: TransactionKind::Mint,
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
        serde_json::json!({
            "user_name": admin.user_name,
            "amount": amount,
            "balance": {
                "before": Money::from_minor(posted.balance_after(admin_account).expect("the mint posted to the admin") - amount.minor()),
                "after": Money::from_minor(posted.balance_after(admin_account).expect("the mint posted to the admin")),
            },
            "transaction_id": posted.transaction_id,
        }),
    )
    .await?;
    writer.commit().await?;
    Ok(Money::from_minor(
        posted.balance_after(admin_account).expect("the mint posted to the admin"),
    ))
}

/// Locks or unlocks a user, and with it the branch below it (`backlay_store::branch_locks`):
/// locking ends the sessions of the user and of everyone below at once; unlocking gives each
/// account below the state it has on its own.
pub async fn set_locked(
    ctx: &OperatorContext<'_>,
    user_id: i64,
    locked: bool,
) -> Result<User, AppError> {
    let mut writer = ctx.store.begin_write().await?;
    let user = managed_account(ctx, &mut writer, user_id).await?;
    if let Actor::User(actor) = &ctx.actor {
        if actor.id == user.id {
            return Err(AppError::Conflict("You cannot lock yourself.".into()));
        }
    }
    writer.set_locked(user.id, locked).await?;
    let mut sessions_ended = 0;
    if locked {
        sessions_ended += writer.revoke_user_sessions(user.id, -1, now_ms()).await?;
        sessions_ended += writer.revoke_branch_sessions(user.id, now_ms()).await?;
    }
    ctx.audit(
        &mut writer,
        if locked { "user.lock" } else { "user.unlock" },
        format!("user:{}", user.id),
        serde_json::json!({
            "user_name": user.user_name,
            "before": { "is_locked": user.is_locked },
            "after": { "is_locked": locked },
            "sessions_ended": sessions_ended,
        }),
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
    let user = managed_account(ctx, &mut writer, user_id).await?;
    writer.set_max_exposure(user.id, limit.map(Money::minor)).await?;
    ctx.audit(
        &mut writer,
        "user.exposure_limit",
        format!("user:{}", user.id),
        serde_json::json!({
            "user_name": user.user_name,
            "before": { "max_exposure": user.max_exposure_minor.map(Money::from_minor) },
            "after": { "max_exposure": limit },
        }),
    )
    .await?;
    let user = writer.user_by_id(user.id).await?;
    writer.commit().await?;
    Ok(user)
}

#[cfg(test)]
mod tests {
    use super::{CreateUser, TransferDirection};
    use backlay_kit::error::AppError;
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
            partnership_bp: None,
            terms: Default::default(),
        };
        let printed = format!("{user:?}");
        assert!(!printed.contains("s3cret-pass"), "{printed}");
        assert!(printed.contains("demo"), "{printed}");
    }
}
