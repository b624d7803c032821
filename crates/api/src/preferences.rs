//! The bettor's betting preferences (issue 32, quick betting): `GET|POST user/preferences`. Kept
//! on the server (`backlay_store::preferences`) so one-click betting and the rate changes a
//! bettor accepts follow them to any device; the bet slip reads them and sends
//! `accept_rate_changes` with each bookmaker or fancy bet.

use axum::extract::State;
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_engine::RateChanges;
use backlay_store::preferences::Preferences;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::now_ms;
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{choice_field, AmountInput, ApiJson};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_preferences, set_preferences))
}

/// The largest one-click stake: a typo (an extra zero or two) must not become one click's bet.
const MAX_ONE_CLICK_STAKE_MINOR: i64 = 10_00_000_00;

#[derive(Serialize, ToSchema, Debug)]
pub struct PreferencesData {
    /// A click on a price places a bet at `one_click_stake` (after a 2 s undo).
    pub one_click: bool,
    /// Null until chosen.
    #[schema(value_type = Option<f64>, required = true)]
    pub one_click_stake: Option<Money>,
    #[schema(value_type = RateChanges)]
    pub accept_rate_changes: RateChanges,
    /// Minutes between reality checks: 15, 30, 45, 60, 90 or 120 (issue 33).
    pub reality_check_minutes: i64,
}

/// The reality check's intervals a bettor may choose, minutes.
pub const REALITY_CHECK_MINUTES: [i64; 6] = [15, 30, 45, 60, 90, 120];

fn data_of(preferences: &Preferences) -> PreferencesData {
    PreferencesData {
        one_click: preferences.one_click,
        one_click_stake: preferences.one_click_stake_minor.map(Money::from_minor),
        // Stored by its name, checked when written.
        accept_rate_changes: preferences.accept_rate_changes.parse().unwrap_or_default(),
        reality_check_minutes: preferences.reality_check_minutes,
    }
}

#[utoipa::path(get, path = "/user/preferences", tag = "user", security(("bearer" = [])),
    responses((status = 200, body = Envelope<PreferencesData>), (status = 401)))]
async fn get_preferences(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<PreferencesData> {
    Ok(ok(data_of(&state.store.preferences(authed.user.id).await?)))
}

/// Fields left out keep their stored value.
#[derive(Deserialize, ToSchema)]
pub struct PreferencesRequest {
    #[serde(default)]
    pub one_click: Option<bool>,
    #[serde(default)]
    #[schema(value_type = Option<f64>, exclusive_minimum = 0, maximum = 10_000_000.0, multiple_of = 0.01)]
    pub one_click_stake: Option<AmountInput>,
    #[serde(default)]
    #[schema(value_type = Option<RateChanges>)]
    pub accept_rate_changes: Option<String>,
    #[serde(default)]
    pub reality_check_minutes: Option<i64>,
}

#[utoipa::path(post, path = "/user/preferences", tag = "user", request_body = PreferencesRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<PreferencesData>), (status = 400), (status = 401)))]
async fn set_preferences(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<PreferencesRequest>,
) -> ApiResult<PreferencesData> {
    let mut preferences = state.store.preferences(authed.user.id).await?;
    if let Some(stake) = body.one_click_stake {
        let minor = stake.0.minor();
        if minor <= 0 || minor > MAX_ONE_CLICK_STAKE_MINOR {
            return Err(AppError::field(
                "one_click_stake",
                format!(
                    "The one-click stake must be more than 0 and at most {}.",
                    Money::from_minor(MAX_ONE_CLICK_STAKE_MINOR).rupees()
                ),
            ));
        }
        preferences.one_click_stake_minor = Some(minor);
    }
    if let Some(text) = body.accept_rate_changes.as_deref() {
        let changes =
            choice_field("accept_rate_changes", Some(text), RateChanges::default(), |text| {
                format!("{text} is not {}.", one_of(RateChanges::NAMES))
            })?;
        preferences.accept_rate_changes = changes.as_str().to_string();
    }
    if let Some(minutes) = body.reality_check_minutes {
        if !REALITY_CHECK_MINUTES.contains(&minutes) {
            return Err(AppError::field(
                "reality_check_minutes",
                "The reality check comes every 15, 30, 45, 60, 90 or 120 minutes.",
            ));
        }
        preferences.reality_check_minutes = minutes;
    }
    if let Some(one_click) = body.one_click {
        preferences.one_click = one_click;
    }
    if preferences.one_click && preferences.one_click_stake_minor.is_none() {
        return Err(AppError::field(
            "one_click_stake",
            "Choose the stake one click places before turning one-click betting on.",
        ));
    }
    state.store.set_preferences(authed.user.id, &preferences, now_ms()).await?;
    Ok(ok_with("Preferences saved.", data_of(&preferences)))
}
