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
//!
//! In a cluster (several servers on one PostgreSQL, `crate::cluster`) each market's task runs
//! on the one node that owns it, and is rebuilt the same way when another node takes it over.
//! Every call ([`Call`], `market_task/calls.rs`) goes to the market's task here, or to the node that owns it;
//! while the market changes servers a call waits for the new owner, and every write of a task
//! checks that its node still owns the market (the store's fence), so a node that lost a
//! market can never write to it.

pub mod cluster;
mod market_task;
pub mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use backlay_store::cluster::Fence;
use backlay_store::Store;
use tokio::sync::mpsc::error::TrySendError;
use tokio::sync::{broadcast, mpsc, oneshot, RwLock};

use crate::cluster::Node;
use backlay_kit::error::{AppError, MOVED};
use wire::{Answer, Call};

pub use market_task::{
    average_price, market_closed, no_ladder, not_a_status_to_set, stored_matched_bets, VIEW_DEPTH,
};
pub use market_task::{
    ActedBy, BetAnswer, CancelAnswer, CrossingCancelled, LadderLevel, MarketView, PlaceBet,
    PlacementStatus, RateChanges, RatesUpdate, RunnerLadder, RunnerView, SettlementPreview,
    StakeLimits, Suspensions,
};
pub use market_task::{
    CashOutBet, CashOutLeg, CashOutOrder, CashOutPlan, CashOutQuote, CashOutRunner, CashedOut,
    PlannedLeg, MAX_TOLERANCE_TICKS,
};

/// How many commands may wait for one market before callers are told to retry.
const MARKET_QUEUE_LEN: usize = 1024;

/// What a market's task takes from its queue: a placement (batched with the others waiting:
/// group commit), or any other call ([`Call`], run by `MarketActor::run_call` in
/// `market_task/calls.rs`).
pub(crate) enum Command {
    Place(market_task::Placement, oneshot::Sender<Result<BetAnswer, AppError>>),
    Call(Call, oneshot::Sender<Result<Answer, AppError>>),
}

impl Command {
    /// Answers the command with `refusal` without running it.
    pub(crate) fn refuse(self, refusal: fn() -> AppError) {
        match self {
            Command::Place(_, reply) => drop(reply.send(Err(refusal()))),
            Command::Call(_, reply) => drop(reply.send(Err(refusal()))),
        }
    }
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
    /// Calls run on the task here since it started: the market's load, which a cluster's
    /// nodes even out between them (`cluster::load`).
    calls: Arc<AtomicU64>,
}

/// A market whose task runs on this server, and what it holds the market by in a cluster.
struct Running {
    handle: MarketHandle,
    task: tokio::task::JoinHandle<()>,
    /// The ownership this server took the market with (`None`: a server on its own).
    fence: Option<Fence>,
}

/// How long a command waits for its market's new owner when the market is changing servers
/// (the old one stopped, or the cluster rebalanced) before the caller hears "moving".
const MOVE_WAIT: Duration = Duration::from_secs(8);
/// Pause between looks for the new owner.
const MOVE_RETRY: Duration = Duration::from_millis(100);

/// The running markets.
pub struct Engine {
    store: Store,
    markets: RwLock<HashMap<i64, Running>>,
    pub stats: Arc<EngineStats>,
    changes: broadcast::Sender<MarketChange>,
    /// On a server of a cluster: this node, through which the engine claims the markets it
    /// creates and reaches the ones other nodes own. `None`: this server runs every market.
    node: Option<Arc<Node>>,
}

impl Engine {
    /// Starts the engine. On its own (`node` is `None`) it loads and starts every live market;
    /// in a cluster it starts none: the cluster's ownership loop gives it the markets this node
    /// takes (`cluster`).
    pub async fn start(store: Store, node: Option<Arc<Node>>) -> anyhow::Result<Arc<Engine>> {
        let engine = Arc::new(Engine {
            store: store.clone(),
            markets: RwLock::new(HashMap::new()),
            stats: Arc::default(),
            changes: broadcast::channel(CHANGE_BACKLOG).0,
            node,
        });
        if engine.node.is_none() {
            for market in store.live_markets().await? {
                let market_id = market.setup.market_id;
                engine
                    .run_here(market_id, None)
                    .await
                    .map_err(|e| anyhow::anyhow!("loading market {market_id}: {e}"))?;
            }
        }
        Ok(engine)
    }

