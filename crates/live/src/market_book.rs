//! A market as the match page and the live stream show it ([`MarketBook`]): the engine's live
//! book while the market runs (best 3 back and lay with sizes, bookmaker rates, fancy lines,
//! an exchange market's total matched), else the stored market with empty books (and its total
//! matched read from its fills); with a viewer, that user's position per runner and
//! fancy run-range book. `match/matchDetail`, `bet/positions` and the stream all read markets
//! through here, so the three show the same figures. The match lists' one line of a match-odds
//! market, best back and lay per runner ([`OddsSummary`]), is built here too, for
//! `match/getMatches` and the list stream alike.

use backlay_core::exchange::{MarketStatus, MarketType};
use backlay_core::money::Money;
use backlay_store::markets::{MarketRow, MarketSetup, RunnerStatus};
use serde::Serialize;
use utoipa::ToSchema;

use backlay_engine::Engine;
use backlay_engine::MarketView;
use backlay_kit::error::AppError;
use backlay_store::Store;

/// Best prices the page shows per side (the engine's view holds more, for the bot API).
const PAGE_DEPTH: usize = 3;

#[derive(Serialize, ToSchema)]
pub struct PriceSize {
    /// Odds (exchange) or the rate (bookmaker).
    pub price: f64,
    #[schema(value_type = f64)]
    pub size: Money,
}

#[derive(Serialize, ToSchema)]
pub struct RunnerBook {
    pub selection_id: i64,
    pub name: String,
    /// Up to 3, best (highest) first.
    pub back: Vec<PriceSize>,
    /// Up to 3, best (lowest) first.
    pub lay: Vec<PriceSize>,
    /// The caller's P&L if this runner wins.
    #[schema(value_type = f64)]
    pub position: Money,
    /// Withdrawn (a non-runner): its bets are void and it takes no more; no prices.
    pub removed: bool,
}

#[derive(Serialize, ToSchema)]
pub struct FancyRange {
    pub from: u32,
    /// Inclusive; null: and above.
    #[schema(required = true)]
    pub to: Option<u32>,
    #[schema(value_type = f64)]
    pub pnl: Money,
}

#[derive(Serialize, ToSchema)]
pub struct MarketBook {
    pub market_id: i64,
    pub match_id: i64,
    pub name: String,
    #[serde(rename = "type")]
    pub market_type: MarketType,
    pub status: MarketStatus,
    pub in_play: bool,
    pub bet_delay_s: i64,
    #[schema(value_type = f64)]
    pub min_stake: Money,
    #[schema(value_type = f64)]
    pub max_stake: Money,
    /// Commission on the caller's net winnings on this market, in basis points (200 = 2%): the
    /// rules and the bet slip's net profit show it.
    pub commission_bp: i64,
    pub runners: Vec<RunnerBook>,
    /// An exchange market's total matched (the backers' stakes, on runners still running);
    /// null on bookmaker and fancy markets, where the house takes every bet.
    #[schema(value_type = Option<f64>, required = true)]
    pub total_matched: Option<Money>,
    #[schema(required = true)]
    pub line_no: Option<i64>,
    #[schema(required = true)]
    pub rate_no: Option<i64>,
    #[schema(required = true)]
    pub line_yes: Option<i64>,
    #[schema(required = true)]
    pub rate_yes: Option<i64>,
    pub book: Vec<FancyRange>,
}

/// A match-odds market as the match lists show it: the best price to back and to lay per runner.
#[derive(Serialize, ToSchema)]
pub struct OddsSummary {
    pub market_id: i64,
    pub status: MarketStatus,
    pub runners: Vec<RunnerOdds>,
}

#[derive(Serialize, ToSchema)]
pub struct RunnerOdds {
    pub selection_id: i64,
    pub name: String,
    /// Best price to back (null: none offered).
    #[schema(required = true)]
    pub back: Option<f64>,
    #[schema(value_type = Option<f64>, required = true)]
    pub back_size: Option<Money>,
    /// Best price to lay.
    #[schema(required = true)]
    pub lay: Option<f64>,
    #[schema(value_type = Option<f64>, required = true)]
    pub lay_size: Option<Money>,
}

impl OddsSummary {
    /// The summary of a running market's public view; `match/getMatches` and the list stream
    /// both build it here, so the two show the same figures.
    pub fn of(view: &MarketView) -> OddsSummary {
        OddsSummary {
            market_id: view.setup.market_id,
            status: view.status,
            runners: view
                .runners
                .iter()
                .map(|r| RunnerOdds {
                    selection_id: r.selection_id,
                    name: r.name.clone(),
                    back: r.back.first().map(|(p, _)| p.to_f64_for_json()),
                    back_size: r.back.first().map(|(_, s)| *s),
                    lay: r.lay.first().map(|(p, _)| p.to_f64_for_json()),
                    lay_size: r.lay.first().map(|(_, s)| *s),
                })
                .collect(),
        }
    }
}

/// One match's odds line as the list stream (`GET stream?list=…`) sends it.
#[derive(Serialize, ToSchema)]
pub struct ListOdds {
    pub match_id: i64,
    pub odds: OddsSummary,
}

