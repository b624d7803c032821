//! The exchange engine: one task per market owns that market's books and positions (one
//! writer, so matching needs no locks) and writes every change to the database in the same
//! transaction as the funds check. A bet is answered only after its transaction committed.
//!
//! Placements that wait for a market while its task is busy are placed together, in one
//! transaction (group commit) with a fixed handful of statements per batch: the batch locks
//! its users' funds, checks each bet against them in memory (the worst case of the whole
//! order unmatched must fit the available balance — matching can only lower it), matches in
//! memory, then writes the bets, fills and exposures and commits before anyone is answered.
//! If the store fails, the task reloads the market from what was committed, so memory never
//! runs ahead of the database (`market_task/placement.rs` has the details).
//!
//! The in-play bet delay is kept by the market's task too, so that no bet is past-posted: a
//! bet is admitted only if the market is open when the task takes it (commands are taken in
//! the order they arrived, so a suspension sent before the bet is seen first), then waits out
//! the delay in the task's delay queue, and is placed only if no suspension or result arrived
//! in the meantime — counted by [`Suspensions`] when the command *arrives*, not when the task
//! gets to it, so a suspension still queued behind other commands already counts. Example,
//! delay 2 s: a bet at t = 0 on an open market waits; the operator suspends at t = 0.5 and
//! reopens at t = 1; at t = 2 the count differs from the bet's, and it is refused with 409.
//!
//! A settled or void market answers 409 "This market is closed." to everything sent to it,
//! including commands that raced the result into its queue.
//!
//! At start-up every live market is rebuilt from its stored bets: fills and house bets as
//! matched bets, unmatched orders back into their books oldest first (time priority kept).

mod market_task;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use backlay_core::exchange::MarketStatus;
use backlay_core::money::Money;
use backlay_store::Store;
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{broadcast, mpsc, oneshot, RwLock};

use crate::error::AppError;

pub(crate) use market_task::{
    average_price, market_closed, not_a_status_to_set, stored_matched_bets, MARKET_CLOSED,
};
pub use market_task::{
    ActedBy, BetAnswer, CancelAnswer, MarketView, PlaceBet, PlacementStatus, RatesUpdate,
    RunnerView, SettlementPreview, StakeLimits, Suspensions,
};

/// How many commands may wait for one market before callers are told to retry.
const MARKET_QUEUE_LEN: usize = 1024;

