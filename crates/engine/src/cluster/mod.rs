//! Several servers on one PostgreSQL database: which node runs each market, each casino table's
//! rounds and the jobs that must run once, and what happens when a node stops or dies.
//!
//! PostgreSQL is the only shared engine: no consensus of our own. Each node holds a lease in
//! `cluster_nodes` and renews it every third of its length; each market (`market:<id>`), casino
//! table (`table:<game id>`) and the leader's jobs (`leader`) has one row in `cluster_owners`
//! naming its owner and a fencing token (`backlay_store::cluster` explains the fence). Every
//! [`TICK`] each node's ownership loop ([`Node::run`]):
//!
//! 1. renews its lease; a node that finds its lease already passed (it was frozen, or cut off
//!    from the database) has lost everything: it stops every task and joins again under a new id;
//! 2. stops the tasks of anything whose row no longer names it with its token (taken over);
//! 3. takes markets and tables nobody alive owns, up to its fair share (of M markets over N live
//!    nodes, ⌈M/N⌉ each), loading each from what is committed as a restart does, and any market
//!    offered to it whatever its share; gives idle ones up while it holds more than its share,
//!    so a node that joins gets its part; and, every [`load::WINDOW`], measures its markets'
//!    load and, when well above the cluster's mean, offers busy markets to the nodes well below
//!    it ([`load`]): markets are spread by the work they bring, not only by their number;
//! 4. takes the leader's row if nobody alive holds it, and runs the leader's jobs (the demo feed)
//!    while it does.
//!
//! A request may reach any node: the engine sends a market's calls to its owner
//! ([`forward`]), so a bettor's browser can stay on one node while its markets run on others.
//! Live changes reach every node's streams through `live_relay`.
//!
//! Failover, worked through with the defaults (lease 3 s, tick 500 ms): node A dies at t = 0
//! having renewed at t = −0.9 s; its lease passes at t = 2.1 s; node B's next tick (by t = 2.6 s)
//! takes A's markets and loads them; a bet sent to B at t = 1 s waits (the engine retries a
//! "moving" market for up to 8 s) and is placed on B's task at about t = 2.6 s.

pub mod forward;
mod load;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use backlay_casino_store::casino::CasinoGame;
use backlay_store::cluster::{ClusterView, Fence, LiveNode};
use backlay_store::Store;
use backlay_store::StoreResult;
use futures::future::BoxFuture;
use tokio::task::JoinHandle;

use crate::{market_resource, Engine};
use backlay_kit::error::AppError;

/// How often the ownership loop looks at the cluster.
pub const TICK: Duration = Duration::from_millis(500);

/// How long a market's task may take to finish its queued commands when the market is given
/// up to another node.
const HANDOVER_WAIT: Duration = Duration::from_secs(2);

/// The leader's row.
const LEADER: &str = "leader";

/// Starts what only the leader runs (the demo feed); what it answers runs until dropped.
/// Something that runs as long as the server does and stops when dropped.
pub type RunsWithServer = Box<dyn std::any::Any + Send>;

pub type LeaderJob = Arc<dyn Fn() -> RunsWithServer + Send + Sync>;

/// This server as a node of the cluster.
pub struct Node {
    store: Store,
    /// This node's id in `cluster_nodes`: new at each start, and at each join after a lost lease.
    id: RwLock<Arc<str>>,
    /// Where the other nodes reach this one.
    url: String,
    lease_ms: i64,
    client: reqwest::Client,
    /// Set by the lease's renewal when it found the lease already passed.
    lease_lost: AtomicBool,
    /// The task renewing the lease (every third of it), from the join to [`Node::leave`].
    renewal: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node").field("id", &self.id()).field("url", &self.url).finish()
    }
}

/// A random node id: a few bytes of hex, enough for the handful of nodes of a cluster.
fn new_node_id() -> Arc<str> {
    use rand::Rng;
    let bytes: [u8; 6] = rand::thread_rng().gen();
    hex::encode(bytes).into()
}

