//! Backup and restore, one command each (`backlay admin backup --to PATH`, `backlay admin
//! restore --from PATH --to DATABASE_URL`), while the server runs and takes bets:
//!
//! - **SQLite**: `VACUUM INTO` the backup file, SQLite's own consistent copy from one read
//!   transaction (what the online backup API gives, through SQL, which sqlx speaks; writers are
//!   not stopped, the copy is of the moment its read began). The manifest's figures are read
//!   from the copy itself.
//! - **PostgreSQL**: `pg_dump --format=custom` (the client tools must be installed: `apt-get
//!   install postgresql-client`, the same major version as the server or newer). A transaction
//!   exports its snapshot, reads the manifest's figures in it and stays open while pg_dump
//!   dumps that same snapshot (`--snapshot`): the figures are the dump's. The restore runs the
//!   whole ledger check.
//!
//! Next to the backup, `<file>.manifest.json`: when, Backlay's version, the engine, the last
//! schema migration, the ledger's figures (accounts, entries, their sum, users, bets), the
//! file's size and SHA-256. A restore refuses a file whose checksum differs, a database of the
//! other engine, and a target database that already holds data unless `--force`; it then runs
//! the migrations (a backup of an older version is brought up to date) and the ledger check,
//! and says what it restored.
//!
//! The secret key (`--secret-key-file`) is not in the backup: keep it apart, and give the same
//! one to the restored server, or the secrets it sealed (TOTP, providers') cannot be opened.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use backlay_store::{engine_of, sqlite_path, url_without_password, Engine, Store};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::Row;

/// What a backup holds, written beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// When the backup was made (ms since the epoch).
    pub created_at_ms: i64,
    /// The Backlay version that made it.
    pub backlay_version: String,
    /// `sqlite` or `postgres`.
    pub engine: String,
    /// The last schema migration applied.
    pub migration: i64,
    pub figures: Figures,
    /// The backup file's name (beside the manifest), size and SHA-256.
    pub file: String,
    pub bytes: u64,
    pub sha256: String,
}

/// A database's figures: what a restore compares and prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figures {
    pub users: i64,
    pub bets: i64,
    pub ledger_accounts: i64,
    pub ledger_entries: i64,
    /// The sum of every ledger entry: 0 in a sound ledger.
    pub ledger_total_minor: i64,
    pub ledger_sound: bool,
}

/// Where a backup's manifest is.
pub fn manifest_path(backup: &Path) -> PathBuf {
    let mut name = backup.as_os_str().to_owned();
    name.push(".manifest.json");
    PathBuf::from(name)
}

/// Backs the database at `database_url` up to `to` (which must not exist) with its manifest.
pub async fn backup(database_url: &str, to: &Path, now_ms: i64) -> anyhow::Result<Manifest> {
    if to.exists() || manifest_path(to).exists() {
        bail!("{} already exists: give a new file to back up to", to.display());
    }
    let engine = engine_of(database_url)?;
    let store = Store::connect(database_url).await?;
    let (figures, migration) = match engine {
        Engine::Sqlite => {
            let target = to.to_str().context("the backup path is not UTF-8")?;
            // One read transaction: the copy is the database as that moment saw it.
            sqlx::query(&format!("VACUUM INTO '{}'", target.replace('\'', "''")))
                .execute(store.pool())
                .await
                .with_context(|| format!("SQLite could not copy itself to {}", to.display()))?;
            store.pool().close().await;
            let copy = Store::connect(&format!("sqlite://{target}")).await?;
            let read = (figures(&copy).await?, migration(&copy).await?);
            copy.pool().close().await;
            read
        }
        Engine::Postgres => {
            pg_tool("pg_dump").await?;
            // The figures and the dump from one snapshot: a transaction exports it, reads the
            // figures and stays open while pg_dump reads the same snapshot.
            let mut held = store.pool().acquire().await?;
            sqlx::query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                .execute(&mut *held)
                .await?;
            let snapshot: String =
                sqlx::query_scalar("SELECT pg_export_snapshot()").fetch_one(&mut *held).await?;
            let read = (snapshot_figures(&mut held).await?, {
                sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
                    .fetch_one(&mut *held)
                    .await?
            });
            let status = tokio::process::Command::new("pg_dump")
                .arg("--format=custom")
                .arg("--no-owner")
                .arg(format!("--snapshot={snapshot}"))
                .arg("--file")
                .arg(to)
                .arg(database_url)
                .status()
                .await
                .context("pg_dump could not be run")?;
            let _ = sqlx::query("COMMIT").execute(&mut *held).await;
            drop(held);
            store.pool().close().await;
            if !status.success() {
                let _ = std::fs::remove_file(to);
                bail!("pg_dump of {} failed ({status})", url_without_password(database_url));
            }
            read
        }
    };
    let (bytes, sha256) = checksum(to)?;
    let manifest = Manifest {
        created_at_ms: now_ms,
        backlay_version: env!("CARGO_PKG_VERSION").to_owned(),
        engine: engine_name(engine).to_owned(),
        migration,
        figures,
        file: to.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        bytes,
        sha256,
    };
    let mut written = serde_json::to_vec_pretty(&manifest)?;
    written.push(b'\n');
    std::fs::write(manifest_path(to), written).context("the manifest could not be written")?;
    Ok(manifest)
}

