//! Persistence for Backlay: one schema and one repository code path for SQLite and PostgreSQL.
//!
//! The [`Store`] wraps an sqlx `AnyPool`, so every query below is written once, in portable SQL
//! with `$N` placeholders, integer money (minor units) and epoch-millisecond times. Only the DDL
//! differs per engine (`migrations/sqlite`, `migrations/postgres`), and only in spelling.
//!
//! Writes go through [`Store::begin_write`]: on SQLite that is `BEGIN IMMEDIATE`, which takes the
//! single write lock up front. A deferred `BEGIN` that reads and then writes fails with
//! `SQLITE_BUSY` when another writer committed in between, and `busy_timeout` does not save it.
//! On PostgreSQL it is an ordinary `READ COMMITTED` transaction; the funds check is a conditional
//! `UPDATE`, which PostgreSQL re-evaluates after waiting for a concurrent writer's row lock.
//!
//! Repositories are `impl Store` (reads) and `impl Writer` (writes in a transaction) blocks
//! grouped by area: [`users`], [`downline`], [`sessions`], [`security`], [`ledger`] (with
//! [`exposure_check`]), [`bets`] (read as the exchange's bets by [`positions`]), [`markets`],
//! [`catalogue`], [`settings`], [`buttons`], [`uploads`], and what every server on one database
//! shares: [`throttle`] (log-in counts), [`tickets`] (stream tickets). Two sibling crates hold a
//! job's tables over the same schema and pool, and add their methods through traits with the
//! helpers of [`repository`]: `backlay-casino-store` (the casino's games, providers and
//! wallet) and `backlay-office-store` (payment requests and payees, the dashboard's figures,
//! the audit log).
//!
//! Secrets (TOTP secrets, providers' signing secrets) are sealed with the server's key on the way
//! in and opened on the way out, in the repositories, with the [`secrets::Keyring`] given to
//! [`Store::with_keyring`]; a store without one refuses to read or write them.

pub mod added_feeds;
pub mod bets;
pub mod bot_bets;
pub mod branch_locks;
pub mod buttons;
pub mod cash;
pub mod catalogue;
pub mod cluster;
pub mod correction;
pub mod downline;
pub mod exposure_check;
mod group_commit;
pub mod ledger;
pub mod markets;
pub mod non_runners;
pub mod notices;
pub mod partnership;
pub mod positions;
pub mod preferences;
pub mod repository;
pub mod runner_cards;
pub mod safer;
pub mod secrets;
pub mod security;
pub mod sessions;
pub mod settings;
pub(crate) mod sql;
pub mod throttle;
pub mod tickets;
pub mod uploads;
pub mod upstream;
pub mod users;

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Connection, Executor};

// The helpers every repository here uses, by their short names (`crate::named`).
use repository::{flag, is_unique_violation, like_escape, named};

pub use group_commit::BatchReads;
pub use sqlx::Any;

/// An open write transaction. Repositories add their write methods to it (`impl Writer` blocks
/// in each module), so a request reads as `begin_write → w.insert_user(..) → w.commit()`.
/// Dropping it without [`Writer::commit`] rolls everything back.
pub struct Writer {
    tx: sqlx::Transaction<'static, sqlx::Any>,
    engine: Engine,
    keyring: Option<Arc<secrets::Keyring>>,
    /// PostgreSQL's id of the transaction, where it is known (a fenced store's writes).
    xact_id: Option<i64>,
    /// A placement batch's share of the transaction many batches commit together (SQLite,
    /// [`Store::begin_placement`]).
    group: Option<GroupShare>,
    /// A placement batch's rows ([`Store::begin_placement`]), kept until its group's end
    /// (SQLite) or its own COMMIT (PostgreSQL, one statement for them all); `None` on any other
    /// writer, which writes at once.
    deferred: Option<group_commit::Deferred>,
}

