//! The trading desk's own settings on a market. Today one: its spread, how far the desk posts a
//! bookmaker's lay above the back it types, or a fancy's YES line above the NO line it types
//! (`MarketRow::desk_spread`). Example: a bookmaker at spread 3, the desk types back 45 → back 45,
//! lay 48; a fancy at spread 2, the desk types 60 → NO 60, YES 62. The desk's keys can still set
//! each side on its own (web/src/console/desk/desk-keys.ts); the spread is only where a typed
//! rate puts the other side.

use backlay_core::exchange::MarketType;
use backlay_store::markets::MAX_DESK_SPREAD;

use super::OperatorContext;
use backlay_kit::error::{AppError, OrNotFound};

/// Sets a running market's desk spread (admin only; bookmaker and fancy markets, which the desk
/// prices), audited with the spread before and after. Returns the new spread.
pub async fn set_desk_spread(
    ctx: &OperatorContext<'_>,
    market_id: i64,
    spread: i64,
) -> Result<i64, AppError> {
    ctx.require_admin("set a market's spread")?;
    if !(0..=MAX_DESK_SPREAD).contains(&spread) {
        return Err(AppError::field("spread", format!("A spread is 0 to {MAX_DESK_SPREAD}.")));
    }
    let mut writer = ctx.store.begin_write().await?;
    let market = writer
        .market(market_id)
        .await
        .or_not_found(|| format!("There is no market with id {market_id}."))?;
    if !matches!(market.setup.market_type, MarketType::Bookmaker | MarketType::Fancy) {
        return Err(AppError::field(
            "market_id",
            format!(
                "{} is an exchange market: its prices come from bettors, not the desk.",
                market.setup.name
            ),
        ));
    }
    if !writer.set_desk_spread(market_id, spread).await? {
        return Err(AppError::Conflict(format!("{} is settled.", market.setup.name)));
    }
    ctx.audit(
        &mut writer,
        "market.spread",
        format!("market:{market_id}"),
        serde_json::json!({ "market": market.setup.name, "before": market.desk_spread(), "after": spread }),
    )
    .await?;
    writer.commit().await?;
    Ok(spread)
}
