//! Matches: `match/getMatches`, `match/searchByMatchNameHeader`, `match/getCupsForMenu`,
//! `match/matchDetail`, and racing's venues and countries.

use std::collections::BTreeMap;

use axum::extract::State;
use backlay_store::catalogue::{Match, MatchFilter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::series::SeriesItem;
use backlay_core::exchange::MarketType;
use backlay_core::score::ScoreView;
use backlay_kit::clock::iso_utc;

use backlay_kit::error::{ok, ApiResult, AppError, Envelope, OrNotFound};
use backlay_kit::input::{ApiJson, FlexBool, FlexI64};
use backlay_live::market_book::{market_books, MarketBook, OddsSummary};
use backlay_live::{is_in_play, LiveScore};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_matches))
        .routes(routes!(search_by_match_name_header))
        .routes(routes!(get_cups_for_menu))
        .routes(routes!(match_detail))
        .routes(routes!(venues))
        .routes(routes!(racing_countries))
}

/// Most results one search answers.
pub const SEARCH_LIMIT: i64 = 50;
pub const SEARCH_MAX_CHARS: usize = 50;

#[derive(Deserialize, ToSchema, Default)]
pub struct MatchesRequest {
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub sport_id: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub series_id: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 1)]
    pub is_active: Option<FlexBool>,
}

/// A match in brief: the spec's Match entity's fields (`match_id`, `name`, `match_name`,
/// `match_Date`, `open_date`, `sport_id`, `sport_name`) and its series. What a search by name
/// finds, and the first fields of every `MatchItem`.
#[derive(Serialize, ToSchema)]
pub struct MatchSummary {
    pub match_id: i64,
    pub name: String,
    /// The same as `name` (both are in the spec).
    pub match_name: String,
    /// Scheduled start, ISO-8601 UTC (the same as `open_date`; both are in the spec).
    #[serde(rename = "match_Date")]
    pub match_date: String,
    pub open_date: String,
    pub sport_id: i64,
    pub sport_name: String,
    pub series_id: i64,
}

