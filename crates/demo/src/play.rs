//! Playing one match, from the moment it is in play to its settlement: the simulator
//! ([`super::simulator`]) decides what happens, and this module tells the markets, through the
//! engine and the operator actions as an operator would.
//!
//! - Cricket, ball by ball: before each ball the bookmaker and the house lines ([`fancy`])
//!   go `ball_running`, after it `open` again with new bookmaker rates, fancy lines (No = the
//!   projected figure, Yes = one more, rates 100/100) and odd/even rates. A line whose figure
//!   is known (or can no longer be) is taken off (`suspended`) and resulted with it, or void.
//!   Match odds stay open between balls, the market-maker re-quoting them around the moving
//!   fair price; a wicket suspends them while the new batsman comes in (the maker's old prices
//!   withdrawn), and they reopen with the maker's new ones.
//! - Football, minute by minute: a goal suspends match odds, the maker withdraws its orders,
//!   and the market reopens with new prices.
//! - Tennis, game by game: prices move with every game.
//! - Races: at the off the markets are suspended while the race is run (a minute or two), then
//!   the win and place markets are resulted from the finishing order.
//!
//! The score goes to the server after every ball, minute or game, through the operator's own
//! call (`operator::set_match_state`, what `admin/match/score` runs), so the match's streams
//! carry it; at the end the result text ("Chennai won by 12 runs") and a race's placings.
//!
//! At the end every demo market of the match is resulted and settled, and the match is taken
//! out of play. A restarted server plays an in-play match again from its first ball: the
//! simulation lives in memory only.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

use backlay_core::exchange::{MarketStatus, MarketType};
use backlay_core::score::{
    CricketInnings, CricketInput, FootballScore, RacePlacings, ScoreInput, TennisScore, LAST_BALLS,
};
use backlay_store::catalogue::Match;
use backlay_store::markets::MarketSetup;

use super::fancy::{self, FancyLine, Figure, OddEven, Parity};
use super::fixtures::{self, GREYHOUND_RACING};
use super::market_maker::{MakerMarket, RACING_QUOTES, SPORTS_QUOTES};
use super::scheduler::Feed;
use super::simulator::{
    bookmaker_rates, fair_price, probabilities_of_prices, Cricket, Delivery, DemoRng, Football,
    Race, Tennis, BALLS_PER_INNINGS, BALLS_PER_OVER,
};
use backlay_engine::{RatesUpdate, ResultInput};
use backlay_kit::error::AppError;
use backlay_operator::{self as operator, MatchStateUpdate};

/// Cricket timing, demo milliseconds: the market is open between balls, suspended while the
/// ball is bowled, and rests a little longer between overs and innings.
const BETWEEN_BALLS_MS: i64 = 3_000;
const BALL_RUNNING_MS: i64 = 2_000;
const BETWEEN_OVERS_MS: i64 = 10_000;
const INNINGS_BREAK_MS: i64 = 60_000;
/// Football: a minute of play every ten seconds (a match lasts about 17 minutes).
const FOOTBALL_MINUTE_MS: i64 = 10_000;
const HALF_TIME_MS: i64 = 60_000;
const AFTER_GOAL_MS: i64 = 10_000;
/// Cricket: how long a wicket keeps the match odds suspended (the new batsman walks in).
const AFTER_WICKET_MS: i64 = 10_000;
/// Tennis: a game every 25 seconds.
const TENNIS_GAME_MS: i64 = 25_000;
/// A race lasts one to two minutes.
const RACE_MIN_MS: i64 = 60_000;
const RACE_EXTRA_MS: u32 = 60_000;

