//! The casino categories (`casino_sports`, served by `casino/getCasinoSport`, which shows only
//! those with something to play): the spec's are seeded by migration 0008 and made honest by
//! 0010; an operator lists, adds, renames, orders and removes them here
//! (`backlay admin casino category …`).
//!
//! A category's id is what the web puts in its address (`#/casino/list/<id>`) and what in-house
//! games name as their `series_id`, so it is short: lower-case letters, digits, `-` and `_`.
//! `worldcasino` is the world-casino page's tab. A category games still belong to is not
//! removed (their tables would vanish from the lists).
//!
//! The in-house tables are dealt by the computer, so a category that holds them may not be
//! named with the word "live" ("Live Casino", "LIVE", "Live-Dealer"; "Olive" is fine): players
//! read it as a person dealing on camera. Migration 0010 moved them out of the seeded "Live
//! Casino" for the same reason.

use backlay_store::catalogue::CasinoSport;

use super::OperatorContext;
use backlay_casino_store::CasinoReads;
use backlay_kit::error::{AppError, OrNotFound};
use backlay_kit::input::Checks;

pub const CASINO_CATEGORY_ID_MAX_CHARS: usize = 32;
pub const CASINO_CATEGORY_NAME_MAX_CHARS: usize = 40;
/// Most categories: each is a tab on the casino page.
pub const MAX_CASINO_CATEGORIES: usize = 50;

fn category_id(id: &str) -> Result<String, AppError> {
    let id = id.trim();
    let valid = (1..=CASINO_CATEGORY_ID_MAX_CHARS).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
    if !valid {
        return Err(AppError::field(
            "sport_id",
            format!("A category id is 1 to {CASINO_CATEGORY_ID_MAX_CHARS} lower-case letters, digits, '-' or '_', e.g. cardgames."),
        ));
    }
    Ok(id.to_string())
}

fn category_name(name: &str) -> Result<String, AppError> {
    let mut checks = Checks::default();
    let name = backlay_kit::input::text_field(
        &mut checks,
        "name",
        "Category name",
        name,
        CASINO_CATEGORY_NAME_MAX_CHARS,
    );
    checks.finish()?;
    Ok(name)
}

/// Whether `name` has the word "live" in it, in any case.
fn says_live(name: &str) -> bool {
    name.split(|c: char| !c.is_alphanumeric()).any(|word| word.eq_ignore_ascii_case("live"))
}

/// Refuses a name with "live" for a category that holds in-house tables (see the module docs).
async fn refuse_live_name_for_in_house_tables(
    ctx: &OperatorContext<'_>,
    id: &str,
    name: &str,
) -> Result<(), AppError> {
    // An empty id names no category (and would ask for every game).
    if !says_live(name) || id.is_empty() {
        return Ok(());
    }
    let games = ctx.store.casino_games(false, Some(id)).await?;
    if games.is_empty() {
        return Ok(());
    }
    let mut titles: Vec<&str> = games.iter().take(3).map(|g| g.title.as_str()).collect();
    if games.len() > titles.len() {
        titles.push("…");
    }
    Err(AppError::field(
        "name",
        format!(
            "{id} holds the in-house tables ({}), which the computer deals: a name with \"live\" \
             would tell players a person deals them live. Choose another name, e.g. \"Card Games\".",
            titles.join(", ")
        ),
    ))
}

fn unknown(id: &str) -> impl FnOnce() -> String + '_ {
    move || format!("There is no casino category {id}.")
}

/// The category `id` as it is now (for the audit log's before), or `NotFound`.
async fn current(ctx: &OperatorContext<'_>, id: &str) -> Result<CasinoSport, AppError> {
    ctx.store
        .casino_sports(false)
        .await?
        .into_iter()
        .find(|c| c.sport_id == id)
        .ok_or_else(|| AppError::NotFound(unknown(id)()))
}

/// Adds a category, active, at `display_order` (lower first).
pub async fn add_casino_category(
    ctx: &OperatorContext<'_>,
    id: &str,
    name: &str,
    display_order: i64,
) -> Result<CasinoSport, AppError> {
    ctx.require_admin("edit casino categories")?;
    let category = CasinoSport {
        sport_id: category_id(id)?,
        name: category_name(name)?,
        is_active: true,
        display_order,
    };
    refuse_live_name_for_in_house_tables(ctx, &category.sport_id, &category.name).await?;
    if ctx.store.casino_sports(false).await?.len() >= MAX_CASINO_CATEGORIES {
        return Err(AppError::Conflict(format!(
            "There are already {MAX_CASINO_CATEGORIES} casino categories, the most the casino page shows: remove one first."
        )));
    }
    let mut writer = ctx.store.begin_write().await?;
    writer.insert_casino_sport(&category).await?;
    ctx.audit(
        &mut writer,
        "casino_category.add",
        format!("casino_category:{}", category.sport_id),
        serde_json::json!({ "name": category.name, "order": display_order }),
    )
    .await?;
    writer.commit().await?;
    Ok(category)
}

