//! The market-maker: the demo's `maker` account keeps prices on every exchange market the feed
//! runs (match odds, race win and place). Its orders go through `Engine::place` and
//! `Engine::cancel` — the bet API's own path, with the funds check and the ledger — so its
//! liquidity is real money any bettor can match. Like the feed's house it is not held back by
//! the in-play bet delay ([`maker_house`]): its prices follow the game as it is played.
//!
//! For each market it is told the fair price of every runner. It lays at fair and the ticks
//! below (shown in the blue Back column) and backs from one tick above (the pink Lay column),
//! PERSIST so that the orders survive the off. Each order's size is its level's size varied
//! by a factor of 0.6 to 1.8 that belongs to the market, runner, side and price
//! ([`varied_size`]), so the book does not repeat one pattern and an order still at its price
//! keeps its size. Before the off the prices are not frozen: each re-quote moves one runner a
//! tick up or down or leaves it, a random walk at most [`MAX_DRIFT_TICKS`] from the fair price
//! ([`drift_step`]); in play the feed's moving fair prices are quoted as they are. Re-quoting is a diff, not a wipe: an order still
//! at a wanted price with its full size stays; stale or part-matched ones are cancelled;
//! missing ones are placed. A market is re-quoted every [`IN_PLAY_REQUOTE_MS`] of demo time in
//! play ([`PRE_MATCH_REQUOTE_MS`] before the off) or at once after a big event, never twice at
//! the same time, and never holds more than [`MAX_ORDERS_PER_MARKET`] orders (the diff itself is
//! `backlay_operator::house_orders`, which the feed's house liquidity uses too).
//!
//! Example, match odds at fair 2.00: lays of about 1,000 at 2.00, 2,500 at 1.99 and 4,000 at
//! 1.98 (say 1,350, 1,700 and 6,100); backs of about 1,000 at 2.02, 2,500 at 2.04 and 4,000
//! at 2.06. A bettor backs 1,000 at 2.00; at
//! the next re-quote the maker posts a fresh 1,000 at 2.00 and leaves its five other orders be.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use backlay_core::exchange::BetSide;
use backlay_core::odds::Price;
use tokio::task::JoinSet;

use super::rng::DemoRng;
use super::scheduler::DemoClock;
use backlay_kit::error::AppError;
use backlay_kit::refusal::Refusal;
use backlay_operator::house_orders::{requote_market, House, HouseOrder, Requoted};
use backlay_operator::AppState;

/// How the maker quotes one kind of market.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct QuoteStyle {
    /// The size of each price level on each side, best price first (minor units).
    pub sizes_minor: &'static [i64],
    /// The most one lay order may risk, size × (price − 1), in minor units: long prices get
    /// smaller lays, and none below the market's minimum stake.
    pub max_lay_liability_minor: i64,
}

/// Match odds: three levels a side.
pub const SPORTS_QUOTES: QuoteStyle =
    QuoteStyle { sizes_minor: &[1_000_00, 2_500_00, 4_000_00], max_lay_liability_minor: 6_000_00 };
/// Race win and place markets: up to ten runners, so two smaller levels a side.
pub const RACING_QUOTES: QuoteStyle =
    QuoteStyle { sizes_minor: &[200_00, 500_00], max_lay_liability_minor: 2_000_00 };

/// The most orders the maker keeps in one market (ten runners × two levels × two sides fit).
pub const MAX_ORDERS_PER_MARKET: usize = 64;
/// Demo time between re-quotes of a market in play, and before the off.
pub const IN_PLAY_REQUOTE_MS: i64 = 15_000;
pub const PRE_MATCH_REQUOTE_MS: i64 = 30_000;
/// How often (demo time) the maker looks for markets due a re-quote.
const MAKER_TICK_MS: i64 = 2_000;

/// The furthest, in ticks, the pre-match random walk takes a price from its fair price.
pub const MAX_DRIFT_TICKS: i32 = 3;

/// One step of the pre-match random walk: a tick down, none or a tick up, equally likely; a
/// step past [`MAX_DRIFT_TICKS`] goes the other way instead.
pub fn drift_step(rng: &mut DemoRng, ticks: i32) -> i32 {
    let step = rng.below(3) as i32 - 1;
    if (ticks + step).abs() > MAX_DRIFT_TICKS {
        ticks - step
    } else {
        ticks + step
    }
}

