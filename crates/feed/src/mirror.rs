//! The upstream as a Betfair client sees it: each market's definition and ladders, each
//! cricket match's score, each race's progress, changed by messages in the order they came.
//!
//! A market change is applied as betfairlightweight's stream cache applies it (its historical
//! reader is the reference the tests compare with): a full image (`img`), or the first change of
//! a market, starts the market afresh; a level `[price, size]` sets the money at that price and
//! a size of 0 removes the price; the best levels (`batb`, `bdatb` …) are kept by rank the same
//! way; an empty `trd` clears what was traded. What a bettor can back at is every level of
//! `atb` when the subscription has them, else the displayed best levels, else the best levels:
//!
//! ```
//! use backlay_feed::{Message, Mirror};
//!
//! let mut mirror = Mirror::default();
//! for line in [
//!     r#"{"op":"mcm","pt":1,"mc":[{"id":"1.5","img":true,"marketDefinition":{"eventTypeId":"7",
//!        "eventId":"9","marketType":"WIN","status":"OPEN","runners":[{"id":11,"sortPriority":1,
//!        "status":"ACTIVE"}]},"rc":[{"id":11,"atb":[[3.5,10],[3.45,4]],"atl":[[3.6,7]]}]}]}"#,
//!     r#"{"op":"mcm","pt":2,"mc":[{"id":"1.5","rc":[{"id":11,"atb":[[3.5,0],[3.4,2.5]]}]}]}"#,
//! ] {
//!     mirror.apply(Message::read(line).unwrap()).unwrap();
//! }
//! let runner = &mirror.market("1.5").unwrap().runners()[0];
//! let back: Vec<String> =
//!     runner.available_to_back().iter().map(|l| format!("{}@{}", l.size, l.price)).collect();
//! assert_eq!(back, ["4.00@3.45", "2.50@3.40"]); // 3.5 is gone, 3.4 arrived below 3.45
//! ```
//!
//! A line either applies whole or not at all: its markets are checked first (a change for a
//! market never defined is refused), then applied.

use std::collections::{BTreeMap, HashMap};

use backlay_core::money::Money;
use backlay_core::odds::Price;

use crate::message::{
    ChangeType, CricketScore, Level, MarketChange, MarketDefinition, MarketStatus, Message,
    RaceProgress, RankedLevel, Refusal, RunnerChange, RunnerDefinition,
};

/// Everything the upstream has said, as it stands.
#[derive(Debug, Default)]
pub struct Mirror {
    markets: HashMap<String, MarketMirror>,
    /// Markets in the order they were first seen, for stable listings.
    market_order: Vec<String>,
    scores: HashMap<String, CricketScore>,
    races: HashMap<String, RaceProgress>,
    /// The publish time of the last message applied.
    pt: Option<i64>,
}

/// What a message moved, for whoever acts on the mirror.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// Markets whose definition or ladders changed.
    pub markets: Vec<String>,
    /// Cricket events (by event id) whose score changed.
    pub scores: Vec<String>,
    /// Race markets (by market id) with news of the race running.
    pub races: Vec<String>,
}

/// One market as it stands.
#[derive(Debug, Clone)]
pub struct MarketMirror {
    market_id: String,
    definition: Option<MarketDefinition>,
    runners: Vec<RunnerMirror>,
    traded_volume: Money,
    /// When the market last changed (`pt`).
    pt: i64,
}

/// One runner's ladders.
#[derive(Debug, Clone)]
pub struct RunnerMirror {
    selection_id: i64,
    definition: Option<RunnerDefinition>,
    last_traded_hundredths: Option<u32>,
    traded_volume: Money,
    to_back: BTreeMap<Price, Money>,
    to_lay: BTreeMap<Price, Money>,
    traded: BTreeMap<Price, Money>,
    best_to_back: BTreeMap<u32, Level>,
    best_to_lay: BTreeMap<u32, Level>,
    best_display_to_back: BTreeMap<u32, Level>,
    best_display_to_lay: BTreeMap<u32, Level>,
}

