//! The casino's operator calls under `/api/admin/casino/…` (admin only), what the console's
//! Casino screen sends: one read of everything the screen shows, then one call per action.
//! Each hands over to the [`backlay_operator`] function `backlay admin casino …` and
//! `backlay admin provider …` call, so the console and the command share every rule and every
//! audit entry.
//!
//! A provider's signing secret is answered once, by the call that makes it (add, rotate): the
//! read never carries it.

use axum::extract::State;
use backlay_api::operator_context;
use backlay_casino_store::casino::CasinoGame;
use backlay_casino_store::providers::{CasinoProvider, WorldCasinoGame, WORLD_CASINO_CATEGORIES};
use backlay_store::catalogue::CasinoSport;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_casino_runtime::art::tile_image_url;
use backlay_casino_store::{CasinoReads, ProviderReads};
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{ApiJson, FlexBool, FlexI64};
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{self as operator, AddProvider, AddWorldCasinoGame};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(casino_list))
        .routes(routes!(table_active))
        .routes(routes!(casino_game_image))
        .routes(routes!(category_add))
        .routes(routes!(category_rename))
        .routes(routes!(category_order))
        .routes(routes!(category_move))
        .routes(routes!(category_remove))
        .routes(routes!(provider_add))
        .routes(routes!(provider_rotate_secret))
        .routes(routes!(catalogue_add))
        .routes(routes!(catalogue_active))
}

/// An in-house game (a table the server deals).
#[derive(Serialize, ToSchema)]
pub struct CasinoTableItem {
    /// The client's code (`dt6`), what the calls below name it by.
    pub game_code: String,
    /// The rules' code (`dt1day`).
    pub kind: String,
    pub name: String,
    pub title: String,
    /// The category it is listed under (a `categories` id).
    pub category: String,
    /// Off: out of the lobby, bets refused, no new round.
    pub is_active: bool,
    /// The uploaded image its tile shows, or "" for the game's own art.
    pub image_name: String,
    /// What its tile shows (getCasinoList's `image`).
    pub image: String,
}

impl From<CasinoGame> for CasinoTableItem {
    fn from(game: CasinoGame) -> CasinoTableItem {
        CasinoTableItem {
            image: tile_image_url(&game.kind, game.image_name.as_deref()),
            game_code: game.game_code,
            kind: game.kind,
            name: game.name,
            title: game.title,
            category: game.series_id,
            is_active: game.is_active,
            image_name: game.image_name.unwrap_or_default(),
        }
    }
}

/// A casino category (getCasinoSport's tabs), in the site's order.
#[derive(Serialize, ToSchema)]
pub struct CasinoCategoryItem {
    pub sport_id: String,
    pub name: String,
    /// Lower first.
    pub order: i64,
    /// How many in-house tables belong to it (a category with any is not removed).
    pub tables: i64,
}

impl CasinoCategoryItem {
    fn of(category: CasinoSport, tables: &[CasinoTableItem]) -> CasinoCategoryItem {
        let count = tables.iter().filter(|t| t.category == category.sport_id).count();
        CasinoCategoryItem {
            tables: i64::try_from(count).unwrap_or(i64::MAX),
            sport_id: category.sport_id,
            name: category.name,
            order: category.display_order,
        }
    }
}

/// A game provider, without its secret.
#[derive(Serialize, ToSchema)]
pub struct CasinoProviderItem {
    /// What it signs wallet calls as.
    pub code: String,
    pub name: String,
    /// Where its games launch; "" for the built-in provider (the server's own address).
    pub launch_url: String,
    /// The server's own provider (the in-house games); its secret is not rotated here.
    pub is_builtin: bool,
    pub is_active: bool,
}

impl From<CasinoProvider> for CasinoProviderItem {
    fn from(provider: CasinoProvider) -> CasinoProviderItem {
        CasinoProviderItem {
            code: provider.code,
            name: provider.name,
            launch_url: provider.launch_url.unwrap_or_default(),
            is_builtin: provider.is_builtin,
            is_active: provider.is_active,
        }
    }
}

