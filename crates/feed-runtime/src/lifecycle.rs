//! The upstream's state moves the linked market, through the engine's own commands (audited as
//! the console's):
//!
//! | upstream | here |
//! |---|---|
//! | OPEN | open |
//! | SUSPENDED, INACTIVE | suspended |
//! | `inPlay` turns true | the match in play (LAPSE orders lapse, the bet delay starts) |
//! | `betDelay` changes | the market's in-play bet delay follows it |
//! | a runner REMOVED | withdrawn here with its `adjustmentFactor`: its bets void, the others' matched prices reduced (`backlay_core::exchange::non_runner`) |
//! | CLOSED, winners named | settled: the WINNER (match odds, win), the WINNER and PLACED (place) |
//! | CLOSED, no winner (abandoned) | void |
//! | CLOSED with a dead heat in a one-winner market | suspended for an operator |
//!
//! A live stream silent for `--feed-silence` has its markets suspended here ([`suspend`]) until
//! it is heard again, when each is brought back to the upstream's state.
//!
//! With `--feed-settle confirm` a closed market is suspended instead and waits for an operator
//! to declare the result the upstream gave. Every step looks at the market first, so a message
//! seen twice (a reconnection's image) changes nothing.

use backlay_core::exchange::{MarketStatus, MarketType, WHOLE_BP};
use backlay_engine::{ActedBy, ResultInput};
use backlay_feed::message::{MarketDefinition, MarketStatus as Upstream, RunnerStatus};
use backlay_kit::actor::{Actor, OperatorContext};
use backlay_kit::config::FeedSettle;
use backlay_kit::error::AppError;
use backlay_operator::AppState;
use backlay_store::markets::RunnerStatus as RunnerHere;

use crate::catalogue::LinkedMarket;

/// What a sync did to the market, for the feed's log and figures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moved {
    Nothing,
    /// The market here was already settled or void: nothing more to do with it.
    Ended,
    Opened,
    Suspended,
    InPlay,
    /// The in-play bet delay, in milliseconds, set to the upstream's.
    BetDelay(i64),
    /// The upstream selection withdrawn here (a non-runner).
    RunnerRemoved(i64),
    Settled(String),
    Voided,
    HeldForConfirmation,
}

/// Brings the market to the upstream's state.
pub async fn sync(
    state: &AppState,
    linked: &LinkedMarket,
    definition: &MarketDefinition,
    settle: FeedSettle,
) -> Result<Vec<Moved>, AppError> {
    let market = state.store.market(linked.market_id).await?;
    if matches!(market.status, MarketStatus::Closed | MarketStatus::Void) {
        return Ok(vec![Moved::Ended]);
    }
    let by = || Some(ActedBy { actor: Actor::Console, client_ip: None });
    let mut moved = Vec::new();

    if definition.in_play {
        let the_match = state.store.match_by_id(linked.match_id).await?;
        if !the_match.in_play {
            let ctx =
                OperatorContext { store: &state.store, actor: Actor::Console, client_ip: None };
            backlay_operator::set_match_in_play(&ctx, &state.engine, linked.match_id, true).await?;
            moved.push(Moved::InPlay);
        }
    }

    let bet_delay_ms = i64::from(definition.bet_delay_s) * 1000;
    if market.setup.bet_delay_ms != bet_delay_ms && definition.status != Upstream::Closed {
        state.engine.set_bet_delay(linked.market_id, bet_delay_ms, by()).await?;
        moved.push(Moved::BetDelay(bet_delay_ms));
    }

    // Before a result: the non-runner's bets are void and the others' reduced when it settles.
    for selection_id in
        remove_non_runners(state, linked, &market.setup.runners, definition, by).await?
    {
        moved.push(Moved::RunnerRemoved(selection_id));
    }

    match definition.status {
        Upstream::Open if market.status != MarketStatus::Open => {
            state.engine.set_status(linked.market_id, MarketStatus::Open, by()).await?;
            moved.push(Moved::Opened);
        }
        Upstream::Suspended | Upstream::Inactive if market.status == MarketStatus::Open => {
            state.engine.set_status(linked.market_id, MarketStatus::Suspended, by()).await?;
            moved.push(Moved::Suspended);
        }
        Upstream::Closed => {
            // Held, suspended, for an operator: when asked to, and when Backlay cannot settle
            // the result as the upstream would (then the reason is the feed's last error).
            let held = match (result_of(linked, definition), settle) {
                (Ok(ResultInput::Void), FeedSettle::Auto) => {
                    state.engine.settle(linked.market_id, ResultInput::Void, by()).await?;
                    moved.push(Moved::Voided);
                    None
                }
                (Ok(result), FeedSettle::Auto) => {
                    let message = state.engine.settle(linked.market_id, result, by()).await?;
                    moved.push(Moved::Settled(message));
                    None
                }
                (Ok(_), FeedSettle::Confirm) => Some(None),
                (Err(err), _) => Some(Some(err)),
            };
            if let Some(why) = held {
                if market.status == MarketStatus::Open {
                    state
                        .engine
                        .set_status(linked.market_id, MarketStatus::Suspended, by())
                        .await?;
                }
                moved.push(Moved::HeldForConfirmation);
                if let Some(err) = why {
                    return Err(err);
                }
            }
        }
        _ => {}
    }
    if moved.is_empty() {
        moved.push(Moved::Nothing);
    }
    Ok(moved)
}