impl Node {
    /// Joins the cluster on `store`'s database, reachable at `url`.
    pub async fn join(store: Store, url: String, lease_ms: i64) -> anyhow::Result<Arc<Node>> {
        anyhow::ensure!(lease_ms >= 1_000, "the cluster lease must be at least 1000 ms");
        anyhow::ensure!(
            store.keys().is_some(),
            "a node of a cluster needs the server's secret key (it seals the calls between nodes)"
        );
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(1))
            .timeout(forward::CALL_TIMEOUT)
            .build()?;
        let node = Arc::new(Node {
            store,
            id: RwLock::new(new_node_id()),
            url,
            lease_ms,
            client,
            lease_lost: AtomicBool::new(false),
            renewal: Mutex::new(None),
        });
        node.store
            .join_cluster(&node.id(), &node.url, backlay_kit::clock::now_ms(), lease_ms)
            .await?;
        tracing::info!(node_id = %node.id(), url = %node.url, "joined the cluster");
        let renewal = tokio::spawn(renew(Arc::downgrade(&node)));
        *node.renewal.lock().expect("renewal lock") = Some(renewal);
        Ok(node)
    }

    pub fn id(&self) -> Arc<str> {
        self.id.read().expect("node id lock").clone()
    }

    /// How long this node's lease lasts from a renewal.
    pub(crate) fn lease(&self) -> Duration {
        Duration::from_millis(u64::try_from(self.lease_ms).unwrap_or(1_000))
    }

    pub(crate) fn is_me(&self, node_id: &str) -> bool {
        *self.id() == *node_id
    }

    /// Takes `resource` for this node if nobody alive holds it; the fence to write it under.
    pub(crate) async fn claim(&self, resource: &str) -> Result<Option<Fence>, AppError> {
        let node_id = self.id();
        Ok(self.store.claim(resource, &node_id).await?.map(|token| Fence {
            resource: resource.to_string(),
            node_id,
            token,
        }))
    }

    /// The live node that owns a market now.
    pub(crate) async fn owner_of(&self, market_id: i64) -> Result<Option<LiveNode>, AppError> {
        Ok(self.store.owner_of(&market_resource(market_id)).await?)
    }

    /// Forgets a resource that no longer exists (a settled market). A failure only leaves a row
    /// that the next take of nothing ignores.
    pub(crate) async fn forget(&self, resource: &str) {
        if let Err(err) = self.store.forget_resource(resource).await {
            tracing::warn!(resource, "could not forget a settled market's owner: {err}");
        }
    }

    /// Leaves the cluster (the server is stopping): what this node owned is free at once.
    pub async fn leave(&self) {
        if let Some(renewal) = self.renewal.lock().expect("renewal lock").take() {
            renewal.abort();
        }
        if let Err(err) = self.store.leave_cluster(&self.id()).await {
            tracing::warn!(
                "leaving the cluster failed (the others take over when the lease passes): {err}"
            );
        }
    }

    /// The ownership loop (see the module docs); runs until the server stops.
    pub async fn run(self: Arc<Self>, engine: Arc<Engine>, mut jobs: NodeJobs) {
        let mut ticker = tokio::time::interval(TICK);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticker.tick().await;
            if self.lease_lost.load(Ordering::Acquire) {
                self.rejoin(&engine, &mut jobs).await;
                continue;
            }
            if let Err(err) = self.balance(&engine, &mut jobs).await {
                tracing::warn!(
                    "the cluster's ownership loop failed this turn: {}",
                    err.cause_for_log()
                );
            }
        }
    }

    /// This node's lease had passed: everything it ran may already run elsewhere. Stops it all
    /// and joins again under a new id.
    async fn rejoin(&self, engine: &Engine, jobs: &mut NodeJobs) {
        tracing::warn!(node_id = %self.id(), "this node's cluster lease passed (frozen or cut off): stopping its markets and joining again");
        for (market_id, _) in engine.running().await {
            engine.stop_here(market_id, Duration::ZERO).await;
        }
        jobs.stop_all();
        let id = new_node_id();
        *self.id.write().expect("node id lock") = id.clone();
        match self
            .store
            .join_cluster(&id, &self.url, backlay_kit::clock::now_ms(), self.lease_ms)
            .await
        {
            Ok(()) => {
                self.lease_lost.store(false, Ordering::Release);
                tracing::info!(node_id = %id, "joined the cluster again");
            }
            Err(err) => tracing::warn!("joining the cluster again failed, retrying: {err}"),
        }
    }

    /// One turn of steps 2–4 of the module docs.
    async fn balance(&self, engine: &Engine, jobs: &mut NodeJobs) -> Result<(), AppError> {
        // A market's task that gave its market up (it could not rebuild it from the database
        // within the lease, `engine`'s recovery) or found it taken over: released, for any node
        // (this one too) to take and load afresh. Kept to retry while the database is away.
        for (market_id, fence) in engine.reap_ended().await {
            if let Some(fence) = fence {
                tracing::info!(market_id, "releasing a market whose task ended here");
                jobs.to_release.push(fence);
            }
        }
        while let Some(fence) = jobs.to_release.last() {
            self.store.release(fence).await?;
            jobs.to_release.pop();
        }
        let me = self.id();
        let view = self.store.cluster_view().await?;
        if !view.nodes.iter().any(|n| *n.node_id == *me) {
            // Our lease passed since we renewed it: the next renewal says so and rejoins.
            return Ok(());
        }
        let holds = |resource: &str, fence: &Fence| {
            view.owners.iter().any(|o| {
                o.resource == resource
                    && o.node_id.as_deref() == Some(&*me)
                    && o.token == fence.token
            })
        };
        // 2. Drop what was taken over.
        for (market_id, fence) in engine.running().await {
            if let Some(fence) = fence {
                if !holds(&fence.resource, &fence) {
                    tracing::info!(market_id, "another node took this market over");
                    engine.stop_here(market_id, Duration::ZERO).await;
                }
            }
        }
        jobs.tables.retain(|_, table| {
            let kept = holds(&table.fence.resource, &table.fence);
            if !kept {
                table.task.abort();
            }
            kept
        });
        if let Some((fence, _)) = &jobs.leading {
            if !holds(LEADER, fence) {
                tracing::info!("another node is the leader now");
                jobs.leading = None;
            }
        }
        // 3. Markets, then tables: take a fair share of what nobody alive owns, and what is
        // offered to this node.
        let measured = jobs.load.read(&engine.call_counts().await, std::time::Instant::now());
        if measured {
            self.store.publish_load(&me, jobs.load.total()).await?;
        }
        let markets: Vec<String> =
            self.store.live_market_ids().await?.into_iter().map(market_resource).collect();
        let (mut mine, taken) = self.take_share(&view, &markets).await?;
        for fence in taken {
            let market_id = id_in(&fence.resource);
            match engine.run_here(market_id, Some(fence.clone())).await {
                Ok(()) => mine += 1,
                Err(err) => {
                    tracing::warn!(market_id, "loading a market taken over failed: {err}");
                    self.store.release(&fence).await?;
                }
            }
        }
        let rate = |resource: &str| jobs.load.rate(id_in(resource));
        for extra in self.extras(&view, &markets, mine, rate) {
            let market_id = id_in(&extra);
            if let Some(fence) = engine.stop_here(market_id, HANDOVER_WAIT).await {
                tracing::info!(market_id, "giving a market to a node with fewer");
                // Stopped here but still ours until released: kept to retry should this fail.
                jobs.to_release.push(fence);
            }
        }
        if measured && jobs.load.may_offer() {
            self.offer_load(engine, &view, jobs).await;
        }
        while let Some(fence) = jobs.to_release.last() {
            self.store.release(fence).await?;
            jobs.to_release.pop();
        }
        if let Some(tables) = &jobs.casino {
            let games = tables.games(&self.store).await?;
            let resources: Vec<String> = games.iter().map(|g| table_resource(g.id)).collect();
            let (mut mine, taken) = self.take_share(&view, &resources).await?;
            for fence in taken {
                let game_id = id_in(&fence.resource);
                if let Some(game) = games.iter().find(|g| g.id == game_id) {
                    let table = tables.start(&self.store, game.clone(), fence);
                    jobs.tables.insert(game_id, table);
                    mine += 1;
                } else {
                    self.store.release(&fence).await?;
                }
            }
            for extra in self.extras(&view, &resources, mine, |_| 0.0) {
                if let Some(table) = jobs.tables.remove(&id_in(&extra)) {
                    table.task.abort();
                    self.store.release(&table.fence).await?;
                }
            }
        }
        // 4. The leader.
        if jobs.leading.is_none() && view.owner(LEADER).is_none() {
            if let Some(job) = &jobs.leader_job {
                if let Some(fence) = self.claim(LEADER).await? {
                    tracing::info!(node_id = %me, "this node is the leader: starting the jobs that run once");
                    jobs.leading = Some((fence, job()));
                }
            }
        }
        Ok(())
    }

    /// Takes resources of `all` that nobody alive owns while this node holds fewer than its
    /// share, and those offered to it whatever its share (leaving those offered to others):
    /// how many of `all` it held before, and the fences of those it took (for the caller to
    /// start, or give back).
    async fn take_share(
        &self,
        view: &ClusterView,
        all: &[String],
    ) -> Result<(usize, Vec<Fence>), AppError> {
        let me = self.id();
        let share = all.len().div_ceil(view.nodes.len().max(1));
        let held =
            all.iter().filter(|r| view.owner(r).is_some_and(|owner| *owner.node_id == *me)).count();
        let mut taken = Vec::new();
        for resource in all.iter().filter(|r| view.owner(r).is_none()) {
            let offered = view.offered_to(resource);
            let to_me = offered == Some(&*me);
            // Offered to another node, or beyond this node's share and not offered to it.
            if !to_me && (offered.is_some() || held + taken.len() >= share) {
                continue;
            }
            if let Some(fence) = self.claim(resource).await? {
                taken.push(fence);
            }
        }
        Ok((held, taken))
    }

    /// What of `all` this node should give up: what it holds beyond its share, while a live
    /// node holds less than its share (so a node that joined gets its part); only idle ones
    /// (`rate`, calls per second, under [`load::IDLE_RATE`]), the quietest first, so that the
    /// count never undoes what the load's offers spread.
    fn extras(
        &self,
        view: &ClusterView,
        all: &[String],
        mine: usize,
        rate: impl Fn(&str) -> f64,
    ) -> Vec<String> {
        let me = self.id();
        let share = all.len().div_ceil(view.nodes.len().max(1));
        if mine <= share {
            return Vec::new();
        }
        let mut held: HashMap<&str, usize> = HashMap::new();
        for resource in all {
            if let Some(owner) = view.owner(resource) {
                *held.entry(owner.node_id.as_str()).or_default() += 1;
            }
        }
        let short =
            view.nodes.iter().any(|n| held.get(n.node_id.as_str()).copied().unwrap_or(0) < share);
        if !short {
            return Vec::new();
        }
        let mut idle: Vec<(&String, f64)> = all
            .iter()
            .rev()
            .filter(|r| view.owner(r).is_some_and(|o| *o.node_id == *me))
            .map(|r| (r, rate(r)))
            .filter(|(_, rate)| *rate < load::IDLE_RATE)
            .collect();
        // The quietest first; among equals the newest, as before there was a load to go by.
        idle.sort_by(|a, b| a.1.total_cmp(&b.1));
        idle.into_iter().take(mine - share).map(|(r, _)| r.clone()).collect()
    }

    /// Offers busy markets to the nodes well below the cluster's mean load, when this node is
    /// well above it ([`load::plan_offers`]): each is stopped here and freed for its receiver
    /// alone, which takes it on its next turn. A market stopped here whose offer could not be
    /// written is released instead (`to_release`, retried each turn).
    async fn offer_load(&self, engine: &Engine, view: &ClusterView, jobs: &mut NodeJobs) {
        if view.nodes.len() < 2 {
            return; // nobody to offer to
        }
        // Markets just moved by load: wait for their receivers' figures to show them.
        if view.offered_within(load::SETTLE_MS - load::OFFER_MS) {
            return;
        }
        let meter = &jobs.load;
        let me = self.id();
        // Every live node's figure as it last wrote it; this node's own as measured now.
        let mut loads = view.loads.clone();
        loads.insert(me.to_string(), meter.total());
        let offers = load::plan_offers(&me, &loads, &meter.rates());
        if !offers.is_empty() {
            let mut figures: Vec<String> =
                loads.iter().map(|(node, load)| format!("{node} {load:.0}")).collect();
            figures.sort();
            tracing::info!(
                markets = offers.len(),
                "offering busy markets to even out the nodes' loads (calls/s: {})",
                figures.join(", ")
            );
        }
        let mut offered = Vec::with_capacity(offers.len());
        for (market_id, to) in offers {
            if let Some(fence) = engine.stop_here(market_id, HANDOVER_WAIT).await {
                tracing::debug!(market_id, to = %to, "offering a busy market to a node with less load");
                offered.push(market_id);
                if let Err(err) = self.store.offer(&fence, &to, load::OFFER_MS).await {
                    tracing::warn!(market_id, "offering a market failed, releasing it: {err}");
                    jobs.to_release.push(fence);
                }
            }
        }
        if !offered.is_empty() {
            jobs.load.offered(&offered);
        }
    }
}