/// A world-casino catalogue game.
#[derive(Serialize, ToSchema)]
pub struct CatalogueGameItem {
    /// The public id, `<provider>-<game code>`.
    pub game_id: String,
    pub provider: String,
    /// The provider's own code for the game.
    pub game_code: String,
    pub game_name: String,
    pub category: String,
    pub sub_provider_name: String,
    pub url_thumb: String,
    /// The game's own switch.
    pub is_active: bool,
    /// Launched from the lobby: the game and its provider are both on.
    pub is_playable: bool,
}

impl From<WorldCasinoGame> for CatalogueGameItem {
    fn from(game: WorldCasinoGame) -> CatalogueGameItem {
        CatalogueGameItem {
            is_playable: game.is_playable(),
            game_id: game.game_id,
            provider: game.provider_code,
            game_code: game.game_code,
            game_name: game.game_name,
            category: game.category,
            sub_provider_name: game.sub_provider_name,
            url_thumb: game.url_thumb,
            is_active: game.is_active,
        }
    }
}

/// Everything the console's Casino screen shows.
#[derive(Serialize, ToSchema)]
pub struct CasinoAdminData {
    /// The in-house tables, in the lobby's order, on or off.
    pub tables: Vec<CasinoTableItem>,
    /// Every category, in the site's order (players see only those with something to play).
    pub categories: Vec<CasinoCategoryItem>,
    /// The built-in provider first, then by code.
    pub providers: Vec<CasinoProviderItem>,
    /// The world-casino catalogue, in the lobby's order.
    pub catalogue: Vec<CatalogueGameItem>,
    /// The categories a catalogue game may have.
    pub catalogue_categories: Vec<String>,
    /// The uploaded images a table's tile may show (admin/upload/image).
    pub images: Vec<String>,
}

/// The casino as the operator runs it: tables, categories, providers (never a secret), the
/// catalogue and the uploaded images (admin only).
#[utoipa::path(get, path = "/admin/casino/list", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Envelope<CasinoAdminData>), (status = 403, description = "Not an admin")))]
async fn casino_list(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
) -> ApiResult<CasinoAdminData> {
    let ctx = operator_context(&state, operator, ip);
    ctx.require_admin("run the casino")?;
    let tables: Vec<CasinoTableItem> =
        state.store.casino_games(false, None).await?.into_iter().map(Into::into).collect();
    let categories = state
        .store
        .casino_sports(false)
        .await?
        .into_iter()
        .map(|c| CasinoCategoryItem::of(c, &tables))
        .collect();
    let providers = state.store.casino_providers().await?.into_iter().map(Into::into).collect();
    let catalogue = state.store.world_casino_games().await?.into_iter().map(Into::into).collect();
    let images = state.store.uploaded_images().await?.into_iter().map(|i| i.name).collect();
    Ok(ok(CasinoAdminData {
        tables,
        categories,
        providers,
        catalogue,
        catalogue_categories: WORLD_CASINO_CATEGORIES.iter().map(|c| c.to_string()).collect(),
        images,
    }))
}

#[derive(Deserialize, ToSchema)]
pub struct TableActiveRequest {
    /// The table's client code (`dt6`) or rules code (`dt1day`).
    pub game_code: String,
    /// 1: on; 0: off (out of the lobby, bets refused; a round already open still settles).
    #[schema(value_type = i64, minimum = 0, maximum = 1)]
    pub active: FlexBool,
}

/// Switches an in-house table on or off (admin only), audited with before and after.
#[utoipa::path(post, path = "/admin/casino/table/active", tag = "admin", request_body = TableActiveRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CasinoTableItem>), (status = 400), (status = 403, description = "Not an admin"),
        (status = 404, description = "No such game")))]
