//! Safer gambling in the console (issue 33): a client's own limits, waiting changes, time-out
//! or self-exclusion and recent log-ins, read-only for the account's agents (nobody but the
//! bettor may change them, and nobody may shorten a break); and the operator's defaults: a
//! daily loss limit every new account starts with and a maximum stake for every bet in the
//! tree (`admin/saferDefaults`, admin only, audited).

use axum::extract::State;
use backlay_api::operator_context;
use backlay_api::safer::{limits_data, LimitsData};
use backlay_core::money::Money;
use backlay_store::safer::SaferDefaults;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::iso_utc;
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{AmountInput, ApiJson, FlexI64};
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;

use crate::console::readable_account;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(account_safer)).routes(routes!(read_defaults, set_defaults))
}

#[derive(Deserialize, ToSchema)]
pub struct AccountSaferRequest {
    #[schema(value_type = i64)]
    pub user_id: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct BreakItem {
    /// time_out or self_exclusion.
    pub kind: String,
    /// As chosen: 24h, 48h, 7d, 30d; 6m, 1y, 3y, 5y.
    pub period: String,
    pub started_at: String,
    pub until: String,
}

#[derive(Serialize, ToSchema)]
pub struct AccountSafer {
    #[serde(flatten)]
    pub limits: LimitsData,
    /// The time-out or self-exclusion in force, if any: it cannot be lifted before `until`.
    #[schema(required = true)]
    pub active_break: Option<BreakItem>,
}

/// A downline account's own limits and break, read-only.
#[utoipa::path(post, path = "/console/account/safer", tag = "console", request_body = AccountSaferRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<AccountSafer>), (status = 401), (status = 403, description = "Not an operator"), (status = 404, description = "Not in the caller's downline")))]
async fn account_safer(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<AccountSaferRequest>,
) -> ApiResult<AccountSafer> {
    let account = readable_account(&state, &authed.user, body.user_id.0).await?;
    let active = state.store.active_block(account.id, state.clock.now_ms()).await?;
    Ok(ok(AccountSafer {
        limits: limits_data(&state, account.id).await?,
        active_break: active.map(|block| BreakItem {
            kind: block.kind.as_str().to_string(),
            period: block.period,
            started_at: iso_utc(block.started_at_ms),
            until: iso_utc(block.until_ms),
        }),
    }))
}

/// The operator's defaults, as sent and as answered.
#[derive(Deserialize, ToSchema)]
pub struct SaferDefaultsData {
    /// Rupees a day every new account may lose; null: none.
    #[schema(value_type = Option<f64>, required = true)]
    pub default_loss_limit_day: Option<AmountInput>,
    /// Rupees any one bet in the tree may stake at most; null: no such cap.
    #[schema(value_type = Option<f64>, required = true)]
    pub max_stake: Option<AmountInput>,
}

fn data_of(defaults: SaferDefaults) -> serde_json::Value {
    let shown = |minor: Option<i64>| minor.map(Money::from_minor);
    serde_json::json!({
        "default_loss_limit_day": shown(defaults.default_loss_day_minor),
        "max_stake": shown(defaults.max_stake_minor),
    })
}

#[utoipa::path(get, path = "/admin/saferDefaults", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<SaferDefaultsData>), (status = 403)))]
async fn read_defaults(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
) -> ApiResult<serde_json::Value> {
    operator_context(&state, operator, ip).require_admin("read the safer-gambling defaults")?;
    Ok(ok(data_of(state.store.safer_defaults().await?)))
}

#[utoipa::path(post, path = "/admin/saferDefaults", tag = "admin", request_body = SaferDefaultsData, security(("bearer" = [])),
    responses((status = 200, body = Envelope<SaferDefaultsData>), (status = 400), (status = 403)))]
async fn set_defaults(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<SaferDefaultsData>,
) -> ApiResult<serde_json::Value> {
    let ctx = operator_context(&state, operator, ip);
    ctx.require_admin("set the safer-gambling defaults")?;
    let positive = |field: &str, amount: Option<AmountInput>| match amount {
        Some(AmountInput(money)) if !money.is_positive() => {
            Err(AppError::field(field, "Give an amount more than 0, or null for none."))
        }
        other => Ok(other.map(|a| a.0.minor())),
    };
    let defaults = SaferDefaults {
        default_loss_day_minor: positive("default_loss_limit_day", body.default_loss_limit_day)?,
        max_stake_minor: positive("max_stake", body.max_stake)?,
    };
    let before = state.store.safer_defaults().await?;
    let mut writer = state.store.begin_write().await?;
    writer.set_safer_defaults(&defaults, backlay_kit::clock::now_ms()).await?;
    ctx.audit(
        &mut writer,
        "settings.safer_defaults",
        "safer_defaults".into(),
        serde_json::json!({ "before": data_of(before), "after": data_of(defaults) }),
    )
    .await?;
    writer.commit().await?;
    Ok(ok_with("Safer-gambling defaults saved.", data_of(defaults)))
}