/// The simulation's seed for a match: the same match plays the same way.
pub fn seed_of(match_id: i64) -> u64 {
    (match_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x0BAC_CA1A_DE40
}

/// The race behind a race's markets (runners, their chances, the result).
pub fn race_of(the_match: &Match) -> Race {
    Race::new(seed_of(the_match.match_id), the_match.sport_id == GREYHOUND_RACING)
}

/// Side 0's pre-match log-odds, from the demo's pre-match prices for the match.
fn pre_match_edge(match_name: &str, runners: usize) -> f64 {
    let probabilities = probabilities_of_prices(&super::fair_prices(match_name, runners));
    (probabilities[0] / probabilities[runners - 1]).ln()
}

/// A market of the match and its runners in order.
#[derive(Clone, Debug)]
struct Runners {
    market_id: i64,
    selections: Vec<i64>,
    min_stake_minor: i64,
    winners: usize,
}

impl Runners {
    fn of(row: &MarketSetup) -> Runners {
        let mut runners = row.runners.clone();
        runners.sort_by_key(|r| (r.sort_order, r.runner_id));
        Runners {
            market_id: row.market_id,
            selections: runners.iter().map(|r| r.runner_id).collect(),
            min_stake_minor: row.min_stake_minor,
            winners: usize::try_from(row.winners).unwrap_or(1),
        }
    }

    fn maker_market(&self, match_id: i64, racing: bool) -> MakerMarket {
        MakerMarket {
            market_id: self.market_id,
            match_id,
            min_stake_minor: self.min_stake_minor,
            style: if racing { RACING_QUOTES } else { SPORTS_QUOTES },
        }
    }
}

/// The demo's live markets of one match, recognised by type, and the house lines by their
/// names ("6 over runs MI", "6 over runs MI odd/even": [`fancy`]). Others an operator added
/// are left alone.
#[derive(Default)]
struct Markets {
    match_odds: Option<Runners>,
    bookmaker: Option<Runners>,
    fancies: Vec<(i64, FancyLine)>,
    odd_evens: Vec<(Runners, OddEven)>,
    win: Option<Runners>,
    place: Option<Runners>,
}

impl Markets {
    async fn load(feed: &Feed, the_match: &Match) -> Result<Markets, AppError> {
        let sides = fancy::sides_of(&the_match.name);
        let fancy_named = |name: &str| {
            let sides = sides?;
            fancy::fancy_lines().into_iter().find(|line| line.name(sides) == name)
        };
        let odd_even_named = |name: &str| {
            let sides = sides?;
            fancy::odd_even_lines().into_iter().find(|line| line.name(sides) == name)
        };
        let mut markets = Markets::default();
        for row in feed.state.store.markets_of_match(the_match.match_id).await? {
            if row.status.is_settled() {
                continue;
            }
            let row = row.setup;
            let slot = match row.market_type {
                MarketType::MatchOdds => &mut markets.match_odds,
                MarketType::Bookmaker => match odd_even_named(&row.name) {
                    Some(line) if row.runners.len() == fancy::ODD_EVEN_RUNNERS.len() => {
                        markets.odd_evens.push((Runners::of(&row), line));
                        continue;
                    }
                    _ => &mut markets.bookmaker,
                },
                MarketType::Win => &mut markets.win,
                MarketType::Place => &mut markets.place,
                MarketType::Fancy => {
                    if let Some(line) = fancy_named(&row.name) {
                        markets.fancies.push((row.market_id, line));
                    }
                    continue;
                }
            };
            if slot.is_none() {
                *slot = Some(Runners::of(&row));
            }
        }
        Ok(markets)
    }
}

/// A fancy's rates for a projected figure: No at the figure, Yes one run more, both at 100.
pub(crate) fn fancy_update(figure: u32) -> RatesUpdate {
    let line_no = i64::from(figure);
    RatesUpdate::Fancy { line_no, rate_no: 100, line_yes: line_no + 1, rate_yes: 100 }
}

/// Bookmaker rates for two runners with these chances ([`bookmaker_rates`]).
pub(crate) fn bookmaker_update(selections: &[i64], chances: [f64; 2]) -> RatesUpdate {
    RatesUpdate::Bookmaker(
        selections
            .iter()
            .zip(chances.map(bookmaker_rates))
            .map(|(selection, (back, lay))| (*selection, Some(back), Some(lay)))
            .collect(),
    )
}

/// Has the maker quote a demo match's exchange markets before the off, at the pre-match prices.
pub async fn quote_pre_match(feed: &Feed, the_match: &Match) -> Result<(), AppError> {
    let markets = Markets::load(feed, the_match).await?;
    if let Some(match_odds) = &markets.match_odds {
        let prices = super::fair_prices(&the_match.name, match_odds.selections.len());
        let fair = probabilities_of_prices(&prices).into_iter().map(fair_price);
        let fair = match_odds.selections.iter().copied().zip(fair).collect();
        feed.maker.quote(match_odds.maker_market(the_match.match_id, false), fair, false, true);
    }
    let race = race_of(the_match);
    for (market, chances) in
        [(&markets.win, race.win_probabilities()), (&markets.place, race.place_probabilities())]
    {
        let Some(market) = market else { continue };
        if market.selections.len() != chances.len() {
            continue;
        }
        let fair =
            market.selections.iter().copied().zip(chances.into_iter().map(fair_price)).collect();
        feed.maker.quote(market.maker_market(the_match.match_id, true), fair, false, true);
    }
    Ok(())
}

/// Plays an in-play match to its settlement and takes it out of play. Returns false, having
/// done nothing, for a match without the demo's markets (an operator's own markets on a demo
/// fixture): the scheduler then leaves it alone.
pub async fn play(feed: Arc<Feed>, the_match: Match) -> bool {
    let markets = match Markets::load(&feed, &the_match).await {
        Ok(markets) => markets,
        Err(err) => {
            tracing::warn!("demo feed: cannot load the markets of {}: {err}", the_match.name);
            return false;
        }
    };
    let playable = match the_match.sport_id {
        fixtures::CRICKET => markets.match_odds.as_ref().is_some_and(|m| m.selections.len() == 2),
        fixtures::FOOTBALL => markets.match_odds.as_ref().is_some_and(|m| m.selections.len() == 3),
        fixtures::TENNIS => markets.match_odds.as_ref().is_some_and(|m| m.selections.len() == 2),
        fixtures::HORSE_RACING | fixtures::GREYHOUND_RACING => {
            markets.win.is_some() || markets.place.is_some()
        }
        _ => false,
    };
    if !playable {
        tracing::info!("demo feed: {} has none of the demo's markets: left alone", the_match.name);
        return false;
    }
    match the_match.sport_id {
        fixtures::CRICKET => cricket(&feed, &the_match, markets).await,
        fixtures::FOOTBALL => football(&feed, &the_match, markets).await,
        fixtures::TENNIS => tennis(&feed, &the_match, markets).await,
        _ => race(&feed, &the_match, markets).await,
    }
    let out_of_play =
        operator::set_match_in_play(&feed.console(), &feed.state.engine, the_match.match_id, false)
            .await;
    ok_or_warn(&the_match, "take it out of play", out_of_play);
    true
}

/// Logs a failed step at warn (the feed carries on) and gives back the value of one that worked.
fn ok_or_warn<T>(the_match: &Match, what: &str, result: Result<T, AppError>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(err) => {
            tracing::warn!(
                match_id = the_match.match_id,
                "demo feed: {}: cannot {what}: {err}",
                the_match.name
            );
            None
        }
    }
}

