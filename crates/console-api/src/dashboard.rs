//! The console's landing page (`console/dashboard`): the business of the caller's branch (an
//! agent: its downline; an admin: its tree for the house result, as the partnership report
//! reads it, and everyone for bets, exposure and markets, as the lists and the market analysis
//! read them) over a period, each figure the total of a
//! report the console already has, so that the two can never disagree:
//!
//! | figure | the report it sums |
//! |---|---|
//! | `house_result`, `by_product`, `days` | `console/report/partnership` over the same dates: its `markets` rows' `house_result` (a day's: that day's report) |
//! | `turnover`, `bets`, `active_bettors` | the bets placed in the period in `console/market/bets` (matched stake, rows, distinct users) |
//! | `open_exposure` | the `exposure` of every account of the branch in `console/downline/list` (now, not per period) |
//! | `pending_payments` | `admin/payment/list` with `status: pending`: its `total` |
//! | `top_markets` | `console/market/analysis`: the house's worst runner or run range on each live market |
//! | `live_matches` | `console/market/live`: the matches with markets not yet settled |
//!
//! Products: exchange commission (commission on exchange winnings), bookmaker, fancy and casino
//! (the in-house casino's rounds). Turnover is of sports bets (exchange, bookmaker, fancy).
//!
//! Example: a client lost 1,000 on a fancy today and placed one more bet of 200, matched, on a
//! bookmaker market still open: today's dashboard reads house result 1,000 (fancy 1,000), one
//! day of 1,000, turnover 1,200 from 2 bets by 1 active bettor, and the bookmaker market among
//! the top markets with what the house loses if the client's runner wins.
//!
//! Bounds: at most [`DASHBOARD_DAYS_MAX`] days; [`TOP_MARKETS_MAX`] markets, found among the
//! [`POSITIONS_MAX`] live markets with the most matched stake of the branch, whose positions are
//! read from their matched bets as the market analysis reads them.

use std::collections::{BTreeMap, HashMap, HashSet};

use axum::extract::State;
use backlay_core::exchange::MarketType;
use backlay_core::money::Money;
use backlay_office_store::dashboard::DAY_MS;
use backlay_office_store::payments::{PaymentFilter, PaymentStatus};
use backlay_store::downline::Scope;
use backlay_store::markets::MarketRow;
use backlay_store::users::Role;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::console::{live_matches_with_markets, scope_of};
use backlay_engine::stored_matched_bets;
use backlay_kit::clock::{now_ms, DISPLAY_OFFSET_MS};
use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_kit::input::{date_range, ApiJson};
use backlay_kit::market_analysis::house_position;
use backlay_office_store::{DashboardReads, PaymentReads};
use backlay_operator::session::Operator;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(dashboard))
}

/// Longest period the dashboard sums, in days.
pub const DASHBOARD_DAYS_MAX: i64 = 366;
/// How many live markets with the largest house exposure it lists.
pub const TOP_MARKETS_MAX: usize = 5;
/// Of how many live markets (those with the most matched stake of the branch) it works out the
/// house position to find them: the page is read every few seconds.
pub const POSITIONS_MAX: i64 = 100;

#[derive(Deserialize, ToSchema, Default)]
pub struct DashboardRequest {
    /// yyyy-MM-dd (a day at UTC+5:30) or an ISO-8601 time; absent: today.
    #[serde(default)]
    pub from_date: Option<String>,
    /// yyyy-MM-dd (to the end of that day) or an ISO-8601 time; absent: the end of today.
    #[serde(default)]
    pub to_date: Option<String>,
}

/// The house's result per product. Positive: the house won.
#[derive(Serialize, ToSchema, Default)]
pub struct ProductResults {
    #[schema(value_type = f64)]
    pub exchange_commission: Money,
    #[schema(value_type = f64)]
    pub bookmaker: Money,
    #[schema(value_type = f64)]
    pub fancy: Money,
    #[schema(value_type = f64)]
    pub casino: Money,
}

#[derive(Serialize, ToSchema)]
pub struct DayResult {
    /// yyyy-MM-dd at UTC+5:30.
    pub date: String,
    #[schema(value_type = f64)]
    pub house_result: Money,
}

/// A live market and what the house loses on it at worst against the branch.
#[derive(Serialize, ToSchema)]
pub struct DashboardMarket {
    pub market_id: i64,
    pub match_id: i64,
    pub match_name: String,
    pub market_name: String,
    pub market_type: MarketType,
    /// What the house loses if the worst runner wins (or the worst run range comes): at least 0.
    #[schema(value_type = f64)]
    pub exposure: Money,
    /// Matched bets of the branch on it.
    pub bets: i64,
}

