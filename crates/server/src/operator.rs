//! Operator actions, shared by the HTTP API (`/api/admin/…`) and the `backlay admin` command so
//! that each rule is written once.
//!
//! Who may do what:
//! - the console (`backlay admin …`, someone with the database) and an admin may do everything;
//! - an agent may create clients under themselves, and transfer chips to and from, or lock,
//!   only their own clients;
//! - a client is no operator (the API refuses them before reaching this module).
//!
//! Chips move between a user and their parent only: a deposit debits the parent and credits the
//! child, a withdrawal the reverse; neither side may go below zero. New chips enter through
//! [`mint`] (admin only), which debits the `issuance` account.

use backlay_core::money::Money;
use backlay_store::audit::NewAuditEntry;
use backlay_store::catalogue::{NewMatch, NewSeries, Sport};
use backlay_store::ledger::{NewTransaction, Posting, SystemAccount};
use backlay_store::providers::{NewCasinoProvider, NewWorldCasinoGame, WORLD_CASINO_CATEGORIES};
use backlay_store::users::{NewUser, Role, User};
use backlay_store::{Store, StoreError, Writer};

use crate::clock::now_ms;
use crate::engine::Engine;
use crate::error::{AppError, OrNotFound};
use crate::input::Checks;
use crate::password::{password_rule_violation, Passwords};
use crate::user_name::user_name_rule_violation;

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

    fn require_admin(&self, what: &str) -> Result<(), AppError> {
        if self.is_admin() {
            Ok(())
        } else {
            Err(AppError::Forbidden(format!("Only an admin can {what}.")))
        }
    }

    /// An admin manages everyone; an agent only their own clients.
    fn require_manages(&self, target: &User) -> Result<(), AppError> {
        match &self.actor {
            Actor::Console => Ok(()),
            Actor::User(user) if user.role == Role::Admin => Ok(()),
            Actor::User(user) if target.parent_id == Some(user.id) => Ok(()),
            Actor::User(_) => Err(AppError::Forbidden(format!(
                "{} is not one of your clients.",
                target.user_name
            ))),
        }
    }

    async fn audit(
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

/// A user to create.
#[derive(Clone, Debug)]
pub struct CreateUser {
    pub user_name: String,
    pub password: String,
    pub role: Role,
    /// Parent; defaults to the acting admin or agent. Ignored for an agent actor (always self).
    pub parent_id: Option<i64>,
    /// True for users a parent creates (they must choose their own password); the demo and the
    /// console may create users who need not.
    pub must_change_password: bool,
}

/// Creates a user; the password is hashed by the caller's bounded hasher (the server's, or the
/// console's own).
pub async fn create_user(
    ctx: &OperatorContext<'_>,
    passwords: &Passwords,
    request: CreateUser,
) -> Result<User, AppError> {
    let mut checks = Checks::default();
    let user_name = request.user_name.trim().to_string();
    if let Some(problem) = user_name_rule_violation(&user_name) {
        checks.fail("user_name", problem);
    }
    if let Some(problem) = password_rule_violation(&request.password) {
        checks.fail("password", problem);
    }
    checks.finish()?;

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

#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TransferDirection {
    /// Parent → child.
    Deposit,
    /// Child → parent.
    Withdraw,
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
    ctx.require_manages(&user)?;
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
                Money::from_minor(available_minor)
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
    ctx.require_manages(&user)?;
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
    ctx.require_manages(&user)?;
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

/// Sets site settings; every key is checked before any is written.
pub async fn update_settings(
    ctx: &OperatorContext<'_>,
    changes: &[(String, String)],
) -> Result<(), AppError> {
    ctx.require_admin("change site settings")?;
    if changes.is_empty() {
        return Err(AppError::invalid("Send at least one setting to change."));
    }
    let mut checks = Checks::default();
    let mut valid = Vec::new();
    for (key, value) in changes {
        match crate::settings::validate(key, value) {
            Ok(value) => valid.push((key.clone(), value)),
            Err(problem) => checks.fail(key, problem),
        }
    }
    checks.finish()?;
    let mut writer = ctx.store.begin_write().await?;
    let now = now_ms();
    for (key, value) in &valid {
        writer.set_setting(key, value, now).await?;
    }
    let detail: serde_json::Map<String, serde_json::Value> =
        valid.iter().map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone()))).collect();
    ctx.audit(&mut writer, "settings.update", "global_settings".into(), detail.into()).await?;
    writer.commit().await?;
    Ok(())
}

pub const CATALOGUE_NAME_MAX_CHARS: usize = 100;

