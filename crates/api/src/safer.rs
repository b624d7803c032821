//! Safer gambling's calls (issue 33, docs/api.md "Safer gambling"): the limits a bettor sets on
//! their own play (`user/limits`, `user/confirmLimit`), a time-out and a self-exclusion, the
//! session's summary for the reality check, and the log-in history with the live sessions.
//!
//! A lower or new limit applies at once; a higher one, or a removal, waits out the cooling-off
//! (`backlay_core::safer::change_timing`) and then the bettor's confirmation, read off the
//! state's clock so that tests move it forward instead of waiting a day. What the limits are
//! checked against lives where the money moves: the engine's placement, the casino, the
//! wallet, the payments (`backlay_operator::safer`).

use std::collections::HashMap;

use axum::extract::{Query, State};
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_core::safer::{
    change_timing, loss_cap, room, ChangeTiming, ExclusionPeriod, LimitKind, Period, TimeOutPeriod,
    COOLING_OFF_MS,
};
use backlay_store::safer::{BlockKind, Limits, PendingLimit};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::{iso_utc, ist_text};
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{AmountInput, ApiJson};
use backlay_operator::safer::start_block;
use backlay_operator::session::{confirm_own_password, ClientIp, CurrentUser};
use backlay_operator::AppState;

use crate::notices::query_number;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_limits, set_limit))
        .routes(routes!(confirm_limit))
        .routes(routes!(time_out))
        .routes(routes!(self_exclude))
        .routes(routes!(session_summary))
        .routes(routes!(login_history))
        .routes(routes!(sessions))
        .routes(routes!(logout_others))
}

/// The largest limit in rupees (₹1 crore): far above any bettor's, so a typo is refused.
const MAX_LIMIT_MINOR: i64 = 1_00_00_000_00;
/// A session limit's bounds, minutes.
const SESSION_MINUTES: std::ops::RangeInclusive<i64> = 5..=1440;

#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct LimitItem {
    #[schema(value_type = LimitKind)]
    pub kind: LimitKind,
    /// For deposit and loss; null for stake and session.
    #[schema(value_type = Option<Period>, required = true)]
    pub period: Option<Period>,
    /// Rupees; minutes for session.
    pub value: f64,
}

#[derive(Serialize, ToSchema, Debug)]
pub struct PendingItem {
    #[schema(value_type = LimitKind)]
    pub kind: LimitKind,
    #[schema(value_type = Option<Period>, required = true)]
    pub period: Option<Period>,
    /// Null: the limit removed.
    #[schema(required = true)]
    pub value: Option<f64>,
    pub effective_at: String,
    /// The cooling-off is over: the bettor may confirm it now.
    pub confirmable: bool,
}

#[derive(Serialize, ToSchema, Debug)]
pub struct LeftItem {
    #[schema(value_type = LimitKind)]
    pub kind: LimitKind,
    /// The period whose limit binds.
    #[schema(value_type = Period)]
    pub period: Period,
    /// Rupees that may still be lost (or deposited) in it.
    pub value: f64,
}

#[derive(Serialize, ToSchema, Debug)]
pub struct LimitsData {
    pub limits: Vec<LimitItem>,
    pub pending: Vec<PendingItem>,
    pub left: Vec<LeftItem>,
    /// The operator's maximum stake for every bet in the tree, if set.
    #[schema(required = true)]
    pub operator_max_stake: Option<f64>,
}

/// The value a limit of `kind` is shown as: rupees, or minutes for a session.
fn shown(kind: LimitKind, value: i64) -> f64 {
    if kind == LimitKind::Session {
        value as f64
    } else {
        Money::from_minor(value).to_f64_for_json()
    }
}

/// Every limit in force, kind by kind and period by period.
fn limit_items(limits: &Limits) -> Vec<LimitItem> {
    let mut items = Vec::new();
    for kind in LimitKind::ALL {
        let periods: Vec<Option<Period>> = if kind.has_period() {
            Period::ALL.iter().copied().map(Some).collect()
        } else {
            vec![None]
        };
        for period in periods {
            if let Some(value) = limits.get(*kind, period) {
                items.push(LimitItem { kind: *kind, period, value: shown(*kind, value) });
            }
        }
    }
    items
}