    /// Starts the task of a market just created (or restarts one). In a cluster this node takes
    /// the market first, if no live node has it; if another has, it runs there.
    pub async fn spawn(&self, market_id: i64) -> Result<(), AppError> {
        let Some(node) = &self.node else { return self.run_here(market_id, None).await };
        match node.claim(&market_resource(market_id)).await? {
            Some(fence) => self.run_here(market_id, Some(fence)).await,
            None => Ok(()),
        }
    }

    /// Loads a market from what is committed and starts its task on this server, holding it
    /// by `fence` in a cluster (every write of the task checks it).
    pub(crate) async fn run_here(
        &self,
        market_id: i64,
        fence: Option<Fence>,
    ) -> Result<(), AppError> {
        let suspensions = Arc::new(Suspensions::default());
        let store = match &fence {
            Some(fence) => self.store.fenced(fence.clone()),
            None => self.store.clone(),
        };
        // On a cluster a task that cannot rebuild its market after a failed write gives it up
        // within the lease, for a node that can (`market_task/recovery.rs`).
        let give_up_after = match (&fence, &self.node) {
            (Some(_), Some(node)) => Some(node.lease()),
            _ => None,
        };
        let actor = market_task::MarketActor::load(
            store,
            market_id,
            self.stats.clone(),
            self.changes.clone(),
            suspensions.clone(),
            give_up_after,
        )
        .await?;
        let (commands, receiver) = mpsc::channel(MARKET_QUEUE_LEN);
        let task = tokio::spawn(actor.run(receiver));
        let handle = MarketHandle { commands, suspensions, calls: Arc::default() };
        let running = Running { handle, task, fence };
        if let Some(old) = self.markets.write().await.insert(market_id, running) {
            old.task.abort();
        }
        Ok(())
    }

    /// Takes out the markets whose tasks ended by themselves (a task that gave its market up,
    /// or found it taken over), with the fences they were held by, for the ownership loop to
    /// release.
    pub(crate) async fn reap_ended(&self) -> Vec<(i64, Option<Fence>)> {
        let mut markets = self.markets.write().await;
        let ended: Vec<i64> =
            markets.iter().filter(|(_, r)| r.task.is_finished()).map(|(id, _)| *id).collect();
        ended
            .into_iter()
            .filter_map(|id| markets.remove(&id).map(|running| (id, running.fence)))
            .collect()
    }

    /// Each market task here with the commands waiting for it (the metrics' queue depth).
    pub async fn queue_depths(&self) -> Vec<(i64, usize)> {
        let markets = self.markets.read().await;
        markets
            .iter()
            .map(|(id, running)| {
                let commands = &running.handle.commands;
                (*id, commands.max_capacity() - commands.capacity())
            })
            .collect()
    }

    /// Each market task here with the calls it has run since it started (its load).
    pub(crate) async fn call_counts(&self) -> Vec<(i64, u64)> {
        let markets = self.markets.read().await;
        markets
            .iter()
            .map(|(id, running)| (*id, running.handle.calls.load(Ordering::Relaxed)))
            .collect()
    }

    /// The markets whose tasks run here, with what they are held by.
    pub(crate) async fn running(&self) -> Vec<(i64, Option<Fence>)> {
        let markets = self.markets.read().await;
        markets.iter().map(|(id, running)| (*id, running.fence.clone())).collect()
    }

    /// Stops a market's task here: commands already queued are run first (this server still
    /// owns the market until it releases it), commands after hear "moving" and go to the next
    /// owner. Answers the fence it was held by once the task has ended, for the caller to
    /// release; waits at most `wait`, then ends the task where it is (a write cut short rolls
    /// back).
    pub(crate) async fn stop_here(&self, market_id: i64, wait: Duration) -> Option<Fence> {
        let running = self.markets.write().await.remove(&market_id)?;
        let Running { handle, mut task, fence } = running;
        drop(handle);
        if tokio::time::timeout(wait, &mut task).await.is_err() {
            task.abort();
        }
        fence
    }

    /// The handle of a market whose task runs here.
    async fn local(&self, market_id: i64) -> Option<MarketHandle> {
        self.markets.read().await.get(&market_id).map(|running| running.handle.clone())
    }

