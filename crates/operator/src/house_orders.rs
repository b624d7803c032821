//! A house account's resting orders in a market, brought to what it wants: the demo's market
//! maker (crates/demo) and the feed's house liquidity (crates/feed-runtime) both quote this way.
//!
//! A re-quote is a diff, not a wipe: an order still resting at a wanted price with its full size
//! stays (it keeps its place in the queue); stale or part-matched ones are cancelled; missing
//! ones are placed together, so that the market's task commits them in one batch. The orders go
//! through `Engine::place` and `Engine::cancel`, the bet API's own path (the funds check, the
//! in-play bet delay, the ledger): the house's liquidity is real money any bettor can match.

use backlay_core::exchange::{BetSide, Persistence};
use backlay_core::money::Money;
use backlay_core::odds::Price;
use backlay_engine::PlaceBet;
use backlay_kit::error::AppError;
use backlay_store::bets::BetRow;

use crate::AppState;

/// The house's live bets read per match: far above what it keeps there.
const LIVE_BETS_READ: i64 = 1_000;

/// One order the house wants resting in a market.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HouseOrder {
    pub selection_id: i64,
    /// Lay (offered to backers, the blue Back column) or back (offered to layers).
    pub side: BetSide,
    pub price: Price,
    pub size_minor: i64,
}

impl HouseOrder {
    /// Whether a resting bet is this order, untouched.
    fn is_resting_as(&self, bet: &BetRow) -> bool {
        bet.runner_id == Some(self.selection_id)
            && bet.side == self.side
            && bet.price == i64::from(self.price.hundredths())
            && bet.remaining_minor == self.size_minor
            && bet.matched_minor == 0
    }

    fn placement(&self, house: &House, market_id: i64) -> PlaceBet {
        PlaceBet {
            user_id: house.user_id,
            market_id,
            selection_id: Some(self.selection_id),
            side: self.side,
            price: backlay_core::odds::Quote::of_price(self.price),
            line: None,
            stake: Money::from_minor(self.size_minor),
            persistence: Persistence::Persist,
            client_ref: None,
            request_hash: format!(
                "house-{}-{market_id}-{}-{}-{}",
                house.user_id, self.selection_id, self.side, self.price
            ),
            refs: Default::default(),
            house_liquidity: house.liquidity,
            house_max_exposure_minor: house.max_exposure_minor,
            accept_rate_changes: Default::default(),
            cash_out: None,
        }
    }
}

/// Who quotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct House {
    pub user_id: i64,
    /// The feed's house: its orders mirror an upstream's levels however small, so the market's
    /// stake limits (the bettors') do not bind them (`PlaceBet::house_liquidity`).
    pub liquidity: bool,
    /// The most it may stand to lose in one market: it quotes no more there once its orders
    /// and bets reach it (`PlaceBet::house_max_exposure_minor`).
    pub max_exposure_minor: Option<i64>,
}

/// What a re-quote did.
#[derive(Debug, Default)]
pub struct Requoted {
    pub kept: usize,
    pub cancelled: usize,
    pub placed: usize,
    /// Placements the engine refused (a suspension during the bet delay, a settled market,
    /// too little money).
    pub refused: Vec<AppError>,
}

/// Brings the house's orders in one market to `wanted`: cancels what is stale, places what is
/// missing (in one go). `wanted` empty withdraws every order.
pub async fn requote_market(
    state: &AppState,
    house: House,
    match_id: i64,
    market_id: i64,
    wanted: &[HouseOrder],
) -> Result<Requoted, AppError> {
    let live = state.store.live_bets_of_user(house.user_id, Some(match_id), LIVE_BETS_READ).await?;
    let mut missing: Vec<&HouseOrder> = wanted.iter().collect();
    let mut stale = Vec::new();
    let mut outcome = Requoted::default();
    for (bet, _) in
        live.iter().filter(|(bet, _)| bet.market_id == market_id && bet.remaining_minor > 0)
    {
        match missing.iter().position(|order| order.is_resting_as(bet)) {
            Some(index) => {
                missing.swap_remove(index);
                outcome.kept += 1;
            }
            None => stale.push(bet.bet_id),
        }
    }
    for bet_id in stale {
        match state.engine.cancel(market_id, house.user_id, bet_id, None).await {
            Ok(_) => outcome.cancelled += 1,
            // Matched or lapsed in the meantime: nothing left to cancel.
            Err(AppError::NotFound(_)) => {}
            Err(other) => return Err(other),
        }
    }
    let placed = futures::future::join_all(
        missing.iter().map(|order| state.engine.place(order.placement(&house, market_id))),
    )
    .await;
    for result in placed {
        match result {
            Ok(_) => outcome.placed += 1,
            Err(err) => outcome.refused.push(err),
        }
    }
    Ok(outcome)
}