impl Mirror {
    /// Applies one message whole, or refuses it and changes nothing.
    pub fn apply(&mut self, message: Message) -> Result<Applied, Refusal> {
        let mut applied = Applied::default();
        match message {
            Message::Market(message) => {
                for change in &message.markets {
                    let known = self.markets.contains_key(&change.market_id);
                    if !known && change.definition.is_none() {
                        return Err(Refusal::UnknownMarket { market_id: change.market_id.clone() });
                    }
                }
                if message.change_type == ChangeType::SubscriptionImage {
                    // A subscription's first image holds every market it covers, whole.
                    for change in &message.markets {
                        self.markets.remove(&change.market_id);
                    }
                }
                for change in message.markets {
                    applied.markets.push(change.market_id.clone());
                    self.apply_market(change, message.pt);
                }
                self.pt = Some(message.pt);
            }
            Message::Cricket(message) => {
                for score in message.matches {
                    applied.scores.push(score.event_id.clone());
                    match self.scores.get_mut(&score.event_id) {
                        Some(held) => merge_score(held, score),
                        None => {
                            self.scores.insert(score.event_id.clone(), score);
                        }
                    }
                }
                self.pt = Some(message.pt);
            }
            Message::Race(message) => {
                for race in message.races {
                    let key = race.market_id.clone().unwrap_or_else(|| race.race_id.clone());
                    applied.races.push(key.clone());
                    self.races.insert(key, race);
                }
                self.pt = Some(message.pt);
            }
            Message::Other { pt, .. } => {
                if pt.is_some() {
                    self.pt = pt;
                }
            }
        }
        Ok(applied)
    }

    fn apply_market(&mut self, change: MarketChange, pt: i64) {
        let fresh = change.image || !self.markets.contains_key(&change.market_id);
        if fresh {
            // A full image keeps the definition it does not repeat (a subscription without
            // EX_MARKET_DEF sends none), and starts every ladder afresh.
            let definition = self.markets.get(&change.market_id).and_then(|m| m.definition.clone());
            if !self.market_order.contains(&change.market_id) {
                self.market_order.push(change.market_id.clone());
            }
            let mut market = MarketMirror {
                market_id: change.market_id.clone(),
                definition: None,
                runners: Vec::new(),
                traded_volume: Money::ZERO,
                pt,
            };
            if let Some(definition) = definition {
                market.set_definition(definition);
            }
            self.markets.insert(change.market_id.clone(), market);
        }
        let market = self.markets.get_mut(&change.market_id).expect("inserted above");
        market.pt = pt;
        if let Some(definition) = change.definition {
            market.set_definition(definition);
        }
        if let Some(volume) = change.traded_volume {
            market.traded_volume = volume;
        }
        for runner_change in change.runners {
            market.runner_mut(runner_change.selection_id).apply(runner_change);
        }
    }

    /// A market by its upstream id.
    pub fn market(&self, market_id: &str) -> Option<&MarketMirror> {
        self.markets.get(market_id)
    }

    /// Every market, in the order first seen.
    pub fn markets(&self) -> impl Iterator<Item = &MarketMirror> {
        self.market_order.iter().filter_map(|id| self.markets.get(id))
    }

    /// A cricket match's score by its event id.
    pub fn score(&self, event_id: &str) -> Option<&CricketScore> {
        self.scores.get(event_id)
    }

    /// The latest news of a race, by its WIN market's id.
    pub fn race(&self, market_id: &str) -> Option<&RaceProgress> {
        self.races.get(market_id)
    }

    /// The publish time of the last message applied.
    pub fn pt(&self) -> Option<i64> {
        self.pt
    }
}

/// A score message names only what it knows: what it names replaces what was held.
fn merge_score(held: &mut CricketScore, news: CricketScore) {
    let keep = |held: &mut Option<String>, news: Option<String>| {
        if news.is_some() {
            *held = news;
        }
    };
    keep(&mut held.market_id, news.market_id);
    keep(&mut held.description, news.description);
    keep(&mut held.home_team, news.home_team);
    keep(&mut held.away_team, news.away_team);
    keep(&mut held.fixture_status, news.fixture_status);
    keep(&mut held.event_status, news.event_status);
    keep(&mut held.scoreboard, news.scoreboard);
    keep(&mut held.winner, news.winner);
    if news.current_innings.is_some() {
        held.current_innings = news.current_innings;
    }
    if news.max_overs.is_some() {
        held.max_overs = news.max_overs;
    }
    if !news.innings.is_empty() {
        held.innings = news.innings;
    }
}

impl MarketMirror {
    fn set_definition(&mut self, definition: MarketDefinition) {
        for runner in &definition.runners {
            self.runner_mut(runner.selection_id).definition = Some(runner.clone());
        }
        self.definition = Some(definition);
    }

    fn runner_mut(&mut self, selection_id: i64) -> &mut RunnerMirror {
        let at = match self.runners.iter().position(|r| r.selection_id == selection_id) {
            Some(at) => at,
            None => {
                self.runners.push(RunnerMirror::new(selection_id));
                self.runners.len() - 1
            }
        };
        &mut self.runners[at]
    }

    pub fn market_id(&self) -> &str {
        &self.market_id
    }