/// Renews the node's lease every third of its length, for as long as the node exists. Apart
/// from the ownership loop, so that a slow turn of it (many markets to load) never lets the
/// lease pass.
///
/// A renewal that fails (the database cut its connections, or is briefly away) is retried at
/// once and then every [`RENEW_RETRY`], each time on a connection opened for it, for as long
/// as the lease may still hold: one cut costs a retry, not every market of the node. When the
/// lease has passed by this node's clock (from the start of the last renewal that landed)
/// without a renewal landing, the node counts its lease as lost, as the others already do.
async fn renew(node: std::sync::Weak<Node>) {
    let mut renewed_at = tokio::time::Instant::now();
    loop {
        let every = match node.upgrade() {
            Some(node) => {
                let lease = node.lease();
                let attempt = tokio::time::Instant::now();
                match renew_once(&node, lease, false).await {
                    Ok(true) => {
                        backlay_kit::metrics::lease_renewal("ok");
                        renewed_at = attempt;
                    }
                    Ok(false) => {
                        backlay_kit::metrics::lease_renewal("lost");
                        node.lease_lost.store(true, Ordering::Release);
                    }
                    Err(err) => {
                        backlay_kit::metrics::lease_renewal("failed");
                        tracing::warn!("renewing the cluster lease failed, retrying: {err:#}");
                        renewed_at = retry_renewal(&node, lease, renewed_at).await;
                    }
                }
                lease / 3
            }
            None => return,
        };
        tokio::time::sleep(every).await;
    }
}