/// Suspends the market here, as an operator would (a live stream fell silent).
pub async fn suspend(state: &AppState, linked: &LinkedMarket) -> Result<(), AppError> {
    let by = Some(ActedBy { actor: Actor::Console, client_ip: None });
    state.engine.set_status(linked.market_id, MarketStatus::Suspended, by).await?;
    Ok(())
}

/// Withdraws here each runner the upstream removed (a non-runner) that is still running here,
/// with the upstream's reduction factor (`adjustmentFactor`, a percentage; none is 0 %):
/// answers the upstream selection ids withdrawn now.
async fn remove_non_runners(
    state: &AppState,
    linked: &LinkedMarket,
    runners_here: &[backlay_store::markets::RunnerRow],
    definition: &MarketDefinition,
    by: impl Fn() -> Option<ActedBy>,
) -> Result<Vec<i64>, AppError> {
    let mut removed = Vec::new();
    for upstream in definition
        .runners
        .iter()
        .filter(|r| matches!(r.status, RunnerStatus::Removed | RunnerStatus::RemovedVacant))
    {
        let Some(&runner_id) = linked.runners.get(&upstream.selection_id) else { continue };
        let running = runners_here
            .iter()
            .any(|r| r.runner_id == runner_id && r.status != RunnerHere::Removed);
        if !running {
            continue;
        }
        let factor_bp = upstream.adjustment_factor.map_or(0, factor_bp);
        if state.engine.remove_runner(linked.market_id, runner_id, factor_bp, by()).await?.is_some()
        {
            removed.push(upstream.selection_id);
        }
    }
    Ok(removed)
}

/// A reduction factor given as a percentage (12.5) in basis points of a whole (1250), within
/// 0 to 100 %.
fn factor_bp(percent: f64) -> u32 {
    // Within 0..=10_000 after the clamp, so the cast is exact.
    (percent * 100.0).round().clamp(0.0, f64::from(WHOLE_BP)) as u32
}

/// The result a closed upstream market gives, in this market's runners.
fn result_of(
    linked: &LinkedMarket,
    definition: &MarketDefinition,
) -> Result<ResultInput, AppError> {
    let runner = |selection_id: i64| {
        linked.runners.get(&selection_id).copied().ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!(
                "market {}: selection {selection_id} has no runner here",
                linked.upstream_market_id
            ))
        })
    };
    let placed: Vec<i64> = definition
        .runners
        .iter()
        .filter(|r| matches!(r.status, RunnerStatus::Winner | RunnerStatus::Placed))
        .map(|r| runner(r.selection_id))
        .collect::<Result<_, _>>()?;
    Ok(match (linked.market_type, placed.as_slice()) {
        (_, []) => ResultInput::Void,
        (MarketType::Place, _) => ResultInput::Placed(placed),
        (_, [winner]) => ResultInput::Winner(*winner),
        // A dead heat in a one-winner market: Backlay settles one winner a market; hold it for
        // an operator rather than pick one.
        (_, _) => {
            return Err(AppError::Unprocessable(format!(
                "market {} closed with {} winners: declare its result by hand",
                linked.upstream_market_id,
                placed.len()
            )))
        }
    })
}
