//! Outside game providers and the world-casino catalogue (docs/wallet.md, docs/operating.md).

use backlay_casino_store::providers::{
    NewCasinoProvider, NewWorldCasinoGame, MAX_WORLD_CASINO_GAMES, WORLD_CASINO_CATEGORIES,
};

use super::{OperatorContext, CATALOGUE_NAME_MAX_CHARS};
use backlay_casino_store::{ProviderReads, ProviderWrites};
use backlay_kit::clock::now_ms;
use backlay_kit::error::{AppError, OrNotFound};
use backlay_kit::input::Checks;

/// Most providers, the built-in one included.
pub const MAX_CASINO_PROVIDERS: usize = 100;

/// An outside game provider to add.
#[derive(Clone, Debug)]
pub struct AddProvider {
    /// What it signs wallet calls as: 1–32 lower-case letters, digits, `-` or `_`.
    pub code: String,
    pub name: String,
    /// Where its games launch: an origin (https, or http on localhost) and an optional path,
    /// no query; gap/gaplogin adds `token` and `game`.
    pub launch_url: String,
}

fn provider_code(checks: &mut Checks, field: &str, code: &str) -> String {
    let code = code.trim();
    let ok = (1..=32).contains(&code.len())
        && code
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !ok {
        checks.fail(
            field,
            "A provider code is 1–32 lower-case letters, digits, '-' or '_', e.g. evo.",
        );
    }
    code.to_string()
}

/// `https://games.example.com/launch`: an allowed frame origin plus a plain path.
fn launch_url(checks: &mut Checks, url: &str) -> String {
    let url = url.trim();
    let after_scheme = url.split_once("://").map_or(0, |(scheme, _)| scheme.len() + 3);
    let (origin, path) =
        url.split_at(url[after_scheme..].find('/').map_or(url.len(), |i| after_scheme + i));
    let path_ok =
        path.len() <= 200 && path.bytes().all(|b| b.is_ascii_graphic() && b != b'?' && b != b'#');
    if !backlay_kit::settings::is_origin(&origin.to_lowercase()) || !path_ok {
        checks.fail("launch_url", "The launch URL is an https address with an optional path and no query, e.g. https://games.example.com/launch.");
    }
    url.to_string()
}

/// Adds an outside provider and answers its id and signing secret, which is shown only now.
/// Its games are framed only once its origin is in the `casino_frame_origins` setting.
pub async fn add_casino_provider(
    ctx: &OperatorContext<'_>,
    provider: AddProvider,
) -> Result<(i64, String), AppError> {
    ctx.require_admin("add game providers")?;
    let mut checks = Checks::default();
    let code = provider_code(&mut checks, "code", &provider.code);
    let name = backlay_kit::input::text_field(
        &mut checks,
        "name",
        "The provider's name",
        &provider.name,
        CATALOGUE_NAME_MAX_CHARS,
    );
    let launch_url = launch_url(&mut checks, &provider.launch_url);
    checks.finish()?;
    if ctx.store.casino_providers().await?.len() >= MAX_CASINO_PROVIDERS {
        return Err(AppError::Conflict(format!(
            "There are already {MAX_CASINO_PROVIDERS} game providers, the most Backlay keeps."
        )));
    }
    let secret = backlay_kit::token::new_secret();
    let mut writer = ctx.store.begin_write().await?;
    let id = writer
        .insert_casino_provider(
            &NewCasinoProvider {
                code: &code,
                name: &name,
                hmac_secret: &secret,
                launch_url: Some(&launch_url),
                is_active: true,
            },
            now_ms(),
        )
        .await?;
    ctx.audit(
        &mut writer,
        "provider.add",
        format!("provider/{code}"),
        serde_json::json!({ "name": name, "launch_url": launch_url }),
    )
    .await?;
    writer.commit().await?;
    Ok((id, secret))
}

/// Gives an outside provider a new signing secret (answered, shown only now); calls signed
/// with the old one are refused from this moment.
pub async fn rotate_provider_secret(
    ctx: &OperatorContext<'_>,
    code: &str,
) -> Result<String, AppError> {
    ctx.require_admin("change a provider's secret")?;
    let secret = backlay_kit::token::new_secret();
    let mut writer = ctx.store.begin_write().await?;
    writer.set_casino_provider_secret(code.trim(), &secret).await.or_not_found(|| {
        format!(
            "There is no outside provider {code}; the built-in provider's secret is made at start."
        )
    })?;
    ctx.audit(
        &mut writer,
        "provider.rotate_secret",
        format!("provider/{}", code.trim()),
        serde_json::Value::Null,
    )
    .await?;
    writer.commit().await?;
    Ok(secret)
}