    /// The latest definition; `None` only for a market whose changes came without one
    /// (never here: such a change is refused).
    pub fn definition(&self) -> Option<&MarketDefinition> {
        self.definition.as_ref()
    }

    pub fn status(&self) -> Option<MarketStatus> {
        self.definition.as_ref().map(|d| d.status)
    }

    /// The runners, in the order the upstream first named them.
    pub fn runners(&self) -> &[RunnerMirror] {
        &self.runners
    }

    pub fn runner(&self, selection_id: i64) -> Option<&RunnerMirror> {
        self.runners.iter().find(|r| r.selection_id == selection_id)
    }

    pub fn traded_volume(&self) -> Money {
        self.traded_volume
    }

    pub fn pt(&self) -> i64 {
        self.pt
    }
}

impl RunnerMirror {
    fn new(selection_id: i64) -> RunnerMirror {
        RunnerMirror {
            selection_id,
            definition: None,
            last_traded_hundredths: None,
            traded_volume: Money::ZERO,
            to_back: BTreeMap::new(),
            to_lay: BTreeMap::new(),
            traded: BTreeMap::new(),
            best_to_back: BTreeMap::new(),
            best_to_lay: BTreeMap::new(),
            best_display_to_back: BTreeMap::new(),
            best_display_to_lay: BTreeMap::new(),
        }
    }

    fn apply(&mut self, change: RunnerChange) {
        if let Some(hundredths) = change.last_traded_hundredths {
            self.last_traded_hundredths = Some(hundredths);
        }
        if let Some(volume) = change.traded_volume {
            self.traded_volume = volume;
        }
        if let Some(levels) = change.to_back {
            set_levels(&mut self.to_back, levels);
        }
        if let Some(levels) = change.to_lay {
            set_levels(&mut self.to_lay, levels);
        }
        match change.traded {
            Some(levels) if levels.is_empty() => self.traded.clear(),
            Some(levels) => set_levels(&mut self.traded, levels),
            None => {}
        }
        for (held, levels) in [
            (&mut self.best_to_back, change.best_to_back),
            (&mut self.best_to_lay, change.best_to_lay),
            (&mut self.best_display_to_back, change.best_display_to_back),
            (&mut self.best_display_to_lay, change.best_display_to_lay),
        ] {
            if let Some(levels) = levels {
                set_ranks(held, levels);
            }
        }
    }

    pub fn selection_id(&self) -> i64 {
        self.selection_id
    }

    /// The runner's definition: its state, name, sort priority; `None` for a runner whose
    /// prices came before any definition named it.
    pub fn definition(&self) -> Option<&RunnerDefinition> {
        self.definition.as_ref()
    }

    /// The last traded price, in hundredths (not always a ladder price: see
    /// [`RunnerChange::last_traded_hundredths`]).
    pub fn last_traded_hundredths(&self) -> Option<u32> {
        self.last_traded_hundredths
    }

    pub fn traded_volume(&self) -> Money {
        self.traded_volume
    }

    /// What a bettor can back at, best (highest) price first: every level when the stream
    /// sends them all (`atb`), else the displayed best levels, else the best levels.
    pub fn available_to_back(&self) -> Vec<Level> {
        if !self.to_back.is_empty() {
            by_price(&self.to_back).rev().collect()
        } else if !self.best_display_to_back.is_empty() {
            self.best_display_to_back.values().copied().collect()
        } else {
            self.best_to_back.values().copied().collect()
        }
    }

    /// What a bettor can lay at, best (lowest) price first, as [`Self::available_to_back`].
    pub fn available_to_lay(&self) -> Vec<Level> {
        if !self.to_lay.is_empty() {
            by_price(&self.to_lay).collect()
        } else if !self.best_display_to_lay.is_empty() {
            self.best_display_to_lay.values().copied().collect()
        } else {
            self.best_to_lay.values().copied().collect()
        }
    }

    /// Traded at each price, lowest price first.
    pub fn traded(&self) -> Vec<Level> {
        by_price(&self.traded).collect()
    }
}

fn by_price(levels: &BTreeMap<Price, Money>) -> impl DoubleEndedIterator<Item = Level> + '_ {
    levels.iter().map(|(&price, &size)| Level { price, size })
}

fn set_levels(held: &mut BTreeMap<Price, Money>, levels: Vec<Level>) {
    for level in levels {
        if level.size.is_zero() {
            held.remove(&level.price);
        } else {
            held.insert(level.price, level.size);
        }
    }
}