/// Every market of a match as the page shows it; with `viewer`, that user's positions and
/// fancy books, without one (the public stream) none.
pub async fn market_books(
    store: &Store,
    engine: &Engine,
    match_id: i64,
    match_in_play: bool,
    viewer: Option<i64>,
) -> Result<Vec<MarketBook>, AppError> {
    let mut markets = Vec::new();
    for row in store.markets_of_match(match_id).await? {
        markets.push(market_book(engine, row, match_in_play, viewer).await);
    }
    // A settled exchange market's task has ended: its total matched is read from its fills.
    let ended: Vec<i64> = markets
        .iter()
        .filter(|m| !m.market_type.is_house_banked() && m.total_matched.is_none())
        .map(|m| m.market_id)
        .collect();
    if !ended.is_empty() {
        let totals: std::collections::HashMap<i64, i64> =
            store.matched_totals(&ended).await?.into_iter().collect();
        for market in markets.iter_mut().filter(|m| ended.contains(&m.market_id)) {
            let total = totals.get(&market.market_id).copied().unwrap_or(0);
            market.total_matched = Some(Money::from_minor(total));
        }
    }
    Ok(markets)
}

/// One market as the page shows it: the engine's live book when the market runs, else the
/// stored market (closed, void) with empty books and no total matched ([`market_books`] reads
/// it).
pub async fn market_book(
    engine: &Engine,
    row: MarketRow,
    match_in_play: bool,
    viewer: Option<i64>,
) -> MarketBook {
    let market_id = row.setup.market_id;
    let live = if engine.is_running(market_id).await {
        engine.view(market_id, viewer).await.ok()
    } else {
        None
    };
    match live {
        Some(view) => assemble(
            view.setup,
            view.status,
            view.in_play,
            Some(view.runners),
            view.fancy_book,
            Some(view.total_matched),
        ),
        None => assemble(row.setup, row.status, match_in_play, None, Vec::new(), None),
    }
}

/// A market's public book (no viewer, so no position and no fancy book) from the engine's view.
pub fn public_book(view: &MarketView) -> MarketBook {
    assemble(
        view.setup.clone(),
        view.status,
        view.in_play,
        Some(view.runners.clone()),
        Vec::new(),
        Some(view.total_matched),
    )
}

/// The page's shape of a market: live runners from the engine, or the stored runners with
/// empty books. `total_matched` is kept on exchange markets only.
fn assemble(
    row: MarketSetup,
    status: MarketStatus,
    in_play: bool,
    runners: Option<Vec<backlay_engine::RunnerView>>,
    book: Vec<(u32, Option<u32>, Money)>,
    total_matched: Option<Money>,
) -> MarketBook {
    let bookmaker = row.market_type == MarketType::Bookmaker;
    let ladder = |levels: &[(backlay_core::odds::Price, Money)]| -> Vec<PriceSize> {
        levels
            .iter()
            .take(PAGE_DEPTH)
            .map(|(p, s)| PriceSize { price: p.to_f64_for_json(), size: *s })
            .collect()
    };
    let removed = |runner_id: i64| {
        row.runners.iter().any(|r| r.runner_id == runner_id && r.status == RunnerStatus::Removed)
    };
    let runners = match runners {
        Some(runners) => runners
            .into_iter()
            .map(|r| {
                let removed = removed(r.selection_id);
                // A non-runner's posted rates stay stored, but are not offered.
                let rates =
                    row.runners.iter().find(|x| x.runner_id == r.selection_id).filter(|_| !removed);
                let house_side = |rate: Option<i64>| {
                    rate.map(|rate| PriceSize { price: rate as f64, size: row_max_stake(&row) })
                        .into_iter()
                        .collect()
                };
                RunnerBook {
                    selection_id: r.selection_id,
                    name: r.name,
                    back: if bookmaker {
                        house_side(rates.and_then(|x| x.back_rate))
                    } else {
                        ladder(&r.back)
                    },
                    lay: if bookmaker {
                        house_side(rates.and_then(|x| x.lay_rate))
                    } else {
                        ladder(&r.lay)
                    },
                    position: r.position,
                    removed,
                }
            })
            .collect(),
        None => row
            .runners
            .iter()
            .map(|r| RunnerBook {
                selection_id: r.runner_id,
                name: r.name.clone(),
                back: Vec::new(),
                lay: Vec::new(),
                position: Money::ZERO,
                removed: r.status == RunnerStatus::Removed,
            })
            .collect(),
    };
    MarketBook {
        market_id: row.market_id,
        match_id: row.match_id,
        name: row.name.clone(),
        market_type: row.market_type,
        status,
        in_play,
        bet_delay_s: row.bet_delay_ms / 1000,
        min_stake: Money::from_minor(row.min_stake_minor),
        max_stake: Money::from_minor(row.max_stake_minor),
        commission_bp: row.commission_bp,
        runners,
        total_matched: total_matched.filter(|_| !row.market_type.is_house_banked()),
        line_no: row.line_no,
        rate_no: row.rate_no,
        line_yes: row.line_yes,
        rate_yes: row.rate_yes,
        book: book.into_iter().map(|(from, to, pnl)| FancyRange { from, to, pnl }).collect(),
    }
}

/// On a house market the size offered at a rate is what one bet may stake.
fn row_max_stake(row: &MarketSetup) -> Money {
    Money::from_minor(row.max_stake_minor)
}
