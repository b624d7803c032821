//! Every command a market's task takes, in one place: its wire form ([`Call`], which also
//! crosses between the nodes of a cluster as it is, `wire.rs`), its answer ([`Answer`]), what
//! the task does with it ([`MarketActor::run_call`]) and the typed method callers use (the
//! `impl Engine` below). A new command is a variant of `Call` (and of `Answer` if it answers
//! something new), an arm of `run_call` and a method here: nothing else changes. Placements
//! are the one command with a path of their own (`placement.rs`: the bet delay and the group
//! commit), entered from `Engine::place` here too.

use std::collections::BTreeSet;

use backlay_core::exchange::{BetSide, MarketStatus, Persistence};
use backlay_core::money::Money;
use serde::{Deserialize, Serialize};

use super::{
    ActedBy, BetAnswer, CancelAnswer, CashOutOrder, CashOutQuote, CashedOut, CrossingCancelled,
    MarketActor, MarketView, PlaceBet, RatesUpdate, ResultInput, RunnerLadder, SettlementPreview,
    StakeLimits,
};
use crate::wire::minor_opt;
use crate::Engine;
use backlay_kit::error::AppError;
use backlay_kit::refusal::Refusal;
use backlay_store::non_runners::RunnerRemoved;

/// A command for one market. The operator who acted (`by`) is not serialised here: it travels
/// beside the call as a user id ([`Forwarded`]) and is looked up again by the owner.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "call", rename_all = "snake_case")]
pub enum Call {
    Place {
        bet: PlaceBet,
    },
    Cancel {
        user_id: i64,
        bet_id: i64,
        #[serde(with = "minor_opt")]
        size: Option<Money>,
    },
    SetPersistence {
        user_id: i64,
        bet_id: i64,
        persistence: Persistence,
    },
    SetStatus {
        status: MarketStatus,
        #[serde(skip)]
        by: Option<ActedBy>,
    },
    SetRates {
        rates: RatesUpdate,
        #[serde(skip)]
        by: Option<ActedBy>,
    },
    SetLimits {
        limits: StakeLimits,
        #[serde(skip)]
        by: Option<ActedBy>,
    },
    SetBetDelay {
        bet_delay_ms: i64,
        #[serde(skip)]
        by: Option<ActedBy>,
    },
    SetInPlay {
        in_play: bool,
    },
    Settle {
        result: ResultInput,
        #[serde(skip)]
        by: Option<ActedBy>,
    },
    Preview {
        result: ResultInput,
    },
    View {
        user_id: Option<i64>,
    },
    /// A runner's full ladder with `user_id`'s own orders (`ladder.rs`).
    Ladder {
        user_id: i64,
        selection_id: i64,
    },
    ResolveCrossed {
        #[serde(skip)]
        by: Option<ActedBy>,
    },
    /// What cashing out `percent` of `user_id`'s position would place and leave now.
    CashOutQuote {
        user_id: i64,
        percent: u32,
    },
    /// Places a cash out (after its bet delay, `Engine::cash_out`).
    CashOut {
        order: CashOutOrder,
    },
    RemoveRunner {
        runner_id: i64,
        reduction_factor_bp: u32,
        #[serde(skip)]
        by: Option<ActedBy>,
    },
}

impl Call {
    /// Does this call stop bets waiting out their delay (a suspension, a result)? Counted when
    /// it arrives at the engine, before the task gets to it.
    pub(crate) fn suspends_bets_in_delay(&self) -> bool {
        match self {
            Call::SetStatus { status, .. } => status.is_suspended(),
            Call::Settle { .. } | Call::RemoveRunner { .. } => true,
            _ => false,
        }
    }

    /// May this call be sent again when it is not known whether the first sending ran? All
    /// may, but a bet without a `client_ref`: a second sending could place it twice.
    pub fn safe_to_repeat(&self) -> bool {
        match self {
            Call::Place { bet } => bet.client_ref.is_some(),
            // A second sending of a partial cash out would cash out part of what is left.
            Call::CashOut { .. } => false,
            _ => true,
        }
    }

    pub(crate) fn acted_by(&self) -> Option<&ActedBy> {
        match self {
            Call::SetStatus { by, .. }
            | Call::SetRates { by, .. }
            | Call::SetLimits { by, .. }
            | Call::SetBetDelay { by, .. }
            | Call::Settle { by, .. }
            | Call::RemoveRunner { by, .. }
            | Call::ResolveCrossed { by } => by.as_ref(),
            _ => None,
        }
    }