async fn table_active(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<TableActiveRequest>,
) -> ApiResult<CasinoTableItem> {
    let ctx = operator_context(&state, operator, ip);
    let game = operator::set_casino_game_active(&ctx, &body.game_code, body.active.0).await?;
    let message = if game.is_active {
        format!("{} is on: its rounds run and players see it.", game.title)
    } else {
        format!("{} is off: players no longer see it and bets on it are refused.", game.title)
    };
    Ok(ok_with(message, game.into()))
}

#[derive(Deserialize, ToSchema)]
pub struct CasinoGameImageRequest {
    /// The in-house game: its client code (`dt6`) or rules code (`dt1day`), as getCasinoList
    /// names it.
    pub game_code: String,
    /// The name of an image uploaded with admin/upload/image (`dragon-tiger.png`), or "" to
    /// show the game's own art again.
    pub image: String,
}

#[derive(Serialize, ToSchema)]
pub struct CasinoGameImageItem {
    pub game_code: String,
    /// The uploaded image's name, or "" when the tile shows the game's own art.
    pub image_name: String,
    /// What getCasinoList now sends as the game's `image`.
    pub image: String,
}

/// Shows an uploaded image on an in-house game's tile instead of its art (admin only), or the
/// art again with `image: ""`.
#[utoipa::path(post, path = "/admin/casino/gameImage", tag = "admin", request_body = CasinoGameImageRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CasinoGameImageItem>),
        (status = 400, description = "No game code, or an image name no upload could have"),
        (status = 403, description = "Not an admin"),
        (status = 404, description = "No such game, or no uploaded image of that name")))]
async fn casino_game_image(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CasinoGameImageRequest>,
) -> ApiResult<CasinoGameImageItem> {
    let ctx = operator_context(&state, operator, ip);
    let game = operator::set_casino_game_image(&ctx, &body.game_code, &body.image).await?;
    let image = tile_image_url(&game.kind, game.image_name.as_deref());
    let message = match &game.image_name {
        Some(name) => format!("{} shows {name}.", game.title),
        None => format!("{} shows its own art.", game.title),
    };
    Ok(ok_with(
        message,
        CasinoGameImageItem {
            game_code: game.game_code,
            image_name: game.image_name.unwrap_or_default(),
            image,
        },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct CategoryAddRequest {
    /// 1–32 lower-case letters, digits, '-' or '_' (the web's address: #/casino/list/<id>).
    pub sport_id: String,
    pub name: String,
    /// Lower first; absent: 100 (after the seeded ones).
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub order: Option<FlexI64>,
}

#[derive(Serialize, ToSchema)]
pub struct CategoryItem {
    pub sport_id: String,
    pub name: String,
    pub order: i64,
}

/// Adds a casino category (admin only); players see it once it has something to play.
#[utoipa::path(post, path = "/admin/casino/category/add", tag = "admin", request_body = CategoryAddRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CategoryItem>), (status = 400), (status = 403, description = "Not an admin"),
        (status = 409, description = "The id is taken")))]
async fn category_add(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CategoryAddRequest>,
) -> ApiResult<CategoryItem> {
    let ctx = operator_context(&state, operator, ip);
    let order = body.order.map_or(100, |o| o.0);
    let category = operator::add_casino_category(&ctx, &body.sport_id, &body.name, order).await?;
    Ok(ok_with(
        format!("{} added.", category.name),
        CategoryItem {
            sport_id: category.sport_id,
            name: category.name,
            order: category.display_order,
        },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct CategoryRenameRequest {
    pub sport_id: String,
    pub name: String,
}

/// Renames a casino category (admin only).
#[utoipa::path(post, path = "/admin/casino/category/rename", tag = "admin", request_body = CategoryRenameRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403, description = "Not an admin"),
        (status = 404, description = "No such category")))]
async fn category_rename(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CategoryRenameRequest>,
) -> ApiResult<Option<String>> {
    let ctx = operator_context(&state, operator, ip);
    operator::rename_casino_category(&ctx, &body.sport_id, &body.name).await?;
    Ok(ok_with(format!("{} is now {}.", body.sport_id.trim(), body.name.trim()), None))
}

