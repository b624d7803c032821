//! Ending a locked user's live streams. A lock (on the account, or on an agent above it) is in
//! the database, so it may be made on any server of a cluster; each server checks, every
//! [`LOCK_CHECK_MS`], which of the users holding its open streams are now locked, in one read of
//! their rows (one statement per 100 users), never one read per stream: a thousand open streams
//! cost one statement a period, not five hundred a second.
//!
//! A stream waits on [`StreamLocks::until_locked`] for its user; the user is watched while any of
//! its streams is open and forgotten with the last one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use backlay_store::Store;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// How often the users holding streams are checked: a lock ends a user's streams within this
/// long.
pub const LOCK_CHECK_MS: u64 = 2_000;

/// The users holding live streams on this server, each with a signal its streams wait on.
#[derive(Default)]
pub struct StreamLocks {
    watched: Mutex<HashMap<i64, Watched>>,
}

struct Watched {
    /// Open streams of the user.
    streams: usize,
    /// Set once the user is found locked or gone.
    locked: watch::Sender<bool>,
}

impl StreamLocks {
    /// The watch of this server, checked until `stopping`.
    pub fn start(store: Store, stopping: CancellationToken) -> Arc<StreamLocks> {
        let locks = Arc::new(StreamLocks::default());
        tokio::spawn(check_every_period(Arc::clone(&locks), store, stopping));
        locks
    }

    fn watched(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Watched>> {
        self.watched.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Completes once `user_id` is locked (on its own or by an agent above it) or gone.
    pub async fn until_locked(self: Arc<Self>, user_id: i64) {
        let mut locked = {
            let mut watched = self.watched();
            let entry = watched
                .entry(user_id)
                .or_insert_with(|| Watched { streams: 0, locked: watch::Sender::new(false) });
            entry.streams += 1;
            entry.locked.subscribe()
        };
        // Forgets the stream however the wait ends (the stream dropped, or locked).
        let _forget = Forget { locks: &self, user_id };
        // The sender lives while the user is watched: an error means the server is going away.
        let _ = locked.wait_for(|locked| *locked).await;
    }
}

struct Forget<'a> {
    locks: &'a StreamLocks,
    user_id: i64,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        let mut watched = self.locks.watched();
        if let Some(entry) = watched.get_mut(&self.user_id) {
            entry.streams -= 1;
            if entry.streams == 0 {
                watched.remove(&self.user_id);
            }
        }
    }
}

/// Every period: the watched users found locked or gone are told. A failed read tells no one:
/// the next period decides.
async fn check_every_period(locks: Arc<StreamLocks>, store: Store, stopping: CancellationToken) {
    loop {
        tokio::select! {
            () = stopping.cancelled() => return,
            () = tokio::time::sleep(Duration::from_millis(LOCK_CHECK_MS)) => {}
        }
        let users: Vec<i64> = locks.watched().keys().copied().collect();
        if users.is_empty() {
            continue;
        }
        match store.locked_or_gone_among(&users).await {
            Ok(ended) => {
                let watched = locks.watched();
                for user_id in ended {
                    if let Some(entry) = watched.get(&user_id) {
                        entry.locked.send_replace(true);
                    }
                }
            }
            Err(err) => {
                tracing::warn!(error = %err, "the streams' lock check could not read the users")
            }
        }
    }
}
