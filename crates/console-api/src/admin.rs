//! Operator calls under `/api/admin/…` (role admin; agents only over their own clients). Each
//! handler parses its body and hands over to [`backlay_operator`], which holds the rules and is
//! shared with the `backlay admin` command.

use backlay_api::operator_context;
use std::collections::BTreeMap;

use axum::extract::State;
use axum::response::Response;
use backlay_core::money::Money;
use backlay_core::score::ScoreInput;
use backlay_store::audit::{AuditFilter, AuditListed};
use backlay_store::users::{Role, User, UserWithBalance};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_api::export::{list_answer, Cell, CsvRow, Downloadable};
use backlay_kit::clock::{iso_utc, parse_iso};
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{
    date_range, present, AmountInput, ApiJson, FlexBool, FlexI64, PageRequest, Paged, Paging,
    PercentInput,
};
use backlay_kit::settings::default_buttons;
use backlay_kit::stake_buttons::StakeButton;
use backlay_live::LiveScore;
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{
    self as operator, AccountTerms, CreateMatch, CreateUser, MatchStateUpdate, TransferDirection,
};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(create_user))
        .routes(routes!(list_users))
        .routes(routes!(transfer))
        .routes(routes!(lock))
        .routes(routes!(exposure_limit))
        .routes(routes!(account_terms))
        .routes(routes!(reset_password))
        .routes(routes!(engine_stats))
        .routes(routes!(mint))
        .routes(routes!(settings, read_settings))
        .routes(routes!(create_sport))
        .routes(routes!(create_series))
        .routes(routes!(create_match))
        .routes(routes!(match_in_play))
        .routes(routes!(match_score))
        .routes(routes!(ledger_check))
        .routes(routes!(audit_log))
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

#[derive(Serialize, ToSchema)]
pub struct EngineStatsData {
    /// Placement transactions committed since the server started.
    pub commits: u64,
    /// Bets placed in them (bets per commit = bets / commits).
    pub bets: u64,
}

/// The engine's counters since start (admin only).
#[utoipa::path(get, path = "/admin/engine/stats", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<EngineStatsData>), (status = 403)))]
async fn engine_stats(
    State(state): State<AppState>,
    Operator(authed): Operator,
) -> ApiResult<EngineStatsData> {
    if authed.user.role != Role::Admin {
        return Err(AppError::Forbidden("Only an admin can read the engine's counters.".into()));
    }
    let (commits, bets) = state.engine.stats.snapshot();
    Ok(ok(EngineStatsData { commits, bets }))
}

#[derive(Deserialize, ToSchema)]
pub struct MintRequest {
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub amount: AmountInput,
}

#[derive(Serialize, ToSchema)]
pub struct MintData {
    #[schema(value_type = f64)]
    pub balance: Money,
}

/// Issues new chips to the calling admin.
#[utoipa::path(post, path = "/admin/chips/mint", tag = "admin", request_body = MintRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<MintData>), (status = 400), (status = 403)))]
async fn mint(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<MintRequest>,
) -> ApiResult<MintData> {
    let admin_id = operator.0.user.id;
    let ctx = operator_context(&state, operator, ip);
    let balance = operator::mint(&ctx, admin_id, body.amount.0).await?;
    Ok(ok_with("Chips issued.", MintData { balance }))
}

/// Every setting with its value, its default if never set: what `admin/settings` changes.
#[derive(Serialize, ToSchema)]
pub struct SiteSettings {
    pub site_title: String,
    pub site_message: String,
    pub logo: String,
    pub favicon: String,
    pub payment_gateway: i64,
    pub is_show_apk: i64,
    /// Where the client app's "Download the app" link leads; empty: no link.
    pub apk_url: String,
    pub bg_primary_color: String,
    pub bg_secondry_color: String,
    pub text_primary_color: String,
    pub text_secondry_color: String,
    pub other_color: String,
    /// The operator's own list, comma-separated (the public setting adds the server's origin).
    pub casino_frame_origins: String,
    /// 1: visitors may sign up (as clients of `default_parent`).
    pub signup_enabled: i64,
    /// The agent or admin sign-ups are placed under; empty: none.
    pub default_parent: String,
    /// How many levels of agents may stand between the operator and a client (1 to 8).
    pub agent_levels: i64,
    /// The bet slip's stake buttons of a user who never set their own.
    pub default_buttons_game: Vec<StakeButton>,
    /// The casino tables' stake buttons of a user who never set their own.
    pub default_buttons_casino: Vec<StakeButton>,
}

