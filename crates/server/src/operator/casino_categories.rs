//! The casino categories (`casino_sports`, served by `casino/getCasinoSport`): the spec's are
//! seeded by migration 0008; an operator lists, adds, renames, orders and removes them here
//! (`backlay admin casino category …`).
//!
//! A category's id is what the web puts in its address (`#/casino/list/<id>`) and what in-house
//! games name as their `series_id`, so it is short: lower-case letters, digits, `-` and `_`.
//! `worldcasino` is the world-casino page's tab. A category games still belong to is not
//! removed (their tables would vanish from the lists).

use backlay_store::catalogue::CasinoSport;

use super::OperatorContext;
use crate::error::{AppError, OrNotFound};
use crate::input::Checks;

pub const CASINO_CATEGORY_ID_MAX_CHARS: usize = 32;
pub const CASINO_CATEGORY_NAME_MAX_CHARS: usize = 40;

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
    let name = crate::input::text_field(
        &mut checks,
        "name",
        "Category name",
        name,
        CASINO_CATEGORY_NAME_MAX_CHARS,
    );
    checks.finish()?;
    Ok(name)
}

fn unknown(id: &str) -> impl FnOnce() -> String + '_ {
    move || format!("There is no casino category {id}.")
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
    let mut writer = ctx.store.begin_write().await?;
    writer.rename_casino_sport(id, &name).await.or_not_found(unknown(id))?;
    ctx.audit(
        &mut writer,
        "casino_category.rename",
        format!("casino_category:{id}"),
        serde_json::json!({ "name": name }),
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
    let mut writer = ctx.store.begin_write().await?;
    writer.order_casino_sport(id, display_order).await.or_not_found(unknown(id))?;
    ctx.audit(
        &mut writer,
        "casino_category.order",
        format!("casino_category:{id}"),
        serde_json::json!({ "order": display_order }),
    )
    .await?;
    writer.commit().await?;
    Ok(())
}

pub async fn remove_casino_category(ctx: &OperatorContext<'_>, id: &str) -> Result<(), AppError> {
    ctx.require_admin("edit casino categories")?;
    let id = id.trim();
    let mut writer = ctx.store.begin_write().await?;
    writer.remove_casino_sport(id).await.or_not_found(unknown(id))?;
    ctx.audit(
        &mut writer,
        "casino_category.remove",
        format!("casino_category:{id}"),
        serde_json::Value::Null,
    )
    .await?;
    writer.commit().await?;
    Ok(())
}