fn set_ranks(held: &mut BTreeMap<u32, Level>, levels: Vec<RankedLevel>) {
    for level in levels {
        match level.price {
            Some(price) if !level.size.is_zero() => {
                held.insert(level.rank, Level { price, size: level.size });
            }
            _ => {
                held.remove(&level.rank);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFINED: &str = r#"{"op":"mcm","pt":1,"mc":[{"id":"1.5","marketDefinition":{
        "eventTypeId":"7","eventId":"9","status":"OPEN","runners":[
        {"id":11,"sortPriority":1,"status":"ACTIVE"},{"id":12,"sortPriority":2,"status":"ACTIVE"}]},
        "rc":[{"id":11,"atb":[[3.5,10]],"batl":[[0,3.6,7],[1,3.7,2]],"trd":[[3.5,20]]}]}]}"#;

    fn mirror_of(lines: &[&str]) -> Mirror {
        let mut mirror = Mirror::default();
        for line in lines {
            mirror.apply(Message::read(line).unwrap()).unwrap();
        }
        mirror
    }

    fn back_of(mirror: &Mirror, selection_id: i64) -> Vec<(u32, i64)> {
        let runner = mirror.market("1.5").unwrap().runner(selection_id).unwrap();
        runner.available_to_back().iter().map(|l| (l.price.hundredths(), l.size.minor())).collect()
    }

    #[test]
    fn a_change_for_a_market_never_defined_is_refused_and_nothing_of_its_line_applies() {
        let mut mirror = mirror_of(&[DEFINED]);
        let line = r#"{"op":"mcm","pt":2,"mc":[{"id":"1.5","rc":[{"id":11,"atb":[[3.4,1]]}]},
            {"id":"1.6","rc":[{"id":1,"atb":[[2,1]]}]}]}"#;
        assert_eq!(
            mirror.apply(Message::read(line).unwrap()),
            Err(Refusal::UnknownMarket { market_id: "1.6".into() })
        );
        assert_eq!(back_of(&mirror, 11), [(350, 1000)], "1.5's part was not applied either");
        assert_eq!(mirror.pt(), Some(1));
    }

    #[test]
    fn an_image_starts_the_market_afresh_and_keeps_its_definition() {
        let image =
            r#"{"op":"mcm","pt":3,"mc":[{"id":"1.5","img":true,"rc":[{"id":12,"atb":[[2,5]]}]}]}"#;
        let mirror = mirror_of(&[DEFINED, image]);
        let market = mirror.market("1.5").unwrap();
        assert_eq!(market.runners().len(), 2, "both defined runners, from the definition kept");
        assert_eq!(back_of(&mirror, 11), []);
        assert_eq!(back_of(&mirror, 12), [(200, 500)]);
        assert_eq!(market.status(), Some(MarketStatus::Open));
    }

    #[test]
    fn best_levels_stand_in_when_the_stream_sends_no_full_ladder() {
        let emptied =
            r#"{"op":"mcm","pt":2,"mc":[{"id":"1.5","rc":[{"id":11,"batl":[[0,0,0]],"trd":[]}]}]}"#;
        let mirror = mirror_of(&[DEFINED]);
        let runner = mirror.market("1.5").unwrap().runner(11).unwrap();
        let lay: Vec<_> = runner.available_to_lay().iter().map(|l| l.price.hundredths()).collect();
        assert_eq!(lay, [360, 370]);
        assert_eq!(runner.traded().len(), 1);
        let mirror = mirror_of(&[DEFINED, emptied]);
        let runner = mirror.market("1.5").unwrap().runner(11).unwrap();
        let lay: Vec<_> = runner.available_to_lay().iter().map(|l| l.price.hundredths()).collect();
        assert_eq!(lay, [370], "rank 0 emptied, rank 1 stays as it was");
        assert!(runner.traded().is_empty(), "an empty trd clears what was traded");
    }

    #[test]
    fn a_cricket_score_keeps_what_a_later_message_leaves_out() {
        let first = r#"{"op":"ccm","pt":1,"cc":[{"eventId":"3","fixtureInfo":{"eventDescription":"A v B",
            "eventStatus":"BALL_IN_PROGRESS"},"matchStats":{"currentInnings":1,"inningsStats":[
            {"inningsNum":1,"battingTeam":"A","inningsRuns":80,"inningsOvers":"12.5","inningsWickets":2}]}}]}"#;
        let second = r#"{"op":"ccm","pt":2,"cc":[{"eventId":"3","fixtureInfo":{"eventStatus":"RUNS_LIKELY"}}]}"#;
        let mirror = mirror_of(&[first, second]);
        let score = mirror.score("3").unwrap();
        assert_eq!(score.description.as_deref(), Some("A v B"));
        assert_eq!(score.event_status.as_deref(), Some("RUNS_LIKELY"));
        assert_eq!(score.innings[0].runs, 80);
    }
}