impl From<&Match> for MatchSummary {
    fn from(m: &Match) -> MatchSummary {
        let open_date = iso_utc(m.open_date_ms);
        MatchSummary {
            match_id: m.match_id,
            name: m.name.clone(),
            match_name: m.name.clone(),
            match_date: open_date.clone(),
            open_date,
            sport_id: m.sport_id,
            sport_name: m.sport_name.clone(),
            series_id: m.series_id,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct MatchItem {
    // First, so that its fields lead the object as they always have.
    #[serde(flatten)]
    pub summary: MatchSummary,
    pub series_name: String,
    pub is_active: i64,
    /// Being played now: not before the off, not once a result is declared or every market
    /// is settled.
    pub in_play: bool,
    /// Over for bettors: every market of the match is settled.
    pub finished: bool,
    /// The live score (match/getMatches: only while in play); null before one is set.
    #[schema(required = true)]
    pub score: Option<ScoreView>,
    /// How the match ended ("Chennai Super Kings won by 12 runs"); null until declared.
    #[schema(required = true)]
    pub result: Option<String>,
    pub has_fancy: bool,
    pub has_bookmaker: bool,
    /// Match-odds summary: the best price to back and to lay per runner, once the match has
    /// a live match-odds market.
    #[schema(required = true)]
    pub odds: Option<OddsSummary>,
}

impl From<Match> for MatchItem {
    fn from(m: Match) -> MatchItem {
        let live = LiveScore::of(&m);
        MatchItem {
            summary: MatchSummary::from(&m),
            series_name: m.series_name,
            is_active: i64::from(m.is_active),
            in_play: live.in_play,
            finished: m.finished,
            score: live.score,
            result: live.result,
            has_fancy: false,
            has_bookmaker: false,
            odds: None,
        }
    }
}

/// Matches still open to bettors (a match whose markets are all settled has left the list),
/// in-play ones first, then by start time. An in-play match carries its score; the odds grid
/// comes only with a live match-odds market and no result declared.
#[utoipa::path(post, path = "/match/getMatches", tag = "catalogue", request_body = MatchesRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<MatchItem>>), (status = 400), (status = 401)))]
async fn get_matches(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<MatchesRequest>,
) -> ApiResult<Vec<MatchItem>> {
    let filter = MatchFilter {
        sport_id: body.sport_id.map(|s| s.0),
        series_id: body.series_id.map(|s| s.0),
        is_active: body.is_active.map(|a| a.0),
        listed_only: true,
    };
    let matches = state.store.matches(&filter).await?;
    let live = state.store.live_market_types().await?;
    let mut items = Vec::with_capacity(matches.len());
    for m in matches {
        let match_id = m.match_id;
        let mut item = MatchItem::from(m);
        if !item.in_play {
            item.score = None;
        }
        let of_match = || live.iter().filter(move |(id, _, _)| *id == match_id);
        item.has_bookmaker = of_match().any(|(_, _, t)| *t == MarketType::Bookmaker);
        item.has_fancy = of_match().any(|(_, _, t)| *t == MarketType::Fancy);
        let match_odds = of_match().find(|(_, _, t)| *t == MarketType::MatchOdds);
        if let Some((_, market_id, _)) = match_odds.filter(|_| item.result.is_none()) {
            item.odds = odds_summary(&state, *market_id).await;
        }
        items.push(item);
    }
    Ok(ok(items))
}

/// The best back and lay per runner of a running match-odds market.
async fn odds_summary(state: &AppState, market_id: i64) -> Option<OddsSummary> {
    state.engine.view(market_id, None).await.ok().map(|view| OddsSummary::of(&view))
}

#[derive(Deserialize, ToSchema)]
pub struct SearchRequest {
    pub search: String,
}

/// Active matches whose name contains the text, ignoring case, grouped by sport name.
#[utoipa::path(post, path = "/match/searchByMatchNameHeader", tag = "catalogue", request_body = SearchRequest, security(("bearer" = [])),
    responses((status = 200, description = "Sport name → matches", body = Envelope<BTreeMap<String, Vec<MatchSummary>>>), (status = 400), (status = 401)))]
async fn search_by_match_name_header(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<SearchRequest>,
) -> ApiResult<BTreeMap<String, Vec<MatchSummary>>> {
    let text = body.search.trim();
    if text.is_empty() {
        return Err(AppError::field("search", "Type part of a match name to search."));
    }
    if text.chars().count() > SEARCH_MAX_CHARS {
        return Err(AppError::field(
            "search",
            format!("Search text must be at most {SEARCH_MAX_CHARS} characters."),
        ));
    }
    let mut grouped: BTreeMap<String, Vec<MatchSummary>> = BTreeMap::new();
    for m in state.store.search_matches(text, SEARCH_LIMIT).await? {
        grouped.entry(m.sport_name.clone()).or_default().push(MatchSummary::from(&m));
    }
    Ok(ok(grouped))
}

/// Featured series ("cups") for the menu.
#[utoipa::path(get, path = "/match/getCupsForMenu", tag = "catalogue", security(("bearer" = [])),
    responses((status = 200, body = Envelope<Vec<SeriesItem>>), (status = 401)))]