fn catalogue_name(field: &str, label: &str, name: &str) -> Result<String, AppError> {
    let mut checks = Checks::default();
    let name = crate::input::text_field(&mut checks, field, label, name, CATALOGUE_NAME_MAX_CHARS);
    checks.finish()?;
    Ok(name)
}

pub async fn create_sport(
    ctx: &OperatorContext<'_>,
    sport_id: i64,
    name: &str,
    display_order: i64,
    is_active: bool,
) -> Result<Sport, AppError> {
    ctx.require_admin("create sports")?;
    let sport = Sport {
        sport_id,
        name: catalogue_name("name", "Sport name", name)?,
        is_active,
        display_order,
    };
    let mut writer = ctx.store.begin_write().await?;
    writer.insert_sport(&sport).await?;
    ctx.audit(
        &mut writer,
        "sport.create",
        format!("sport:{sport_id}"),
        serde_json::json!({ "name": sport.name }),
    )
    .await?;
    writer.commit().await?;
    Ok(sport)
}

pub async fn create_series(
    ctx: &OperatorContext<'_>,
    sport_id: i64,
    name: &str,
    is_featured: bool,
) -> Result<i64, AppError> {
    ctx.require_admin("create series")?;
    let name = catalogue_name("name", "Series name", name)?;
    let mut writer = ctx.store.begin_write().await?;
    let series_id = writer
        .insert_series(&NewSeries { sport_id, name: &name, is_featured }, now_ms())
        .await
        .or_not_found(|| format!("There is no sport with id {sport_id}."))?;
    ctx.audit(
        &mut writer,
        "series.create",
        format!("series:{series_id}"),
        serde_json::json!({ "name": name, "sport_id": sport_id }),
    )
    .await?;
    writer.commit().await?;
    Ok(series_id)
}

/// A match to create; `open_date_ms` is the scheduled start.
#[derive(Clone, Debug)]
pub struct CreateMatch {
    pub series_id: i64,
    pub name: String,
    pub open_date_ms: i64,
    pub in_play: bool,
    pub venue: Option<String>,
    pub country_code: Option<String>,
}

pub async fn create_match(
    ctx: &OperatorContext<'_>,
    request: CreateMatch,
) -> Result<i64, AppError> {
    ctx.require_admin("create matches")?;
    let name = catalogue_name("name", "Match name", &request.name)?;
    let mut writer = ctx.store.begin_write().await?;
    let match_id = writer
        .insert_match(
            &NewMatch {
                series_id: request.series_id,
                name: &name,
                open_date_ms: request.open_date_ms,
                in_play: request.in_play,
                venue: request.venue.as_deref(),
                country_code: request.country_code.as_deref(),
            },
            now_ms(),
        )
        .await
        .or_not_found(|| format!("There is no series with id {}.", request.series_id))?;
    ctx.audit(
        &mut writer,
        "match.create",
        format!("match:{match_id}"),
        serde_json::json!({ "name": name, "series_id": request.series_id }),
    )
    .await?;
    writer.commit().await?;
    Ok(match_id)
}

/// Turns a match in play (its markets' LAPSE orders lapse and their bet delay starts) or
/// back out of play.
pub async fn set_match_in_play(
    ctx: &OperatorContext<'_>,
    engine: &Engine,
    match_id: i64,
    in_play: bool,
) -> Result<(), AppError> {
    ctx.require_admin("turn matches in play")?;
    let mut writer = ctx.store.begin_write().await?;
    writer
        .set_match_in_play(match_id, in_play)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    ctx.audit(
        &mut writer,
        "match.in_play",
        format!("match:{match_id}"),
        serde_json::json!({ "in_play": in_play }),
    )
    .await?;
    writer.commit().await?;
    for market in ctx.store.markets_of_match(match_id).await? {
        engine.set_in_play(market.market_id, in_play).await?;
    }
    Ok(())
}

/// A market to create (checked by the caller's parsing; the store checks the match exists).
#[derive(Clone, Debug)]
pub struct CreateMarket {
    pub match_id: i64,
    /// match_odds, bookmaker, fancy, win or place.
    pub market_type: String,
    pub name: String,
    pub runners: Vec<String>,
    pub bet_delay_ms: i64,
    pub min_stake_minor: i64,
    pub max_stake_minor: i64,
    pub commission_bp: i64,
    pub winners: i64,
}