/// A placement batch's share of its group's transaction (`group_commit`).
struct GroupShare {
    grouped: group_commit::Grouped,
    /// The rows the earlier batches of the group deferred, not yet written.
    earlier: group_commit::Deferred,
    /// Funds and `client_ref`s read ahead for the batches waiting; dropped once anything is
    /// written to the transaction.
    read_ahead: Option<group_commit::ReadAhead>,
    /// Whether this batch wrote to the transaction itself ([`Writer::conn`]): it cannot then
    /// be taken out of the group alone.
    wrote: bool,
}

impl Writer {
    /// PostgreSQL's id of this transaction, on a fenced store ([`Store::fenced`]): after a
    /// COMMIT that failed, [`Store::is_transaction_in_progress`] says when its outcome is
    /// settled. `None` elsewhere (on SQLite a failed COMMIT is rolled back before it returns).
    pub fn xact_id(&self) -> Option<i64> {
        self.xact_id
    }

    /// Commits; a placement batch sharing its transaction ([`Store::begin_placement`]) gives
    /// it back and waits for the group's commit.
    pub async fn commit(self) -> StoreResult<()> {
        match self.group {
            Some(share) => {
                let own = self.deferred.unwrap_or_default();
                share.grouped.commit(self.tx, share.earlier, own, share.read_ahead).await
            }
            None => {
                let mut tx = self.tx;
                if let Some(mut rows) = self.deferred {
                    rows.write(&mut tx, self.engine).await?;
                }
                tx.commit().await?;
                Ok(())
            }
        }
    }

    /// Gives up the transaction: rolled back. A placement batch sharing its transaction
    /// ([`Store::begin_placement`]) drops only its own deferred rows, and the other batches of
    /// its group go on, unless it wrote to the transaction itself ([`Writer::conn`]): then the
    /// whole group rolls back, and each of its batches hears so.
    pub async fn abandon(self) {
        if let Some(share) = self.group {
            share.grouped.abandon(self.tx, share.earlier, share.read_ahead, share.wrote);
        }
        // Else dropped: rolled back.
    }

    /// The connection inside the transaction, for the repositories' queries (here and in the
    /// store's sibling crates: [`repository`]). On a placement batch's share of a group
    /// ([`Store::begin_placement`]) what is run here is taken to write: the batch can no longer
    /// leave the group alone ([`Writer::abandon`]), and it sees the earlier batches' rows only
    /// once they are written ([`Writer::write_earlier_batches`]).
    pub fn conn(&mut self) -> &mut sqlx::AnyConnection {
        if let Some(share) = &mut self.group {
            share.wrote = true;
            share.read_ahead = None;
        }
        &mut self.tx
    }

    /// The connection, for the placement batch's reads and id reservation, which leave it
    /// free to leave its group ([`Writer::abandon`]).
    pub(crate) fn reading(&mut self) -> &mut sqlx::AnyConnection {
        &mut self.tx
    }

    /// Where a placement batch keeps the rows it defers: sharing its group's transaction, to the
    /// group's end (`group_commit`); on PostgreSQL, to its own COMMIT. `None` on any other
    /// writer, which writes at once.
    pub(crate) fn deferred(&mut self) -> Option<&mut group_commit::Deferred> {
        self.deferred.as_mut()
    }

    /// Writes the rows the earlier batches of this batch's placement group deferred, for a
    /// read they could change. Nothing to do on any other writer. If the writing fails, some of
    /// those rows may be in the transaction and the rest gone: the batch counts as having
    /// written, so that giving up rolls the whole group back ([`Writer::abandon`]) and none of
    /// the earlier batches is answered as placed.
    pub async fn write_earlier_batches(&mut self) -> StoreResult<()> {
        if let Some(share) = &mut self.group {
            if !share.earlier.is_empty() {
                share.read_ahead = None;
                if let Err(err) = share.earlier.write(&mut self.tx, self.engine).await {
                    share.wrote = true;
                    return Err(err);
                }
            }
        }
        Ok(())
    }

    /// The funds of `user_ids` as read ahead for this batch's placement group, if they were
    /// (`group_commit`): without the earlier batches' changes.
    pub(crate) fn read_ahead_funds(&self, user_ids: &[i64]) -> Option<Vec<bets::AccountFunds>> {
        self.group.as_ref()?.read_ahead.as_ref()?.funds_of(user_ids)
    }