async fn get_cups_for_menu(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<Vec<SeriesItem>> {
    let series = state.store.featured_series().await?;
    Ok(ok(series
        .into_iter()
        .map(|s| SeriesItem { series_id: s.series_id, name: s.name, sport_id: s.sport_id })
        .collect()))
}

#[derive(Deserialize, ToSchema)]
pub struct MatchDetailRequest {
    #[schema(value_type = i64)]
    pub match_id: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct MatchDetail {
    #[serde(rename = "match")]
    pub the_match: MatchItem,
    pub markets: Vec<MarketBook>,
    /// A race card's facts about runners of these markets (by `selection_id`), as the feed or
    /// an operator gave them; a runner nobody gave any for is not listed.
    pub runner_cards: Vec<RunnerCardItem>,
}

/// What a race card says of a runner; each field null until the feed or an operator gives it.
#[derive(Serialize, ToSchema)]
pub struct RunnerCardItem {
    pub selection_id: i64,
    /// The stall (horses) or trap (greyhounds).
    #[schema(required = true)]
    pub draw: Option<i64>,
    #[schema(required = true)]
    pub jockey: Option<String>,
    #[schema(required = true)]
    pub trainer: Option<String>,
}

/// A match with its score and result, and each market's book (best 3 back and lay with sizes;
/// bookmaker rates; fancy lines), status and limits, and the caller's position per runner and
/// fancy run-range book, and a race's runner cards. Settled fancy lines are left out.
#[utoipa::path(post, path = "/match/matchDetail", tag = "catalogue", request_body = MatchDetailRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<MatchDetail>), (status = 401), (status = 404)))]
async fn match_detail(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<MatchDetailRequest>,
) -> ApiResult<MatchDetail> {
    let match_id = body.match_id.0;
    let the_match = state
        .store
        .match_by_id(match_id)
        .await
        .or_not_found(|| format!("There is no match with id {match_id}."))?;
    let markets = market_books(
        &state.store,
        &state.engine,
        match_id,
        the_match.in_play,
        Some(authed.user.id),
    )
    .await?
    .into_iter()
    .filter(|m| !(m.market_type == MarketType::Fancy && m.status.is_settled()))
    .collect::<Vec<_>>();
    let mut item = MatchItem::from(the_match);
    item.has_bookmaker = markets.iter().any(|m| m.market_type == MarketType::Bookmaker);
    item.has_fancy = markets.iter().any(|m| m.market_type == MarketType::Fancy);
    let runner_cards = state
        .store
        .runner_cards_of_match(match_id)
        .await?
        .into_iter()
        .map(|card| RunnerCardItem {
            selection_id: card.runner_id,
            draw: card.draw,
            jockey: card.jockey,
            trainer: card.trainer,
        })
        .collect();
    Ok(ok(MatchDetail { the_match: item, markets, runner_cards }))
}

#[derive(Deserialize, ToSchema)]
pub struct VenuesRequest {
    /// Two-letter country code (GB, IE, AU, US …); empty or absent: every country.
    #[serde(default)]
    pub country: Option<String>,
    /// yyyy-MM-dd, a day at UTC+5:30.
    #[schema(format = Date)]
    pub date: String,
    #[schema(value_type = i64)]
    pub sport_id: FlexI64,
}

#[derive(Serialize, ToSchema)]
pub struct Race {
    pub match_id: i64,
    pub name: String,
    /// The off, ISO-8601 UTC.
    pub market_start_time: String,
    /// Being run now: off, not yet resulted.
    pub in_play: bool,
    /// Run and over: its result declared, or every market of it settled.
    pub finished: bool,
}

#[derive(Serialize, ToSchema)]
pub struct Venue {
    pub venue: String,
    pub country_code: String,
    pub races: Vec<Race>,
}

/// The day `date` (yyyy-MM-dd at UTC+5:30) names, as [start, end) in epoch milliseconds.
fn racing_day(date: &str) -> Result<(i64, i64), AppError> {
    let day_start = backlay_kit::clock::parse_report_date(date, false)
        .filter(|_| date.trim().len() == 10)
        .ok_or_else(|| AppError::field("date", "date must be a day such as 2026-11-22."))?;
    Ok((day_start, day_start + 24 * 60 * 60 * 1000))
}

#[derive(Deserialize, ToSchema)]
pub struct RacingCountriesRequest {
    #[schema(value_type = i64)]
    pub sport_id: FlexI64,
    /// yyyy-MM-dd, a day at UTC+5:30; absent or empty: any day.
    #[serde(default)]
    #[schema(format = Date)]
    pub date: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct RacingCountry {
    /// ISO 3166-1 two-letter code, as getMatchVenueListByCountryCodeSportId takes it.
    pub country_code: String,
    /// Venues with races in it (that day).
    pub venues: i64,
    pub races: i64,
}

/// The countries that have active races of a racing sport (that day, or any day), most races
/// first, then by code: the racing page's country tabs.
#[utoipa::path(post, path = "/match/getRacingCountries", tag = "catalogue", request_body = RacingCountriesRequest,
    security(("bearer" = [])), responses((status = 200, body = Envelope<Vec<RacingCountry>>), (status = 400), (status = 401)))]
async fn racing_countries(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<RacingCountriesRequest>,
) -> ApiResult<Vec<RacingCountry>> {
    let day = match body.date.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        Some(date) => Some(racing_day(date)?),
        None => None,
    };
    let filter = MatchFilter {
        sport_id: Some(body.sport_id.0),
        is_active: Some(true),
        ..MatchFilter::default()
    };
    let mut countries: BTreeMap<String, (std::collections::BTreeSet<String>, i64)> =
        BTreeMap::new();
    for m in state.store.matches(&filter).await? {
        let (Some(venue), Some(code)) = (m.venue, m.country_code) else { continue };
        if day.is_some_and(|(start, end)| m.open_date_ms < start || m.open_date_ms >= end) {
            continue;
        }
        let entry = countries.entry(code).or_default();
        entry.0.insert(venue);
        entry.1 += 1;
    }
    let mut list: Vec<RacingCountry> = countries
        .into_iter()
        .map(|(country_code, (venues, races))| RacingCountry {
            country_code,
            venues: venues.len() as i64,
            races,
        })
        .collect();
    list.sort_by(|a, b| b.races.cmp(&a.races).then_with(|| a.country_code.cmp(&b.country_code)));
    Ok(ok(list))
}

