//! The caller's money and stake buttons: `user/getUserBalance`, `user/getButtonValue`,
//! `user/setButtonValue`.

use axum::extract::State;
use backlay_core::money::Money;
use backlay_store::buttons::ButtonValue;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::now_ms;
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{ApiJson, Checks};
use backlay_kit::settings::default_buttons;
use backlay_kit::stake_buttons::{check_button, check_count, BUTTON_TYPES};
use backlay_operator::session::{no_live_session, CurrentUser, SessionToken};
use backlay_operator::AppState;

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
        return Err(no_live_session(&state.store, &token.hash).await);
    };
    Ok(ok(Balance {
        total_balance: Money::from_minor(funds.balance_minor),
        liability: Money::from_minor(-funds.exposure_minor),
        available: Money::from_minor(funds.available_minor()),
    }))
}

#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct ButtonEntry {
    pub button_name: String,
    #[schema(value_type = f64)]
    pub button_value: Money,
    /// "Game" or "Casino".
    #[serde(rename = "type")]
    pub button_type: String,
}

/// The user's buttons; a list the user never set shows the operator's defaults.
async fn buttons_of(state: &AppState, user_id: i64) -> Result<Vec<ButtonEntry>, AppError> {
    let stored = state.store.button_values(user_id).await?;
    let mut entries = Vec::new();
    // The settings are read only for a list the user has not set.
    let mut settings = None;
    for button_type in BUTTON_TYPES {
        let own: Vec<&ButtonValue> =
            stored.iter().filter(|b| b.button_type == button_type).collect();
        if own.is_empty() {
            let settings = match settings {
                Some(ref settings) => settings,
                None => settings.insert(backlay_kit::settings::load(&state.store).await?),
            };
            entries.extend(default_buttons(settings, button_type).into_iter().map(|b| {
                ButtonEntry {
                    button_name: b.button_name,
                    button_value: b.button_value,
                    button_type: button_type.to_string(),
                }
            }));
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
    pub button_value: backlay_kit::input::AmountInput,
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
        let checked = check_button(
            &mut checks,
            &format!("[{index}]"),
            &button.button_name,
            button.button_value.0,
        );
        let (name, value) = (checked.button_name, checked.button_value);
        match lists.iter_mut().find(|(t, _)| t == button_type) {
            Some((_, list)) => list.push((name, value.minor())),
            None => lists.push((button_type, vec![(name, value.minor())])),
        }
    }
    for (button_type, list) in &lists {
        check_count(&mut checks, "buttons", button_type, list.len());
    }
    checks.finish()?;

    let mut writer = state.store.begin_write().await?;
    for (button_type, list) in &lists {
        writer.replace_button_values(authed.user.id, button_type, list).await?;
    }
    writer.commit().await?;
    Ok(ok_with("Button values updated.", None))
}