/// The limits, the changes waiting and what is left, as `GET user/limits` answers them.
pub async fn limits_data(state: &AppState, user_id: i64) -> Result<LimitsData, AppError> {
    let now = state.clock.now_ms();
    let limits = state.store.limits(user_id).await?;
    let pending = state.store.pending_limits(user_id).await?;
    let defaults = state.store.safer_defaults().await?;
    let mut left = Vec::new();
    if limits.loss.any() {
        let net = state.store.play_net(user_id, now).await?;
        let exposure = state.store.funds_of_user(user_id).await?.exposure_minor;
        if let Some((_, room)) = loss_cap(&limits.loss, net, exposure) {
            left.push(LeftItem {
                kind: LimitKind::Loss,
                period: room.period,
                value: Money::from_minor(room.left_minor).to_f64_for_json(),
            });
        }
    }
    if limits.deposit.any() {
        let deposited = state.store.deposits_in_periods(user_id, now).await?;
        if let Some(room) = room(&limits.deposit, deposited) {
            left.push(LeftItem {
                kind: LimitKind::Deposit,
                period: room.period,
                value: Money::from_minor(room.left_minor).to_f64_for_json(),
            });
        }
    }
    Ok(LimitsData {
        limits: limit_items(&limits),
        pending: pending
            .iter()
            .map(|p| PendingItem {
                kind: p.kind,
                period: p.period,
                value: p.value.map(|v| shown(p.kind, v)),
                effective_at: iso_utc(p.effective_at_ms),
                confirmable: p.effective_at_ms <= now,
            })
            .collect(),
        left,
        operator_max_stake: defaults
            .max_stake_minor
            .map(|m| Money::from_minor(m).to_f64_for_json()),
    })
}