/// A price moved `ticks` along the ladder (up for positive), stopping at its ends.
pub fn drifted(price: Price, ticks: i32) -> Price {
    let mut moved = price;
    for _ in 0..ticks.unsigned_abs() {
        let next = if ticks > 0 { moved.tick_up() } else { moved.tick_down() };
        match next {
            Some(next) => moved = next,
            None => break,
        }
    }
    moved
}

/// The size of one order: the level's `base_minor` times a factor from 0.60 to 1.80 drawn
/// from the market, runner, side and price (the same order always gets the same size),
/// rounded as a person would post it: to 50 under 1,000, to 100 from there.
pub fn varied_size(
    base_minor: i64,
    market_id: i64,
    selection_id: i64,
    side: BetSide,
    price: Price,
) -> i64 {
    let seed = (market_id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (selection_id as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ u64::from(price.hundredths()) << 1
        ^ u64::from(side == BetSide::Back);
    let factor_percent = 60 + i64::from(DemoRng::new(seed).below(121));
    let raw = base_minor * factor_percent / 100;
    let step = if raw < 1_000_00 { 50_00 } else { 100_00 };
    ((raw + step / 2) / step * step).max(step)
}

/// The maker as the house that quotes: house liquidity, as the feed's house is
/// (`PlaceBet::house_liquidity`), so its quotes are not held back by the in-play bet delay. A
/// delayed quote is a stale one for a bettor to pick off, and a re-quote's new orders waiting
/// out the delay left the book empty for those seconds: in play a match's odds went blank after
/// every wicket while the market stayed open. Its sizes keep within every market's stake
/// limits by construction ([`quotes`] drops a level below the minimum; the largest is far
/// under any maximum).
pub fn maker_house(maker_id: i64) -> House {
    House { user_id: maker_id, liquidity: true, max_exposure_minor: None }
}

/// The orders the maker wants in a market for these fair prices: per runner, lays at fair and
/// the ticks below it, backs from the tick above, one level per size in `style`, each size
/// varied ([`varied_size`]).
pub fn quotes(
    market_id: i64,
    fair: &[(i64, Price)],
    style: QuoteStyle,
    min_stake_minor: i64,
) -> Vec<HouseOrder> {
    let mut wanted = Vec::new();
    for (selection_id, fair) in fair {
        let mut lay_price = Some(*fair);
        let mut back_price = fair.tick_up();
        for size_minor in style.sizes_minor {
            if let Some(price) = lay_price {
                // Liability = size × (price − 1); prices are hundredths.
                let risk_per_100 = i64::from(price.hundredths()) - 100;
                let cap = style.max_lay_liability_minor * 100 / risk_per_100.max(1);
                let varied =
                    varied_size(*size_minor, market_id, *selection_id, BetSide::Lay, price);
                let size_minor = varied.min(cap) / 100 * 100;
                if size_minor >= min_stake_minor {
                    wanted.push(HouseOrder {
                        selection_id: *selection_id,
                        side: BetSide::Lay,
                        price,
                        size_minor,
                    });
                }
            }
            if let Some(price) = back_price {
                let size_minor =
                    varied_size(*size_minor, market_id, *selection_id, BetSide::Back, price);
                if size_minor >= min_stake_minor {
                    wanted.push(HouseOrder {
                        selection_id: *selection_id,
                        side: BetSide::Back,
                        price,
                        size_minor,
                    });
                }
            }
            lay_price = lay_price.and_then(Price::tick_down);
            back_price = back_price.and_then(Price::tick_up);
        }
    }
    wanted.truncate(MAX_ORDERS_PER_MARKET);
    wanted
}

/// Logs a re-quote that went wrong: refusals that only mean the market moved on (suspended,
/// settled) at debug, the rest at warn.
fn log_requote(market_id: i64, result: Result<Requoted, AppError>) {
    match result {
        Ok(outcome) => {
            let (expected, unexpected): (Vec<_>, Vec<_>) =
                outcome.refused.iter().partition(|e| market_moved_on(e));
            if let Some(first) = unexpected.first() {
                tracing::warn!(
                    market_id,
                    refused = unexpected.len(),
                    "demo market-maker: orders refused: {first}"
                );
            }
            if let Some(first) = expected.first() {
                tracing::debug!(
                    market_id,
                    refused = expected.len(),
                    "demo market-maker: orders refused: {first}"
                );
            }
        }
        Err(err) if market_moved_on(&err) => {
            tracing::debug!(market_id, "demo market-maker: re-quote skipped: {err}")
        }
        Err(err) => tracing::warn!(market_id, "demo market-maker: re-quote failed: {err}"),
    }
}

/// A refusal that only means the market moved on: suspended, settled, or a state that changed
/// under the maker (a 409).
fn market_moved_on(err: &AppError) -> bool {
    matches!(
        err,
        AppError::Conflict(_)
            | AppError::Refused(
                Refusal::MarketNotOpen { .. }
                    | Refusal::MarketClosed
                    | Refusal::SuspendedDuringDelay
            )
    )
}

/// A market the maker looks after.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MakerMarket {
    pub market_id: i64,
    pub match_id: i64,
    pub min_stake_minor: i64,
    pub style: QuoteStyle,
}

#[derive(Clone, Debug)]
struct Tracked {
    market: MakerMarket,
    fair: Vec<(i64, Price)>,
    in_play: bool,
    /// Before the off: each runner's place on the random walk, in ticks from its fair price.
    drift_ticks: Vec<i32>,
    rng: DemoRng,
    /// Demo time of the next re-quote.
    due_ms: i64,
    /// A re-quote is running (never two at once: the second would not see the first's
    /// orders, still on their way into the book, and post them again).
    busy: bool,
}

/// The maker at work: the markets it quotes and their fair prices, re-quoted by [`MarketMaker::run`].
pub struct MarketMaker {
    state: AppState,
    maker_id: i64,
    clock: DemoClock,
    markets: Mutex<HashMap<i64, Tracked>>,
}

impl MarketMaker {
    pub fn new(state: AppState, maker_id: i64, clock: DemoClock) -> Arc<MarketMaker> {
        Arc::new(MarketMaker { state, maker_id, clock, markets: Mutex::new(HashMap::new()) })
    }

    pub fn maker_id(&self) -> i64 {
        self.maker_id
    }

    fn markets(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Tracked>> {
        // A panic elsewhere while holding the lock leaves plain data behind: carry on with it.
        self.markets.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Quotes `market` around these fair prices from now on; `urgent` re-quotes at the next
    /// tick (a new market, a wicket, a goal), otherwise the new prices wait for the market's
    /// next regular re-quote.
    pub fn quote(&self, market: MakerMarket, fair: Vec<(i64, Price)>, in_play: bool, urgent: bool) {
        let now = self.clock.now_ms();
        let mut markets = self.markets();
        let tracked = markets.entry(market.market_id).or_insert(Tracked {
            market,
            fair: Vec::new(),
            in_play,
            drift_ticks: Vec::new(),
            rng: DemoRng::new(market.market_id as u64),
            due_ms: now,
            busy: false,
        });
        if in_play || tracked.fair.len() != fair.len() {
            tracked.drift_ticks = vec![0; fair.len()];
        }
        tracked.fair = fair;
        tracked.in_play = in_play;
        if urgent {
            tracked.due_ms = now;
        }
    }

    /// Stops quoting a market (it is being settled, or suspended for good).
    pub fn forget(&self, market_id: i64) {
        self.markets().remove(&market_id);
    }

    /// Cancels every order the maker has in a market now (a goal: the old prices are wrong).
    pub async fn withdraw(&self, market_id: i64) {
        let Some(match_id) = self.markets().get(&market_id).map(|t| t.market.match_id) else {
            return;
        };
        log_requote(
            market_id,
            requote_market(&self.state, maker_house(self.maker_id), match_id, market_id, &[]).await,
        );
    }

    /// Re-quotes `market_id` at once rather than at the next tick: a market just reopened after
    /// a wicket or a goal, its orders withdrawn, would stand open with an empty book until then.
    /// Nothing while another re-quote of it runs (that one posts the same prices).
    pub async fn requote_now(&self, market_id: i64) {
        let tracked = {
            let mut markets = self.markets();
            let Some(tracked) = markets.get_mut(&market_id).filter(|t| !t.busy) else { return };
            tracked.busy = true;
            tracked.due_ms = self.clock.now_ms()
                + if tracked.in_play { IN_PLAY_REQUOTE_MS } else { PRE_MATCH_REQUOTE_MS };
            tracked.clone()
        };
        self.requote(tracked).await;
        if let Some(tracked) = self.markets().get_mut(&market_id) {
            tracked.busy = false;
        }
    }

    /// One re-quote of a tracked market around its (drifted) fair prices.
    async fn requote(&self, tracked: Tracked) {
        let market_id = tracked.market.market_id;
        let fair: Vec<(i64, Price)> = tracked
            .fair
            .iter()
            .zip(&tracked.drift_ticks)
            .map(|((selection, price), ticks)| (*selection, drifted(*price, *ticks)))
            .collect();
        let wanted = quotes(market_id, &fair, tracked.market.style, tracked.market.min_stake_minor);
        let result = requote_market(
            &self.state,
            maker_house(self.maker_id),
            tracked.market.match_id,
            market_id,
            &wanted,
        )
        .await;
        log_requote(market_id, result);
        // Settled (by the feed or an operator): nothing more to quote.
        if !self.state.engine.is_running(market_id).await {
            self.forget(market_id);
        }
    }

    /// Re-quotes the markets as they fall due, until the feed stops.
    pub async fn run(self: Arc<Self>) {
        let mut running: JoinSet<()> = JoinSet::new();
        let mut running_market: HashMap<tokio::task::Id, i64> = HashMap::new();
        loop {
            tokio::select! {
                _ = self.clock.sleep(MAKER_TICK_MS) => {
                    let now = self.clock.now_ms();
                    let due: Vec<Tracked> = self
                        .markets()
                        .values_mut()
                        .filter(|t| !t.busy && t.due_ms <= now)
                        .map(|t| {
                            t.busy = true;
                            t.due_ms = now + if t.in_play { IN_PLAY_REQUOTE_MS } else { PRE_MATCH_REQUOTE_MS };
                            if !t.in_play && !t.fair.is_empty() {
                                let runner = t.rng.below(t.fair.len() as u32) as usize;
                                t.drift_ticks[runner] = drift_step(&mut t.rng, t.drift_ticks[runner]);
                            }
                            t.clone()
                        })
                        .collect();
                    for tracked in due {
                        let maker = self.clone();
                        let market_id = tracked.market.market_id;
                        let handle = running.spawn(async move { maker.requote(tracked).await });
                        running_market.insert(handle.id(), market_id);
                    }
                }
                Some(done) = running.join_next_with_id() => {
                    let id = match done {
                        Ok((id, ())) => id,
                        Err(err) => {
                            tracing::warn!("demo market-maker: a re-quote failed: {err}");
                            err.id()
                        }
                    };
                    if let Some(market_id) = running_market.remove(&id) {
                        if let Some(tracked) = self.markets().get_mut(&market_id) {
                            tracked.busy = false;
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn price(hundredths: u32) -> Price {
        Price::from_hundredths(hundredths).unwrap()
    }

    #[test]
    fn quotes_straddle_the_fair_price_without_crossing() {
        let wanted = quotes(7, &[(1, price(200)), (2, price(200))], SPORTS_QUOTES, 100_00);
        assert_eq!(wanted.len(), 12);
        let of = |side: BetSide| -> Vec<(u32, i64)> {
            wanted
                .iter()
                .filter(|q| q.selection_id == 1 && q.side == side)
                .map(|q| (q.price.hundredths(), q.size_minor))
                .collect()
        };
        let prices = |levels: Vec<(u32, i64)>| levels.iter().map(|l| l.0).collect::<Vec<_>>();
        assert_eq!(prices(of(BetSide::Lay)), [200, 199, 198]);
        assert_eq!(prices(of(BetSide::Back)), [202, 204, 206]);
        // Each size is its level's, varied by 0.6 to 1.8 and rounded to 50 or 100.
        for side in [BetSide::Lay, BetSide::Back] {
            for ((_, size), base) in of(side).into_iter().zip(SPORTS_QUOTES.sizes_minor) {
                assert!(size >= base * 60 / 100 - 50_00 && size <= base * 180 / 100 + 50_00);
                assert_eq!(size % 50_00, 0, "{size}");
            }
        }
        assert_eq!(wanted, quotes(7, &[(1, price(200)), (2, price(200))], SPORTS_QUOTES, 100_00));
    }

    #[test]
    fn sizes_are_not_one_repeated_pattern() {
        let fair: Vec<(i64, Price)> = (1..=4).map(|i| (i, price(300))).collect();
        let wanted = quotes(11, &fair, SPORTS_QUOTES, 100_00);
        let ladder = |selection_id: i64| -> Vec<i64> {
            wanted.iter().filter(|q| q.selection_id == selection_id).map(|q| q.size_minor).collect()
        };
        let ladders: Vec<Vec<i64>> = (1..=4).map(ladder).collect();
        for (i, one) in ladders.iter().enumerate() {
            for other in &ladders[i + 1..] {
                assert_ne!(one, other, "two runners with one pattern: {ladders:?}");
            }
        }
        let mut sizes: Vec<i64> = wanted.iter().map(|q| q.size_minor).collect();
        sizes.sort();
        sizes.dedup();
        assert!(sizes.len() >= 8, "few distinct sizes: {sizes:?}");
        // Another market, other sizes at the same prices.
        assert_ne!(wanted, quotes(12, &fair, SPORTS_QUOTES, 100_00));
    }

    #[test]
    fn the_pre_match_drift_walks_both_ways_within_its_bound() {
        let mut rng = DemoRng::new(3);
        let mut ticks = 0;
        let (mut lowest, mut highest, mut moves) = (0, 0, 0);
        for _ in 0..2_000 {
            let next = drift_step(&mut rng, ticks);
            assert!((next - ticks).abs() <= 1, "one tick at a time");
            assert!(next.abs() <= MAX_DRIFT_TICKS, "{next} past the bound");
            moves += i32::from(next != ticks);
            ticks = next;
            lowest = lowest.min(ticks);
            highest = highest.max(ticks);
        }
        assert_eq!((lowest, highest), (-MAX_DRIFT_TICKS, MAX_DRIFT_TICKS));
        assert!(moves > 1_000, "not frozen: {moves} moves in 2,000 steps");
        assert_eq!(drifted(price(200), 2).hundredths(), 204);
        assert_eq!(drifted(price(200), -3).hundredths(), 197);
        assert_eq!(drifted(Price::MIN, -2), Price::MIN, "stops at the ladder's end");
    }

    #[test]
    fn long_prices_get_smaller_lays_and_none_below_the_minimum_stake() {
        // At 20.0 a lay of 200 or so would risk 3,800: capped at 2,000 / 19 = 105 (whole
        // units); at 19.5 the next level's 500 or so is capped at 2,000 / 18.5 = 108.
        let wanted = quotes(1, &[(1, price(2000))], RACING_QUOTES, 100_00);
        let lays: Vec<(u32, i64)> = wanted
            .iter()
            .filter(|q| q.side == BetSide::Lay)
            .map(|q| (q.price.hundredths(), q.size_minor))
            .collect();
        assert_eq!(lays.len(), 2);
        assert_eq!((lays[0].0, lays[1].0), (2000, 1950));
        assert!((100_00..=105_00).contains(&lays[0].1) && (100_00..=108_00).contains(&lays[1].1));
        // At 50 the cap (2,000 / 49 = 40) is under the minimum stake: no lays at all.
        let wanted = quotes(1, &[(1, price(5000))], RACING_QUOTES, 100_00);
        assert!(wanted.iter().all(|q| q.side == BetSide::Back));
        for quote in &wanted {
            if quote.side == BetSide::Lay {
                assert!(
                    quote.size_minor * (i64::from(quote.price.hundredths()) - 100) / 100
                        <= RACING_QUOTES.max_lay_liability_minor
                );
            }
        }
    }

    #[test]
    fn a_market_never_gets_more_than_the_bound() {
        let field: Vec<(i64, Price)> = (0..40).map(|i| (i, price(300))).collect();
        assert_eq!(quotes(1, &field, SPORTS_QUOTES, 100).len(), MAX_ORDERS_PER_MARKET);
        assert!(quotes(1, &field[..10], RACING_QUOTES, 100).len() <= 40);
    }
}
