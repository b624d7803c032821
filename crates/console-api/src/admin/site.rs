//! The site as a whole: its settings, the engine's counters and new chips (admin only).

use backlay_api::operator_context;
use std::collections::BTreeMap;

use axum::extract::State;
use backlay_core::money::Money;
use backlay_store::users::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{AmountInput, ApiJson};
use backlay_kit::settings::{default_buttons, PublicSettings};
use backlay_kit::stake_buttons::StakeButton;
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{self as operator};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(engine_stats))
        .routes(routes!(mint))
        .routes(routes!(settings, read_settings))
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
    #[serde(flatten)]
    pub public: PublicSettings,
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
            public: PublicSettings::from_settings(settings),
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