#[utoipa::path(get, path = "/user/limits", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<LimitsData>), (status = 401)))]
async fn get_limits(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<LimitsData> {
    Ok(ok(limits_data(&state, authed.user.id).await?))
}

#[derive(Deserialize, ToSchema)]
pub struct SetLimitRequest {
    #[schema(value_type = LimitKind)]
    pub kind: String,
    /// day, week or month for deposit and loss; absent for stake and session.
    #[serde(default)]
    #[schema(value_type = Option<Period>)]
    pub period: Option<String>,
    /// Rupees (minutes for session); null removes the limit.
    #[schema(value_type = Option<f64>, required = true)]
    pub value: Option<serde_json::Value>,
}

/// The kind and period a request names, checked together.
fn kind_and_period(
    kind: &str,
    period: Option<&str>,
) -> Result<(LimitKind, Option<Period>), AppError> {
    let kind: LimitKind = kind.trim().parse().map_err(|_| {
        AppError::field("kind", format!("{} is not {}.", kind.trim(), one_of(LimitKind::NAMES)))
    })?;
    let period = period.map(str::trim).filter(|p| !p.is_empty());
    match (kind.has_period(), period) {
        (true, None) => Err(AppError::field(
            "period",
            format!("A {kind} limit is per day, week or month: choose one."),
        )),
        (true, Some(text)) => {
            let period: Period = text.parse().map_err(|_| {
                AppError::field("period", format!("{text} is not {}.", one_of(Period::NAMES)))
            })?;
            Ok((kind, Some(period)))
        }
        (false, Some(_)) => Err(AppError::field(
            "period",
            format!("A {kind} limit has no period: leave period out."),
        )),
        (false, None) => Ok((kind, None)),
    }
}

/// The value sent for a limit of `kind`, in minor units (minutes for a session); `None` removes.
fn limit_value(
    kind: LimitKind,
    value: Option<&serde_json::Value>,
) -> Result<Option<i64>, AppError> {
    let Some(value) = value.filter(|v| !v.is_null()) else { return Ok(None) };
    if kind == LimitKind::Session {
        let minutes = value
            .as_i64()
            .or_else(|| value.as_str().and_then(|t| t.trim().parse().ok()))
            .filter(|m| SESSION_MINUTES.contains(m));
        return minutes.map(Some).ok_or_else(|| {
            AppError::field(
                "value",
                format!(
                    "A session limit is whole minutes from {} to {}.",
                    SESSION_MINUTES.start(),
                    SESSION_MINUTES.end()
                ),
            )
        });
    }
    let amount: AmountInput = serde_json::from_value(value.clone())
        .map_err(|err| AppError::field("value", format!("{err}")))?;
    let minor = amount.0.minor();
    if minor <= 0 || minor > MAX_LIMIT_MINOR {
        return Err(AppError::field(
            "value",
            format!(
                "A limit is more than 0 and at most {}.",
                Money::from_minor(MAX_LIMIT_MINOR).rupees()
            ),
        ));
    }
    Ok(Some(minor))
}

/// How a limit reads in a message: "₹2,000.00 a day", "₹500.00 a bet", "60 minutes".
fn limit_words(kind: LimitKind, period: Option<Period>, value: i64) -> String {
    match (kind, period) {
        (LimitKind::Session, _) => format!("{value} minutes a session"),
        (LimitKind::Stake, _) => format!("{} a bet", Money::from_minor(value).rupees()),
        (_, Some(period)) => format!("{} a {period}", Money::from_minor(value).rupees()),
        (_, None) => Money::from_minor(value).rupees().to_string(),
    }
}

#[utoipa::path(post, path = "/user/limits", tag = "user", request_body = SetLimitRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<LimitsData>), (status = 400, description = "The field named is wrong"), (status = 401)))]
async fn set_limit(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<SetLimitRequest>,
) -> ApiResult<LimitsData> {
    let (kind, period) = kind_and_period(&body.kind, body.period.as_deref())?;
    let wanted = limit_value(kind, body.value.as_ref())?;
    let user_id = authed.user.id;
    let now = state.clock.now_ms();
    let mut writer = state.store.begin_write().await?;
    let mut limits = writer.limits_of(user_id).await?;
    let current = limits.get(kind, period);
    let message = match change_timing(current, wanted) {
        ChangeTiming::Unchanged => {
            return Err(AppError::field(
                "value",
                match current {
                    Some(_) => "That is already your limit.",
                    None => "You have no such limit to remove.",
                },
            ))
        }
        ChangeTiming::Now => {
            let value = wanted.expect("a limit that applies now has a value");
            limits.set(kind, period, wanted);
            writer.save_limits(user_id, &limits, now).await?;
            // A higher one waiting is dropped: the bettor chose lower since.
            writer.drop_pending_limit(user_id, kind, period).await?;
            if kind == LimitKind::Session {
                writer.cap_sessions(user_id, value, backlay_kit::clock::now_ms()).await?;
            }
            format!(
                "Your {kind} limit is now {}. It applies now.",
                limit_words(kind, period, value)
            )
        }
        ChangeTiming::AfterCoolingOff => {
            let effective_at_ms = now + COOLING_OFF_MS;
            writer
                .put_pending_limit(
                    user_id,
                    &PendingLimit {
                        kind,
                        period,
                        value: wanted,
                        requested_at_ms: now,
                        effective_at_ms,
                    },
                )
                .await?;
            format!(
                "Your current {kind} limit stays for now. You can confirm the change from {}; it \
                 applies once you do.",
                ist_text(effective_at_ms)
            )
        }
    };
    writer.commit().await?;
    Ok(ok_with(message, limits_data(&state, user_id).await?))
}

#[derive(Deserialize, ToSchema)]
pub struct ConfirmLimitRequest {
    #[schema(value_type = LimitKind)]
    pub kind: String,
    #[serde(default)]
    #[schema(value_type = Option<Period>)]
    pub period: Option<String>,
    /// true applies the change (once its cooling-off is over), false drops it.
    pub accept: bool,
}

#[utoipa::path(post, path = "/user/confirmLimit", tag = "user", request_body = ConfirmLimitRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<LimitsData>), (status = 400), (status = 401),
        (status = 404, description = "No change of that limit is waiting"),
        (status = 422, description = "The cooling-off is not over")))]
