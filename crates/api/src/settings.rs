//! Site settings for the client: `globalSetting/getGlobalSetting` (public: the log-in page uses
//! the theme and logo). The keys and their rules are in [`backlay_kit::settings`].

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok, ApiResult, Envelope};
use backlay_kit::settings::{frame_origins, load, PublicSettings};
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_global_setting))
}

#[derive(Serialize, ToSchema)]
pub struct GlobalSetting {
    #[serde(flatten)]
    pub public: PublicSettings,
    /// Origins of casino providers whose game pages may be framed (casino/mac88/game): the
    /// operator's list and the server's public origin (the built-in provider).
    pub casino_frame_origins: Vec<String>,
}

#[utoipa::path(get, path = "/globalSetting/getGlobalSetting", tag = "catalogue",
    responses((status = 200, body = Envelope<GlobalSetting>)))]
async fn get_global_setting(State(state): State<AppState>) -> ApiResult<GlobalSetting> {
    let settings = load(&state.store).await?;
    let frame_setting = settings.get("casino_frame_origins").map_or("", String::as_str);
    Ok(ok(GlobalSetting {
        public: PublicSettings::from_settings(&settings),
        casino_frame_origins: frame_origins(frame_setting, &state.public_url),
    }))
}
