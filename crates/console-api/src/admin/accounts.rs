//! Accounts: creating them, listing them, moving chips to and from them, locking them and
//! setting their limits and terms, resetting their passwords.

use backlay_api::operator_context;

use axum::extract::State;
use backlay_core::money::Money;
use backlay_store::users::{Role, User, UserWithBalance};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ok_with, ApiResult, Envelope};
use backlay_kit::input::{
    present, AmountInput, ApiJson, FlexBool, FlexI64, Paged, Paging, PercentInput,
};
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{self as operator, AccountTerms, CreateUser, TransferDirection};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_user))
        .routes(routes!(list_users))
        .routes(routes!(transfer))
        .routes(routes!(lock))
        .routes(routes!(exposure_limit))
        .routes(routes!(account_terms))
        .routes(routes!(reset_password))
}

#[derive(Serialize, ToSchema)]
pub struct UserSummary {
    pub user_id: i64,
    pub user_name: String,
    pub role: Role,
    /// -1 when the user has no parent.
    pub parent_id: i64,
    pub is_locked: i64,
    pub is_change_password: i64,
    pub created_at: String,
    /// An agent's partnership in percent (40 = 40%), cumulative from the bottom; 0 otherwise.
    pub partnership: f64,
    /// What the parent says the account owes or is owed (not money).
    #[schema(value_type = f64)]
    pub credit_reference: Money,
    /// 1 when the account can log in but not bet.
    pub is_bet_locked: i64,
    /// The largest stake of one bet; null: no cap but each market's.
    #[schema(value_type = Option<f64>, required = true)]
    pub max_stake: Option<Money>,
    /// The most exposure across markets; null: no limit.
    #[schema(value_type = Option<f64>, required = true)]
    pub max_exposure: Option<Money>,
    /// When the account last logged in; null: never.
    #[schema(required = true)]
    pub last_login: Option<String>,
}

impl From<&User> for UserSummary {
    fn from(user: &User) -> UserSummary {
        UserSummary {
            user_id: user.id,
            user_name: user.user_name.clone(),
            role: user.role,
            parent_id: user.parent_id.unwrap_or(-1),
            is_locked: i64::from(user.is_locked),
            is_change_password: i64::from(user.is_change_password),
            created_at: iso_utc(user.created_at_ms),
            partnership: f64::from(user.partnership_bp) / 100.0,
            credit_reference: Money::from_minor(user.credit_reference_minor),
            is_bet_locked: i64::from(user.is_bet_locked),
            max_stake: user.max_stake_minor.map(Money::from_minor),
            max_exposure: user.max_exposure_minor.map(Money::from_minor),
            last_login: user.last_login_at_ms.map(iso_utc),
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct CreateUserRequest {
    pub user_name: String,
    /// A first password; the user must change it at first log-in.
    pub password: String,
    /// "agent" or "client".
    #[schema(value_type = String, pattern = "^(agent|client)$")]
    pub role: Role,
    /// Admins may place the user under another agent; agents always create under themselves.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub parent_id: Option<FlexI64>,
    /// An agent's partnership in percent (0 to 100, at most its parent agent's); fixed once
    /// the agent exists.
    #[serde(default)]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 100, multiple_of = 0.01)]
    pub partnership: Option<PercentInput>,
    /// The account's first terms (credit reference, bet-lock, stake cap, exposure limit).
    #[serde(default)]
    pub terms: TermsInput,
}

/// An account's terms as requests send them (an object of its own: the money fields' exact
/// parsing does not survive serde's `flatten`): each absent one is left as it is; null removes
/// a stake cap or an exposure limit.
#[derive(Deserialize, ToSchema, Default)]
pub struct TermsInput {
    /// What the parent says the account owes or is owed (not money), ≥ 0.
    #[serde(default)]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub credit_reference: Option<AmountInput>,
    /// 1: the account can log in but not bet.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub bet_locked: Option<FlexBool>,
    /// The largest stake of one bet; null removes the cap.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub max_stake: Option<Option<AmountInput>>,
    /// The most exposure across markets; null removes the limit.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub max_exposure: Option<Option<AmountInput>>,
}

impl From<&TermsInput> for AccountTerms {
    fn from(input: &TermsInput) -> AccountTerms {
        AccountTerms {
            credit_reference: input.credit_reference.map(|m| m.0),
            bet_locked: input.bet_locked.map(|b| b.0),
            max_stake: input.max_stake.map(|m| m.map(|m| m.0)),
            max_exposure: input.max_exposure.map(|m| m.map(|m| m.0)),
        }
    }
}

#[utoipa::path(post, path = "/admin/user/create", tag = "admin", request_body = CreateUserRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<UserSummary>), (status = 400), (status = 403), (status = 409, description = "Name taken"),
        (status = 422, description = "An admin is asked for: admins are created from the console"),
        (status = 503, description = "The server is busy hashing other passwords: try again after Retry-After")))]
