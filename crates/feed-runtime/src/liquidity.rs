//! The upstream's ladder offered to bettors by the house.
//!
//! The feed's house is an account of the operator (`feed`, a client of the first admin, funded
//! once with `--feed-bankroll` of newly minted chips, its password random and never shown): its
//! orders are real orders in the engine's book, every bet it takes a bet with a ledger, a
//! position and a settlement. For each runner still running, every level the upstream shows
//! available to back becomes a house **lay** at that price (what a bettor backs into, the blue
//! column), every level available to lay a house **back**, the size scaled by
//! `--feed-size-percent` and capped by `--feed-max-level-size`, however small (to the paisa: the
//! market's stake limits are the bettors', `PlaceBet::house_liquidity`). Since the upstream's
//! best back is below its best lay, the house's orders never cross each other.
//!
//! Example: upstream 8.8 with 18.62 to back and 9.4 with 10.39 to lay, at 50 %: the house lays
//! 9.31 at 8.8 and backs 5.19 at 9.4 (sizes rounded down to the paisa).
//!
//! With `--feed-max-exposure` the house quotes a market only as far as its worst case there (its
//! resting orders counted as matched, as every account's are) stays within the cap: the engine
//! refuses the order that would pass it (`PlaceBet::house_max_exposure_minor`), best levels
//! being placed first, so the house keeps the touch and drops the deeper levels; bets it takes
//! never raise that worst case, and an order that lowers it still goes.
//!
//! Re-quoted as a diff (`backlay_operator::house_orders`), at most every
//! `runner::REQUOTE_EVERY` a market and within that of its ladder moving; pulled whole when the
//! upstream is not OPEN, before the market here is suspended or settled. Bettors' own orders still match each other first where
//! better.

use backlay_core::exchange::BetSide;
use backlay_feed::message::RunnerStatus;
use backlay_feed::mirror::MarketMirror;
use backlay_kit::actor::{Actor, OperatorContext};
use backlay_kit::error::AppError;
use backlay_operator::house_orders::{House, HouseOrder};
use backlay_operator::{AppState, CreateUser, TransferDirection};
use backlay_store::users::Role;

use crate::catalogue::LinkedMarket;

/// The house account's name.
pub const HOUSE_USER_NAME: &str = "feed";
/// The most orders the house keeps in one market, best levels first.
pub const MAX_HOUSE_ORDERS_PER_MARKET: usize = 1_000;

/// How the house sizes what it mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HouseTerms {
    pub size_percent: u32,
    pub max_level_minor: Option<i64>,
}

/// The orders the house wants in a market for the upstream's ladder as it stands.
pub fn wanted(linked: &LinkedMarket, market: &MarketMirror, terms: HouseTerms) -> Vec<HouseOrder> {
    let scale = |size_minor: i64| {
        let scaled = size_minor.saturating_mul(i64::from(terms.size_percent)) / 100;
        terms.max_level_minor.map_or(scaled, |cap| scaled.min(cap))
    };
    // Best levels first across runners, so that the bound keeps the touch.
    let mut by_depth: Vec<(usize, HouseOrder)> = Vec::new();
    for runner in market.runners() {
        let running = runner.definition().is_none_or(|d| d.status == RunnerStatus::Active);
        let Some(&selection_id) = linked.runners.get(&runner.selection_id()) else { continue };
        if !running {
            continue;
        }
        for (side, levels) in
            [(BetSide::Lay, runner.available_to_back()), (BetSide::Back, runner.available_to_lay())]
        {
            for (depth, level) in levels.into_iter().enumerate() {
                let size_minor = scale(level.size.minor());
                if size_minor > 0 {
                    by_depth.push((
                        depth,
                        HouseOrder { selection_id, side, price: level.price, size_minor },
                    ));
                }
            }
        }
    }
    by_depth.sort_by_key(|(depth, _)| *depth);
    by_depth.truncate(MAX_HOUSE_ORDERS_PER_MARKET);
    by_depth.into_iter().map(|(_, order)| order).collect()
}

/// A bookmaker market's rates, as the engine takes them: (runner id, back rate, lay rate), a
/// side off when `None`.
pub type BookmakerRates = Vec<(i64, Option<i64>, Option<i64>)>;

