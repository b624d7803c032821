//! The in-house games (the tables): an operator switches a table on or off
//! (`admin/casino/table/active`, `backlay admin casino table …`) and may show an image of their
//! own on its tile instead of the game's built-in art (`admin/casino/gameImage`,
//! `backlay admin casino image …`).
//!
//! A table switched off leaves the lobby (`casino/getCasinoList`, and `casino/getCasinoSport`
//! once its category has nothing else to play), refuses bets (`casino::bets`) and opens no new
//! round; a round already taking bets closes, deals and settles as it would have, so every bet
//! in it is paid by the rules. Switched on again, its next round opens within a second.
//!
//! The image is one uploaded with `admin/upload/image` (or `backlay admin image upload`), named
//! as that call answered it (`dragon-tiger.png`); the game keeps only the name, so uploading a
//! new file under the same name changes the tile at once, and removing the upload brings the
//! art back (the column's foreign key is `ON DELETE SET NULL`). An empty name resets the tile
//! to the art.

use backlay_casino_store::casino::CasinoGame;

use super::OperatorContext;
use backlay_casino_store::{CasinoReads, CasinoWrites};
use backlay_kit::error::{AppError, OrNotFound};
use backlay_kit::uploads::{is_stored_name, IMAGE_NAME_MAX_CHARS};

/// Longest game code taken (`teen20`, `dt1day`).
const GAME_CODE_MAX_CHARS: usize = 32;

/// The game `game_code` names (its client code, `dt6`, or its rules code, `dt1day`).
async fn game_by_code(ctx: &OperatorContext<'_>, game_code: &str) -> Result<CasinoGame, AppError> {
    let game_code = game_code.trim();
    if game_code.is_empty() {
        return Err(AppError::field("game_code", "Name the game by its code, e.g. teen20 or dt6."));
    }
    if game_code.chars().count() > GAME_CODE_MAX_CHARS {
        return Err(AppError::field(
            "game_code",
            format!("A game code is at most {GAME_CODE_MAX_CHARS} characters, e.g. teen20."),
        ));
    }
    ctx.store
        .casino_game_by_code(game_code)
        .await
        .or_not_found(|| format!("There is no casino game {game_code}."))
}

/// Switches the table `game_code` on or off (see the module docs); answers the game as it now
/// is. Audited with before and after.
pub async fn set_casino_game_active(
    ctx: &OperatorContext<'_>,
    game_code: &str,
    active: bool,
) -> Result<CasinoGame, AppError> {
    ctx.require_admin("switch casino tables on or off")?;
    let game = game_by_code(ctx, game_code).await?;
    let mut writer = ctx.store.begin_write().await?;
    // Games are never removed, so the one just found is still there.
    writer.set_casino_game_active(game.id, active).await?;
    ctx.audit(
        &mut writer,
        "casino_game.active",
        format!("casino_game:{}", game.game_code),
        serde_json::json!({ "before": { "active": game.is_active }, "after": { "active": active } }),
    )
    .await?;
    writer.commit().await?;
    Ok(CasinoGame { is_active: active, ..game })
}

/// Shows the uploaded image `image` on the tile of the game `game_code` (its client code,
/// `dt6`, or its rules code, `dt1day`), or the game's own art again when `image` is empty.
/// Answers the game as it now is.
pub async fn set_casino_game_image(
    ctx: &OperatorContext<'_>,
    game_code: &str,
    image: &str,
) -> Result<CasinoGame, AppError> {
    ctx.require_admin("change the casino games' images")?;
    let image = image.trim();
    let image = (!image.is_empty()).then_some(image);
    if let Some(name) = image {
        if !is_stored_name(name) {
            let shown: String = name.chars().take(IMAGE_NAME_MAX_CHARS).collect();
            return Err(AppError::field(
                "image",
                format!(
                    "{shown:?} is not an uploaded image's name: upload the image first \
                     (admin/upload/image) and give the name it answers, e.g. dragon-tiger.png, \
                     or \"\" to show the game's own art."
                ),
            ));
        }
    }
    let game = game_by_code(ctx, game_code).await?;
    let mut writer = ctx.store.begin_write().await?;
    // The game was just found and games are never removed, so the only thing missing here can
    // be the upload.
    writer.set_casino_game_image(game.id, image).await.or_not_found(|| {
        format!(
            "There is no uploaded image {}: upload it with admin/upload/image first.",
            image.unwrap_or_default()
        )
    })?;
    ctx.audit(
        &mut writer,
        "casino_game.image",
        format!("casino_game:{}", game.game_code),
        serde_json::json!({ "before": { "image": game.image_name }, "after": { "image": image } }),
    )
    .await?;
    writer.commit().await?;
    Ok(CasinoGame { image_name: image.map(str::to_string), ..game })
}