async fn confirm_limit(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<ConfirmLimitRequest>,
) -> ApiResult<LimitsData> {
    let (kind, period) = kind_and_period(&body.kind, body.period.as_deref())?;
    let user_id = authed.user.id;
    let now = state.clock.now_ms();
    let waiting = state
        .store
        .pending_limits(user_id)
        .await?
        .into_iter()
        .find(|p| p.kind == kind && p.period == period)
        .ok_or_else(|| AppError::NotFound(format!("No change of your {kind} limit is waiting.")))?;
    let mut writer = state.store.begin_write().await?;
    let message = if !body.accept {
        writer.drop_pending_limit(user_id, kind, period).await?;
        format!("The change of your {kind} limit is cancelled; your limit stays as it is.")
    } else if waiting.effective_at_ms > now {
        return Err(AppError::Unprocessable(format!(
            "You can confirm this from {}.",
            ist_text(waiting.effective_at_ms)
        )));
    } else {
        // Claimed by its deletion: two confirmations at once apply it once.
        if !writer.drop_pending_limit(user_id, kind, period).await? {
            return Err(AppError::NotFound(format!("No change of your {kind} limit is waiting.")));
        }
        let mut limits = writer.limits_of(user_id).await?;
        limits.set(kind, period, waiting.value);
        writer.save_limits(user_id, &limits, now).await?;
        match waiting.value {
            Some(value) => {
                format!("Your {kind} limit is now {}.", limit_words(kind, period, value))
            }
            None => format!("Your {kind} limit is removed."),
        }
    };
    writer.commit().await?;
    Ok(ok_with(message, limits_data(&state, user_id).await?))
}

#[derive(Deserialize, ToSchema)]
pub struct TimeOutRequest {
    #[schema(value_type = TimeOutPeriod)]
    pub period: String,
    pub password: String,
}

#[derive(Deserialize, ToSchema)]
pub struct SelfExcludeRequest {
    #[schema(value_type = ExclusionPeriod)]
    pub period: String,
    pub password: String,
}

#[derive(Serialize, ToSchema)]
pub struct BlockData {
    pub until: String,
    pub cancelled_bets: i64,
}

#[utoipa::path(post, path = "/user/timeOut", tag = "user", request_body = TimeOutRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<BlockData>), (status = 400), (status = 401), (status = 429)))]
async fn time_out(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<TimeOutRequest>,
) -> ApiResult<BlockData> {
    let period: TimeOutPeriod = body.period.trim().parse().map_err(|_| {
        AppError::field("period", format!("Choose {}.", one_of(TimeOutPeriod::NAMES)))
    })?;
    let until_ms = period.until_ms(state.clock.now_ms());
    block(&state, &authed.user, BlockKind::TimeOut, period.as_str(), until_ms, body.password, ip)
        .await
        .map(|data| {
            ok_with(
                format!(
                    "Your time-out has begun. You can log in again after {}.",
                    ist_text(until_ms)
                ),
                data,
            )
        })
}

#[utoipa::path(post, path = "/user/selfExclude", tag = "user", request_body = SelfExcludeRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<BlockData>), (status = 400), (status = 401), (status = 429)))]
async fn self_exclude(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<SelfExcludeRequest>,
) -> ApiResult<BlockData> {
    let period: ExclusionPeriod = body.period.trim().parse().map_err(|_| {
        AppError::field("period", format!("Choose {}.", one_of(ExclusionPeriod::NAMES)))
    })?;
    let until_ms = period.until_ms(state.clock.now_ms());
    let kind = BlockKind::SelfExclusion;
    block(&state, &authed.user, kind, period.as_str(), until_ms, body.password, ip).await.map(
        |data| {
            ok_with(
                format!(
                    "You have excluded yourself from betting until {}. Your account cannot be \
                     used until then.",
                    ist_text(until_ms)
                ),
                data,
            )
        },
    )
}

/// A time-out or self-exclusion, once the password is right.
async fn block(
    state: &AppState,
    user: &backlay_store::users::User,
    kind: BlockKind,
    period: &str,
    until_ms: i64,
    password: String,
    ip: Option<String>,
) -> Result<BlockData, AppError> {
    if password.is_empty() {
        return Err(AppError::field("password", "Enter your password to confirm."));
    }
    confirm_own_password(
        state,
        user,
        password,
        ip.as_deref(),
        "password",
        "Password is incorrect.",
    )
    .await?;
    // Already on one: a second, longer one may be added; nothing shortens the first.
    let cancelled_bets = start_block(state, user.id, kind, period, until_ms, ip.as_deref()).await?;
    Ok(BlockData { until: iso_utc(until_ms), cancelled_bets })
}