/// What a restore did.
#[derive(Clone, Debug)]
pub struct Restored {
    pub manifest: Manifest,
    /// The restored database's figures, after its migrations.
    pub figures: Figures,
    pub migration: i64,
}

/// Restores the backup `from` into `to_url` (see the module docs).
pub async fn restore(from: &Path, to_url: &str, force: bool) -> anyhow::Result<Restored> {
    let manifest: Manifest = serde_json::from_slice(
        &std::fs::read(manifest_path(from))
            .with_context(|| format!("no manifest beside {}", from.display()))?,
    )
    .context("the manifest does not read")?;
    let (bytes, sha256) = checksum(from)?;
    if (bytes, sha256.as_str()) != (manifest.bytes, manifest.sha256.as_str()) {
        bail!("{} is not the file its manifest describes (size or SHA-256 differ): it is damaged or another file", from.display());
    }
    let engine = engine_of(to_url)?;
    if engine_name(engine) != manifest.engine {
        bail!(
            "{} is a {} backup: restore it into a {} database",
            from.display(),
            manifest.engine,
            manifest.engine
        );
    }
    let target = Store::connect(to_url).await?;
    let has_data = sqlx::query("SELECT COUNT(*) AS n FROM users")
        .fetch_one(target.pool())
        .await
        .ok()
        .and_then(|row| row.try_get::<i64, _>("n").ok())
        .is_some_and(|n| n > 0);
    target.pool().close().await;
    if has_data && !force {
        bail!(
            "{} already holds data: restore into an empty database, or give --force to replace it",
            url_without_password(to_url)
        );
    }
    match engine {
        Engine::Sqlite => {
            let path = PathBuf::from(sqlite_path(to_url));
            let staging = path.with_extension("restoring");
            std::fs::copy(from, &staging).context("the backup could not be copied")?;
            for suffix in ["-wal", "-shm"] {
                let mut side = path.as_os_str().to_owned();
                side.push(suffix);
                let _ = std::fs::remove_file(PathBuf::from(side));
            }
            std::fs::rename(&staging, &path)
                .context("the restored file could not be put in place")?;
        }
        Engine::Postgres => {
            pg_tool("pg_restore").await?;
            // Whatever schema the target has (none, or an empty one already migrated) is
            // replaced by the backup's; one with data got here only with --force.
            let status = tokio::process::Command::new("pg_restore")
                .args(["--no-owner", "--exit-on-error", "--clean", "--if-exists", "--dbname"])
                .arg(to_url)
                .arg(from)
                .status()
                .await
                .context("pg_restore could not be run")?;
            if !status.success() {
                bail!("pg_restore into {} failed ({status})", url_without_password(to_url));
            }
        }
    }
    let restored = Store::connect(to_url).await?;
    restored.migrate().await.context("the restored database's migrations failed")?;
    let figures = figures(&restored).await?;
    let migration = migration(&restored).await?;
    restored.pool().close().await;
    Ok(Restored { manifest, figures, migration })
}

/// Whether a PostgreSQL client tool can be run, with a message that says what to install.
async fn pg_tool(tool: &str) -> anyhow::Result<()> {
    let found = tokio::process::Command::new(tool).arg("--version").output().await;
    match found {
        Ok(output) if output.status.success() => Ok(()),
        _ => bail!(
            "{tool} is needed to back up or restore PostgreSQL: install PostgreSQL's client tools (apt-get install postgresql-client), of the server's major version or newer"
        ),
    }
}

async fn figures(store: &Store) -> anyhow::Result<Figures> {
    let count = |table: &'static str| async move {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
            .fetch_one(store.pool())
            .await?;
        anyhow::Ok(n)
    };
    let check = store.ledger_check().await?;
    Ok(Figures {
        users: count("users").await?,
        bets: count("bets").await?,
        ledger_accounts: check.accounts,
        ledger_entries: check.entries,
        ledger_total_minor: check.total_minor,
        ledger_sound: check.is_sound(),
    })
}