    pub(crate) fn set_acted_by(&mut self, acted_by: Option<ActedBy>) {
        match self {
            Call::SetStatus { by, .. }
            | Call::SetRates { by, .. }
            | Call::SetLimits { by, .. }
            | Call::SetBetDelay { by, .. }
            | Call::Settle { by, .. }
            | Call::RemoveRunner { by, .. }
            | Call::ResolveCrossed { by } => *by = acted_by,
            _ => {}
        }
    }
}

/// What a [`Call`] answers.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub enum Answer {
    Bet { bet: BetAnswer },
    Cancelled { cancel: CancelAnswer },
    Done,
    Updated { changed: bool },
    Settled { message: String },
    Preview { preview: SettlementPreview },
    View { view: MarketView },
    Ladder { ladder: RunnerLadder },
    CrossingCancelled { cancelled: Vec<CrossingCancelled> },
    RunnerRemoved { removed: Option<RunnerRemoved> },
    CashOutQuote { quote: CashOutQuote },
    CashedOut { done: CashedOut },
}

impl Answer {
    /// The 500 for an answer of the wrong kind (a server of another version in the cluster).
    pub(crate) fn unexpected(self) -> AppError {
        AppError::Internal(anyhow::anyhow!(
            "the market's task answered {self:?}, not what was asked"
        ))
    }
}

impl MarketActor {
    /// Runs one call on the market (a placement goes through `place_batch` instead) and tells
    /// the live stream what it changed. After a settlement the run loop ends the task
    /// (`mod.rs`).
    pub(super) async fn run_call(&mut self, call: Call) -> Result<Answer, AppError> {
        Ok(match call {
            Call::Place { .. } => {
                return Err(AppError::Internal(anyhow::anyhow!(
                    "a placement was sent as a call, not through the batch"
                )))
            }
            Call::Cancel { user_id, bet_id, size } => {
                let cancel = self.cancel(user_id, bet_id, size).await?;
                self.publish([user_id].into());
                Answer::Cancelled { cancel }
            }
            Call::SetPersistence { user_id, bet_id, persistence } => {
                let changed = self.set_persistence(user_id, bet_id, persistence).await?;
                if changed {
                    // The order stream shows an order's persistence.
                    self.publish([user_id].into());
                }
                Answer::Updated { changed }
            }
            Call::SetStatus { status, by } => {
                let lapsed = self.set_status(status, by.as_ref()).await?;
                self.publish(lapsed);
                Answer::Done
            }
            Call::SetInPlay { in_play } => {
                let lapsed = self.set_in_play(in_play).await?;
                self.publish(lapsed);
                Answer::Done
            }
            Call::SetRates { rates, by } => {
                self.set_rates(rates, by.as_ref()).await?;
                self.publish(BTreeSet::new());
                Answer::Done
            }
            Call::SetLimits { limits, by } => {
                let by = by.ok_or_else(|| {
                    AppError::Internal(anyhow::anyhow!("stake limits set without an operator"))
                })?;
                self.set_limits(limits, &by).await?;
                self.publish(BTreeSet::new());
                Answer::Done
            }
            Call::SetBetDelay { bet_delay_ms, by } => {
                self.set_bet_delay(bet_delay_ms, by.as_ref()).await?;
                self.publish(BTreeSet::new());
                Answer::Done
            }
            Call::Preview { result } => Answer::Preview { preview: self.preview(result).await? },
            Call::Settle { result, by } => {
                // Everyone with a bet here, read before the settlement lets the market go.
                let users = self.market.users().map(|u| u.0).collect();
                let message = self.settle(result, by.as_ref()).await?;
                self.publish(users);
                Answer::Settled { message }
            }
            Call::ResolveCrossed { by } => {
                let by = by.ok_or_else(|| {
                    AppError::Internal(anyhow::anyhow!(
                        "a crossed book resolved without an operator"
                    ))
                })?;
                let cancelled = self.resolve_crossed(&by).await?;
                self.publish(cancelled.iter().map(|order| order.user_id).collect());
                Answer::CrossingCancelled { cancelled }
            }
            Call::RemoveRunner { runner_id, reduction_factor_bp, by } => {
                let removed =
                    self.remove_runner(runner_id, reduction_factor_bp, by.as_ref()).await?;
                if let Some(removed) = &removed {
                    let cancelled = removed.cancelled.iter().map(|(_, user, _)| *user);
                    let moved = removed.exposures.iter().map(|(user, _, _)| *user);
                    self.publish(cancelled.chain(moved).collect());
                }
                Answer::RunnerRemoved { removed }
            }
            Call::View { user_id } => Answer::View { view: self.view(user_id) },
            Call::Ladder { user_id, selection_id } => {
                Answer::Ladder { ladder: self.ladder(user_id, selection_id)? }
            }
            Call::CashOutQuote { user_id, percent } => {
                Answer::CashOutQuote { quote: self.cash_out_quote(user_id, percent) }
            }
            Call::CashOut { order } => {
                let (done, touched) = self.cash_out(order).await?;
                self.publish(touched);
                Answer::CashedOut { done }
            }
        })
    }
}

