//! One server per SQLite file. Several servers share a database only on PostgreSQL, where the
//! nodes coordinate through it; two on one SQLite file would each run the whole exchange and
//! match the same markets twice. So a server on SQLite holds an exclusive lock on a file beside
//! the database (`<db file>.lock`) for as long as it lives, and a second one refuses to start,
//! saying so. The lock is the operating system's (`flock`): it goes with the process, however
//! the process ends, and the file left behind means nothing.
//!
//! `backlay admin …` and `backlay migrate` open the database without serving and take no lock:
//! they work beside a running server, as SQLite's own locking lets them.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::PathBuf;

use backlay_store::Engine;

/// The held lock: the server keeps it until it stops.
#[derive(Debug)]
pub struct NodeLock {
    _file: File,
}

/// Takes the lock when `database_url` is a SQLite file; PostgreSQL needs none (`None`).
pub fn take(database_url: &str) -> anyhow::Result<Option<NodeLock>> {
    let db_file = backlay_store::sqlite_path(database_url);
    if backlay_store::engine_of(database_url)? != Engine::Sqlite {
        return Ok(None);
    }
    let path = lock_path(database_url);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| anyhow::anyhow!("cannot open the lock file {}: {e}", path.display()))?;
    // `File::try_lock` is stable since Rust 1.89, which the project builds with; the declared
    // rust-version (1.85) lags, and raising it turns on lints that need changes elsewhere.
    #[allow(clippy::incompatible_msrv)]
    let locked = file.try_lock();
    match locked {
        Ok(()) => Ok(Some(NodeLock { _file: file })),
        Err(TryLockError::WouldBlock) => anyhow::bail!(
            "another Backlay server is using the database {} (it holds {}): a SQLite database \
             serves one server at a time; to run several servers on one database, use PostgreSQL",
            db_file,
            path.display()
        ),
        Err(TryLockError::Error(e)) => {
            anyhow::bail!("cannot lock {}: {e}", path.display())
        }
    }
}

/// `<db file>.lock`, beside the database.
pub fn lock_path(database_url: &str) -> PathBuf {
    PathBuf::from(format!("{}.lock", backlay_store::sqlite_path(database_url)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_one_sqlite_file_is_refused_until_the_first_goes() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("one.db").display());
        let first = take(&url).unwrap().expect("SQLite is locked");
        let refused = take(&url).unwrap_err().to_string();
        assert!(
            refused.contains("another Backlay server") && refused.contains("one.db.lock"),
            "{refused}"
        );
        assert!(refused.contains("PostgreSQL"), "{refused}");
        drop(first);
        assert!(take(&url).unwrap().is_some(), "free again once the first server is gone");
        assert!(take("postgres://postgres@127.0.0.1/x").unwrap().is_none());
    }
}