/// The figures of the snapshot `conn`'s transaction holds (PostgreSQL's backup): the counts,
/// and the ledger sound as far as its entries show (summing to zero, each transaction
/// balanced); the restore runs the whole ledger check.
async fn snapshot_figures(conn: &mut sqlx::AnyConnection) -> anyhow::Result<Figures> {
    let mut read = Vec::with_capacity(6);
    for sql in [
        "SELECT COUNT(*) FROM users",
        "SELECT COUNT(*) FROM bets",
        "SELECT COUNT(*) FROM ledger_accounts",
        "SELECT COUNT(*) FROM ledger_entries",
        "SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) FROM ledger_entries",
        "SELECT COUNT(*) FROM (SELECT transaction_id FROM ledger_entries \
         GROUP BY transaction_id HAVING SUM(amount_minor) <> 0) AS t",
    ] {
        read.push(sqlx::query_scalar::<_, i64>(sql).fetch_one(&mut *conn).await?);
    }
    let [users, bets, ledger_accounts, ledger_entries, ledger_total_minor, unbalanced] = read[..]
    else {
        unreachable!("six figures read")
    };
    Ok(Figures {
        users,
        bets,
        ledger_accounts,
        ledger_entries,
        ledger_total_minor,
        ledger_sound: ledger_total_minor == 0 && unbalanced == 0,
    })
}

async fn migration(store: &Store) -> anyhow::Result<i64> {
    Ok(sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(store.pool())
        .await?)
}

/// A file's size and SHA-256, read through once (a backup may be larger than memory).
fn checksum(file: &Path) -> anyhow::Result<(u64, String)> {
    let mut reader =
        std::fs::File::open(file).with_context(|| format!("{} cannot be read", file.display()))?;
    let mut hasher = Sha256::new();
    let bytes = std::io::copy(&mut reader, &mut hasher)?;
    Ok((bytes, hex::encode(hasher.finalize())))
}

const fn engine_name(engine: Engine) -> &'static str {
    match engine {
        Engine::Sqlite => "sqlite",
        Engine::Postgres => "postgres",
    }
}

/// Backups the server takes by itself (`--backup-every`, `--backup-keep`, `--backup-dir`): one
/// every `every` into `dir` as `backlay-<ms since the epoch>.backup` with its manifest, keeping
/// the newest `keep`. A backup that fails is logged and tried again at the next turn. Stops
/// when dropped.
pub struct Schedule {
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Schedule {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// What the schedule needs: which database, where, how often, how many kept.
#[derive(Clone, Debug)]
pub struct ScheduleSettings {
    pub database_url: String,
    pub dir: PathBuf,
    pub every: std::time::Duration,
    pub keep: usize,
}

/// Starts the schedule; the first backup is taken one `every` after the start.
pub fn schedule(settings: ScheduleSettings, now_ms: fn() -> i64) -> Schedule {
    let task = tokio::spawn(async move {
        let mut ticks = tokio::time::interval(settings.every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await; // the first tick is at once
        loop {
            ticks.tick().await;
            if let Err(err) = scheduled_backup(&settings, now_ms()).await {
                tracing::error!(dir = %settings.dir.display(), "scheduled backup failed: {err:#}");
            }
        }
    });
    Schedule { task }
}

async fn scheduled_backup(settings: &ScheduleSettings, now_ms: i64) -> anyhow::Result<()> {
    std::fs::create_dir_all(&settings.dir)
        .with_context(|| format!("{} cannot be made", settings.dir.display()))?;
    let file = settings.dir.join(format!("backlay-{now_ms}.backup"));
    let manifest = backup(&settings.database_url, &file, now_ms).await?;
    tracing::info!(file = %file.display(), bytes = manifest.bytes, bets = manifest.figures.bets, "scheduled backup taken");
    let names: Vec<String> = std::fs::read_dir(&settings.dir)?
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .collect();
    for old in to_prune(&names, settings.keep) {
        let path = settings.dir.join(&old);
        std::fs::remove_file(&path)?;
        let _ = std::fs::remove_file(manifest_path(&path));
    }
    Ok(())
}

/// The scheduled backups among `names` beyond the newest `keep`, oldest first. Other files in
/// the folder are never touched.
fn to_prune(names: &[String], keep: usize) -> Vec<String> {
    let mut taken: Vec<(i64, &String)> = names
        .iter()
        .filter_map(|name| {
            let ms = name.strip_prefix("backlay-")?.strip_suffix(".backup")?;
            Some((ms.parse().ok()?, name))
        })
        .collect();
    taken.sort();
    let extra = taken.len().saturating_sub(keep);
    taken.into_iter().take(extra).map(|(_, name)| name.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_scheduled_backups_beyond_those_kept_are_pruned_and_nothing_else() {
        let names: Vec<String> = [
            "backlay-300.backup",
            "backlay-100.backup",
            "backlay-100.backup.manifest.json",
            "backlay-200.backup",
            "notes.txt",
            "backlay-x.backup",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(to_prune(&names, 2), ["backlay-100.backup"]);
        assert_eq!(to_prune(&names, 1), ["backlay-100.backup", "backlay-200.backup"]);
        assert!(to_prune(&names, 5).is_empty());
    }
}