impl SiteSettings {
    fn from_settings(settings: &BTreeMap<String, String>) -> SiteSettings {
        let text = |key: &str| settings.get(key).cloned().unwrap_or_default();
        let number = |key: &str| settings.get(key).and_then(|v| v.parse().ok()).unwrap_or(0);
        SiteSettings {
            site_title: text("site_title"),
            site_message: text("site_message"),
            logo: text("logo"),
            favicon: text("favicon"),
            payment_gateway: number("payment_gateway"),
            is_show_apk: number("is_show_apk"),
            apk_url: text("apk_url"),
            bg_primary_color: text("bg_primary_color"),
            bg_secondry_color: text("bg_secondry_color"),
            text_primary_color: text("text_primary_color"),
            text_secondry_color: text("text_secondry_color"),
            other_color: text("other_color"),
            casino_frame_origins: text("casino_frame_origins"),
            signup_enabled: number("signup_enabled"),
            default_parent: text("default_parent"),
            agent_levels: number("agent_levels"),
            default_buttons_game: default_buttons(settings, "Game"),
            default_buttons_casino: default_buttons(settings, "Casino"),
        }
    }
}

#[utoipa::path(get, path = "/admin/settings", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<SiteSettings>), (status = 401), (status = 403)))]
async fn read_settings(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
) -> ApiResult<SiteSettings> {
    let ctx = operator_context(&state, operator, ip);
    let settings = operator::read_settings(&ctx).await?;
    Ok(ok(SiteSettings::from_settings(&settings)))
}