    /// The bets placed with `keys` as read ahead for this batch's placement group, if they were.
    pub(crate) fn read_ahead_bets(&self, keys: &[(i64, &str)]) -> Option<Vec<bets::BetRow>> {
        self.group.as_ref()?.read_ahead.as_ref()?.bets_of(keys)
    }

    /// Whether the earlier batches of this batch's placement group deferred rows not yet written.
    pub(crate) fn earlier_batches_pending(&self) -> bool {
        self.group.as_ref().is_some_and(|share| !share.earlier.is_empty())
    }

    /// Whether the earlier batches of the group placed a bet with one of `keys`.
    pub(crate) fn earlier_batches_hold(&self, keys: &[(i64, &str)]) -> bool {
        self.group.as_ref().is_some_and(|share| share.earlier.holds_client_ref(keys))
    }

    /// What the earlier batches of the group changed `user_id`'s total exposure by, not yet
    /// written (0 outside a group).
    pub(crate) fn earlier_exposure_change(&self, user_id: i64) -> i64 {
        self.group
            .as_ref()
            .and_then(|share| share.earlier.exposure_changes.get(&user_id).copied())
            .unwrap_or(0)
    }

    /// The keys that seal and open the secret columns, for the repositories that hold one
    /// ([`repository::seal_column`]); `NoKey` on a store without them.
    pub fn keyring(&self) -> Result<&secrets::Keyring, secrets::SecretError> {
        self.keyring.as_deref().ok_or(secrets::SecretError::NoKey)
    }
}

/// Which database engine a [`Store`] talks to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// Errors the repositories give back. Constraint violations a user can cause are mapped to
/// typed variants at the query that causes them; everything else is `Database`.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
    #[error("{0}")]
    Conflict(String),
    #[error("insufficient funds: {available_minor} minor units available")]
    InsufficientFunds { available_minor: i64 },
    #[error("exposure limit of {limit_minor} minor units reached")]
    ExposureLimit { limit_minor: i64 },
    /// A sealed secret that cannot be opened (or sealed): never the user's doing.
    #[error("the secret in {slot} cannot be used: {source}")]
    Secret { slot: String, source: secrets::SecretError },
    /// A resource's owner lost it to another node (the write was not made): see [`cluster`].
    #[error("this server no longer owns {resource}")]
    Fenced { resource: String },
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

pub type StoreResult<T> = Result<T, StoreError>;

impl StoreError {
    /// The database could not be reached or could not take the work now, through nothing the
    /// caller did: a connection cut or refused, the database restarting or shutting down, no
    /// connection free in time, too many connections, a full disk, a lock not had in time, a
    /// serialization failure. Worth trying again in a moment; a write that failed this way at
    /// its commit may or may not have been made.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, StoreError::Database(err) if is_unavailable(err))
    }
}

/// [`StoreError::is_unavailable`] of the driver's own error, for callers that meet it inside
/// another error's chain.
pub fn is_unavailable(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db.code().is_some_and(|code| is_unavailable_code(&code)),
        _ => false,
    }
}

/// Whether a database error code says "unavailable" in the sense of
/// [`StoreError::is_unavailable`]. PostgreSQL's codes are SQLSTATEs, always five characters;
/// SQLite's are its extended result codes as numbers (at most four digits), whose low byte is
/// the primary code.
fn is_unavailable_code(code: &str) -> bool {
    if code.len() == 5 {
        // Class 08 connection exception; class 53 insufficient resources (53100 disk full,
        // 53300 too many connections); class 55, an object not ready (55000: the database is
        // not accepting connections, 55P03: a lock not had in time); 57P01–57P03 the server
        // shutting down or starting; 40001 serialization failure and 40P01 deadlock.
        return code.starts_with("08")
            || code.starts_with("53")
            || code.starts_with("55")
            || matches!(code, "57P01" | "57P02" | "57P03" | "40001" | "40P01");
    }
    // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN.
    code.parse::<i64>().is_ok_and(|extended| matches!(extended & 0xff, 5 | 6 | 10 | 13 | 14))
}