/// Creates a market (suspended) and starts its engine task; returns its id and runner ids.
pub async fn create_market(
    ctx: &OperatorContext<'_>,
    engine: &Engine,
    request: CreateMarket,
) -> Result<(i64, Vec<i64>), AppError> {
    ctx.require_admin("create markets")?;
    let now = now_ms();
    let mut writer = ctx.store.begin_write().await?;
    let market_id = writer
        .insert_market(
            &backlay_store::markets::NewMarket {
                match_id: request.match_id,
                market_type: &request.market_type,
                name: &request.name,
                bet_delay_ms: request.bet_delay_ms,
                min_stake_minor: request.min_stake_minor,
                max_stake_minor: request.max_stake_minor,
                commission_bp: request.commission_bp,
                winners: request.winners,
                runners: &request.runners,
            },
            now,
        )
        .await
        .or_not_found(|| format!("There is no match with id {}.", request.match_id))?;
    ctx.audit(
        &mut writer,
        "market.create",
        format!("market:{market_id}"),
        serde_json::json!({ "type": request.market_type, "name": request.name, "match_id": request.match_id }),
    )
    .await?;
    let market = writer.market(market_id).await?;
    writer.commit().await?;
    engine.spawn(market_id).await?;
    Ok((market_id, market.runners.iter().map(|r| r.runner_id).collect()))
}

// ---------------------------------------------------------------------------------------------
// Game providers and the world-casino catalogue (docs/wallet.md, docs/operating.md)

/// An outside game provider to add.
#[derive(Clone, Debug)]
pub struct AddProvider {
    /// What it signs wallet calls as: 1–32 lower-case letters, digits, `-` or `_`.
    pub code: String,
    pub name: String,
    /// Where its games launch: an origin (https, or http on localhost) and an optional path,
    /// no query; gap/gaplogin adds `token` and `game`.
    pub launch_url: String,
}

fn provider_code(checks: &mut Checks, field: &str, code: &str) -> String {
    let code = code.trim();
    let ok = (1..=32).contains(&code.len())
        && code
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !ok {
        checks.fail(
            field,
            "A provider code is 1–32 lower-case letters, digits, '-' or '_', e.g. evo.",
        );
    }
    code.to_string()
}

/// `https://games.example.com/launch`: an allowed frame origin plus a plain path.
fn launch_url(checks: &mut Checks, url: &str) -> String {
    let url = url.trim();
    let after_scheme = url.split_once("://").map_or(0, |(scheme, _)| scheme.len() + 3);
    let (origin, path) =
        url.split_at(url[after_scheme..].find('/').map_or(url.len(), |i| after_scheme + i));
    let path_ok =
        path.len() <= 200 && path.bytes().all(|b| b.is_ascii_graphic() && b != b'?' && b != b'#');
    if !crate::settings::is_origin(&origin.to_lowercase()) || !path_ok {
        checks.fail("launch_url", "The launch URL is an https address with an optional path and no query, e.g. https://games.example.com/launch.");
    }
    url.to_string()
}

/// Adds an outside provider and answers its id and signing secret, which is shown only now.
/// Its games are framed only once its origin is in the `casino_frame_origins` setting.
pub async fn add_casino_provider(
    ctx: &OperatorContext<'_>,
    provider: AddProvider,
) -> Result<(i64, String), AppError> {
    ctx.require_admin("add game providers")?;
    let mut checks = Checks::default();
    let code = provider_code(&mut checks, "code", &provider.code);
    let name = crate::input::text_field(
        &mut checks,
        "name",
        "The provider's name",
        &provider.name,
        CATALOGUE_NAME_MAX_CHARS,
    );
    let launch_url = launch_url(&mut checks, &provider.launch_url);
    checks.finish()?;
    let secret = crate::provider::new_secret();
    let mut writer = ctx.store.begin_write().await?;
    let id = writer
        .insert_casino_provider(
            &NewCasinoProvider {
                code: &code,
                name: &name,
                hmac_secret: &secret,
                launch_url: Some(&launch_url),
                is_active: true,
            },
            now_ms(),
        )
        .await?;
    ctx.audit(
        &mut writer,
        "provider.add",
        format!("provider/{code}"),
        serde_json::json!({ "name": name, "launch_url": launch_url }),
    )
    .await?;
    writer.commit().await?;
    Ok((id, secret))
}

/// Gives an outside provider a new signing secret (answered, shown only now); calls signed
/// with the old one are refused from this moment.
pub async fn rotate_provider_secret(
    ctx: &OperatorContext<'_>,
    code: &str,
) -> Result<String, AppError> {
    ctx.require_admin("change a provider's secret")?;
    let secret = crate::provider::new_secret();
    let mut writer = ctx.store.begin_write().await?;
    writer.set_casino_provider_secret(code.trim(), &secret).await.or_not_found(|| {
        format!(
            "There is no outside provider {code}; the built-in provider's secret is made at start."
        )
    })?;
    ctx.audit(
        &mut writer,
        "provider.rotate_secret",
        format!("provider/{}", code.trim()),
        serde_json::Value::Null,
    )
    .await?;
    writer.commit().await?;
    Ok(secret)
}