#[derive(Deserialize, ToSchema)]
pub struct CategoryOrderRequest {
    pub sport_id: String,
    /// Lower first.
    #[schema(value_type = i64)]
    pub order: FlexI64,
}

/// Gives a casino category its place in the list (admin only).
#[utoipa::path(post, path = "/admin/casino/category/order", tag = "admin", request_body = CategoryOrderRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400), (status = 403, description = "Not an admin"),
        (status = 404, description = "No such category")))]
async fn category_order(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CategoryOrderRequest>,
) -> ApiResult<Option<String>> {
    let ctx = operator_context(&state, operator, ip);
    operator::order_casino_category(&ctx, &body.sport_id, body.order.0).await?;
    Ok(ok_with(format!("{} has order {}.", body.sport_id.trim(), body.order.0), None))
}

#[derive(Deserialize, ToSchema)]
pub struct CategoryMoveRequest {
    pub sport_id: String,
    /// "up" (shown earlier) or "down".
    #[schema(pattern = "^(up|down)$")]
    pub direction: String,
}

/// Moves a casino category one place up or down (admin only); the list is numbered again
/// 10, 20, 30… in its new order. Answers the categories in their new order.
#[utoipa::path(post, path = "/admin/casino/category/move", tag = "admin", request_body = CategoryMoveRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<CategoryItem>>), (status = 400), (status = 403, description = "Not an admin"),
        (status = 404, description = "No such category"), (status = 409, description = "Already first (or last)")))]
async fn category_move(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CategoryMoveRequest>,
) -> ApiResult<Vec<CategoryItem>> {
    let up = match body.direction.trim() {
        "up" => true,
        "down" => false,
        _ => return Err(AppError::field("direction", "The direction is up or down.")),
    };
    let ctx = operator_context(&state, operator, ip);
    let list = operator::move_casino_category(&ctx, &body.sport_id, up).await?;
    let items = list
        .into_iter()
        .map(|c| CategoryItem { sport_id: c.sport_id, name: c.name, order: c.display_order })
        .collect();
    Ok(ok_with(format!("{} moved {}.", body.sport_id.trim(), body.direction.trim()), items))
}

#[derive(Deserialize, ToSchema)]
pub struct CategoryRemoveRequest {
    pub sport_id: String,
}

/// Removes a casino category no in-house table belongs to (admin only).
#[utoipa::path(post, path = "/admin/casino/category/remove", tag = "admin", request_body = CategoryRemoveRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 403, description = "Not an admin"),
        (status = 404, description = "No such category"), (status = 409, description = "Tables still belong to it")))]
async fn category_remove(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CategoryRemoveRequest>,
) -> ApiResult<Option<String>> {
    let ctx = operator_context(&state, operator, ip);
    operator::remove_casino_category(&ctx, &body.sport_id).await?;
    Ok(ok_with(format!("{} removed.", body.sport_id.trim()), None))
}

#[derive(Deserialize, ToSchema)]
pub struct ProviderAddRequest {
    /// What it signs as: 1–32 lower-case letters, digits, '-' or '_', e.g. evo.
    pub code: String,
    pub name: String,
    /// Where its games launch: https (or http on localhost) with an optional path, no query.
    pub launch_url: String,
}

/// A provider's signing secret, answered only by the call that made it.
#[derive(Serialize, ToSchema)]
pub struct ProviderSecretData {
    pub code: String,
    /// 64 hex digits: hand it to the provider (docs/wallet.md). Never shown again.
    pub secret: String,
}

/// Adds an outside game provider (admin only) and answers its signing secret, this once.
/// Its games are framed once its origin is in the `casino_frame_origins` setting.
#[utoipa::path(post, path = "/admin/casino/provider/add", tag = "admin", request_body = ProviderAddRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<ProviderSecretData>), (status = 400), (status = 403, description = "Not an admin"),
        (status = 409, description = "The code is taken")))]