/// The typed way to send each call: the answer of the kind the call gives.
impl Engine {
    /// Places a bet. On an in-play market with a bet delay the market's task holds the bet for
    /// the delay and refuses it if a suspension or a result arrived in the meantime (no
    /// past-posting; see the module docs).
    pub async fn place(&self, bet: PlaceBet) -> Result<BetAnswer, AppError> {
        let arrived = std::time::Instant::now();
        let answer = match self.call(bet.market_id, Call::Place { bet }).await {
            Ok(Answer::Bet { bet }) => Ok(bet),
            Ok(other) => Err(other.unexpected()),
            Err(err) => Err(err),
        };
        backlay_kit::metrics::placement_took(arrived.elapsed());
        answer
    }

    pub async fn cancel(
        &self,
        market_id: i64,
        user_id: i64,
        bet_id: i64,
        size: Option<Money>,
    ) -> Result<CancelAnswer, AppError> {
        match self.call(market_id, Call::Cancel { user_id, bet_id, size }).await? {
            Answer::Cancelled { cancel } => Ok(cancel),
            other => Err(other.unexpected()),
        }
    }

    /// Changes an unmatched bet's persistence (LAPSE or PERSIST), in the book and stored.
    /// Answers false when it already had that persistence.
    pub async fn set_persistence(
        &self,
        market_id: i64,
        user_id: i64,
        bet_id: i64,
        persistence: Persistence,
    ) -> Result<bool, AppError> {
        match self.call(market_id, Call::SetPersistence { user_id, bet_id, persistence }).await? {
            Answer::Updated { changed } => Ok(changed),
            other => Err(other.unexpected()),
        }
    }

    /// Runs a call that answers nothing but success.
    async fn call_done(&self, market_id: i64, call: Call) -> Result<(), AppError> {
        match self.call(market_id, call).await? {
            Answer::Done => Ok(()),
            other => Err(other.unexpected()),
        }
    }

    /// Opens or suspends a market (a result, not a status, closes one). With `by`, the change
    /// is audited in its own transaction.
    pub async fn set_status(
        &self,
        market_id: i64,
        status: MarketStatus,
        by: Option<ActedBy>,
    ) -> Result<(), AppError> {
        self.call_done(market_id, Call::SetStatus { status, by }).await
    }

    /// Posts bookmaker rates or fancy lines; with `by`, audited (before → after).
    pub async fn set_rates(
        &self,
        market_id: i64,
        rates: RatesUpdate,
        by: Option<ActedBy>,
    ) -> Result<(), AppError> {
        self.call_done(market_id, Call::SetRates { rates, by }).await
    }

    /// Changes a running market's stake limits; the next placement is checked against them.
    pub async fn set_limits(
        &self,
        market_id: i64,
        limits: StakeLimits,
        by: ActedBy,
    ) -> Result<(), AppError> {
        self.call_done(market_id, Call::SetLimits { limits, by: Some(by) }).await
    }

    /// Changes a running market's in-play bet delay (a feed following its upstream's); bets
    /// that arrive from then wait the new delay, those already waiting keep theirs.
    pub async fn set_bet_delay(
        &self,
        market_id: i64,
        bet_delay_ms: i64,
        by: Option<ActedBy>,
    ) -> Result<(), AppError> {
        self.call_done(market_id, Call::SetBetDelay { bet_delay_ms, by }).await
    }

    /// What declaring `result` would post now, without declaring it.
    pub async fn preview_settlement(
        &self,
        market_id: i64,
        result: ResultInput,
    ) -> Result<SettlementPreview, AppError> {
        match self.call(market_id, Call::Preview { result }).await? {
            Answer::Preview { preview } => Ok(preview),
            other => Err(other.unexpected()),
        }
    }

    /// Tells a running market its match went in play (or back). A settled market has nothing
    /// left to lapse; on a server on its own, neither has one without a task (not loaded).
    pub async fn set_in_play(&self, market_id: i64, in_play: bool) -> Result<(), AppError> {
        if self.node.is_none() && self.local(market_id).await.is_none() {
            return Ok(());
        }
        match self.call_done(market_id, Call::SetInPlay { in_play }).await {
            // Settled while we asked: nothing left to lapse.
            Err(AppError::Refused(Refusal::MarketClosed)) => Ok(()),
            answer => answer,
        }
    }