/// Sets the status of several markets; a market that is no longer running (settled by an
/// operator) is dropped from the list.
async fn set_statuses(
    feed: &Feed,
    the_match: &Match,
    markets: &mut Vec<i64>,
    status: MarketStatus,
) {
    let mut still_running = Vec::with_capacity(markets.len());
    for market_id in markets.drain(..) {
        let result = feed.state.engine.set_status(market_id, status, None).await;
        if result.is_ok() || feed.state.engine.is_running(market_id).await {
            still_running.push(market_id);
        }
        ok_or_warn(the_match, &format!("set market {market_id} {status}"), result);
    }
    *markets = still_running;
}

/// Sends the match's score (and, at the end, its result) as an operator's feed would.
async fn post_state(feed: &Feed, the_match: &Match, score: ScoreInput, result: Option<String>) {
    let update = MatchStateUpdate { score: Some(Some(score)), result: result.map(Some) };
    let posted = operator::set_match_state(
        &feed.console(),
        &feed.state.live_books,
        the_match.match_id,
        update,
    )
    .await;
    ok_or_warn(the_match, "post the score", posted);
}

/// A delivery as the scoreboard's last balls show it.
fn delivery_token(delivery: Delivery) -> String {
    match delivery {
        Delivery::Runs(0) => ".".into(),
        Delivery::Runs(runs) => runs.to_string(),
        Delivery::Wide => "1wd".into(),
        Delivery::Wicket => "W".into(),
    }
}