/// A game to list in the world-casino catalogue.
#[derive(Clone, Debug)]
pub struct AddWorldCasinoGame {
    pub provider_code: String,
    /// The provider's own code for the game (sent to it at launch).
    pub game_code: String,
    pub game_name: String,
    /// One of the spec's categories ([`WORLD_CASINO_CATEGORIES`]).
    pub category: String,
    pub sub_provider_name: String,
    pub url_thumb: String,
}

/// Lists a provider's game in the catalogue; answers its public id (`<provider>-<game code>`).
pub async fn add_world_casino_game(
    ctx: &OperatorContext<'_>,
    game: AddWorldCasinoGame,
) -> Result<String, AppError> {
    ctx.require_admin("change the world-casino catalogue")?;
    let mut checks = Checks::default();
    let provider_code = provider_code(&mut checks, "provider", &game.provider_code);
    let game_code = backlay_kit::input::text_field(
        &mut checks,
        "game_code",
        "The game's code",
        &game.game_code,
        64,
    );
    if game_code.chars().any(|c| !c.is_ascii_graphic()) {
        checks.fail("game_code", "The game's code is visible ASCII without spaces.");
    }
    let game_name = backlay_kit::input::text_field(
        &mut checks,
        "game_name",
        "The game's name",
        &game.game_name,
        CATALOGUE_NAME_MAX_CHARS,
    );
    let category = game.category.trim();
    if !WORLD_CASINO_CATEGORIES.contains(&category) {
        checks.fail(
            "category",
            format!("The category is one of {}.", WORLD_CASINO_CATEGORIES.join(", ")),
        );
    }
    let sub_provider_name = game.sub_provider_name.trim();
    if sub_provider_name.chars().count() > CATALOGUE_NAME_MAX_CHARS {
        checks.fail(
            "sub_provider_name",
            format!(
                "The sub-provider's name must be at most {CATALOGUE_NAME_MAX_CHARS} characters."
            ),
        );
    }
    let url_thumb = game.url_thumb.trim();
    let thumb_ok = url_thumb.starts_with("https://")
        && url_thumb.len() <= 300
        && url_thumb.bytes().all(|b| b.is_ascii_graphic());
    if !url_thumb.is_empty() && !thumb_ok {
        checks.fail("url_thumb", "The thumbnail is an https address, or empty.");
    }
    checks.finish()?;
    let provider = ctx.store.casino_provider_by_code(&provider_code).await?.ok_or_else(|| {
        AppError::field("provider", format!("There is no provider {provider_code}."))
    })?;
    let game_id = format!("{provider_code}-{game_code}");
    let order = i64::try_from(ctx.store.world_casino_games().await?.len()).unwrap_or(i64::MAX);
    if order >= MAX_WORLD_CASINO_GAMES {
        // The lobby lists this many at most: a game beyond them would never be seen.
        return Err(AppError::Conflict(format!(
            "The catalogue already lists {MAX_WORLD_CASINO_GAMES} games, the most it holds."
        )));
    }
    let mut writer = ctx.store.begin_write().await?;
    let added = writer
        .add_world_casino_game(&NewWorldCasinoGame {
            game_id: &game_id,
            provider_id: provider.id,
            game_code: &game_code,
            game_name: &game_name,
            category,
            sub_provider_name,
            sub_type: None,
            url_thumb,
            display_order: order,
        })
        .await?;
    if !added {
        return Err(AppError::Conflict(format!(
            "{provider_code} already lists a game {game_code} ({game_id})."
        )));
    }
    ctx.audit(
        &mut writer,
        "world_casino.add_game",
        format!("world_casino/{game_id}"),
        serde_json::json!({ "name": game_name, "category": category }),
    )
    .await?;
    writer.commit().await?;
    Ok(game_id)
}

/// Switches a catalogue game on or off: off, it shows with an empty status and cannot launch.
pub async fn set_world_casino_game_active(
    ctx: &OperatorContext<'_>,
    game_id: &str,
    active: bool,
) -> Result<(), AppError> {
    ctx.require_admin("change the world-casino catalogue")?;
    let game_id = game_id.trim();
    let unknown = || format!("There is no world-casino game {game_id}.");
    let before =
        ctx.store.world_casino_game(game_id).await?.ok_or_else(|| AppError::NotFound(unknown()))?;
    let mut writer = ctx.store.begin_write().await?;
    writer.set_world_casino_game_active(game_id, active).await.or_not_found(unknown)?;
    ctx.audit(
        &mut writer,
        "world_casino.set_active",
        format!("world_casino/{game_id}"),
        serde_json::json!({ "before": { "active": before.is_active }, "after": { "active": active } }),
    )
    .await?;
    writer.commit().await?;
    Ok(())
}