/// A game to list in the world-casino catalogue.
#[derive(Clone, Debug)]
pub struct AddWorldCasinoGame {
    pub provider_code: String,
    /// The provider's own code for the game (sent to it at launch).
    pub game_code: String,
    pub game_name: String,
    /// One of the spec's categories ([`WORLD_CASINO_CATEGORIES`]).
    pub category: String,
    pub sub_provider_name: String,
    pub url_thumb: String,
}

/// Lists a provider's game in the catalogue; answers its public id (`<provider>-<game code>`).
pub async fn add_world_casino_game(
    ctx: &OperatorContext<'_>,
    game: AddWorldCasinoGame,
) -> Result<String, AppError> {
    ctx.require_admin("change the world-casino catalogue")?;
    let mut checks = Checks::default();
    let provider_code = provider_code(&mut checks, "provider", &game.provider_code);
    let game_code =
        crate::input::text_field(&mut checks, "game_code", "The game's code", &game.game_code, 64);
    if game_code.chars().any(|c| !c.is_ascii_graphic()) {
        checks.fail("game_code", "The game's code is visible ASCII without spaces.");
    }
    let game_name = crate::input::text_field(
        &mut checks,
        "game_name",
        "The game's name",
        &game.game_name,
        CATALOGUE_NAME_MAX_CHARS,
    );
    let category = game.category.trim();
    if !WORLD_CASINO_CATEGORIES.contains(&category) {
        checks.fail(
            "category",
            format!("The category is one of {}.", WORLD_CASINO_CATEGORIES.join(", ")),
        );
    }
    let sub_provider_name = game.sub_provider_name.trim();
    if sub_provider_name.chars().count() > CATALOGUE_NAME_MAX_CHARS {
        checks.fail(
            "sub_provider_name",
            format!(
                "The sub-provider's name must be at most {CATALOGUE_NAME_MAX_CHARS} characters."
            ),
        );
    }
    let url_thumb = game.url_thumb.trim();
    let thumb_ok = url_thumb.starts_with("https://")
        && url_thumb.len() <= 300
        && url_thumb.bytes().all(|b| b.is_ascii_graphic());
    if !url_thumb.is_empty() && !thumb_ok {
        checks.fail("url_thumb", "The thumbnail is an https address, or empty.");
    }
    checks.finish()?;
    let provider = ctx.store.casino_provider_by_code(&provider_code).await?.ok_or_else(|| {
        AppError::field("provider", format!("There is no provider {provider_code}."))
    })?;
    let game_id = format!("{provider_code}-{game_code}");
    let order = i64::try_from(ctx.store.world_casino_games().await?.len()).unwrap_or(i64::MAX);
    let mut writer = ctx.store.begin_write().await?;
    let added = writer
        .add_world_casino_game(&NewWorldCasinoGame {
            game_id: &game_id,
            provider_id: provider.id,
            game_code: &game_code,
            game_name: &game_name,
            category,
            sub_provider_name,
            sub_type: None,
            url_thumb,
            display_order: order,
        })
        .await?;
    if !added {
        return Err(AppError::Conflict(format!(
            "{provider_code} already lists a game {game_code} ({game_id})."
        )));
    }
    ctx.audit(
        &mut writer,
        "world_casino.add_game",
        format!("world_casino/{game_id}"),
        serde_json::json!({ "name": game_name, "category": category }),
    )
    .await?;
    writer.commit().await?;
    Ok(game_id)
}

/// Switches a catalogue game on or off: off, it shows with an empty status and cannot launch.
pub async fn set_world_casino_game_active(
    ctx: &OperatorContext<'_>,
    game_id: &str,
    active: bool,
) -> Result<(), AppError> {
    ctx.require_admin("change the world-casino catalogue")?;
    let mut writer = ctx.store.begin_write().await?;
    writer
        .set_world_casino_game_active(game_id.trim(), active)
        .await
        .or_not_found(|| format!("There is no world-casino game {}.", game_id.trim()))?;
    ctx.audit(
        &mut writer,
        "world_casino.set_active",
        format!("world_casino/{}", game_id.trim()),
        serde_json::json!({ "active": active }),
    )
    .await?;
    writer.commit().await?;
    Ok(())
}