/// Handle to the database: cheap to clone, shared by every request.
#[derive(Clone, Debug)]
pub struct Store {
    /// Reads, and single-statement writes outside a transaction.
    pool: AnyPool,
    /// Write transactions only ([`Store::begin_write`]): kept apart so that a writer never
    /// queues for a connection behind a crowd of readers.
    writers: AnyPool,
    engine: Engine,
    /// Seals and opens the secret columns; `None` until [`Store::with_keyring`].
    keyring: Option<Arc<secrets::Keyring>>,
    /// Checked at the start of every write transaction: set on the store a market's or a
    /// table's owner writes through ([`Store::fenced`]).
    fence: Option<Arc<cluster::Fence>>,
    /// Commits the placement batches of many markets together (SQLite only:
    /// [`Store::begin_placement`]).
    committer: Option<group_commit::Committer>,
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx_macros::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator =
    sqlx_macros::migrate!("./migrations/postgres");

/// How long [`Store::ping`] waits for a new connection to answer.
const PING_TIMEOUT: Duration = Duration::from_secs(2);

/// How long a SQLite writer waits for the write lock before giving up.
const SQLITE_BUSY_TIMEOUT_MS: u64 = 15_000;

impl Store {
    /// Connects to `database_url` (`sqlite://path` or `postgres://…`). For SQLite the file and its
    /// folder are created when missing, and every connection runs in WAL mode with
    /// `synchronous=FULL` (a commit is durable once acknowledged) and foreign keys on.
    pub async fn connect(database_url: &str) -> anyhow::Result<Store> {
        Store::connect_with(database_url, DEFAULT_POSTGRES_CONNECTIONS).await
    }

    /// [`Store::connect`], with at most `postgres_connections` connections to PostgreSQL
    /// (a third of them, at least 2, for write transactions; at least 4 in all). SQLite's pools
    /// keep their fixed size: one process holds the file.
    pub async fn connect_with(
        database_url: &str,
        postgres_connections: u32,
    ) -> anyhow::Result<Store> {
        sqlx::any::install_default_drivers();
        let engine = engine_of(database_url)?;
        let (url, readers, writers) = match engine {
            Engine::Sqlite => {
                let path = sqlite_path(database_url);
                if let Some(dir) = Path::new(&path).parent() {
                    if !dir.as_os_str().is_empty() {
                        std::fs::create_dir_all(dir).map_err(|e| {
                            anyhow::anyhow!("cannot create database folder {}: {e}", dir.display())
                        })?;
                    }
                }
                let url = if database_url.contains('?') {
                    database_url.to_string()
                } else {
                    format!("{database_url}?mode=rwc")
                };
                (url, SQLITE_READERS, SQLITE_WRITERS)
            }
            Engine::Postgres => {
                let all = postgres_connections.max(MIN_POSTGRES_CONNECTIONS);
                let writers = (all / 3).max(2);
                (database_url.to_string(), all - writers, writers)
            }
        };
        let options = AnyConnectOptions::from_str(&url)?;
        let pool = open_pool(engine, options.clone(), readers, SQLITE_READER_CACHE_KIB).await?;
        let writers = open_pool(engine, options, writers, SQLITE_WRITER_CACHE_KIB).await?;
        let committer =
            (engine == Engine::Sqlite).then(|| group_commit::Committer::start(writers.clone()));
        Ok(Store { pool, writers, engine, keyring: None, fence: None, committer })
    }

    /// Applies any migrations the database has not seen yet.
    pub async fn migrate(&self) -> anyhow::Result<()> {
        match self.engine {
            Engine::Sqlite => SQLITE_MIGRATIONS.run(&self.pool).await?,
            Engine::Postgres => POSTGRES_MIGRATIONS.run(&self.pool).await?,
        }
        Ok(())
    }

    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// This store with the keys that seal and open the secret columns.
    pub fn with_keyring(mut self, keyring: Arc<secrets::Keyring>) -> Store {
        self.keyring = Some(keyring);
        self
    }

