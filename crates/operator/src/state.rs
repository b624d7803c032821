//! The state every edge reaches (the web API, the bot API, the casino's wallet, the console's
//! command): the store, the engine, the live books, and what signing in needs.

use std::sync::Arc;

use axum::extract::FromRef;

use backlay_engine::cluster;
use backlay_engine::Engine;
use backlay_kit::config::{self, Config};
use backlay_kit::metrics::recorder::{scrape, Readings};
use backlay_kit::password;
use backlay_kit::throttle::LoginThrottle;
use backlay_live::round_events::RoundEvents;
use backlay_live::stream_locks::StreamLocks;
use backlay_live::{relay, LiveBooks};
use backlay_store::Store;
use tokio_util::sync::CancellationToken;

/// What every handler can reach. Cheap to clone. Extractors take the parts they need from it
/// (`FromRef`: the store, the configuration).
#[derive(Clone, FromRef)]
pub struct AppState {
    pub store: Store,
    pub config: Arc<Config>,
    pub throttle: Arc<LoginThrottle>,
    /// The running markets (books in memory, one task each).
    pub engine: Arc<Engine>,
    /// The engine's changes as serialised market books, for every stream.
    pub live_books: Arc<LiveBooks>,
    /// The casino runner's steps (round opened, closed, dealt, settled), for the table streams.
    pub round_events: Arc<RoundEvents>,
    /// A hash to verify against when the user name is unknown, so that an unknown name and a
    /// wrong password take the same time.
    pub dummy_password_hash: Arc<String>,
    /// The bounded password hasher every hash and check goes through.
    pub passwords: password::Passwords,
    /// The origin browsers reach the server at (no trailing `/`): `Config::public_url`, or
    /// `http://` and the bound address.
    pub public_url: Arc<str>,
    /// Cancelled when the server starts shutting down: live streams end on it.
    pub stopping: CancellationToken,
    /// The users holding live streams here, checked for locks together ([`backlay_live::stream_locks`]).
    pub stream_locks: Arc<StreamLocks>,
    /// On PostgreSQL: this server as a node of the cluster ([`backlay_engine::cluster`]). `None` on SQLite,
    /// where the one server runs everything.
    pub node: Option<Arc<cluster::Node>>,
    /// The upstream feeds' figures (crates/feed-runtime writes, the console reads).
    pub feeds: Arc<crate::feeds::FeedBoard>,
    /// The clock safer gambling's rules read (tests move it forward).
    pub clock: backlay_kit::clock::Clock,
}

impl AppState {
    pub async fn new(
        store: Store,
        config: Config,
        passwords: password::Passwords,
    ) -> anyhow::Result<AppState> {
        let dummy_password_hash = passwords.dummy_hash().await?;
        let public_url = match &config.public_url {
            Some(url) => {
                config::parse_public_url(url).map_err(|e| anyhow::anyhow!("--public-url: {e}"))?
            }
            None => format!("http://{}", config.addr),
        };
        let node = match store.engine() {
            backlay_store::Engine::Postgres => {
                let url = match &config.node_url {
                    Some(url) => url.clone(),
                    None => format!("http://{}", config.addr),
                };
                Some(cluster::Node::join(store.clone(), url, config.cluster_lease_ms).await?)
            }
            backlay_store::Engine::Sqlite => None,
        };
        let engine = Engine::start(store.clone(), node.clone()).await?;
        let live_books = LiveBooks::start(&engine);
        let round_events = Arc::<RoundEvents>::default();
        let stopping = CancellationToken::new();
        if store.engine() == backlay_store::Engine::Postgres {
            relay::start(&config.database_url, &live_books, &round_events, stopping.clone())
                .await?;
        }
        let stream_locks = StreamLocks::start(store.clone(), stopping.clone());
        let clock = config.clock.clone();
        Ok(AppState {
            public_url: public_url.into(),
            stream_locks,
            live_books,
            round_events,
            engine,
            throttle: Arc::new(LoginThrottle::new(config.throttle.clone(), store.clone())),
            store,
            config: Arc::new(config),
            dummy_password_hash: Arc::new(dummy_password_hash),
            stopping,
            passwords,
            node,
            feeds: Arc::default(),
            clock,
        })
    }

    /// This server's metrics scrape in Prometheus's text format, with the database pool and
    /// the market tasks' queues read now: what `GET /metrics` answers and `console/system`
    /// reads. `None` when the process has no recorder.
    pub async fn metrics_scrape(&self) -> Option<String> {
        let pool = self.store.pool();
        let (size, idle) = (pool.size() as usize, pool.num_idle());
        let readings = Readings {
            pool_in_use: size.saturating_sub(idle),
            pool_idle: idle,
            queue_depths: self.engine.queue_depths().await,
            placement_groups: self.store.placement_groups(),
        };
        scrape(&readings)
    }
}