/// The cricket score so far: the innings begun, in batting order, and the last balls.
fn cricket_score(game: &Cricket, sides: &[&str; 2], last_balls: &VecDeque<String>) -> ScoreInput {
    let innings = (0..=game.batting())
        .map(|side| {
            let innings = game.innings(side);
            CricketInnings {
                side: sides[side].to_string(),
                runs: innings.runs,
                wickets: innings.wickets,
                overs: innings.legal_balls / BALLS_PER_OVER,
                balls: innings.legal_balls % BALLS_PER_OVER,
            }
        })
        .collect();
    ScoreInput::Cricket(CricketInput {
        innings,
        overs_limit: Some(BALLS_PER_INNINGS / BALLS_PER_OVER),
        last_balls: last_balls.iter().cloned().collect(),
    })
}

/// "Chennai won by 12 runs" (defended) or "Mumbai won by 4 wickets" (chased); a tie settled
/// by the super over says so.
fn cricket_result(game: &Cricket, sides: &[&str; 2], winner: usize) -> String {
    let (first, second) = (game.innings(0), game.innings(1));
    match winner {
        _ if first.runs == second.runs => format!("{} won the super over", sides[winner]),
        0 => format!("{} won by {} runs", sides[0], first.runs - second.runs),
        _ => format!("{} won by {} wickets", sides[1], 10 - second.wickets),
    }
}

async fn settle(feed: &Feed, the_match: &Match, market_id: i64, result: ResultInput) {
    feed.maker.forget(market_id);
    let settled = feed.state.engine.settle(market_id, result, None).await;
    if let Some(message) = ok_or_warn(the_match, &format!("settle market {market_id}"), settled) {
        tracing::debug!("demo feed: {message}");
    }
}