/// Commands a market task takes.
pub(crate) enum Command {
    Place(market_task::Placement, oneshot::Sender<Result<BetAnswer, AppError>>),
    Cancel {
        user_id: i64,
        bet_id: i64,
        size: Option<Money>,
        reply: oneshot::Sender<Result<CancelAnswer, AppError>>,
    },
    SetStatus {
        status: MarketStatus,
        by: Option<ActedBy>,
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    SetRates {
        rates: RatesUpdate,
        by: Option<ActedBy>,
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    SetLimits {
        limits: StakeLimits,
        by: ActedBy,
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    SetInPlay {
        in_play: bool,
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    Settle {
        result: market_task::ResultInput,
        by: Option<ActedBy>,
        reply: oneshot::Sender<Result<String, AppError>>,
    },
    Preview {
        result: market_task::ResultInput,
        reply: oneshot::Sender<Result<SettlementPreview, AppError>>,
    },
    View {
        user_id: Option<i64>,
        reply: oneshot::Sender<MarketView>,
    },
}

/// Counters of the engine's work since start, for operators and the load benchmark.
#[derive(Debug, Default)]
pub struct EngineStats {
    commits: AtomicU64,
    bets: AtomicU64,
}

impl EngineStats {
    pub(crate) fn record_commit(&self, bets: u64) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.bets.fetch_add(bets, Ordering::Relaxed);
    }

    /// (placement transactions committed, bets placed in them).
    pub fn snapshot(&self) -> (u64, u64) {
        (self.commits.load(Ordering::Relaxed), self.bets.load(Ordering::Relaxed))
    }
}

/// A market's book or status changed (sent after the change committed).
#[derive(Clone, Debug)]
pub struct MarketChange {
    pub match_id: i64,
    pub market_id: i64,
    /// Users whose bets, positions or exposure here changed, ascending (none for a change of
    /// posted rates or status that lapsed nothing).
    pub users: Arc<[i64]>,
    /// The market as anyone sees it after the change (no position, no fancy book).
    pub view: Arc<MarketView>,
}

/// Changes a slow listener may fall behind by before it is told to take a full snapshot.
const CHANGE_BACKLOG: usize = 4096;

/// How the API reaches a running market: its task's queue, and the count of suspensions
/// sent to it.
#[derive(Clone)]
struct MarketHandle {
    commands: mpsc::Sender<Command>,
    suspensions: Arc<Suspensions>,
}

/// The running markets.
pub struct Engine {
    store: Store,
    markets: RwLock<HashMap<i64, MarketHandle>>,
    pub stats: Arc<EngineStats>,
    changes: broadcast::Sender<MarketChange>,
}

impl Engine {
    /// Loads and starts every live market.
    pub async fn start(store: Store) -> anyhow::Result<Arc<Engine>> {
        let engine = Arc::new(Engine {
            store: store.clone(),
            markets: RwLock::new(HashMap::new()),
            stats: Arc::default(),
            changes: broadcast::channel(CHANGE_BACKLOG).0,
        });
        for market in store.live_markets().await? {
            engine
                .spawn(market.setup.market_id)
                .await
                .map_err(|e| anyhow::anyhow!("loading market {}: {e}", market.setup.market_id))?;
        }
        Ok(engine)
    }

    /// Starts (or restarts) the task of a market stored in the database.
    pub async fn spawn(&self, market_id: i64) -> Result<(), AppError> {
        let suspensions = Arc::new(Suspensions::default());
        let actor = market_task::MarketActor::load(
            self.store.clone(),
            market_id,
            self.stats.clone(),
            self.changes.clone(),
            suspensions.clone(),
        )
        .await?;
        let (commands, receiver) = mpsc::channel(MARKET_QUEUE_LEN);
        tokio::spawn(actor.run(receiver));
        self.markets.write().await.insert(market_id, MarketHandle { commands, suspensions });
        Ok(())
    }

    async fn handle(&self, market_id: i64) -> Result<MarketHandle, AppError> {
        if let Some(handle) = self.markets.read().await.get(&market_id) {
            return Ok(handle.clone());
        }
        // Closed and void markets have no task.
        Err(self.without_task(market_id).await)
    }

    /// Why a market has no task (or its task ended while a command waited): it was settled
    /// or voided, or there is no such market.
    async fn without_task(&self, market_id: i64) -> AppError {
        match self.store.market(market_id).await {
            Ok(market) if market.status.is_settled() => market_closed(),
            Ok(market) => AppError::Internal(anyhow::anyhow!(
                "market {market_id} is {} but has no running task",
                market.status
            )),
            Err(backlay_store::StoreError::NotFound) => {
                AppError::NotFound(format!("There is no market with id {market_id}."))
            }
            Err(other) => other.into(),
        }
    }

    async fn ask<T>(
        &self,
        market_id: i64,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, AppError> {
        let handle = self.handle(market_id).await?;
        self.send(market_id, &handle, make).await
    }

    async fn send<T>(
        &self,
        market_id: i64,
        handle: &MarketHandle,
        make: impl FnOnce(oneshot::Sender<T>) -> Command,
    ) -> Result<T, AppError> {
        let (reply, answer) = oneshot::channel();
        match handle.commands.try_send(make(reply)) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                return Err(AppError::Conflict("The market is busy. Try again in a moment.".into()))
            }
            // The task ended with the market's settlement after we looked it up.
            Err(TrySendError::Closed(_)) => return Err(self.without_task(market_id).await),
        }
        match answer.await {
            Ok(answer) => Ok(answer),
            Err(_) => Err(self.without_task(market_id).await),
        }
    }

    /// Places a bet. On an in-play market with a bet delay the market's task holds the bet for
    /// the delay and refuses it if a suspension or a result arrived in the meantime (no
    /// past-posting; see the module docs).
    pub async fn place(&self, bet: PlaceBet) -> Result<BetAnswer, AppError> {
        let handle = self.handle(bet.market_id).await?;
        let placement = market_task::Placement::arriving(bet, handle.suspensions.count());
        self.send(placement.bet.market_id, &handle, |reply| Command::Place(placement, reply))
            .await?
    }

    pub async fn cancel(
        &self,
        market_id: i64,
        user_id: i64,
        bet_id: i64,
        size: Option<Money>,
    ) -> Result<CancelAnswer, AppError> {
        self.ask(market_id, |reply| Command::Cancel { user_id, bet_id, size, reply }).await?
    }

    /// Opens or suspends a market (a result, not a status, closes one). With `by`, the change
    /// is audited in its own transaction.
    pub async fn set_status(
        &self,
        market_id: i64,
        status: MarketStatus,
        by: Option<ActedBy>,
    ) -> Result<(), AppError> {
        let handle = self.handle(market_id).await?;
        if status.is_suspended() {
            // Counted on arrival: a bet in its delay is refused even while this command still
            // waits in the task's queue.
            handle.suspensions.count_one();
        }
        self.send(market_id, &handle, |reply| Command::SetStatus { status, by, reply }).await?
    }

    /// Posts bookmaker rates or fancy lines; with `by`, audited (before → after).
    pub async fn set_rates(
        &self,
        market_id: i64,
        rates: RatesUpdate,
        by: Option<ActedBy>,
    ) -> Result<(), AppError> {
        self.ask(market_id, |reply| Command::SetRates { rates, by, reply }).await?
    }

    /// Changes a running market's stake limits; the next placement is checked against them.
    pub async fn set_limits(
        &self,
        market_id: i64,
        limits: StakeLimits,
        by: ActedBy,
    ) -> Result<(), AppError> {
        self.ask(market_id, |reply| Command::SetLimits { limits, by, reply }).await?
    }

    /// What declaring `result` would post now, without declaring it.
    pub async fn preview_settlement(
        &self,
        market_id: i64,
        result: market_task::ResultInput,
    ) -> Result<SettlementPreview, AppError> {
        self.ask(market_id, |reply| Command::Preview { result, reply }).await?
    }

    /// Tells a running market its match went in play (or back). Markets without a task are
    /// settled or not loaded and have nothing to lapse.
    pub async fn set_in_play(&self, market_id: i64, in_play: bool) -> Result<(), AppError> {
        let Some(handle) = self.markets.read().await.get(&market_id).cloned() else {
            return Ok(());
        };
        match self.send(market_id, &handle, |reply| Command::SetInPlay { in_play, reply }).await {
            // Settled while we asked: nothing left to lapse.
            Err(AppError::Conflict(message)) if message == MARKET_CLOSED => Ok(()),
            answer => answer?,
        }
    }

    /// Declares the result (or void) and settles; the task ends with the market.
    pub async fn settle(
        &self,
        market_id: i64,
        result: market_task::ResultInput,
        by: Option<ActedBy>,
    ) -> Result<String, AppError> {
        let handle = self.handle(market_id).await?;
        // Bets in their delay are refused from the moment the result arrives.
        handle.suspensions.count_one();
        let message =
            self.send(market_id, &handle, |reply| Command::Settle { result, by, reply }).await??;
        self.markets.write().await.remove(&market_id);
        Ok(message)
    }

    /// The market as the page shows it, with `user_id`'s position when given.
    pub async fn view(&self, market_id: i64, user_id: Option<i64>) -> Result<MarketView, AppError> {
        self.ask(market_id, |reply| Command::View { user_id, reply }).await
    }

    /// Every committed change of any market, for the live stream.
    pub fn subscribe(&self) -> broadcast::Receiver<MarketChange> {
        self.changes.subscribe()
    }

    pub async fn is_running(&self, market_id: i64) -> bool {
        self.markets.read().await.contains_key(&market_id)
    }
}

pub use market_task::ResultInput;