/// Pause between retries of a failed renewal.
const RENEW_RETRY: Duration = Duration::from_millis(100);

/// One renewal, on a pooled connection or a new one, bounded by a third of the lease; the
/// error is the database's own, for the log.
async fn renew_once(
    node: &Node,
    lease: Duration,
    new_connection: bool,
) -> Result<bool, anyhow::Error> {
    let renewal = async {
        if new_connection {
            node.store.renew_lease_on_new_connection(&node.id(), node.lease_ms).await
        } else {
            node.store.renew_lease(&node.id(), node.lease_ms).await
        }
    };
    match tokio::time::timeout(lease / 3, renewal).await {
        Ok(renewed) => Ok(renewed?),
        Err(_) => Err(anyhow::anyhow!("no answer in {:?}", lease / 3)),
    }
}

/// Retries a failed renewal until one lands or the lease passes (see [`renew`]); answers when
/// the last renewal that landed started.
async fn retry_renewal(
    node: &Node,
    lease: Duration,
    mut renewed_at: tokio::time::Instant,
) -> tokio::time::Instant {
    let mut retries: u32 = 0;
    while tokio::time::Instant::now() < renewed_at + lease {
        let attempt = tokio::time::Instant::now();
        match renew_once(node, lease, true).await {
            Ok(true) => {
                tracing::info!(retries, "the cluster lease is renewed again");
                renewed_at = attempt;
                return renewed_at;
            }
            Ok(false) => {
                node.lease_lost.store(true, Ordering::Release);
                return renewed_at;
            }
            Err(_) => retries += 1,
        }
        tokio::time::sleep(RENEW_RETRY).await;
    }
    tracing::warn!(
        retries,
        "the cluster lease passed while the database did not answer: this node gives up its markets"
    );
    node.lease_lost.store(true, Ordering::Release);
    renewed_at
}