/// Any key `GET admin/settings` answers, each checked; only the keys sent change. A list of
/// stake buttons goes as a list (`[{"button_name": "1k", "button_value": 1000}]`); its
/// problems come back per button (`default_buttons_game[2].button_value`).
#[utoipa::path(post, path = "/admin/settings", tag = "admin", request_body(content = Object, description = "key → value"), security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403)))]
async fn settings(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<BTreeMap<String, serde_json::Value>>,
) -> ApiResult<Option<String>> {
    let ctx = operator_context(&state, operator, ip);
    let mut changes = Vec::new();
    for (key, value) in body {
        let text = match value {
            serde_json::Value::String(text) => text,
            serde_json::Value::Number(number) => number.to_string(),
            serde_json::Value::Bool(flag) => i64::from(flag).to_string(),
            list @ serde_json::Value::Array(_) => list.to_string(),
            _ => return Err(AppError::field(&key, format!("{key} must be text or a number."))),
        };
        changes.push((key, text));
    }
    operator::update_settings(&ctx, &changes).await?;
    Ok(ok_with("Settings saved.", None))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateSportRequest {
    #[schema(value_type = i64)]
    pub sport_id: FlexI64,
    pub name: String,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub order: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub is_active: Option<FlexBool>,
}

#[derive(Serialize, ToSchema)]
pub struct CreatedId {
    pub id: i64,
}

#[utoipa::path(post, path = "/admin/sport/create", tag = "admin", request_body = CreateSportRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CreatedId>), (status = 400), (status = 403), (status = 409)))]
async fn create_sport(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CreateSportRequest>,
) -> ApiResult<CreatedId> {
    let ctx = operator_context(&state, operator, ip);
    let sport = operator::create_sport(
        &ctx,
        body.sport_id.0,
        &body.name,
        body.order.map_or(100, |o| o.0),
        body.is_active.is_none_or(|a| a.0),
    )
    .await?;
    Ok(ok_with(format!("{} created.", sport.name), CreatedId { id: sport.sport_id }))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateSeriesRequest {
    #[schema(value_type = i64)]
    pub sport_id: FlexI64,
    pub name: String,
    /// 1: listed in the cups menu.
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub is_featured: Option<FlexBool>,
}

#[utoipa::path(post, path = "/admin/series/create", tag = "admin", request_body = CreateSeriesRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CreatedId>), (status = 400), (status = 403), (status = 404)))]
async fn create_series(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CreateSeriesRequest>,
) -> ApiResult<CreatedId> {
    let ctx = operator_context(&state, operator, ip);
    let id = operator::create_series(
        &ctx,
        body.sport_id.0,
        &body.name,
        body.is_featured.is_some_and(|f| f.0),
    )
    .await?;
    Ok(ok_with("Series created.", CreatedId { id }))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateMatchRequest {
    #[schema(value_type = i64)]
    pub series_id: FlexI64,
    pub name: String,
    /// Scheduled start, ISO-8601 with a zone, e.g. 2026-11-23T14:00:00Z.
    #[schema(format = DateTime)]
    pub open_date: String,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub in_play: Option<FlexBool>,
    #[serde(default)]
    pub venue: Option<String>,
    #[serde(default)]
    pub country_code: Option<String>,
}

#[utoipa::path(post, path = "/admin/match/create", tag = "admin", request_body = CreateMatchRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CreatedId>), (status = 400), (status = 403), (status = 404)))]
async fn create_match(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CreateMatchRequest>,
) -> ApiResult<CreatedId> {
    let open_date_ms = parse_iso(&body.open_date).ok_or_else(|| {
        AppError::field(
            "open_date",
            "open_date must be an ISO-8601 time with a zone, e.g. 2026-11-23T14:00:00Z.",
        )
    })?;
    for (field, value, max) in
        [("venue", &body.venue, 100), ("country_code", &body.country_code, 2)]
    {
        if value.as_ref().is_some_and(|v| v.chars().count() > max) {
            return Err(AppError::field(
                field,
                format!("{field} must be at most {max} characters."),
            ));
        }
    }
    let ctx = operator_context(&state, operator, ip);
    let id = operator::create_match(
        &ctx,
        CreateMatch {
            series_id: body.series_id.0,
            name: body.name,
            open_date_ms,
            in_play: body.in_play.is_some_and(|p| p.0),
            venue: body.venue,
            country_code: body.country_code.map(|c| c.to_uppercase()),
        },
    )
    .await?;
    Ok(ok_with("Match created.", CreatedId { id }))
}

#[derive(Deserialize, ToSchema)]
pub struct InPlayRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
    #[schema(value_type = i64, minimum = 0, maximum = 1)]
    pub in_play: FlexBool,
}

/// Turns a match in play: unmatched LAPSE orders on its markets lapse, bet delays start. The
/// match's streams get a `score` event with the new `in_play`.
#[utoipa::path(post, path = "/admin/match/inPlay", tag = "admin", request_body = InPlayRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403), (status = 404)))]
async fn match_in_play(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<InPlayRequest>,
) -> ApiResult<Option<String>> {
    let ctx = operator_context(&state, operator, ip);
    operator::set_match_in_play(&ctx, &state.engine, body.match_id.0, body.in_play.0).await?;
    // The match's pages hear it at once (their In-Play badge), as they hear a score.
    let the_match = state.store.match_by_id(body.match_id.0).await?;
    state.live_books.publish_score(&LiveScore::of(&the_match));
    Ok(ok_with(
        if body.in_play.0 { "The match is in play." } else { "The match is not in play." },
        None,
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct MatchScoreRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
    /// The whole score now (its `sport` says which kind); left out: unchanged; null: cleared.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<ScoreInput>)]
    pub score: Option<Option<ScoreInput>>,
    /// How the match ended, e.g. "Chennai Super Kings won by 12 runs"; left out: unchanged;
    /// null: cleared.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 200)]
    pub result: Option<Option<String>>,
}

/// Sets a match's live score and/or its result (admin only): what a feed, the demo or the
/// console calls. The match's streams get a `score` event.
#[utoipa::path(post, path = "/admin/match/score", tag = "admin", request_body = MatchScoreRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<LiveScore>), (status = 400), (status = 403), (status = 404)))]
async fn match_score(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<MatchScoreRequest>,
) -> ApiResult<LiveScore> {
    if body.score.is_none() && body.result.is_none() {
        return Err(AppError::field("score", "Give a score, a result or both."));
    }
    let ctx = operator_context(&state, operator, ip);
    let update = MatchStateUpdate { score: body.score, result: body.result };
    let live = operator::set_match_state(&ctx, &state.live_books, body.match_id.0, update).await?;
    Ok(ok_with("The match's score is set.", live))
}

#[derive(Serialize, ToSchema)]
pub struct LedgerCheckData {
    pub sound: bool,
    pub accounts: i64,
    pub entries: i64,
    #[schema(value_type = f64)]
    pub total: Money,
    /// (account id, stored balance, sum of entries) in minor units.
    #[schema(value_type = Vec<Vec<i64>>)]
    pub mismatched_accounts: Vec<(i64, i64, i64)>,
    pub unbalanced_transactions: Vec<i64>,
    pub overdrawn_accounts: Vec<i64>,
    /// (account id, stored exposure, sum of its exposures per market) in minor units, where the
    /// two differ.
    #[schema(value_type = Vec<Vec<i64>>)]
    pub exposure_mismatches: Vec<(i64, i64, i64)>,
    /// (agent's user id, share account balance, sum of its partnership splits) in minor units,
    /// where the two differ.
    #[schema(value_type = Vec<Vec<i64>>)]
    pub share_mismatches: Vec<(i64, i64, i64)>,
    /// (user id, cash account balance, net of its cash settlements) in minor units, where the
    /// two differ.
    #[schema(value_type = Vec<Vec<i64>>)]
    pub cash_mismatches: Vec<(i64, i64, i64)>,
    /// Users whose exposure reserved in a live market is not what their stored bets there can
    /// lose at worst, as the engine computes it from the fills and live bets (at most 1,000).
    pub reserved_exposure_mismatches: Vec<ExposureMismatchItem>,
    /// Runners of live exchange markets where a resting back is at or below a resting lay: two
    /// orders that should have matched (at most 1,000).
    pub crossed_books: Vec<CrossedBookItem>,
    /// Chips in circulation: minus the issuance account.
    #[schema(value_type = f64)]
    pub chips_issued: Money,
}

/// A user's exposure in one live market that is not the worst case of their bets there.
#[derive(Serialize, ToSchema)]
pub struct ExposureMismatchItem {
    pub user_id: i64,
    pub user_name: String,
    pub market_id: i64,
    /// What is reserved (the funds check counts it as spent).
    #[schema(value_type = f64)]
    pub reserved: Money,
    /// What the user's stored bets in the market can lose at worst: what should be reserved.
    #[schema(value_type = f64)]
    pub worst_case: Money,
}

/// A runner whose best resting back is at or below its best resting lay, with the oldest order
/// at each of the two prices.
#[derive(Serialize, ToSchema)]
pub struct CrossedBookItem {
    pub market_id: i64,
    pub selection_id: i64,
    /// Decimal odds, e.g. 1.97.
    pub back_price: f64,
    /// Decimal odds, at least `back_price`.
    pub lay_price: f64,
    pub back_bet_id: i64,
    pub lay_bet_id: i64,
}

/// Decimal odds of a price stored in hundredths. Not through `Price`: a crossed book may hold
/// a price off the ladder, and the check shows what is stored.
fn decimal_odds(hundredths: i64) -> f64 {
    hundredths as f64 / 100.0
}

/// Verifies the ledger: every balance is the sum of its entries, every transaction sums to
/// zero, no account is overdrawn, every exposure is the sum of its markets and every share
/// account the sum of its splits, every cash account the sum of its cash settlements; and in every live market, each user's reserved exposure is
/// the worst case of their stored bets and no resting back is at or below a resting lay.
#[utoipa::path(get, path = "/admin/ledger/check", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<LedgerCheckData>), (status = 403)))]
async fn ledger_check(
    State(state): State<AppState>,
    Operator(authed): Operator,
) -> ApiResult<LedgerCheckData> {
    if authed.user.role != Role::Admin {
        return Err(AppError::Forbidden("Only an admin can check the ledger.".into()));
    }
    let check = state.store.ledger_check().await?;
    let issuance =
        state.store.system_balance(backlay_store::ledger::SystemAccount::Issuance).await?;
    Ok(ok(LedgerCheckData {
        sound: check.is_sound(),
        accounts: check.accounts,
        entries: check.entries,
        total: Money::from_minor(check.total_minor),
        mismatched_accounts: check.mismatched_accounts,
        unbalanced_transactions: check.unbalanced_transactions,
        overdrawn_accounts: check.overdrawn_accounts,
        exposure_mismatches: check.exposure_mismatches,
        share_mismatches: check.share_mismatches,
        cash_mismatches: check.cash_mismatches,
        reserved_exposure_mismatches: check
            .reserved_exposure_mismatches
            .into_iter()
            .map(|m| ExposureMismatchItem {
                user_id: m.user_id,
                user_name: m.user_name,
                market_id: m.market_id,
                reserved: Money::from_minor(m.reserved_minor),
                worst_case: Money::from_minor(m.worst_case_minor),
            })
            .collect(),
        crossed_books: check
            .crossed_books
            .into_iter()
            .map(|c| CrossedBookItem {
                market_id: c.market_id,
                selection_id: c.runner_id,
                back_price: decimal_odds(c.back_price),
                lay_price: decimal_odds(c.lay_price),
                back_bet_id: c.back_bet_id,
                lay_bet_id: c.lay_bet_id,
            })
            .collect(),
        chips_issued: Money::from_minor(-issuance),
    }))
}

#[derive(Clone, Deserialize, ToSchema, Default)]
pub struct AuditRequest {
    /// Only what this user (by name) did.
    #[serde(default)]
    pub actor: Option<String>,
    /// An action (`chips.transfer`) or its area (`chips`: every `chips.…` action).
    #[serde(default)]
    #[schema(max_length = 60)]
    pub action: Option<String>,
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: from the beginning.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: until now.
    #[serde(default)]
    pub to_date: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct AuditRow {
    pub id: i64,
    /// -1 for the console or the system.
    pub actor_user_id: i64,
    /// The acting user's name; "" for the console or the system.
    pub actor_name: String,
    pub action: String,
    /// Whom: `user:<id>`, `market:<id>`, `payment_request:<id>`…
    pub target: String,
    /// What the target names: the account (`user:`), the market, the match, or the account
    /// that asked (`payment_request:`); "" for other targets.
    pub target_name: String,
    /// The rest: names beside ids, before → after, money in rupees.
    #[schema(value_type = Object)]
    pub detail: serde_json::Value,
    #[schema(required = true)]
    pub client_ip: Option<String>,
    pub date: String,
}

/// The audit log, newest first, filtered by who, what and when (admin only).
#[utoipa::path(post, path = "/admin/audit", tag = "admin", request_body = Downloadable<AuditRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<AuditRow>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 403)))]
async fn audit_log(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Downloadable { request, page, format }: Downloadable<AuditRequest>,
) -> Result<Response, AppError> {
    if authed.user.role != Role::Admin {
        return Err(AppError::Forbidden("Only an admin can read the audit log.".into()));
    }
    list_answer(format.parse()?, page, "audit", move |page| {
        let (state, request) = (state.clone(), request.clone());
        async move { audit_page(&state, request, page).await }
    })
    .await
}

async fn audit_page(
    state: &AppState,
    request: AuditRequest,
    page: PageRequest,
) -> Result<Paged<AuditRow>, AppError> {
    let (page, limit, offset) = page.resolve()?;
    let filter = audit_filter(state, request).await?;
    let (entries, total) = state.store.audit_entries(&filter, offset, limit).await?;
    let rows = entries
        .into_iter()
        .map(|AuditListed { entry: e, actor_name, target_name }| AuditRow {
            id: e.id,
            actor_user_id: e.actor_user_id.unwrap_or(-1),
            actor_name: actor_name.unwrap_or_default(),
            action: e.action,
            target: e.target,
            target_name: target_name.unwrap_or_default(),
            detail: serde_json::from_str(&e.detail).unwrap_or(serde_json::Value::Null),
            client_ip: e.client_ip,
            date: iso_utc(e.created_at_ms),
        })
        .collect();
    Ok(Paged { rows, total, page, limit })
}

impl CsvRow for AuditRow {
    const HEADER: &'static [&'static str] = &[
        "date",
        "id",
        "actor_user_id",
        "actor_name",
        "action",
        "target",
        "target_name",
        "client_ip",
        "detail",
    ];

    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::Figure(self.date.clone()),
            Cell::int(self.id),
            Cell::int(self.actor_user_id),
            Cell::text(&self.actor_name),
            Cell::text(&self.action),
            Cell::text(&self.target),
            Cell::text(&self.target_name),
            Cell::text(self.client_ip.clone().unwrap_or_default()),
            // The detail as its JSON text: a spreadsheet shows it whole.
            Cell::text(self.detail.to_string()),
        ]
    }
}

/// The request's filters, each refused on its own field when it cannot pick anything.
async fn audit_filter(state: &AppState, body: AuditRequest) -> Result<AuditFilter, AppError> {
    let (from_ms, to_ms) = date_range(&body.from_date, &body.to_date, (0, i64::MAX))?;
    let action = body.action.map(|a| a.trim().to_lowercase()).filter(|a| !a.is_empty());
    if let Some(action) = &action {
        let known = |c: char| c.is_ascii_lowercase() || c == '_' || c == '.';
        if action.chars().count() > 60 || !action.chars().all(known) {
            return Err(AppError::field(
                "action",
                "action is an action such as chips.transfer, or its area such as chips.",
            ));
        }
    }
    let actor_user_id =
        match body.actor.as_deref().map(str::trim).filter(|a| !a.is_empty()) {
            None => None,
            Some(name) => Some(state.store.user_id_by_name(name).await?.ok_or_else(|| {
                AppError::field("actor", format!("There is no user named {name}."))
            })?),
        };
    Ok(AuditFilter { actor_user_id, action, from_ms, to_ms })
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::SiteSettings;

    #[test]
    fn the_read_back_answers_every_setting() {
        let answer = serde_json::to_value(SiteSettings::from_settings(&BTreeMap::new())).unwrap();
        let fields: BTreeSet<&str> =
            answer.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(fields, backlay_kit::settings::keys().collect::<BTreeSet<_>>());
    }
}