async fn create_user(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CreateUserRequest>,
) -> ApiResult<UserSummary> {
    let ctx = operator_context(&state, operator, ip);
    let mut request = CreateUser::parse(
        &body.user_name,
        body.password,
        body.role,
        body.parent_id.map(|p| p.0),
        true,
    )?;
    request.partnership_bp = body.partnership.map(|p| p.0);
    request.terms = AccountTerms::from(&body.terms);
    let user = operator::create_user(&ctx, &state.passwords, request).await?;
    Ok(ok_with(format!("{} created.", user.user_name), UserSummary::from(&user)))
}

#[derive(Deserialize, ToSchema, Default)]
pub struct ListUsersRequest {
    /// Only this parent's children (agents always see only their own).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub parent_id: Option<FlexI64>,
}

#[derive(Serialize, ToSchema)]
pub struct UserRow {
    #[serde(flatten)]
    pub user: UserSummary,
    #[schema(value_type = f64)]
    pub balance: Money,
    #[schema(value_type = f64)]
    pub exposure: Money,
}

impl From<&UserWithBalance> for UserRow {
    fn from(row: &UserWithBalance) -> UserRow {
        UserRow {
            user: UserSummary::from(&row.user),
            balance: Money::from_minor(row.balance_minor),
            exposure: Money::from_minor(row.exposure_minor),
        }
    }
}

#[utoipa::path(post, path = "/admin/user/list", tag = "admin", request_body = Paging<ListUsersRequest>, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Paged<UserRow>>), (status = 403)))]
async fn list_users(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Paging { request: body, page }: Paging<ListUsersRequest>,
) -> ApiResult<Paged<UserRow>> {
    let (page, limit, offset) = page.resolve()?;
    let parent_id = match authed.user.role {
        Role::Admin => body.parent_id.map(|p| p.0),
        _ => Some(authed.user.id),
    };
    let (rows, total) = state.store.list_users(parent_id, offset, limit).await?;
    Ok(ok(Paged { rows: rows.iter().map(UserRow::from).collect(), total, page, limit }))
}

#[derive(Deserialize, ToSchema)]
pub struct TransferRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    /// More than 0, at most 2 decimals.
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub amount: AmountInput,
    /// "deposit" (parent → user) or "withdraw" (user → parent).
    pub direction: TransferDirection,
    #[serde(default)]
    pub remark: String,
}

#[derive(Serialize, ToSchema)]
pub struct TransferData {
    pub transaction_id: i64,
    #[schema(value_type = f64)]
    pub user_balance: Money,
    #[schema(value_type = f64)]
    pub parent_balance: Money,
}

#[utoipa::path(post, path = "/admin/user/transfer", tag = "admin", request_body = TransferRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<TransferData>), (status = 400), (status = 403), (status = 404),
        (status = 409, description = "The user has no parent to transfer chips with"), (status = 422, description = "Insufficient funds")))]
