//! The world casino: the providers' games catalogue (`casino/getStaticGames`) and the launch
//! (`gap/gaplogin`), which opens a provider session for the caller and answers the provider's
//! game address with its token. The provider then talks to the seamless wallet
//! ([`backlay_casino_runtime::wallet`]) with that token; the built-in provider's address is on the server's
//! public origin (`--public-url`), which getGlobalSetting's `casino_frame_origins` lists so the
//! client frames it.

use std::collections::HashMap;

use axum::extract::State;
use backlay_casino_store::providers::WorldCasinoGame;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_casino_runtime::art::tile_image_url;
use backlay_casino_store::{CasinoReads, ProviderReads, ProviderWrites};
use backlay_kit::clock::now_ms;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_kit::input::{ApiJson, FlexBool, TextId};
use backlay_operator::session::{new_token, token_hash, CurrentUser};
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_static_games)).routes(routes!(gap_login))
}

/// How long a game launch lasts: the provider's debits need it live; credits and rollbacks of
/// rounds it started are still taken after it ends.
pub const LAUNCH_TTL_MS: i64 = 6 * 60 * 60 * 1000;

#[derive(Serialize, ToSchema)]
pub struct StaticGame {
    /// Send it as gaplogin's `gameId`.
    pub game_id: String,
    pub game_name: String,
    /// Crash Games, Live Game Shows, Live, Poker, Virtual or Live Dealer.
    pub category: String,
    pub provider_name: String,
    pub sub_provider_name: String,
    /// "ACTIVE", or "" when the game or its provider is switched off.
    pub status: String,
    /// A tile image, or "" for the client's own art. The built-in provider's games without a
    /// thumbnail of their own show the in-house game's image, as getCasinoList sends it.
    pub url_thumb: String,
    /// The provider's code for the game.
    pub game_code: String,
    #[schema(required = true)]
    pub sub_type: Option<String>,
}

fn static_game(game: WorldCasinoGame) -> StaticGame {
    StaticGame {
        status: if game.is_playable() { "ACTIVE" } else { "" }.to_string(),
        game_id: game.game_id,
        game_name: game.game_name,
        category: game.category,
        provider_name: game.provider_name,
        sub_provider_name: game.sub_provider_name,
        url_thumb: game.url_thumb,
        game_code: game.game_code,
        sub_type: game.sub_type,
    }
}

fn is_builtin_without_thumb(game: &WorldCasinoGame) -> bool {
    game.provider_is_builtin && game.url_thumb.is_empty()
}

#[utoipa::path(get, path = "/casino/getStaticGames", tag = "casino", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<StaticGame>>), (status = 401)))]
async fn get_static_games(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<Vec<StaticGame>> {
    let mut games = state.store.world_casino_games().await?;
    if games.iter().any(is_builtin_without_thumb) {
        // The built-in provider's game codes are the in-house games' kinds.
        let images: HashMap<String, Option<String>> = state
            .store
            .casino_games(false, None)
            .await?
            .into_iter()
            .map(|game| (game.kind, game.image_name))
            .collect();
        for game in games.iter_mut().filter(|g| is_builtin_without_thumb(g)) {
            let image_name = images.get(&game.game_code).cloned().flatten();
            game.url_thumb = tile_image_url(&game.game_code, image_name.as_deref());
        }
    }
    Ok(ok(games.into_iter().map(static_game).collect()))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GapLoginRequest {
    /// The aggregator's name the client sends ("mac88"); the game decides the provider.
    #[serde(default)]
    pub provider_name: Option<String>,
    /// The catalogue's `game_id`.
    #[schema(value_type = String)]
    pub game_id: TextId,
    /// desktop (default) or mobile.
    #[serde(default)]
    pub platform_id: Option<String>,
    /// Whether the provider's lobby was asked for instead of one game; games always open.
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    pub lobby: Option<FlexBool>,
    /// Where the client would like the player sent back to.
    #[serde(default)]
    pub redirect_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct GapLoginAnswer {
    /// The game's address with the launch token; the client frames it at casino/mac88/game.
    pub url: String,
}

/// `base` with `token` and `game` added to its query.
fn launch_address(base: &str, token: &str, game_code: &str) -> String {
    let separator = if base.contains('?') { '&' } else { '?' };
    format!("{base}{separator}token={}&game={}", query_escape(token), query_escape(game_code))
}

/// Percent-encodes everything but the unreserved characters of RFC 3986.
fn query_escape(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            other => format!("%{other:02X}"),
        })
        .collect()
}

#[utoipa::path(post, path = "/gap/gaplogin", tag = "casino", request_body = GapLoginRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<GapLoginAnswer>), (status = 400), (status = 401),
        (status = 404, description = "unknown game"), (status = 409, description = "the game or its provider is switched off")))]
async fn gap_login(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<GapLoginRequest>,
) -> ApiResult<GapLoginAnswer> {
    if authed.user.is_effectively_bet_locked() {
        return Err(AppError::betting_locked());
    }
    let game_id = body.game_id.0.trim();
    if game_id.is_empty() {
        return Err(AppError::field(
            "gameId",
            "gameId is required: pick a game from the casino lobby.",
        ));
    }
    if game_id.chars().count() > 128 {
        return Err(AppError::field("gameId", "gameId must be at most 128 characters."));
    }
    if body.provider_name.as_deref().is_some_and(|p| p.chars().count() > 64) {
        return Err(AppError::field("providerName", "providerName must be at most 64 characters."));
    }
    match body.platform_id.as_deref().map(str::trim) {
        None | Some("") | Some("desktop") | Some("mobile") => {}
        Some(other) => {
            return Err(AppError::field(
                "platformId",
                format!("platformId {other:?} is not desktop or mobile."),
            ))
        }
    }
    if body.redirect_url.as_deref().is_some_and(|u| u.len() > 2048) {
        return Err(AppError::field("redirectUrl", "redirectUrl must be at most 2048 characters."));
    }
    let game = state
        .store
        .world_casino_game(game_id)
        .await?
        .ok_or_else(|| AppError::NotFound(format!("There is no casino game {game_id}.")))?;
    if !game.provider_is_active {
        return Err(AppError::Conflict(format!(
            "{} is closed: its provider is switched off.",
            game.game_name
        )));
    }
    if !game.is_active {
        return Err(AppError::Conflict(format!("{} is closed at the moment.", game.game_name)));
    }
    let base = match &game.provider_launch_url {
        Some(url) => url.clone(),
        None => format!("{}{}", state.public_url, backlay_casino_runtime::provider::PLAY_PATH),
    };
    let token = new_token();
    let now = now_ms();
    let mut w = state.store.begin_write().await?;
    w.insert_provider_session(&token_hash(&token), authed.user.id, &game, now, now + LAUNCH_TTL_MS)
        .await?;
    w.commit().await?;
    Ok(ok(GapLoginAnswer { url: launch_address(&base, &token, &game.game_code) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_addresses_carry_the_token_and_game() {
        assert_eq!(
            launch_address("http://h:1/provider/play", "a-b_c", "teen20"),
            "http://h:1/provider/play?token=a-b_c&game=teen20"
        );
        assert_eq!(
            launch_address("https://g.example/launch?x=1", "t", "a b&c"),
            "https://g.example/launch?x=1&token=t&game=a%20b%26c"
        );
    }
}