pub async fn rename_casino_category(
    ctx: &OperatorContext<'_>,
    id: &str,
    name: &str,
) -> Result<(), AppError> {
    ctx.require_admin("edit casino categories")?;
    let (id, name) = (id.trim(), category_name(name)?);
    refuse_live_name_for_in_house_tables(ctx, id, &name).await?;
    let before = current(ctx, id).await?;
    let mut writer = ctx.store.begin_write().await?;
    writer.rename_casino_sport(id, &name).await.or_not_found(unknown(id))?;
    ctx.audit(
        &mut writer,
        "casino_category.rename",
        format!("casino_category:{id}"),
        serde_json::json!({ "before": { "name": before.name }, "after": { "name": name } }),
    )
    .await?;
    writer.commit().await?;
    Ok(())
}

pub async fn order_casino_category(
    ctx: &OperatorContext<'_>,
    id: &str,
    display_order: i64,
) -> Result<(), AppError> {
    ctx.require_admin("edit casino categories")?;
    let id = id.trim();
    let before = current(ctx, id).await?;
    let mut writer = ctx.store.begin_write().await?;
    writer.order_casino_sport(id, display_order).await.or_not_found(unknown(id))?;
    ctx.audit(
        &mut writer,
        "casino_category.order",
        format!("casino_category:{id}"),
        serde_json::json!({ "before": { "order": before.display_order }, "after": { "order": display_order } }),
    )
    .await?;
    writer.commit().await?;
    Ok(())
}

pub async fn remove_casino_category(ctx: &OperatorContext<'_>, id: &str) -> Result<(), AppError> {
    ctx.require_admin("edit casino categories")?;
    let id = id.trim();
    let before = current(ctx, id).await?;
    let mut writer = ctx.store.begin_write().await?;
    writer.remove_casino_sport(id).await.or_not_found(unknown(id))?;
    ctx.audit(
        &mut writer,
        "casino_category.remove",
        format!("casino_category:{id}"),
        serde_json::json!({ "before": { "name": before.name, "order": before.display_order } }),
    )
    .await?;
    writer.commit().await?;
    Ok(())
}

/// Moves a category one place up (earlier) or down in the list the site shows, and answers
/// the categories in their new order. The list is numbered again 10, 20, 30… in its new order,
/// so that two categories that shared an order (which the list then showed by id) can swap as
/// well; only the orders that change are written, each audited as an order change.
pub async fn move_casino_category(
    ctx: &OperatorContext<'_>,
    id: &str,
    up: bool,
) -> Result<Vec<CasinoSport>, AppError> {
    ctx.require_admin("edit casino categories")?;
    let id = id.trim();
    let mut list = ctx.store.casino_sports(false).await?;
    let at = list
        .iter()
        .position(|c| c.sport_id == id)
        .ok_or_else(|| AppError::NotFound(unknown(id)()))?;
    let other = if up { at.checked_sub(1) } else { Some(at + 1).filter(|&i| i < list.len()) };
    let Some(other) = other else {
        let end = if up { "first" } else { "last" };
        return Err(AppError::Conflict(format!("{} is already {end}.", list[at].name)));
    };
    list.swap(at, other);
    let mut writer = ctx.store.begin_write().await?;
    for (place, category) in list.iter_mut().enumerate() {
        let order = (i64::try_from(place).unwrap_or(i64::MAX) + 1).saturating_mul(10);
        if category.display_order == order {
            continue;
        }
        writer
            .order_casino_sport(&category.sport_id, order)
            .await
            .or_not_found(unknown(&category.sport_id))?;
        ctx.audit(
            &mut writer,
            "casino_category.order",
            format!("casino_category:{}", category.sport_id),
            serde_json::json!({ "before": { "order": category.display_order }, "after": { "order": order } }),
        )
        .await?;
        category.display_order = order;
    }
    writer.commit().await?;
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::says_live;

    #[test]
    fn live_is_found_as_a_word_in_any_case() {
        for name in ["Live Casino", "LIVE", "live", "Live-Dealer", "Casino (Live)", "Tables live"] {
            assert!(says_live(name), "{name}");
        }
        for name in ["Card Games", "Olive Tables", "Lively", "Delivered", "Liv e"] {
            assert!(!says_live(name), "{name}");
        }
    }
}