    /// The keys that open the secret columns, for the repositories that hold one
    /// ([`repository::open_column`]); `NoKey` on a store without them.
    pub fn keyring(&self) -> Result<&secrets::Keyring, secrets::SecretError> {
        self.keyring.as_deref().ok_or(secrets::SecretError::NoKey)
    }

    /// The server's secret keys, for sealing what is not a column: the calls the servers of a
    /// cluster send each other.
    pub fn keys(&self) -> Option<Arc<secrets::Keyring>> {
        self.keyring.clone()
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Starts a write transaction (see the module docs for why SQLite needs `BEGIN IMMEDIATE`).
    /// On a fenced store ([`Store::fenced`]) the fence is checked first: `Fenced` when this
    /// node no longer owns what the store writes for.
    pub async fn begin_write(&self) -> StoreResult<Writer> {
        let tx = match self.engine {
            Engine::Sqlite => self.writers.begin_with("BEGIN IMMEDIATE").await?,
            Engine::Postgres => self.writers.begin().await?,
        };
        let mut writer = self.writer(tx, None);
        if let Some(fence) = &self.fence {
            writer.check_fence(fence).await?;
        }
        Ok(writer)
    }

    /// The write transaction of a market's placement batch. On SQLite, the one the placement
    /// batches of many markets share and commit together (`group_commit`), its
    /// [`Writer::commit`] answering once the group's COMMIT did. On PostgreSQL, a transaction
    /// of its own ([`Store::begin_write`]), the batches of many markets committing side by side;
    /// its bets, fills, matches and exposures are written in one statement as it commits.
    ///
    /// `reads` says whose funds the batch will lock and which `client_ref`s it will look up, so
    /// that a group can read them for many batches at once (SQLite; PostgreSQL ignores it).
    pub async fn begin_placement(&self, reads: &BatchReads) -> StoreResult<Writer> {
        let mut writer = match &self.committer {
            None => self.begin_write().await?,
            Some(committer) => {
                let lent = committer.join(reads.clone()).await?;
                let share = GroupShare {
                    grouped: lent.grouped,
                    earlier: lent.earlier,
                    read_ahead: lent.read_ahead,
                    wrote: false,
                };
                self.writer(lent.tx, Some(share))
            }
        };
        writer.deferred = Some(group_commit::Deferred::default());
        Ok(writer)
    }

    /// `(groups, batches)` of placement batches committed together since the start (SQLite's
    /// `group_commit`); `None` on PostgreSQL, where each batch commits alone.
    pub fn placement_groups(&self) -> Option<(u64, u64)> {
        self.committer.as_ref().map(group_commit::Committer::counts)
    }

    /// A [`Writer`] on `tx` with this store's engine and keys.
    fn writer(
        &self,
        tx: sqlx::Transaction<'static, sqlx::Any>,
        group: Option<GroupShare>,
    ) -> Writer {
        Writer {
            tx,
            engine: self.engine,
            keyring: self.keyring.clone(),
            xact_id: None,
            group,
            deferred: None,
        }
    }

    /// A read-only transaction whose statements all see the database at one moment: for a
    /// check that compares figures read by several statements, where a write landing between
    /// two of them would show as a fault. PostgreSQL: `REPEATABLE READ`, its snapshot taken at
    /// the first statement. SQLite: a deferred `BEGIN`, whose first read fixes the snapshot the
    /// later reads see (WAL). Dropped, it rolls back; it writes nothing either way.
    pub async fn begin_snapshot(&self) -> StoreResult<sqlx::Transaction<'static, sqlx::Any>> {
        Ok(match self.engine {
            Engine::Sqlite => self.pool.begin_with("BEGIN").await?,
            Engine::Postgres => {
                self.pool.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY").await?
            }
        })
    }