/// Race meetings of a racing sport (7 horses, 4339 greyhounds) on a day: venues with their
/// races in off-time order.
#[utoipa::path(post, path = "/match/getMatchVenueListByCountryCodeSportId", tag = "catalogue", request_body = VenuesRequest,
    security(("bearer" = [])), responses((status = 200, body = Envelope<Vec<Venue>>), (status = 400), (status = 401)))]
async fn venues(
    State(state): State<AppState>,
    _user: CurrentUser,
    ApiJson(body): ApiJson<VenuesRequest>,
) -> ApiResult<Vec<Venue>> {
    let country =
        body.country.as_deref().map(|c| c.trim().to_uppercase()).filter(|c| !c.is_empty());
    if country
        .as_ref()
        .is_some_and(|c| c.len() != 2 || !c.chars().all(|ch| ch.is_ascii_alphabetic()))
    {
        return Err(AppError::field("country", "country is a two-letter code such as GB."));
    }
    let (day_start, day_end) = racing_day(&body.date)?;
    let filter = MatchFilter {
        sport_id: Some(body.sport_id.0),
        is_active: Some(true),
        ..MatchFilter::default()
    };
    let mut venues: Vec<Venue> = Vec::new();
    for m in state.store.matches(&filter).await? {
        let (Some(venue), Some(code)) = (m.venue.clone(), m.country_code.clone()) else { continue };
        if m.open_date_ms < day_start
            || m.open_date_ms >= day_end
            || country.as_ref().is_some_and(|c| *c != code)
        {
            continue;
        }
        let in_play = is_in_play(&m);
        let race = Race {
            match_id: m.match_id,
            name: m.name,
            market_start_time: iso_utc(m.open_date_ms),
            in_play,
            finished: m.finished || m.result.is_some(),
        };
        match venues.iter_mut().find(|v| v.venue == venue && v.country_code == code) {
            Some(existing) => existing.races.push(race),
            None => venues.push(Venue { venue, country_code: code, races: vec![race] }),
        }
    }
    for venue in &mut venues {
        venue.races.sort_by(|a, b| a.market_start_time.cmp(&b.market_start_time));
    }
    venues.sort_by(|a, b| (&a.country_code, &a.venue).cmp(&(&b.country_code, &b.venue)));
    Ok(ok(venues))
}