async fn transfer(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<TransferRequest>,
) -> ApiResult<TransferData> {
    let ctx = operator_context(&state, operator, ip);
    let outcome =
        operator::transfer(&ctx, body.user_id.0, body.amount.0, body.direction, &body.remark)
            .await?;
    Ok(ok_with(
        "Transfer done.",
        TransferData {
            transaction_id: outcome.transaction_id,
            user_balance: outcome.user_balance,
            parent_balance: outcome.parent_balance,
        },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct LockRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    /// 1 to lock (ends the user's sessions), 0 to unlock.
    #[schema(value_type = i64, minimum = 0, maximum = 1)]
    pub locked: FlexBool,
}

#[utoipa::path(post, path = "/admin/user/lock", tag = "admin", request_body = LockRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<UserSummary>), (status = 403), (status = 404),
        (status = 409, description = "An operator locking their own account")))]
async fn lock(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<LockRequest>,
) -> ApiResult<UserSummary> {
    let ctx = operator_context(&state, operator, ip);
    let user = operator::set_locked(&ctx, body.user_id.0, body.locked.0).await?;
    let message = if user.is_locked {
        format!("{} is locked.", user.user_name)
    } else {
        format!("{} is unlocked.", user.user_name)
    };
    Ok(ok_with(message, UserSummary::from(&user)))
}

#[derive(Deserialize, ToSchema)]
pub struct ExposureLimitRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    /// The most exposure the user may hold across markets; null or absent removes the limit.
    #[serde(default)]
    #[schema(value_type = Option<f64>, minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub max_exposure: Option<AmountInput>,
}

#[utoipa::path(post, path = "/admin/user/exposureLimit", tag = "admin", request_body = ExposureLimitRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<UserSummary>), (status = 400), (status = 403), (status = 404)))]
async fn exposure_limit(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<ExposureLimitRequest>,
) -> ApiResult<UserSummary> {
    let ctx = operator_context(&state, operator, ip);
    let limit = body.max_exposure.map(|m| m.0);
    let user = operator::set_exposure_limit(&ctx, body.user_id.0, limit).await?;
    let message = match limit {
        Some(limit) => format!("{}'s exposure limit is {}.", user.user_name, limit.rupees()),
        None => format!("{} has no exposure limit.", user.user_name),
    };
    Ok(ok_with(message, UserSummary::from(&user)))
}

#[derive(Deserialize, ToSchema)]
pub struct TermsRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    pub terms: TermsInput,
}

/// Changes a downline account's credit reference, bet-lock, stake cap or exposure limit (only
/// the fields sent), audited with before and after.
#[utoipa::path(post, path = "/admin/user/terms", tag = "admin", request_body = TermsRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<UserSummary>), (status = 400), (status = 403), (status = 404)))]
async fn account_terms(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<TermsRequest>,
) -> ApiResult<UserSummary> {
    let ctx = operator_context(&state, operator, ip);
    let user =
        operator::set_account_terms(&ctx, body.user_id.0, &AccountTerms::from(&body.terms)).await?;
    Ok(ok_with(format!("{}'s terms are saved.", user.user_name), UserSummary::from(&user)))
}

#[derive(Deserialize, ToSchema)]
pub struct ResetPasswordRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
    /// The new password, which the user must change at its next log-in.
    pub password: String,
}

/// Gives a downline account a new password to change at its next log-in; ends its sessions.
#[utoipa::path(post, path = "/admin/user/resetPassword", tag = "admin", request_body = ResetPasswordRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<UserSummary>), (status = 400), (status = 403), (status = 404), (status = 409),
        (status = 503, description = "The server is busy hashing other passwords: try again after Retry-After")))]
async fn reset_password(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<ResetPasswordRequest>,
) -> ApiResult<UserSummary> {
    let ctx = operator_context(&state, operator, ip);
    let user =
        operator::reset_password(&ctx, &state.passwords, body.user_id.0, body.password).await?;
    Ok(ok_with(
        format!(
            "{}'s password is reset: they choose a new one at their next log-in.",
            user.user_name
        ),
        UserSummary::from(&user),
    ))
}
