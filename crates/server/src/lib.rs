//! The Backlay server: an axum app serving the JSON API under `/api`, its OpenAPI document at
//! `/api/openapi.json`, and the built web app at `/`.
//!
//! A request flows handler (`api/<area>.rs`) → domain (`backlay_core`) → store (`backlay_store`) →
//! answer in the [`error::Envelope`]. Operator actions that both the HTTP API and the
//! `backlay admin` command perform live once, in [`operator`].

pub mod api;
pub mod betfair;
pub mod casino;
pub mod casino_art;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod engine;
pub mod error;
pub mod input;
pub mod live;
pub mod live_relay;
pub mod market_analysis;
pub mod market_book;
pub mod node_lock;
pub mod operator;
pub mod password;
pub mod provider;
pub mod request_log;
pub mod secret_key;
pub mod serve;
pub mod session;
pub mod settings;
pub mod stake_buttons;
pub mod stream_locks;
pub mod throttle;
pub mod totp;
pub mod uploads;
pub mod wallet;
mod web;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use backlay_store::Store;
use tokio_util::sync::CancellationToken;

/// The API's OpenAPI document, as `/api/openapi.json` serves it (`backlay openapi` prints it).
pub use api::openapi_document;
pub use config::Config;

use crate::throttle::LoginThrottle;

/// What every handler can reach. Cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub store: Store,
    pub config: Arc<Config>,
    pub throttle: Arc<LoginThrottle>,
    /// The running markets (books in memory, one task each).
    pub engine: Arc<engine::Engine>,
    /// The engine's changes as serialised market books, for every stream.
    pub live_books: Arc<live::LiveBooks>,
    /// The casino runner's steps (round opened, closed, dealt, settled), for the table streams.
    pub round_events: Arc<casino::RoundEvents>,
    /// A hash to verify against when the user name is unknown, so that an unknown name and a
    /// wrong password take the same time.
    pub dummy_password_hash: Arc<String>,
    /// The bounded password hasher every hash and check goes through.
    pub passwords: password::Passwords,
    /// The origin browsers reach the server at (no trailing `/`): `Config::public_url`, or
    /// `http://` and the bound address.
    pub public_url: Arc<str>,
    /// The built-in casino provider's backend (its secret, its dealt tables).
    pub provider: Arc<provider::BuiltinProvider>,
    /// Cancelled when the server starts shutting down: live streams end on it.
    pub stopping: CancellationToken,
    /// The users holding live streams here, checked for locks together ([`stream_locks`]).
    pub stream_locks: Arc<stream_locks::StreamLocks>,
    /// On PostgreSQL: this server as a node of the cluster (`cluster`). `None` on SQLite,
    /// where the one server runs everything.
    pub node: Option<Arc<cluster::Node>>,
}

impl AppState {
    pub async fn new(
        store: Store,
        config: Config,
        passwords: password::Passwords,
    ) -> anyhow::Result<AppState> {
        let dummy_password_hash = passwords.hash(session::new_token()).await?;
        let public_url = match &config.public_url {
            Some(url) => {
                config::parse_public_url(url).map_err(|e| anyhow::anyhow!("--public-url: {e}"))?
            }
            None => format!("http://{}", config.addr),
        };
        let provider = provider::BuiltinProvider::ensure(&store, clock::now_ms()).await?;
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
        let engine = engine::Engine::start(store.clone(), node.clone()).await?;
        let live_books = live::LiveBooks::start(&engine);
        let round_events = Arc::<casino::RoundEvents>::default();
        let stopping = CancellationToken::new();
        if store.engine() == backlay_store::Engine::Postgres {
            live_relay::start(&config.database_url, &live_books, &round_events, stopping.clone())
                .await?;
        }
        let stream_locks = stream_locks::StreamLocks::start(store.clone(), stopping.clone());
        Ok(AppState {
            public_url: public_url.into(),
            stream_locks,
            provider: Arc::new(provider),
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
        })
    }
}

/// The whole app: API, OpenAPI document, the built-in casino provider (`/provider/…`), the
/// in-house games' art (`/casino/art/…`), the operator's uploaded images (`/upload/image/…`)
/// and web client, each request with its id and log span ([`request_log`]).
pub fn app(state: AppState) -> Router {
    let web = web::router(&state);
    request_log::layer(
        api::router(state.clone())
            .merge(betfair::routes(state.clone()))
            .merge(cluster::forward::routes(state.clone()))
            .merge(provider::routes(state.clone()))
            .merge(casino_art::routes())
            .merge(uploads::routes(state))
            .merge(web),
    )
}

/// What the binary adds to a server as it starts (the demo, `backlay_demo`): [`Server::build_with`]
/// calls these at three points of the start. The product runs with none ([`Server::build`]).
pub trait StartHooks: Send {
    /// After the database is migrated, before the engine loads its markets (e.g. seeding an
    /// empty database with users and matches).
    fn before_engine(
        &mut self,
        store: &Store,
        passwords: &password::Passwords,
    ) -> impl std::future::Future<Output = anyhow::Result<()>> + Send;

    /// Once the app's state exists, before it serves (e.g. creating markets through the
    /// engine). What it answers runs until the server stops, and is dropped then.
    fn after_state(
        &mut self,
        state: &AppState,
    ) -> impl std::future::Future<Output = anyhow::Result<Option<RunsWithServer>>> + Send;

    /// What must run once however many servers there are (e.g. a feed): started at once on a
    /// server on its own, and by the leader in a cluster (`cluster`), again by the next leader
    /// if it dies.
    fn leader_job(&mut self, _state: &AppState) -> Option<cluster::LeaderJob> {
        None
    }
}