    /// Declares the result (or void) and settles; the task ends with the market.
    pub async fn settle(
        &self,
        market_id: i64,
        result: ResultInput,
        by: Option<ActedBy>,
    ) -> Result<String, AppError> {
        match self.call(market_id, Call::Settle { result, by }).await? {
            Answer::Settled { message } => Ok(message),
            other => Err(other.unexpected()),
        }
    }

    /// Cancels every order of the market held apart because the stored book was crossed
    /// (`backlay_core::exchange::Market::hold_crossing_order`), returning its exposure; audited.
    /// The market stays suspended for the operator to reopen.
    pub async fn resolve_crossed(
        &self,
        market_id: i64,
        by: ActedBy,
    ) -> Result<Vec<CrossingCancelled>, AppError> {
        match self.call(market_id, Call::ResolveCrossed { by: Some(by) }).await? {
            Answer::CrossingCancelled { cancelled } => Ok(cancelled),
            other => Err(other.unexpected()),
        }
    }

    /// Withdraws a runner (a non-runner) with its reduction factor in basis points (1250 =
    /// 12.5 %): its bets void, unmatched bets cancelled, the others' matched prices reduced
    /// (`backlay_store::non_runners`); audited. `None` when it was withdrawn already.
    pub async fn remove_runner(
        &self,
        market_id: i64,
        runner_id: i64,
        reduction_factor_bp: u32,
        by: Option<ActedBy>,
    ) -> Result<Option<RunnerRemoved>, AppError> {
        let call = Call::RemoveRunner { runner_id, reduction_factor_bp, by };
        match self.call(market_id, call).await? {
            Answer::RunnerRemoved { removed } => Ok(removed),
            other => Err(other.unexpected()),
        }
    }

    /// The market as the page shows it, with `user_id`'s position when given.
    pub async fn view(&self, market_id: i64, user_id: Option<i64>) -> Result<MarketView, AppError> {
        match self.call(market_id, Call::View { user_id }).await? {
            Answer::View { view } => Ok(view),
            other => Err(other.unexpected()),
        }
    }

    /// The full ladder of runner `selection_id`, with `user_id`'s own unmatched orders on it,
    /// from the market's owner (on a cluster, whichever node that is), so that it is the book
    /// that matches. A bookmaker or fancy market has none ([`crate::no_ladder`]).
    pub async fn ladder(
        &self,
        market_id: i64,
        user_id: i64,
        selection_id: i64,
    ) -> Result<RunnerLadder, AppError> {
        match self.call(market_id, Call::Ladder { user_id, selection_id }).await? {
            Answer::Ladder { ladder } => Ok(ladder),
            other => Err(other.unexpected()),
        }
    }

    /// What cashing out `percent` (1–100) of `user_id`'s position here would place and leave,
    /// at the prices offered now (`cash_out.rs`).
    pub async fn cash_out_quote(
        &self,
        market_id: i64,
        user_id: i64,
        percent: u32,
    ) -> Result<CashOutQuote, AppError> {
        match self.call(market_id, Call::CashOutQuote { user_id, percent }).await? {
            Answer::CashOutQuote { quote } => Ok(quote),
            other => Err(other.unexpected()),
        }
    }

    /// Cashes out `percent` of `user_id`'s position: quoted now, then, after the in-play bet
    /// delay (waited here, as a bet waits in its market's task), placed at prices no more than
    /// `tolerance_ticks` worse than those `shown` to the bettor (runner, side, odds hundredths
    /// or rate; else the quote's), all legs or none, unless a suspension arrived meanwhile.
    /// Answers the quote's refusal as a 409 or 422 when there is nothing to place.
    pub async fn cash_out(
        &self,
        market_id: i64,
        user_id: i64,
        percent: u32,
        tolerance_ticks: u32,
        shown: Option<Vec<(i64, BetSide, u32)>>,
        client_ref: Option<String>,
    ) -> Result<CashedOut, AppError> {
        let quote = self.cash_out_quote(market_id, user_id, percent).await?;
        let plan = quote.plan.map_err(AppError::Refused)?;
        if quote.delay_ms > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(quote.delay_ms)).await;
        }
        let order = CashOutOrder {
            user_id,
            percent,
            tolerance_ticks,
            // The prices the bettor was shown, else the ones quoted as the order arrived.
            quoted: shown.unwrap_or_else(|| {
                plan.runners
                    .iter()
                    .filter_map(|r| r.leg.map(|leg| (r.selection_id, leg.side, leg.price)))
                    .collect()
            }),
            suspensions_at_quote: quote.suspensions,
            client_ref,
        };
        match self.call(market_id, Call::CashOut { order }).await? {
            Answer::CashedOut { done } => Ok(done),
            other => Err(other.unexpected()),
        }
    }
}