/// A bookmaker twin's rates for the upstream's ladder as it stands: per runner still running,
/// the back rate from the best price available to back and the lay rate from the best
/// available to lay, each `(price − 1) × 100` widened by `margin_percent` of itself (down for
/// the back, up for the lay); a side without an upstream price is off.
///
/// Example: upstream 2.38 to back and 2.40 to lay, margin 5 %: back 138 × 0.95 = 131.1 → 131,
/// lay 140 × 1.05 = 147 (rounded away from the bettor: down for the back, up for the lay).
pub fn bookmaker_rates(
    twin: &LinkedMarket,
    market: &MarketMirror,
    margin_percent: u32,
) -> BookmakerRates {
    let margin = i64::from(margin_percent);
    let mut rates = Vec::new();
    for runner in market.runners() {
        let Some(&runner_id) = twin.runners.get(&runner.selection_id()) else { continue };
        let running = runner.definition().is_none_or(|d| d.status == RunnerStatus::Active);
        let rate = |levels: Vec<backlay_feed::message::Level>| {
            levels.first().map(|level| i64::from(level.price.hundredths()) - 100)
        };
        let back = rate(runner.available_to_back())
            .map(|r| r * (100 - margin) / 100)
            .filter(|r| running && *r >= 1);
        let lay = rate(runner.available_to_lay())
            .map(|r| (r * (100 + margin) + 99) / 100)
            .filter(|_| running);
        rates.push((runner_id, back, lay));
    }
    rates.sort_unstable();
    rates
}

/// The house account, made and funded the first time; it quotes no market past
/// `max_exposure_minor` (`--feed-max-exposure`).
pub async fn ensure_house(
    state: &AppState,
    bankroll_minor: i64,
    max_exposure_minor: Option<i64>,
) -> Result<House, AppError> {
    if let Some(user_id) = state.store.user_id_by_name(HOUSE_USER_NAME).await? {
        let user = state.store.user_by_id(user_id).await?;
        return match user.role {
            Role::Client => Ok(House { user_id, liquidity: true, max_exposure_minor }),
            _ => Err(AppError::Conflict(format!(
                "the user name {HOUSE_USER_NAME} is an operator's account: the feed's house needs it for itself"
            ))),
        };
    }
    let (users, _) = state.store.list_users(None, 0, 50).await?;
    let admin = users.iter().map(|u| &u.user).find(|u| u.role == Role::Admin).ok_or_else(|| {
        AppError::Conflict("there is no admin for the feed's house to belong to".into())
    })?;
    let ctx = OperatorContext { store: &state.store, actor: Actor::Console, client_ip: None };
    // Nobody logs in as the house: a password nobody is told.
    let password = format!("H{}9", &backlay_kit::token::new_secret()[..32]);
    let request =
        CreateUser::parse(HOUSE_USER_NAME, password, Role::Client, Some(admin.id), false)?;
    let house = backlay_operator::create_user(&ctx, &state.passwords, request).await?;
    let amount = backlay_core::money::Money::from_minor(bankroll_minor);
    backlay_operator::mint(&ctx, admin.id, amount).await?;
    backlay_operator::transfer(
        &ctx,
        house.id,
        amount,
        TransferDirection::Deposit,
        "feed house bankroll",
    )
    .await?;
    tracing::info!(user_id = house.id, bankroll = %amount, "feed: house account made");
    Ok(House { user_id: house.id, liquidity: true, max_exposure_minor })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use backlay_core::exchange::MarketType;
    use backlay_feed::{Message, Mirror};

    use super::*;

    #[test]
    fn upstream_levels_become_house_orders_on_the_other_side_scaled_and_capped() {
        let mut mirror = Mirror::default();
        let line = r#"{"op":"mcm","pt":1,"mc":[{"id":"1.5","marketDefinition":{"eventTypeId":"7",
            "eventId":"9","status":"OPEN","runners":[{"id":11,"sortPriority":1,"status":"ACTIVE"},
            {"id":12,"sortPriority":2,"status":"REMOVED"}]},"rc":[
            {"id":11,"atb":[[8.8,18.62],[8.6,4.83]],"atl":[[9.4,10.39]]},
            {"id":12,"atb":[[3,50]],"atl":[[3.1,50]]}]}]}"#;
        mirror.apply(Message::read(line).unwrap()).unwrap();
        let linked = LinkedMarket {
            upstream_market_id: "1.5".into(),
            market_id: 70,
            match_id: 7,
            market_type: MarketType::Win,
            runners: HashMap::from([(11, 111), (12, 112)]),
            runner_names: HashMap::new(),
        };
        let market = mirror.market("1.5").unwrap();
        let orders = |size_percent, max_level_minor| {
            wanted(&linked, market, HouseTerms { size_percent, max_level_minor })
                .into_iter()
                .map(|o| (o.selection_id, o.side, o.price.hundredths(), o.size_minor))
                .collect::<Vec<_>>()
        };
        // Half of each level, rounded down to the paisa; the removed runner offers nothing.
        assert_eq!(
            orders(50, None),
            [
                (111, BetSide::Lay, 880, 931),
                (111, BetSide::Back, 940, 519),
                (111, BetSide::Lay, 860, 241),
            ]
        );
        assert_eq!(orders(100, Some(500))[0], (111, BetSide::Lay, 880, 500), "capped per level");
    }
}