/// Cricket, ball by ball.
async fn cricket(feed: &Feed, the_match: &Match, markets: Markets) {
    let Some((home, away)) = fixtures::sides(&the_match.name) else { return };
    let sides = [home, away];
    let mut game = Cricket::new(seed_of(the_match.match_id), pre_match_edge(&the_match.name, 2));
    let match_odds = markets.match_odds.filter(|m| m.selections.len() == 2);
    let bookmaker = markets.bookmaker.filter(|m| m.selections.len() == 2);
    let mut lines = HouseLines { fancies: markets.fancies, odd_evens: markets.odd_evens };
    let mut posted = PostedPrices::default();
    post_cricket_prices(
        feed,
        the_match,
        &game,
        &match_odds,
        bookmaker.as_ref(),
        &lines,
        &mut posted,
        true,
    )
    .await;
    let mut last_balls: VecDeque<String> = VecDeque::with_capacity(LAST_BALLS);
    post_state(feed, the_match, cricket_score(&game, &sides, &last_balls), None).await;
    let mut house: Vec<i64> = bookmaker.iter().map(|b| b.market_id).chain(lines.ids()).collect();
    // A restarted server may find them suspended mid-ball.
    set_statuses(feed, the_match, &mut house, MarketStatus::Open).await;
    while !game.is_finished() {
        let innings = game.innings(game.batting());
        let over_done = innings.legal_balls > 0 && innings.legal_balls % 6 == 0;
        feed.clock.sleep(BETWEEN_BALLS_MS + if over_done { BETWEEN_OVERS_MS } else { 0 }).await;
        set_statuses(feed, the_match, &mut house, MarketStatus::BallRunning).await;
        // A market an operator settled meanwhile drops out of `house`: stop pricing it.
        lines.retain_running(&house);
        let bookmaker = bookmaker.as_ref().filter(|b| house.contains(&b.market_id));
        feed.clock.sleep(BALL_RUNNING_MS).await;
        let batting = game.batting();
        let Some(delivery) = game.bowl() else { break };
        if last_balls.len() == LAST_BALLS {
            last_balls.pop_front();
        }
        last_balls.push_back(delivery_token(delivery));
        if !game.is_finished() {
            post_state(feed, the_match, cricket_score(&game, &sides, &last_balls), None).await;
        }
        if game.batting() != batting {
            // The next innings' last balls are its own.
            last_balls.clear();
        }
        // A wicket: the match odds' prices are wrong now. Suspend them and pull the maker's
        // orders; they reopen below, with its new prices, once the new batsman is in.
        let mut suspended_odds: Vec<i64> = Vec::new();
        if delivery == Delivery::Wicket && !game.is_finished() {
            if let Some(odds) = &match_odds {
                suspended_odds.push(odds.market_id);
                set_statuses(feed, the_match, &mut suspended_odds, MarketStatus::Suspended).await;
                feed.maker.withdraw(odds.market_id).await;
            }
        }
        // A line whose figure is known (or can no longer be) is taken off and resulted.
        for market_id in lines.settle_decided(feed, the_match, &game).await {
            house.retain(|id| *id != market_id);
        }
        post_cricket_prices(
            feed,
            the_match,
            &game,
            &match_odds,
            bookmaker,
            &lines,
            &mut posted,
            delivery == Delivery::Wicket,
        )
        .await;
        if game.is_finished() {
            break;
        }
        if game.batting() != batting {
            tracing::info!(
                "demo feed: {}: innings break, {}",
                the_match.name,
                game.score_text(&sides)
            );
            set_statuses(feed, the_match, &mut house, MarketStatus::Suspended).await;
            feed.clock.sleep(INNINGS_BREAK_MS).await;
        } else if !suspended_odds.is_empty() {
            feed.clock.sleep(AFTER_WICKET_MS).await;
        }
        if !suspended_odds.is_empty() {
            set_statuses(feed, the_match, &mut suspended_odds, MarketStatus::Open).await;
            for market_id in &suspended_odds {
                feed.maker.requote_now(*market_id).await;
            }
        }
        set_statuses(feed, the_match, &mut house, MarketStatus::Open).await;
    }
    let Some(winner) = game.winner() else { return };
    let result = cricket_result(&game, &sides, winner);
    post_state(feed, the_match, cricket_score(&game, &sides, &last_balls), Some(result)).await;
    tracing::info!(
        "demo feed: {} finished: {} won ({})",
        the_match.name,
        sides[winner],
        game.score_text(&sides)
    );
    for market in [match_odds.as_ref(), bookmaker.as_ref().filter(|b| house.contains(&b.market_id))]
        .into_iter()
        .flatten()
    {
        let mut one = vec![market.market_id];
        set_statuses(feed, the_match, &mut one, MarketStatus::Suspended).await;
        settle(feed, the_match, market.market_id, ResultInput::Winner(market.selections[winner]))
            .await;
    }
    // The match is over: every line left is decided.
    lines.retain_running(&house);
    lines.settle_decided(feed, the_match, &game).await;
}

/// The fancies and odd/even markets of a match still running.
struct HouseLines {
    fancies: Vec<(i64, FancyLine)>,
    odd_evens: Vec<(Runners, OddEven)>,
}

impl HouseLines {
    fn ids(&self) -> impl Iterator<Item = i64> + '_ {
        let odd_evens = self.odd_evens.iter().map(|(market, _)| market.market_id);
        self.fancies.iter().map(|(id, _)| *id).chain(odd_evens)
    }

    fn retain_running(&mut self, running: &[i64]) {
        self.fancies.retain(|(id, _)| running.contains(id));
        self.odd_evens.retain(|(market, _)| running.contains(&market.market_id));
    }

    /// Suspends and settles each line this state of the match decides (its figure, or void:
    /// [`fancy`]'s rules) and drops it; returns the markets settled.
    async fn settle_decided(&mut self, feed: &Feed, the_match: &Match, game: &Cricket) -> Vec<i64> {
        let mut decided: Vec<(i64, ResultInput)> = Vec::new();
        self.fancies.retain(|(market_id, line)| {
            let result = match line.figure(game) {
                Figure::Projected(_) => return true,
                Figure::Known(figure) => ResultInput::Fancy(i64::from(figure)),
                Figure::Void => ResultInput::Void,
            };
            decided.push((*market_id, result));
            false
        });
        self.odd_evens.retain(|(market, line)| {
            let result = match line.parity(game) {
                Parity::Open(_) => return true,
                Parity::Odd => ResultInput::Winner(market.selections[0]),
                Parity::Even => ResultInput::Winner(market.selections[1]),
                Parity::Void => ResultInput::Void,
            };
            decided.push((market.market_id, result));
            false
        });
        for (market_id, result) in &decided {
            let mut one = vec![*market_id];
            set_statuses(feed, the_match, &mut one, MarketStatus::Suspended).await;
            tracing::debug!(
                "demo feed: {}: market {market_id} resulted {result:?}",
                the_match.name
            );
            settle(feed, the_match, *market_id, result.clone()).await;
        }
        decided.into_iter().map(|(market_id, _)| market_id).collect()
    }
}