/// Something that runs as long as the server does and stops when dropped.
pub type RunsWithServer = Box<dyn std::any::Any + Send>;

/// No hooks: the product on its own.
impl StartHooks for () {
    async fn before_engine(
        &mut self,
        _store: &Store,
        _passwords: &password::Passwords,
    ) -> anyhow::Result<()> {
        Ok(())
    }

    async fn after_state(&mut self, _state: &AppState) -> anyhow::Result<Option<RunsWithServer>> {
        Ok(None)
    }
}

/// A server bound to an address, ready to run.
pub struct Server {
    listener: tokio::net::TcpListener,
    router: Router,
    /// What the start hooks left running (the demo feed): it stops when the server does.
    hooked: Option<RunsWithServer>,
    /// The casino's round runner, when it runs (`Config::casino`) on a server on its own: it
    /// stops with the server.
    casino: Option<casino::CasinoRunner>,
    /// What only the leader runs, on a server on its own: it stops with the server.
    leading: Option<RunsWithServer>,
    /// In a cluster: this node and its ownership loop (which runs its tables' rounds and, while
    /// it leads, the leader's jobs): stopped with the server, which then leaves the cluster.
    node: Option<cluster::Running>,
    limits: serve::Limits,
    /// `AppState::stopping`.
    stopping: CancellationToken,
    /// On SQLite, this server's hold on the database file ([`node_lock`]), until it stops.
    node_lock: Option<node_lock::NodeLock>,
    /// Where the Betfair-compatible stream listens (`betfair::stream`), when it does.
    betfair_stream_addr: Option<SocketAddr>,
}

impl Server {
    /// Connects to the database, migrates it, and binds the address.
    pub async fn build(config: Config) -> anyhow::Result<Server> {
        Server::build_with(config, ()).await
    }

    /// [`Server::build`], calling `hooks` as it starts.
    pub async fn build_with(
        mut config: Config,
        mut hooks: impl StartHooks,
    ) -> anyhow::Result<Server> {
        secret_key::check_source(&config.secret_key, &config.database_url)?;
        let store = Store::connect_with(&config.database_url, config.database_connections).await?;
        let node_lock = node_lock::take(&config.database_url)?;
        store.migrate().await?;
        let store =
            secret_key::open_secrets(store, &config.secret_key, &config.database_url).await?;
        let passwords = password::Passwords::for_this_machine();
        // Nodes of a cluster starting together seed an empty database once: one at a time
        // through the start, until the demo's markets exist.
        let start_lock = store.start_lock().await?;
        hooks.before_engine(&store, &passwords).await?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.addr))?;
        // The address actually bound (port 0 picks one), for the default public URL.
        config.addr = listener.local_addr()?;
        let betfair_stream = betfair::stream::Bound::bind(&config).await?;
        let betfair_stream_addr = betfair_stream.as_ref().map(betfair::stream::Bound::local_addr);
        let casino_settings = config.casino.then(|| casino::RunnerSettings {
            betting_window_ms: config.casino_betting_window_ms,
            result_pause_ms: config.casino_result_pause_ms,
            deal_pace: config.casino_deal_pace,
            only_games: config.casino_games.clone(),
        });
        let limits = serve::Limits {
            header_timeout_ms: config.header_timeout_ms,
            body_timeout_ms: config.body_timeout_ms,
            max_connections: config.max_connections,
            shutdown_grace_ms: config.shutdown_grace_ms,
        };
        let state = AppState::new(store, config, passwords).await?;
        let hooked = hooks.after_state(&state).await?;
        if let Some(lock) = start_lock {
            lock.release().await?;
        }
        let leader_job = hooks.leader_job(&state);
        let (casino, leading, node) = match state.node.clone() {
            None => {
                let casino = match casino_settings {
                    Some(settings) => Some(
                        casino::start(state.store.clone(), settings, state.round_events.clone())
                            .await?,
                    ),
                    None => None,
                };
                (casino, leader_job.map(|job| job()), None)
            }
            Some(node) => {
                if let Some(settings) = &casino_settings {
                    casino::runner::check_settings(settings)?;
                }
                let tables = casino_settings.map(|settings| cluster::Tables {
                    settings,
                    events: state.round_events.clone(),
                });
                let jobs = cluster::NodeJobs::new(tables, leader_job);
                (None, None, Some(cluster::Running::start(node, state.engine.clone(), jobs)))
            }
        };
        let stopping = state.stopping.clone();
        // It accepts until `stopping`, which `run` cancels as the server stops.
        if let Some(stream) = betfair_stream {
            stream.start(state.clone());
        }
        Ok(Server {
            listener,
            router: app(state),
            hooked,
            casino,
            leading,
            node,
            limits,
            stopping,
            node_lock,
            betfair_stream_addr,
        })
    }

    /// Where the Betfair-compatible stream listens; `None` when it is off.
    pub fn betfair_stream_addr(&self) -> Option<SocketAddr> {
        self.betfair_stream_addr
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    /// Serves until `shutdown` resolves, then ends the live streams, gives the requests in
    /// flight up to `Config::shutdown_grace_ms` to finish and returns (`serve`); what the start
    /// hooks left running and the casino runner stop with the server.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let Server {
            listener,
            router,
            hooked,
            casino,
            leading,
            node,
            limits,
            stopping,
            node_lock,
            betfair_stream_addr: _,
        } = self;
        serve::run(listener, router, limits, shutdown, stopping).await;
        drop(hooked);
        drop(casino);
        drop(leading);
        if let Some(node) = node {
            node.stop().await;
        }
        drop(node_lock);
        Ok(())
    }
}
