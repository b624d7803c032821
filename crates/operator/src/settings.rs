//! Changing site settings (the keys and their rules are in [`backlay_kit::settings`]).

use std::collections::BTreeMap;

use super::OperatorContext;
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;
use backlay_kit::input::Checks;

/// Every setting with its value (its default if never set), for an admin.
pub async fn read_settings(
    ctx: &OperatorContext<'_>,
) -> Result<BTreeMap<String, String>, AppError> {
    ctx.require_admin("read the site settings")?;
    backlay_kit::settings::load(ctx.store).await
}

/// Sets site settings; every key is checked before any is written.
pub async fn update_settings(
    ctx: &OperatorContext<'_>,
    changes: &[(String, String)],
) -> Result<(), AppError> {
    ctx.require_admin("change site settings")?;
    if changes.is_empty() {
        return Err(AppError::invalid("Send at least one setting to change."));
    }
    let mut checks = Checks::default();
    let mut valid = Vec::new();
    for (key, value) in changes {
        let Some(mut value) = backlay_kit::settings::validate(&mut checks, key, value) else {
            continue;
        };
        // Sign-ups are placed under this account, so it must be one that can have clients;
        // the name is stored as the account spells it.
        if key == "default_parent" && !value.is_empty() {
            match backlay_kit::settings::parent_named(ctx.store, &value).await? {
                Some(parent) => value = parent.user_name,
                None => {
                    checks.fail(key, backlay_kit::settings::not_a_parent(&value));
                    continue;
                }
            }
        }
        valid.push((key.clone(), value));
    }
    checks.finish()?;
    // What each key held before (its default if never set), for the audit log.
    let before = backlay_kit::settings::load(ctx.store).await?;
    let mut writer = ctx.store.begin_write().await?;
    let now = now_ms();
    for (key, value) in &valid {
        writer.set_setting(key, value, now).await?;
    }
    let detail: serde_json::Map<String, serde_json::Value> = valid
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::json!({ "before": before.get(k), "after": v })))
        .collect();
    ctx.audit(&mut writer, "settings.update", "global_settings".into(), detail.into()).await?;
    writer.commit().await?;
    Ok(())
}