/// What was last posted, so that an unchanged line or rate is not written again.
#[derive(Default)]
struct PostedPrices {
    /// Bookmaker and odd/even markets: the two runners' back and lay.
    rates: HashMap<i64, [(i64, i64); 2]>,
    /// Fancies: the No line.
    fancy_lines: HashMap<i64, u32>,
}

impl PostedPrices {
    /// Posts two runners' bookmaker rates unless they are the ones posted last.
    async fn bookmaker(
        &mut self,
        feed: &Feed,
        the_match: &Match,
        market: &Runners,
        chances: [f64; 2],
    ) {
        let rates = chances.map(bookmaker_rates);
        if self.rates.get(&market.market_id) == Some(&rates) {
            return;
        }
        let update = bookmaker_update(&market.selections, chances);
        let result = feed.state.engine.set_rates(market.market_id, update, None).await;
        if ok_or_warn(the_match, "post bookmaker rates", result).is_some() {
            self.rates.insert(market.market_id, rates);
        }
    }

    /// Posts a fancy's line unless it is the one posted last.
    async fn fancy(&mut self, feed: &Feed, the_match: &Match, market_id: i64, figure: u32) {
        if self.fancy_lines.get(&market_id) == Some(&figure) {
            return;
        }
        let result = feed.state.engine.set_rates(market_id, fancy_update(figure), None).await;
        if ok_or_warn(the_match, "post a fancy line", result).is_some() {
            self.fancy_lines.insert(market_id, figure);
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn post_cricket_prices(
    feed: &Feed,
    the_match: &Match,
    game: &Cricket,
    match_odds: &Option<Runners>,
    bookmaker: Option<&Runners>,
    lines: &HouseLines,
    posted: &mut PostedPrices,
    urgent: bool,
) {
    let p0 = game.win_probability();
    if let Some(bookmaker) = bookmaker {
        posted.bookmaker(feed, the_match, bookmaker, [p0, 1.0 - p0]).await;
    }
    for (market_id, line) in &lines.fancies {
        if let Figure::Projected(figure) = line.figure(game) {
            posted.fancy(feed, the_match, *market_id, figure).await;
        }
    }
    for (market, line) in &lines.odd_evens {
        if let Parity::Open(odd) = line.parity(game) {
            posted.bookmaker(feed, the_match, market, [odd, 1.0 - odd]).await;
        }
    }
    if let Some(match_odds) = match_odds {
        let fair = vec![
            (match_odds.selections[0], fair_price(p0)),
            (match_odds.selections[1], fair_price(1.0 - p0)),
        ];
        feed.maker.quote(match_odds.maker_market(the_match.match_id, false), fair, true, urgent);
    }
}

/// Football, minute by minute.
async fn football(feed: &Feed, the_match: &Match, markets: Markets) {
    let Some(match_odds) = markets.match_odds.filter(|m| m.selections.len() == 3) else { return };
    let mut game = Football::new(seed_of(the_match.match_id), pre_match_edge(&the_match.name, 3));
    let quote = |game: &Football, urgent: bool| {
        let fair = match_odds
            .selections
            .iter()
            .copied()
            .zip(game.probabilities().map(fair_price))
            .collect();
        feed.maker.quote(match_odds.maker_market(the_match.match_id, false), fair, true, urgent);
    };
    quote(&game, true);
    let score = |game: &Football| {
        ScoreInput::Football(FootballScore { goals: game.goals().to_vec(), minute: game.minute() })
    };
    post_state(feed, the_match, score(&game), None).await;
    let mut market = vec![match_odds.market_id];
    set_statuses(feed, the_match, &mut market, MarketStatus::Open).await;
    while !game.is_finished() {
        feed.clock
            .sleep(FOOTBALL_MINUTE_MS + if game.minute() == 45 { HALF_TIME_MS } else { 0 })
            .await;
        let goal = game.play_minute();
        if !game.is_finished() {
            post_state(feed, the_match, score(&game), None).await;
        }
        match goal {
            Some(_) => {
                // A goal: the old prices are wrong. Suspend, pull the maker's orders, reopen
                // with the new prices.
                set_statuses(feed, the_match, &mut market, MarketStatus::Suspended).await;
                feed.maker.withdraw(match_odds.market_id).await;
                let [home, away] = game.goals();
                tracing::info!(
                    "demo feed: {}: goal, {home}-{away} ({}')",
                    the_match.name,
                    game.minute()
                );
                quote(&game, true);
                feed.clock.sleep(AFTER_GOAL_MS).await;
                if !game.is_finished() {
                    set_statuses(feed, the_match, &mut market, MarketStatus::Open).await;
                    // Its orders were withdrawn: the new prices at once, not at the next tick.
                    feed.maker.requote_now(match_odds.market_id).await;
                }
            }
            None if game.minute() % 5 == 0 => quote(&game, false),
            None => {}
        }
    }
    let Some(result) = game.result() else { return };
    let [home, away] = game.goals();
    let text = match fixtures::sides(&the_match.name) {
        Some((home_side, _)) if home > away => format!("{home_side} won {home}-{away}"),
        Some((_, away_side)) if away > home => format!("{away_side} won {away}-{home}"),
        _ => format!("Drawn {home}-{away}"),
    };
    post_state(feed, the_match, score(&game), Some(text)).await;
    tracing::info!("demo feed: {} finished {home}-{away}", the_match.name);
    set_statuses(feed, the_match, &mut market, MarketStatus::Suspended).await;
    settle(
        feed,
        the_match,
        match_odds.market_id,
        ResultInput::Winner(match_odds.selections[result]),
    )
    .await;
}

/// Tennis, game by game.
async fn tennis(feed: &Feed, the_match: &Match, markets: Markets) {
    let Some(match_odds) = markets.match_odds.filter(|m| m.selections.len() == 2) else { return };
    let mut game = Tennis::new(seed_of(the_match.match_id), pre_match_edge(&the_match.name, 2));
    let quote = |game: &Tennis, urgent: bool| {
        let p0 = game.win_probability();
        let fair = vec![
            (match_odds.selections[0], fair_price(p0)),
            (match_odds.selections[1], fair_price(1.0 - p0)),
        ];
        feed.maker.quote(match_odds.maker_market(the_match.match_id, false), fair, true, urgent);
    };
    quote(&game, true);
    let score = |game: &Tennis| {
        ScoreInput::Tennis(TennisScore {
            sets: game.sets().to_vec(),
            games: game.games().to_vec(),
            serving: game.server() as u32,
        })
    };
    post_state(feed, the_match, score(&game), None).await;
    let mut market = vec![match_odds.market_id];
    set_statuses(feed, the_match, &mut market, MarketStatus::Open).await;
    while game.winner().is_none() {
        feed.clock.sleep(TENNIS_GAME_MS).await;
        let sets_before = game.sets();
        game.play_game();
        if game.winner().is_none() {
            post_state(feed, the_match, score(&game), None).await;
        }
        quote(&game, game.sets() != sets_before);
    }
    let Some(winner) = game.winner() else { return };
    let [a, b] = game.sets();
    let text = match fixtures::sides(&the_match.name) {
        Some(players) => {
            let name = if winner == 0 { players.0 } else { players.1 };
            format!("{name} won {}-{}", a.max(b), a.min(b))
        }
        None => format!("Won {}-{} in sets", a.max(b), a.min(b)),
    };
    post_state(feed, the_match, score(&game), Some(text)).await;
    tracing::info!("demo feed: {} finished, sets {a}-{b}", the_match.name);
    set_statuses(feed, the_match, &mut market, MarketStatus::Suspended).await;
    settle(
        feed,
        the_match,
        match_odds.market_id,
        ResultInput::Winner(match_odds.selections[winner]),
    )
    .await;
}

/// A race: off, run, resulted.
async fn race(feed: &Feed, the_match: &Match, markets: Markets) {
    let model = race_of(the_match);
    let mut running: Vec<i64> =
        [&markets.win, &markets.place].into_iter().flatten().map(|m| m.market_id).collect();
    for market_id in &running {
        feed.maker.forget(*market_id);
    }
    // They're off: no bets while the race is run.
    set_statuses(feed, the_match, &mut running, MarketStatus::Suspended).await;
    let mut rng = DemoRng::new(seed_of(the_match.match_id) ^ 0xFF);
    feed.clock.sleep(RACE_MIN_MS + i64::from(rng.below(RACE_EXTRA_MS))).await;
    // One finishing order for both markets (a field an operator changed by hand finishes at
    // random).
    let order = model.run();
    let mut finishing = |field: usize| {
        if field == model.runners.len() {
            order.clone()
        } else {
            shuffled(&mut rng, field)
        }
    };
    // The placings and result, from the demo's own field (a field changed by hand has no names
    // here: its markets are still resulted below).
    let field_order = [&markets.win, &markets.place]
        .into_iter()
        .flatten()
        .any(|m| m.selections.len() == model.runners.len())
        .then(|| order.clone());
    if let Some(order) = field_order {
        let placings: Vec<String> = order.iter().map(|i| model.runners[*i].clone()).collect();
        let result = format!("Won by {}", placings[0]);
        post_state(feed, the_match, ScoreInput::Race(RacePlacings { placings }), Some(result))
            .await;
    }
    if let Some(win) = &markets.win {
        let order = finishing(win.selections.len());
        settle(feed, the_match, win.market_id, ResultInput::Winner(win.selections[order[0]])).await;
        if win.selections.len() == model.runners.len() {
            tracing::info!("demo feed: {}: won by {}", the_match.name, model.runners[order[0]]);
        }
    }
    if let Some(place) = &markets.place {
        let order = finishing(place.selections.len());
        let placed = order
            .iter()
            .take(place.winners.clamp(1, place.selections.len()))
            .map(|i| place.selections[*i])
            .collect();
        settle(feed, the_match, place.market_id, ResultInput::Placed(placed)).await;
    }
}

fn shuffled(rng: &mut DemoRng, field: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..field).collect();
    for i in (1..field).rev() {
        order.swap(i, rng.below(i as u32 + 1) as usize);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cricket_score_the_demo_posts_passes_the_servers_checks() {
        use backlay_core::score::{Score, ScoreView};
        let sides = ["Mumbai Indians", "Chennai Super Kings"];
        for seed in 1..20 {
            let mut game = Cricket::new(seed_of(seed), 0.0);
            let mut last_balls = VecDeque::new();
            while let Some(delivery) = game.bowl() {
                if last_balls.len() == LAST_BALLS {
                    last_balls.pop_front();
                }
                last_balls.push_back(delivery_token(delivery));
                let score = Score::parse(cricket_score(&game, &sides, &last_balls))
                    .unwrap_or_else(|err| panic!("seed {seed}: {}: {err}", err.field));
                let ScoreView::Cricket(view) = score.view() else { panic!("not cricket") };
                assert_eq!(view.innings.len(), game.batting() + 1);
            }
            let winner = game.winner().expect("a finished match has a winner");
            let result = cricket_result(&game, &sides, winner);
            assert!(result.starts_with(sides[winner]), "{result}");
            let (first, second) = (game.innings(0), game.innings(1));
            if first.runs > second.runs {
                assert_eq!(
                    result,
                    format!("{} won by {} runs", sides[0], first.runs - second.runs)
                );
            } else if second.runs > first.runs {
                assert!(result.ends_with(" wickets"), "{result}");
            }
        }
    }

    #[test]
    fn deliveries_read_as_a_scoreboard_writes_them() {
        let tokens: Vec<String> =
            [Delivery::Runs(0), Delivery::Runs(4), Delivery::Wide, Delivery::Wicket]
                .into_iter()
                .map(delivery_token)
                .collect();
        assert_eq!(tokens, [".", "4", "1wd", "W"]);
    }
}