#[derive(Serialize, ToSchema)]
pub struct DashboardMatch {
    pub match_id: i64,
    pub name: String,
    pub in_play: bool,
    /// Its markets not yet settled.
    pub markets: i64,
}

#[derive(Serialize, ToSchema)]
pub struct SaferCountsData {
    pub with_limits: i64,
    pub timed_out: i64,
    pub self_excluded: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Dashboard {
    /// The period, as days at UTC+5:30 (yyyy-MM-dd).
    pub from_date: String,
    pub to_date: String,
    /// Matched stakes of the sports bets placed in the period.
    #[schema(value_type = f64)]
    pub turnover: Money,
    /// Sports bets placed in the period.
    pub bets: i64,
    /// Accounts that placed them.
    pub active_bettors: i64,
    /// The house's result (GGR) in the period: the sum of `by_product` and of `days`.
    #[schema(value_type = f64)]
    pub house_result: Money,
    pub by_product: ProductResults,
    /// Every day of the period, oldest first.
    pub days: Vec<DayResult>,
    /// Exposure held now by the branch's accounts.
    #[schema(value_type = f64)]
    pub open_exposure: Money,
    /// Payment requests waiting for the caller's decision.
    pub pending_payments: i64,
    /// Live markets with the largest house exposure against the branch, largest first.
    pub top_markets: Vec<DashboardMarket>,
    /// Safer gambling in the branch now: accounts with limits of their own, on a time-out,
    /// self-excluded.
    pub safer: SaferCountsData,
    /// Matches with markets not yet settled, soonest first.
    pub live_matches: Vec<DashboardMatch>,
}

/// The business of the caller's branch over a period (default: today).
#[utoipa::path(post, path = "/console/dashboard", tag = "console", request_body = DashboardRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Dashboard>), (status = 400), (status = 401), (status = 403)))]
async fn dashboard(
    State(state): State<AppState>,
    Operator(authed): Operator,
    ApiJson(body): ApiJson<DashboardRequest>,
) -> ApiResult<Dashboard> {
    let today = day_of(now_ms());
    let (from_ms, to_ms) =
        date_range(&body.from_date, &body.to_date, (day_start(today), day_start(today + 1) - 1))?;
    let (first_day, last_day) = (day_of(from_ms), day_of(to_ms));
    if last_day - first_day + 1 > DASHBOARD_DAYS_MAX {
        return Err(AppError::field(
            "to_date",
            format!(
                "The dashboard covers at most {DASHBOARD_DAYS_MAX} days: choose a shorter period."
            ),
        ));
    }
    let caller = &authed.user;
    let root = caller.id;

    let mut by_product = ProductResults::default();
    let mut by_day: BTreeMap<i64, i64> = BTreeMap::new();
    for row in state.store.house_result_by_day(root, from_ms, to_ms, DISPLAY_OFFSET_MS).await? {
        *by_day.entry(row.day).or_default() += row.amount_minor;
        let slot = match row.product.as_str() {
            "commission" => &mut by_product.exchange_commission,
            "bookmaker" => &mut by_product.bookmaker,
            "fancy" => &mut by_product.fancy,
            // The casino's rounds (no market), and anything else the house banks.
            _ => &mut by_product.casino,
        };
        *slot = Money::from_minor(slot.minor() + row.amount_minor);
    }
    let house_result_minor: i64 = by_day.values().sum();
    let days = (first_day..=last_day)
        .map(|day| DayResult {
            date: display_date(day),
            house_result: Money::from_minor(by_day.get(&day).copied().unwrap_or(0)),
        })
        .collect();

    // The bet lists, the downline list and the market analysis read an admin's as everyone's.
    let scope = scope_of(caller);
    let activity = state.store.bet_activity(scope, from_ms, to_ms).await?;
    let open_exposure = state.store.branch_exposure(scope).await?;
    // The requests the caller decides, as the payments list shows them.
    let parent_id = (caller.role != Role::Admin).then_some(caller.id);
    let (_, pending_payments) = state
        .store
        .payment_requests(
            PaymentFilter { status: Some(PaymentStatus::Pending), parent_id, user_id: None },
            0,
            1,
        )
        .await?;

    let safer = state.store.safer_counts(scope, now_ms()).await?;
    let (top_markets, live_matches) = live_business(&state, scope).await?;
    Ok(ok(Dashboard {
        from_date: display_date(first_day),
        to_date: display_date(last_day),
        turnover: Money::from_minor(activity.matched_minor),
        bets: activity.bets,
        active_bettors: activity.bettors,
        house_result: Money::from_minor(house_result_minor),
        by_product,
        days,
        open_exposure: Money::from_minor(open_exposure),
        pending_payments,
        top_markets,
        safer: SaferCountsData {
            with_limits: safer.with_limits,
            timed_out: safer.timed_out,
            self_excluded: safer.self_excluded,
        },
        live_matches,
    }))
}

/// The live markets' house exposure against the accounts in `scope` (largest first, at most
/// [`TOP_MARKETS_MAX`]) and the matches they belong to.
async fn live_business(
    state: &AppState,
    scope: Scope,
) -> Result<(Vec<DashboardMarket>, Vec<DashboardMatch>), AppError> {
    let branch: Option<HashSet<i64>> = match scope {
        Scope::Everyone => None,
        Scope::Under(root) => {
            Some(state.store.downline_user_ids(root).await?.into_iter().collect())
        }
    };
    let counts = |user_id: i64| branch.as_ref().is_none_or(|set| set.contains(&user_id));
    let (live, markets) = live_matches_with_markets(state).await?;
    let match_names: HashMap<i64, &str> =
        live.iter().map(|m| (m.match_id, m.name.as_str())).collect();
    let markets: HashMap<i64, MarketRow> =
        markets.into_iter().map(|market| (market.setup.market_id, market)).collect();
    let mut exposures = Vec::new();
    for market_id in state.store.live_markets_bet_on(scope, POSITIONS_MAX).await? {
        let Some(market) = markets.get(&market_id) else {
            continue; // settled between the two reads
        };
        let match_id = market.setup.match_id;
        let match_name = match_names.get(&match_id).copied().unwrap_or_default();
        let matched = stored_matched_bets(&state.store, market.setup.kind(), market_id).await?;
        let position = house_position(market, &matched, counts)?;
        if position.bets == 0 {
            continue;
        }
        let worst_minor = position
            .runners
            .iter()
            .map(|(_, pnl)| *pnl)
            .chain(position.fancy.iter().map(|row| row.pnl_minor))
            .min()
            .unwrap_or(0);
        exposures.push(DashboardMarket {
            market_id,
            match_id,
            match_name: match_name.to_owned(),
            market_name: market.setup.name.clone(),
            market_type: market.setup.market_type,
            exposure: Money::from_minor((-worst_minor).max(0)),
            bets: i64::try_from(position.bets).unwrap_or(i64::MAX),
        });
    }
    exposures.sort_by_key(|m| (std::cmp::Reverse(m.exposure.minor()), m.market_id));
    exposures.truncate(TOP_MARKETS_MAX);
    let matches = live
        .into_iter()
        .map(|m| DashboardMatch {
            match_id: m.match_id,
            name: m.name,
            in_play: m.in_play,
            markets: i64::try_from(m.markets.len()).unwrap_or(i64::MAX),
        })
        .collect();
    Ok((exposures, matches))
}

/// The day (since 1970-01-01, at UTC+5:30) of an epoch-ms time.
fn day_of(ms: i64) -> i64 {
    (ms + DISPLAY_OFFSET_MS).div_euclid(DAY_MS)
}

/// The first epoch ms of a day at UTC+5:30.
fn day_start(day: i64) -> i64 {
    day * DAY_MS - DISPLAY_OFFSET_MS
}

/// yyyy-MM-dd of a day at UTC+5:30.
fn display_date(day: i64) -> String {
    let date = time::OffsetDateTime::from_unix_timestamp(day * DAY_MS / 1000)
        .map(|t| t.date())
        .unwrap_or(time::Date::MIN);
    format!("{:04}-{:02}-{:02}", date.year(), u8::from(date.month()), date.day())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_counted_at_india_time() {
        // 2026-11-22 00:00 at UTC+5:30 is 2026-11-21 18:30 UTC.
        let start = backlay_kit::clock::parse_report_date("2026-11-22", false).unwrap();
        assert_eq!(day_start(day_of(start)), start);
        assert_eq!(day_of(start - 1), day_of(start) - 1);
        assert_eq!(display_date(day_of(start)), "2026-11-22");
        assert_eq!(display_date(day_of(start + DAY_MS - 1)), "2026-11-22");
    }
}
