//! The Backlay server: assembles the crates below it into one app and serves it — the JSON API
//! under `/api` with its OpenAPI document (`backlay-api`, `backlay-console-api`), the bot API and
//! its Exchange Stream (`backlay-betfair`), the calls between nodes, the built-in casino provider,
//! the casino's art, uploaded images and the built web app at `/` ([`app`]); and starts and stops
//! what runs beside the routes: the casino's round runner, the cluster's jobs, the start hooks a
//! binary adds (the demo) ([`Server`]). Each crate's job is in docs/design-notes.md.

mod metrics;
pub mod serve;
mod web;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use backlay_api as api;
use backlay_casino_runtime::{self as casino, art as casino_art, provider};
use backlay_engine::cluster::{self, RunsWithServer};
use backlay_kit::config::Config;
use backlay_kit::{clock, node_lock, password, request_log, secret_key};
use backlay_operator::AppState;
use backlay_store::Store;
use tokio_util::sync::CancellationToken;

/// The API's OpenAPI document, as `/api/openapi.json` serves it (`backlay openapi` prints it).
pub fn openapi_document() -> utoipa::openapi::OpenApi {
    api::openapi_document(backlay_console_api::routes())
}

/// The whole app: API, OpenAPI document, the bot API, the calls between nodes, the built-in
/// casino provider (`/provider/…`, whose row and secret it creates when missing), the in-house
/// games' art (`/casino/art/…`), the operator's uploaded images (`/upload/image/…`) and web
/// client, each request with its id and log span ([`request_log`]).
pub async fn app(state: AppState) -> anyhow::Result<Router> {
    let provider = provider::BuiltinProvider::ensure(&state.store, clock::now_ms()).await?;
    let web = web::router(&state);
    Ok(request_log::layer(
        api::router(state.clone(), backlay_console_api::routes())
            .merge(backlay_betfair::routes(state.clone()))
            .merge(cluster::forward::routes(
                state.store.clone(),
                state.engine.clone(),
                state.node.is_some(),
            ))
            .merge(metrics::routes(state.clone()))
            .merge(provider::routes(state.clone(), Arc::new(provider)))
            .merge(casino_art::routes())
            .merge(backlay_console_api::uploads::image_routes(state))
            .merge(web),
    ))
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
    /// The upstream feed (`Config::feed`), when there is one, on a server on its own: it stops
    /// with the server (in a cluster it is a leader's job, in `node`).
    feed: Option<backlay_feed_runtime::FeedHandle>,
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
        let betfair_stream = backlay_betfair::stream::Bound::bind(&config).await?;
        let betfair_stream_addr =
            betfair_stream.as_ref().map(backlay_betfair::stream::Bound::local_addr);
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
        // The upstream feed (`Config::feed`) runs once: on a server on its own it starts here,
        // after the start hooks, so that a demo's sports are there for it to join; in a cluster
        // it is one of the leader's jobs, started again by the next leader if this one dies.
        let mut feed = None;
        let (casino, leading, node) = match state.node.clone() {
            None => {
                let casino = match casino_settings {
                    Some(settings) => Some(
                        casino::start(state.store.clone(), settings, state.round_events.clone())
                            .await?,
                    ),
                    None => None,
                };
                if let Some(config) = &state.config.feed {
                    feed = Some(backlay_feed_runtime::start(state.clone(), config)?);
                }
                let leader_job = both_jobs(leader_job, backup_job(&state.config));
                (casino, leader_job.map(|job| job()), None)
            }
            Some(node) => {
                if let Some(settings) = &casino_settings {
                    casino::runner::check_settings(settings)?;
                }
                let tables = casino_settings.map(|settings| -> Box<dyn cluster::Tables> {
                    Box::new(casino::TableRunner { settings, events: state.round_events.clone() })
                });
                let feed_job = match &state.config.feed {
                    Some(config) => Some(feed_leader_job(&state, config)?),
                    None => None,
                };
                let leader_job =
                    both_jobs(both_jobs(leader_job, feed_job), backup_job(&state.config));
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
            router: app(state).await?,
            hooked,
            casino,
            leading,
            node,
            limits,
            stopping,
            node_lock,
            betfair_stream_addr,
            feed,
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
            feed,
        } = self;
        serve::run(listener, router, limits, shutdown, stopping).await;
        if let Some(feed) = feed {
            feed.stop().await;
        }
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

/// The feed as a job of the cluster's leader: what would stop it from starting (a recording or
/// catalogue that cannot be read) stops this server's start, as on a server on its own; what
/// fails when a node becomes the leader is logged, and the next leader tries again.
fn feed_leader_job(
    state: &AppState,
    config: &backlay_kit::config::FeedConfig,
) -> anyhow::Result<cluster::LeaderJob> {
    backlay_feed_runtime::check(config)?;
    let (state, config) = (state.clone(), config.clone());
    Ok(Arc::new(move || -> cluster::RunsWithServer {
        tracing::info!("feed: this node leads the cluster, so it runs the feed");
        match backlay_feed_runtime::start(state.clone(), &config) {
            Ok(handle) => Box::new(handle),
            Err(err) => {
                tracing::error!("feed: cannot start on this node: {err:#}");
                Box::new(())
            }
        }
    }))
}

/// Scheduled backups (`Config::backups`) as a job that runs once however many servers there
/// are: the leader's.
fn backup_job(config: &Config) -> Option<cluster::LeaderJob> {
    let schedule = config.backups.clone()?;
    let settings = backlay_backup::ScheduleSettings {
        database_url: config.database_url.clone(),
        dir: schedule.dir,
        every: schedule.every,
        keep: schedule.keep,
    };
    Some(Arc::new(move || -> cluster::RunsWithServer {
        Box::new(backlay_backup::schedule(settings.clone(), clock::now_ms))
    }))
}

/// Two leader's jobs as one, run together and stopped together.
fn both_jobs(
    first: Option<cluster::LeaderJob>,
    second: Option<cluster::LeaderJob>,
) -> Option<cluster::LeaderJob> {
    match (first, second) {
        (Some(first), Some(second)) => {
            Some(Arc::new(move || -> cluster::RunsWithServer { Box::new((first(), second())) }))
        }
        (first, second) => first.or(second),
    }
}
