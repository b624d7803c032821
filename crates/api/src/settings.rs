//! Site settings for the client: `globalSetting/getGlobalSetting` (public: the log-in page uses
//! the theme and logo). The keys and their rules are in [`backlay_kit::settings`].

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok, ApiResult, Envelope};
use backlay_kit::settings::{frame_origins, load};
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_global_setting))
}

#[derive(Serialize, ToSchema)]
pub struct GlobalSetting {
    pub site_title: String,
    pub site_message: String,
    pub logo: String,
    pub favicon: String,
    pub payment_gateway: i64,
    pub is_show_apk: i64,
    /// Where the "Download the app" link leads (shown when is_show_apk is 1); empty: no link.
    pub apk_url: String,
    pub bg_primary_color: String,
    pub bg_secondry_color: String,
    pub text_primary_color: String,
    pub text_secondry_color: String,
    pub other_color: String,
    /// Origins of casino providers whose game pages may be framed (casino/mac88/game): the
    /// operator's list and the server's public origin (the built-in provider).
    pub casino_frame_origins: Vec<String>,
}

#[utoipa::path(get, path = "/globalSetting/getGlobalSetting", tag = "catalogue",
    responses((status = 200, body = Envelope<GlobalSetting>)))]
async fn get_global_setting(State(state): State<AppState>) -> ApiResult<GlobalSetting> {
    let settings = load(&state.store).await?;
    let text = |key: &str| settings.get(key).cloned().unwrap_or_default();
    let flag = |key: &str| i64::from(settings.get(key).map(String::as_str) == Some("1"));
    Ok(ok(GlobalSetting {
        site_title: text("site_title"),
        site_message: text("site_message"),
        logo: text("logo"),
        favicon: text("favicon"),
        payment_gateway: flag("payment_gateway"),
        is_show_apk: flag("is_show_apk"),
        apk_url: text("apk_url"),
        bg_primary_color: text("bg_primary_color"),
        bg_secondry_color: text("bg_secondry_color"),
        text_primary_color: text("text_primary_color"),
        text_secondry_color: text("text_secondry_color"),
        other_color: text("other_color"),
        casino_frame_origins: frame_origins(&text("casino_frame_origins"), &state.public_url),
    }))
}