    /// Why a market has no task here (or its task ended while a command waited): it was
    /// settled or voided, or there is no such market, or, in a cluster, it is changing servers.
    async fn without_task(&self, market_id: i64) -> AppError {
        match self.store.market(market_id).await {
            Ok(market) if market.status.is_settled() => market_closed(),
            Ok(_) if self.node.is_some() => AppError::Moved(MOVED.into()),
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

    /// Runs `call` on its market wherever the market runs: on this server's task, or sent to
    /// the node that owns it. While the market is changing servers the call waits for the new
    /// owner (up to [`MOVE_WAIT`]) rather than failing: a call that was refused as "moving"
    /// did nothing, and is sent again.
    pub(crate) async fn call(&self, market_id: i64, call: Call) -> Result<Answer, AppError> {
        let deadline = tokio::time::Instant::now() + MOVE_WAIT;
        loop {
            let answer = match (self.local(market_id).await, &self.node) {
                (Some(handle), _) => self.run_on(market_id, &handle, call.clone()).await,
                (None, Some(node)) => match node.owner_of(market_id).await {
                    Ok(Some(owner)) if !node.is_me(&owner.node_id) => {
                        node.forward(&owner, market_id, &call).await
                    }
                    Ok(_) => Err(self.without_task(market_id).await),
                    Err(err) => Err(err),
                },
                (None, None) => Err(self.without_task(market_id).await),
            };
            match answer {
                Err(AppError::Moved(_)) if tokio::time::Instant::now() < deadline => {
                    tokio::time::sleep(MOVE_RETRY).await;
                }
                answer => return answer,
            }
        }
    }

    /// Runs `call` only if the market's task runs here: a call another node forwarded, which
    /// is never sent on again (the sender looks for the owner afresh when told "moving").
    pub(crate) async fn call_here(&self, market_id: i64, call: Call) -> Result<Answer, AppError> {
        match self.local(market_id).await {
            Some(handle) => self.run_on(market_id, &handle, call).await,
            None => Err(self.without_task(market_id).await),
        }
    }

    /// Runs `call` on the market's task here.
    async fn run_on(
        &self,
        market_id: i64,
        handle: &MarketHandle,
        call: Call,
    ) -> Result<Answer, AppError> {
        handle.calls.fetch_add(1, Ordering::Relaxed);
        match call {
            Call::Place { bet } => {
                let placement = market_task::Placement::arriving(bet, handle.suspensions.count());
                let bet = self
                    .send(market_id, handle, |reply| Command::Place(placement, reply))
                    .await??;
                Ok(Answer::Bet { bet })
            }
            call => {
                if call.suspends_bets_in_delay() {
                    // Counted on arrival: a bet in its delay is refused even while this
                    // command still waits in the task's queue.
                    handle.suspensions.count_one();
                }
                let settles = matches!(call, Call::Settle { .. });
                let answer =
                    self.send(market_id, handle, |reply| Command::Call(call, reply)).await??;
                if settles {
                    self.forget_settled(market_id, handle).await;
                }
                Ok(answer)
            }
        }
    }

    /// A market settled by its task here: the engine and the cluster let it go.
    async fn forget_settled(&self, market_id: i64, handle: &MarketHandle) {
        {
            // Only the task that settled: a correction may already have started the
            // market's next one (`operator::unsettle_market`).
            let mut markets = self.markets.write().await;
            if markets
                .get(&market_id)
                .is_some_and(|r| r.handle.commands.same_channel(&handle.commands))
            {
                markets.remove(&market_id);
            }
        }
        if let Some(node) = &self.node {
            // The market is gone: nobody is to own it any more.
            node.forget(&market_resource(market_id)).await;
        }
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
            // The task ended (the market was settled, or moved to another server) after we
            // looked it up.
            Err(TrySendError::Closed(_)) => return Err(self.without_task(market_id).await),
        }
        match answer.await {
            Ok(answer) => Ok(answer),
            Err(_) => Err(self.without_task(market_id).await),
        }
    }

    /// Every committed change of any market whose task runs here, for the live stream (the
    /// changes of markets other nodes own reach the streams through `live_relay`).
    pub fn subscribe(&self) -> broadcast::Receiver<MarketChange> {
        self.changes.subscribe()
    }

    /// True while the market takes commands: its task runs here, or, in a cluster, it is
    /// neither settled nor void (another node runs it, or will in a moment).
    pub async fn is_running(&self, market_id: i64) -> bool {
        if self.local(market_id).await.is_some() {
            return true;
        }
        self.node.is_some()
            && matches!(self.store.market(market_id).await, Ok(market) if !market.status.is_settled())
    }
}

/// The cluster's name for a market (`cluster_owners.resource`).
pub fn market_resource(market_id: i64) -> String {
    format!("market:{market_id}")
}

pub use market_task::ResultInput;