    /// True when the database answers a trivial query: on a pooled connection, or, when that
    /// fails (it may be one the database cut, which the pool then drops), on a new one.
    pub async fn ping(&self) -> bool {
        if sqlx::query("SELECT 1").execute(&self.pool).await.is_ok() {
            return true;
        }
        let options = self.pool.connect_options();
        let fresh = async {
            let mut conn = sqlx::AnyConnection::connect_with(&options).await?;
            let answered = sqlx::query("SELECT 1").execute(&mut conn).await;
            let _ = conn.close().await;
            answered.map(|_| ())
        };
        matches!(tokio::time::timeout(PING_TIMEOUT, fresh).await, Ok(Ok(())))
    }

    pub async fn close(&self) {
        self.pool.close().await;
        self.writers.close().await;
    }
}

/// Connections per pool. SQLite has one write lock, so a second writer connection only lets
/// the next transaction open while the last one commits; PostgreSQL writes markets in
/// parallel, so a third of its connections are writers (16 readers + 8 writers by default).
/// Every node of a cluster opens its own, so the operator sizes them to fit PostgreSQL's
/// `max_connections` (`--database-connections`, docs/operating.md).
const SQLITE_READERS: u32 = 8;
const SQLITE_WRITERS: u32 = 2;
pub const DEFAULT_POSTGRES_CONNECTIONS: u32 = 24;
pub const MIN_POSTGRES_CONNECTIONS: u32 = 4;

/// Each SQLite connection's page cache, in KiB. A writer's holds the pages a placement group
/// dirties before its COMMIT and the indexes' upper levels between groups: at SQLite's default
/// (2,000 KiB) a group over 1,000 markets spilled pages to the WAL before its COMMIT and read
/// them back (`pagerStress`, `pread64` in bench/profile.sh), and 64 MiB took 1,000 markets
/// from 3,190–3,388 to 3,578 bets/s (bench/RESULTS.md, tenth session). Readers keep the
/// default: there are eight of them, and their reads are small.
const SQLITE_WRITER_CACHE_KIB: u32 = 65_536;
const SQLITE_READER_CACHE_KIB: u32 = 2_000;

/// WAL pages written before a commit checkpoints them into the database file (SQLite's
/// default is 1,000). A page written many times between checkpoints (an index's hot pages,
/// an account's row) is copied back once per checkpoint, and the checkpoint runs inside the
/// COMMIT of the writer that crosses the mark: fewer, larger checkpoints took 1,000 markets
/// from 3,578 to 3,866 bets/s. The WAL grows to about 40 MiB between them.
const SQLITE_WAL_AUTOCHECKPOINT_PAGES: u32 = 10_000;

/// A pool (connections are not pinged before use) whose SQLite connections run in WAL mode with `synchronous=FULL` (a commit is
/// durable once acknowledged), foreign keys on, a busy timeout and a page cache of `cache_kib`.
async fn open_pool(
    engine: Engine,
    options: AnyConnectOptions,
    max_connections: u32,
    cache_kib: u32,
) -> anyhow::Result<AnyPool> {
    Ok(AnyPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(Duration::from_secs(30))
        // No ping before every use: it doubled the round trips of each query. A connection
        // that died (a database restart) fails its next query and is dropped; callers see an
        // error once, and the engine retries a failed batch.
        .test_before_acquire(false)
        // SQLite rolls a transaction back by itself when its COMMIT fails (a full disk), and
        // the driver, not knowing, keeps counting it as open: the ROLLBACK it sends when the
        // transaction is dropped fails too, and the connection would refuse every later BEGIN
        // ("non-zero transaction depth"), so every later write, until a restart. Such a
        // connection is closed instead of kept. A connection out of any transaction (nearly
        // every release) is kept at once; otherwise a ping first lets the driver's queued
        // ROLLBACK run, so one whose rollback worked is kept too.
        .after_release(move |conn, _meta| {
            Box::pin(async move {
                if engine != Engine::Sqlite || !conn.is_in_transaction() {
                    return Ok(true);
                }
                conn.ping().await?;
                Ok(!conn.is_in_transaction())
            })
        })
        .after_connect(move |conn, _meta| {
            Box::pin(async move {
                if engine == Engine::Postgres {
                    // A transaction left open (a frozen server) must not hold its locks for
                    // ever: see `cluster`.
                    conn.execute(
                        format!(
                            "SET idle_in_transaction_session_timeout = {}",
                            cluster::IDLE_IN_TRANSACTION_MS
                        )
                        .as_str(),
                    )
                    .await?;
                }
                if engine == Engine::Sqlite {
                    conn.execute(
                        format!(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; \
                             PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}; \
                             PRAGMA cache_size = -{cache_kib}; \
                             PRAGMA wal_autocheckpoint = {SQLITE_WAL_AUTOCHECKPOINT_PAGES};"
                        )
                        .as_str(),
                    )
                    .await?;
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await?)
}

/// Which engine a database URL names; anything else is a configuration error a person can fix.
pub fn engine_of(database_url: &str) -> anyhow::Result<Engine> {
    if database_url.starts_with("sqlite:") {
        Ok(Engine::Sqlite)
    } else if database_url.starts_with("postgres://") || database_url.starts_with("postgresql://") {
        Ok(Engine::Postgres)
    } else {
        anyhow::bail!(
            "unsupported database URL {:?}: use sqlite://path/to/file.db or postgres://user@host/db",
            url_without_password(database_url)
        )
    }
}

/// A database URL fit for a log line, an error message or `Debug`: the password, in the
/// credentials (`postgres://app:pw@db/x`) or in a `password=` parameter, becomes `***`.
///
/// The credentials end at the last `@`: a password may hold an unencoded `@` or `/`, and
/// masking part of the host as well is the safe way to be wrong.
pub fn url_without_password(database_url: &str) -> String {
    let Some(scheme_end) = database_url.find("://").map(|at| at + 3) else {
        return database_url.to_string();
    };
    let (scheme, rest) = database_url.split_at(scheme_end);
    let url = match rest.rfind('@').and_then(|at| Some((rest[..at].find(':')?, at))) {
        Some((colon, at)) => format!("{scheme}{}:***{}", &rest[..colon], &rest[at..]),
        None => database_url.to_string(),
    };
    match url.split_once('?') {
        Some((base, query)) => {
            let query: Vec<&str> = query
                .split('&')
                .map(|pair| if pair.starts_with("password=") { "password=***" } else { pair })
                .collect();
            format!("{base}?{}", query.join("&"))
        }
        None => url,
    }
}

/// The file path inside a `sqlite://` URL (without query parameters).
pub fn sqlite_path(database_url: &str) -> String {
    let rest = database_url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    rest.split('?').next().unwrap_or_default().to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn database_codes_that_mean_try_again() {
        use super::is_unavailable_code as unavailable;
        // PostgreSQL: a cut connection, a shutdown, a full disk, too many clients, a deadlock.
        for code in [
            "08006", "57P01", "57P02", "57P03", "53100", "53300", "55000", "55P03", "40001",
            "40P01",
        ] {
            assert!(unavailable(code), "{code}");
        }
        // PostgreSQL: a unique, foreign-key or check violation is a bug or a conflict.
        for code in ["23505", "23503", "23514", "42P01"] {
            assert!(!unavailable(code), "{code}");
        }
        // SQLite: BUSY, IOERR_WRITE (778), FULL, CANTOPEN.
        for code in ["5", "778", "13", "14"] {
            assert!(unavailable(code), "{code}");
        }
        // SQLite: CONSTRAINT_UNIQUE (2067), CONSTRAINT_FOREIGNKEY (787), CONSTRAINT_CHECK (275).
        for code in ["2067", "787", "275"] {
            assert!(!unavailable(code), "{code}");
        }
    }

    use super::security::TotpState;
    use super::users::{NewUser, Role};
    use super::{engine_of, url_without_password};

    #[test]
    fn database_urls_lose_their_passwords() {
        let kept = ["sqlite://./data/backlay.db", "postgres://postgres@127.0.0.1:5432/test"];
        for url in kept {
            assert_eq!(url_without_password(url), url);
        }
        assert_eq!(
            url_without_password("postgres://app:s3cret@db:5432/x"),
            "postgres://app:***@db:5432/x"
        );
        assert_eq!(
            url_without_password("postgres://app@db/x?sslmode=require&password=s3cret"),
            "postgres://app@db/x?sslmode=require&password=***"
        );
        let odd = url_without_password("postgresql://app:p@ss/w?rd@db/x");
        assert!(!odd.contains("ss/w") && !odd.contains("rd@"), "{odd}");
        let refused = engine_of("postgress://app:s3cret@db/x").unwrap_err().to_string();
        assert!(!refused.contains("s3cret"), "{refused}");
    }

    #[test]
    fn debug_leaves_secrets_out() {
        const SECRET: &str = "JBSWY3DPEHPK3PXP";
        let mut totp = TotpState::default();
        totp.secret = Some(SECRET.into());
        totp.pending_secret = Some(SECRET.into());
        let user = NewUser {
            user_name: &"demo".parse().unwrap(),
            password_hash: SECRET,
            role: Role::Client,
            parent_id: None,
            is_change_password: false,
            dial_code: None,
            mobile: None,
            partnership_bp: 0,
        };
        let printed = [format!("{totp:?}"), format!("{user:?}")];
        for text in printed {
            assert!(!text.contains(SECRET), "{text}");
        }
        assert!(format!("{totp:?}").contains("has_secret: true"));
    }

    use super::repository::assert_names_read_back;
    use super::{bets, ledger, markets, users, Store};
    use backlay_core::exchange::{BetSide, MarketStatus, MarketType, Persistence};

    async fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("named.db").display());
        let store = Store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        (dir, store)
    }

    #[tokio::test]
    async fn every_stored_state_reads_back_and_an_unknown_one_is_refused() {
        let (_dir, store) = store().await;
        assert_names_read_back(&store, BetSide::ALL, BetSide::as_str).await;
        assert_names_read_back(&store, Persistence::ALL, Persistence::as_str).await;
        assert_names_read_back(&store, MarketType::ALL, MarketType::as_str).await;
        assert_names_read_back(&store, MarketStatus::ALL, MarketStatus::as_str).await;
        assert_names_read_back(&store, bets::BetStatus::ALL, bets::BetStatus::as_str).await;
        assert_names_read_back(&store, markets::RunnerStatus::ALL, markets::RunnerStatus::as_str)
            .await;
        assert_names_read_back(&store, users::Role::ALL, users::Role::as_str).await;
        assert_names_read_back(
            &store,
            ledger::TransactionKind::ALL,
            ledger::TransactionKind::as_str,
        )
        .await;
    }

    #[tokio::test]
    async fn a_market_row_with_an_unknown_state_names_the_column_and_the_value() {
        let (_dir, store) = store().await;
        let mut conn = store.pool().acquire().await.unwrap();
        // The schema would refuse both rows: let this connection write them anyway.
        sqlx::query("PRAGMA foreign_keys = OFF").execute(&mut *conn).await.unwrap();
        sqlx::query("PRAGMA ignore_check_constraints = ON").execute(&mut *conn).await.unwrap();
        for (market_type, status) in [("casino", "open"), ("match_odds", "halted")] {
            sqlx::query(
                "INSERT INTO markets (match_id, market_type, name, status, created_at_ms) \
                 VALUES (1, $1, 'M', $2, 0)",
            )
            .bind(market_type)
            .bind(status)
            .execute(&mut *conn)
            .await
            .unwrap();
        }
        for (market_id, column, value) in [(1, "market_type", "casino"), (2, "status", "halted")] {
            let err = markets::fetch_market(&mut conn, market_id).await.unwrap_err();
            let text = err.to_string();
            assert!(text.contains(&format!("\"{column}\"")), "{text}");
            assert!(text.contains(&format!("\"{value}\"")), "{text}");
        }
    }
}