fn table_resource(game_id: i64) -> String {
    format!("table:{game_id}")
}

/// The id in `market:<id>` or `table:<id>`.
fn id_in(resource: &str) -> i64 {
    resource.rsplit(':').next().and_then(|id| id.parse().ok()).unwrap_or(0)
}

/// A node's ownership loop, running: [`Running::stop`] ends it and leaves the cluster, and so
/// does dropping it (a server whose run was cut short), the leaving then done in the background.
pub struct Running {
    node: Arc<Node>,
    run: Option<JoinHandle<()>>,
}

impl Running {
    pub fn start(node: Arc<Node>, engine: Arc<Engine>, jobs: NodeJobs) -> Running {
        let run = tokio::spawn(node.clone().run(engine, jobs));
        Running { node, run: Some(run) }
    }

    /// Ends the loop (dropping its tables' runners and the leader's jobs) and leaves the
    /// cluster, freeing this node's markets for the others at once.
    pub async fn stop(mut self) {
        if let Some(run) = self.run.take() {
            run.abort();
            let _ = run.await;
        }
        self.node.leave().await;
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(run) = self.run.take() {
            run.abort();
            let node = self.node.clone();
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move { node.leave().await });
            }
        }
    }
}

/// What a node runs besides its markets: its casino tables' rounds, and the leader's jobs.
pub struct NodeJobs {
    /// How to run a table's rounds; `None` on a node started without the casino.
    pub casino: Option<Box<dyn Tables>>,
    /// The leader's jobs, started when this node becomes the leader.
    pub leader_job: Option<LeaderJob>,
    tables: HashMap<i64, RunningTable>,
    leading: Option<(Fence, RunsWithServer)>,
    /// Markets whose tasks ended here, to release (retried each turn until it works).
    to_release: Vec<Fence>,
    /// This node's markets' load, measured every window.
    load: load::LoadMeter,
}

