//! The connections open, in all and per client, and the market reads they share.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::market::MarketSnapshot;
use super::{MAX_CACHED_SNAPSHOTS, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_USER};
use backlay_live::LiveBook;

/// The connections open, in all (permits) and per client.
pub(super) struct Registry {
    all: Arc<Semaphore>,
    per_user: Mutex<HashMap<i64, usize>>,
    /// The last market read after each market's last event, shared by the connections.
    snapshots: Mutex<HashMap<i64, ReadAfter>>,
}

/// A market as read after an event (which is kept, so that its address stays its own).
type ReadAfter = (Arc<LiveBook>, Arc<MarketSnapshot>);

/// A client's place among the connections; given back when dropped.
pub(super) struct UserSlot {
    registry: Arc<Registry>,
    user_id: i64,
}

impl Drop for UserSlot {
    fn drop(&mut self) {
        let mut per_user = self.registry.per_user.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = per_user.get_mut(&self.user_id) {
            *count -= 1;
            if *count == 0 {
                per_user.remove(&self.user_id);
            }
        }
    }
}

impl Registry {
    /// Room for [`MAX_CONNECTIONS`], none open.
    pub(super) fn new() -> Registry {
        Registry {
            all: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
            per_user: Mutex::new(HashMap::new()),
            snapshots: Mutex::new(HashMap::new()),
        }
    }

    /// A place among all the connections, held until the permit drops; `None` when full.
    pub(super) fn take_connection(&self) -> Option<OwnedSemaphorePermit> {
        self.all.clone().try_acquire_owned().ok()
    }

    /// How many more connections this client may open.
    pub(super) fn remaining_for(&self, user_id: i64) -> usize {
        let per_user = self.per_user.lock().unwrap_or_else(|e| e.into_inner());
        MAX_CONNECTIONS_PER_USER.saturating_sub(per_user.get(&user_id).copied().unwrap_or(0))
    }

    pub(super) fn take_user_slot(self: &Arc<Self>, user_id: i64) -> Option<UserSlot> {
        let mut per_user = self.per_user.lock().unwrap_or_else(|e| e.into_inner());
        let count = per_user.entry(user_id).or_default();
        if *count >= MAX_CONNECTIONS_PER_USER {
            return None;
        }
        *count += 1;
        Some(UserSlot { registry: self.clone(), user_id })
    }

    /// The market as some connection read it after this very event, if one did.
    pub(super) fn snapshot_read_after(
        &self,
        market_id: i64,
        event: &Arc<LiveBook>,
    ) -> Option<Arc<MarketSnapshot>> {
        let cached =
            self.snapshots.lock().unwrap_or_else(|e| e.into_inner()).get(&market_id).cloned();
        match cached {
            Some((seen, snapshot)) if Arc::ptr_eq(&seen, event) => Some(snapshot),
            _ => None,
        }
    }

    /// Keeps the market as read after `event`, for the other connections that got it.
    pub(super) fn keep_snapshot(
        &self,
        market_id: i64,
        event: Arc<LiveBook>,
        snapshot: Arc<MarketSnapshot>,
    ) {
        // Holding the event keeps its address from being reused while it is the key.
        let mut snapshots = self.snapshots.lock().unwrap_or_else(|e| e.into_inner());
        if snapshots.len() >= MAX_CACHED_SNAPSHOTS {
            snapshots.clear();
        }
        snapshots.insert(market_id, (event, snapshot));
    }
}
