//! The caller's money and stake buttons: `user/getUserBalance`, `user/getButtonValue`,
//! `user/setButtonValue`.

use axum::extract::State;
use backlay_core::money::Money;
use backlay_store::buttons::ButtonValue;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::clock::now_ms;
use crate::error::{ok, ok_with, ApiResult, AppError, Envelope};
use crate::input::{ApiJson, Checks};
use crate::session::{no_live_session, CurrentUser, SessionToken};
use crate::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_user_balance))
        .routes(routes!(get_button_value))
        .routes(routes!(set_button_value))
}

#[derive(Serialize, ToSchema)]
pub struct Balance {
    /// Sum of the user's ledger entries.
    #[schema(value_type = f64, example = 1500.0)]
    pub total_balance: Money,
    /// Minus the exposure (≤ 0); the client shows its absolute value.
    #[schema(value_type = f64, example = -250.0)]
    pub liability: Money,
    /// What the user may still bet or withdraw: balance − exposure.
    #[schema(value_type = f64, example = 1250.0)]
    pub available: Money,
}

/// Allowed before the first password change too: the header polls it on every page, so the
/// session and the balance are read in one query.
#[utoipa::path(get, path = "/user/getUserBalance", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Balance>), (status = 401)))]
async fn get_user_balance(
    State(state): State<AppState>,
    token: SessionToken,
) -> ApiResult<Balance> {
    let Some(funds) = state.store.funds_of_session(&token.hash, now_ms()).await? else {
        return Err(no_live_session(&state, &token.hash).await);
    };
    Ok(ok(Balance {
        total_balance: Money::from_minor(funds.balance_minor),
        liability: Money::from_minor(-funds.exposure_minor),
        available: Money::from_minor(funds.available_minor()),
    }))
}

/// The two lists of stake buttons.
pub const BUTTON_TYPES: [&str; 2] = ["Game", "Casino"];
/// At most this many buttons per list.
pub const MAX_BUTTONS_PER_TYPE: usize = 20;
pub const BUTTON_NAME_MAX_CHARS: usize = 10;
/// The largest stake a button may hold.
pub const BUTTON_VALUE_MAX_MINOR: i64 = 100_000_000_00;

/// Presets every user starts with until they set their own: (type, label, stake in units).
const DEFAULT_BUTTONS: &[(&str, &str, i64)] = &[
    ("Game", "100", 100),
    ("Game", "500", 500),
    ("Game", "1k", 1_000),
    ("Game", "5k", 5_000),
    ("Game", "10k", 10_000),
    ("Game", "25k", 25_000),
    ("Game", "50k", 50_000),
    ("Game", "1L", 100_000),
    ("Casino", "25", 25),
    ("Casino", "50", 50),
    ("Casino", "100", 100),
    ("Casino", "200", 200),
    ("Casino", "500", 500),
    ("Casino", "1k", 1_000),
];

#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct ButtonEntry {
    pub button_name: String,
    #[schema(value_type = f64)]
    pub button_value: Money,
    /// "Game" or "Casino".
    #[serde(rename = "type")]
    pub button_type: String,
}

/// The user's buttons; a list the user never set shows the presets.
async fn buttons_of(state: &AppState, user_id: i64) -> Result<Vec<ButtonEntry>, AppError> {
    let stored = state.store.button_values(user_id).await?;
    let mut entries = Vec::new();
    for button_type in BUTTON_TYPES {
        let own: Vec<&ButtonValue> =
            stored.iter().filter(|b| b.button_type == button_type).collect();
        if own.is_empty() {
            entries.extend(DEFAULT_BUTTONS.iter().filter(|(t, _, _)| *t == button_type).map(
                |(t, name, units)| ButtonEntry {
                    button_name: name.to_string(),
                    button_value: Money::from_minor(units * 100),
                    button_type: t.to_string(),
                },
            ));
        } else {
            entries.extend(own.into_iter().map(|b| ButtonEntry {
                button_name: b.button_name.clone(),
                button_value: Money::from_minor(b.button_value_minor),
                button_type: b.button_type.clone(),
            }));
        }
    }
    Ok(entries)
}

/// `data` is a JSON *string* of `[{button_name, button_value, type}]`, as the spec's client reads it.
#[utoipa::path(get, path = "/user/getButtonValue", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<String>), (status = 401), (status = 428)))]
async fn get_button_value(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<String> {
    let entries = buttons_of(&state, authed.user.id).await?;
    let text = serde_json::to_string(&entries).map_err(|e| AppError::Internal(e.into()))?;
    Ok(ok(text))
}

/// One button. The spec's client sends `name` and `value` (its call table: "list of entries
/// with name, value, type"); `button_name` and `button_value`, the names `getButtonValue`
/// answers with, are taken as well. Both spellings of one field in an entry is a 400.
#[derive(Deserialize, ToSchema)]
pub struct ButtonInput {
    /// Also accepted as `name`.
    #[serde(alias = "name")]
    pub button_name: String,
    /// Also accepted as `value`.
    #[serde(alias = "value")]
    #[schema(value_type = f64)]
    pub button_value: crate::input::AmountInput,
    #[serde(rename = "type")]
    pub button_type: String,
}

/// Replaces the lists present in the body (a body with only Game buttons leaves Casino as it is).
#[utoipa::path(post, path = "/user/setButtonValue", tag = "user", security(("bearer" = [])),
    request_body = Vec<ButtonInput>,
    responses((status = 200, body = Envelope<Option<String>>), (status = 400, description = "Field errors by index, e.g. [2].button_value"), (status = 401), (status = 428)))]
async fn set_button_value(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<Vec<ButtonInput>>,
) -> ApiResult<Option<String>> {
    let mut checks = Checks::default();
    if body.is_empty() {
        checks.fail("buttons", "Send at least one button.");
    }
    let mut lists: Vec<(&str, Vec<(String, i64)>)> = Vec::new();
    for (index, button) in body.iter().enumerate() {
        let Some(button_type) = BUTTON_TYPES.iter().find(|t| **t == button.button_type) else {
            checks.fail(&format!("[{index}].type"), "Type must be Game or Casino.");
            continue;
        };
        let name = button.button_name.trim();
        if name.is_empty() {
            checks.fail(&format!("[{index}].button_name"), "Label is required.");
        } else if name.chars().count() > BUTTON_NAME_MAX_CHARS {
            checks.fail(
                &format!("[{index}].button_name"),
                format!("Label must be at most {BUTTON_NAME_MAX_CHARS} characters."),
            );
        }
        let value = button.button_value.0;
        if !value.is_positive() {
            checks.fail(&format!("[{index}].button_value"), "Value must be more than 0.");
        } else if value.minor() > BUTTON_VALUE_MAX_MINOR {
            checks.fail(
                &format!("[{index}].button_value"),
                format!("Value must be at most {}.", Money::from_minor(BUTTON_VALUE_MAX_MINOR)),
            );
        }
        match lists.iter_mut().find(|(t, _)| t == button_type) {
            Some((_, list)) => list.push((name.to_string(), value.minor())),
            None => lists.push((button_type, vec![(name.to_string(), value.minor())])),
        }
    }
    for (button_type, list) in &lists {
        if list.len() > MAX_BUTTONS_PER_TYPE {
            checks
                .fail("buttons", format!("At most {MAX_BUTTONS_PER_TYPE} {button_type} buttons."));
        }
    }
    checks.finish()?;

    let mut writer = state.store.begin_write().await?;
    for (button_type, list) in &lists {
        writer.replace_button_values(authed.user.id, button_type, list).await?;
    }
    writer.commit().await?;
    Ok(ok_with("Button values updated.", None))
}