impl NodeJobs {
    pub fn new(casino: Option<Box<dyn Tables>>, leader_job: Option<LeaderJob>) -> NodeJobs {
        NodeJobs {
            casino,
            leader_job,
            tables: HashMap::new(),
            leading: None,
            to_release: Vec::new(),
            load: load::LoadMeter::default(),
        }
    }

    fn stop_all(&mut self) {
        for (_, table) in self.tables.drain() {
            table.task.abort();
        }
        self.leading = None;
        // A node that rejoins under a new id owns nothing its old id held.
        self.to_release.clear();
    }
}

impl Drop for NodeJobs {
    fn drop(&mut self) {
        self.stop_all();
    }
}

/// How this node runs casino tables' rounds. The casino runtime implements it
/// (`backlay_casino_runtime::runner::TableRunner`); the cluster only shares the tables out.
pub trait Tables: Send + Sync {
    /// The games this node may run (all, or those its settings name).
    fn games<'a>(&'a self, store: &'a Store) -> BoxFuture<'a, StoreResult<Vec<CasinoGame>>>;

    /// Plays `game`'s rounds on `store` (fenced by this node's hold on the table) until aborted.
    fn run(&self, store: Store, game: CasinoGame) -> JoinHandle<()>;
}

struct RunningTable {
    fence: Fence,
    task: JoinHandle<()>,
}

impl dyn Tables {
    fn start(&self, store: &Store, game: CasinoGame, fence: Fence) -> RunningTable {
        let task = self.run(store.fenced(fence.clone()), game);
        RunningTable { fence, task }
    }
}