#[derive(Serialize, ToSchema)]
pub struct SessionSummary {
    pub started_at: String,
    /// The net of the bettor's settled play since the log-in (won minus lost).
    pub net: f64,
    pub reality_check_minutes: i64,
    /// When a session limit ends this session; null without one.
    #[schema(required = true)]
    pub ends_at: Option<String>,
}

#[utoipa::path(get, path = "/user/sessionSummary", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<SessionSummary>), (status = 401)))]
async fn session_summary(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<SessionSummary> {
    let (started_ms, expires_ms) = state.store.session_times(authed.session_id).await?;
    let net = state.store.play_net_since(authed.user.id, started_ms).await?;
    let limits = state.store.limits(authed.user.id).await?;
    let preferences = state.store.preferences(authed.user.id).await?;
    Ok(ok(SessionSummary {
        started_at: iso_utc(started_ms),
        net: Money::from_minor(net).to_f64_for_json(),
        reality_check_minutes: preferences.reality_check_minutes,
        ends_at: limits.session_minutes.map(|_| iso_utc(expires_ms)),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct LoginRow {
    pub at: String,
    #[schema(required = true)]
    pub ip: Option<String>,
    pub device: String,
    #[schema(value_type = backlay_store::safer::LoginResult)]
    pub result: String,
}

#[derive(Serialize, ToSchema)]
pub struct LoginHistoryPage {
    pub rows: Vec<LoginRow>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
}

#[utoipa::path(get, path = "/user/loginHistory", tag = "user", security(("bearer" = [])),
    params(("page" = Option<i64>, Query, description = "From 1 (default 1)"),
        ("limit" = Option<i64>, Query, description = "1 to 100 (default 20)")),
    responses((status = 200, body = Envelope<LoginHistoryPage>), (status = 400), (status = 401)))]
async fn login_history(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Query(query): Query<HashMap<String, String>>,
) -> ApiResult<LoginHistoryPage> {
    let page = query_number(&query, "page", 1, 1..=1_000_000)?;
    let limit = query_number(&query, "limit", 20, 1..=100)?;
    let (records, total) =
        state.store.login_history(authed.user.id, (page - 1) * limit, limit).await?;
    Ok(ok(LoginHistoryPage {
        rows: records
            .into_iter()
            .map(|r| LoginRow {
                at: iso_utc(r.at_ms),
                ip: r.client_ip,
                device: r.device,
                result: r.result.as_str().to_string(),
            })
            .collect(),
        total,
        page,
        limit,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct SessionItem {
    pub id: i64,
    pub started_at: String,
    #[schema(required = true)]
    pub ip: Option<String>,
    pub device: String,
    /// web or bot.
    pub kind: String,
    /// The session this request came in on.
    pub current: bool,
}

#[derive(Serialize, ToSchema)]
pub struct SessionsData {
    pub sessions: Vec<SessionItem>,
}

#[utoipa::path(get, path = "/user/sessions", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<SessionsData>), (status = 401)))]
async fn sessions(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<SessionsData> {
    let live = state.store.live_sessions(authed.user.id, backlay_kit::clock::now_ms()).await?;
    Ok(ok(SessionsData {
        sessions: live
            .into_iter()
            .map(|s| SessionItem {
                id: s.session_id,
                started_at: iso_utc(s.created_at_ms),
                ip: s.client_ip,
                device: if s.device.is_empty() { "Unknown device".into() } else { s.device },
                kind: s.kind,
                current: s.session_id == authed.session_id,
            })
            .collect(),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct LogoutOthersData {
    pub ended: u64,
}

#[utoipa::path(post, path = "/user/logoutOthers", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<LogoutOthersData>), (status = 401)))]
async fn logout_others(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<LogoutOthersData> {
    let mut writer = state.store.begin_write().await?;
    let ended = writer
        .revoke_user_sessions(authed.user.id, authed.session_id, backlay_kit::clock::now_ms())
        .await?;
    writer.commit().await?;
    Ok(ok_with(
        format!("Logged out of {ended} other session{}.", if ended == 1 { "" } else { "s" }),
        LogoutOthersData { ended },
    ))
}