async fn provider_add(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<ProviderAddRequest>,
) -> ApiResult<ProviderSecretData> {
    let ctx = operator_context(&state, operator, ip);
    let provider = AddProvider { code: body.code, name: body.name, launch_url: body.launch_url };
    let code = provider.code.trim().to_string();
    let (_, secret) = operator::add_casino_provider(&ctx, provider).await?;
    Ok(ok_with(
        format!(
            "{code} added. Its signing secret is shown only now: hand it to the provider. \
             Add its launch address's origin to the casino frame origins setting to frame its games."
        ),
        ProviderSecretData { code, secret },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct ProviderRotateRequest {
    pub code: String,
}

/// Gives an outside provider a new signing secret (admin only), answered this once; calls
/// signed with the old one are refused from now on.
#[utoipa::path(post, path = "/admin/casino/provider/rotateSecret", tag = "admin", request_body = ProviderRotateRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<ProviderSecretData>), (status = 403, description = "Not an admin"),
        (status = 404, description = "No such outside provider (the built-in one's secret is made at start)")))]
async fn provider_rotate_secret(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<ProviderRotateRequest>,
) -> ApiResult<ProviderSecretData> {
    let ctx = operator_context(&state, operator, ip);
    let secret = operator::rotate_provider_secret(&ctx, &body.code).await?;
    let code = body.code.trim().to_string();
    Ok(ok_with(
        format!("{code} has a new signing secret, shown only now; the old one no longer works."),
        ProviderSecretData { code, secret },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct CatalogueAddRequest {
    /// The provider's code.
    pub provider: String,
    /// The provider's own code for the game (sent to it at launch).
    pub game_code: String,
    pub game_name: String,
    /// One of the list's `catalogue_categories`.
    pub category: String,
    #[serde(default)]
    pub sub_provider_name: String,
    /// An https thumbnail address, or "".
    #[serde(default)]
    pub url_thumb: String,
}

#[derive(Serialize, ToSchema)]
pub struct CatalogueGameId {
    /// The public id, `<provider>-<game code>`.
    pub game_id: String,
}

/// Lists a provider's game in the world-casino catalogue, switched on (admin only).
#[utoipa::path(post, path = "/admin/casino/catalogue/add", tag = "admin", request_body = CatalogueAddRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<CatalogueGameId>), (status = 400), (status = 403, description = "Not an admin"),
        (status = 409, description = "The provider already lists the game, or the catalogue is full")))]
async fn catalogue_add(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CatalogueAddRequest>,
) -> ApiResult<CatalogueGameId> {
    let ctx = operator_context(&state, operator, ip);
    let game = AddWorldCasinoGame {
        provider_code: body.provider,
        game_code: body.game_code,
        game_name: body.game_name,
        category: body.category,
        sub_provider_name: body.sub_provider_name,
        url_thumb: body.url_thumb,
    };
    let game_id = operator::add_world_casino_game(&ctx, game).await?;
    Ok(ok_with(format!("{game_id} is listed."), CatalogueGameId { game_id }))
}

#[derive(Deserialize, ToSchema)]
pub struct CatalogueActiveRequest {
    /// The public id, e.g. evo-lightning.
    pub game_id: String,
    /// 1: on; 0: off (listed without status, launch refused).
    #[schema(value_type = i64, minimum = 0, maximum = 1)]
    pub active: FlexBool,
}

/// Switches a catalogue game on or off (admin only).
#[utoipa::path(post, path = "/admin/casino/catalogue/active", tag = "admin", request_body = CatalogueActiveRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 403, description = "Not an admin"),
        (status = 404, description = "No such catalogue game")))]
async fn catalogue_active(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<CatalogueActiveRequest>,
) -> ApiResult<Option<String>> {
    let ctx = operator_context(&state, operator, ip);
    operator::set_world_casino_game_active(&ctx, &body.game_id, body.active.0).await?;
    let state_word = if body.active.0 { "on" } else { "off" };
    Ok(ok_with(format!("{} is {state_word}.", body.game_id.trim()), None))
}
