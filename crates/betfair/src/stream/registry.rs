//! The connections open, in all and per client, and the market reads they share.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::market::MarketSnapshot;
use super::{
    MAX_CACHED_SNAPSHOTS, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_USER, MAX_PENDING,
    MAX_PENDING_PER_ADDRESS,
};
use backlay_live::LiveBook;

/// The connections open, in all (permits) and per client, and those not yet authenticated, in
/// all and per address.
pub(super) struct Registry {
    all: Arc<Semaphore>,
    per_user: Mutex<HashMap<i64, usize>>,
    /// Connections handshaking or not yet authenticated, by the address they came from.
    pending: Mutex<HashMap<IpAddr, usize>>,
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

/// A connection's place among those not yet authenticated; given back when dropped (once it
/// has authenticated, or ended).
pub(super) struct PendingSlot {
    registry: Arc<Registry>,
    address: IpAddr,
}

impl Drop for PendingSlot {
    fn drop(&mut self) {
        let mut pending = self.registry.pending.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = pending.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                pending.remove(&self.address);
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
            pending: Mutex::new(HashMap::new()),
            snapshots: Mutex::new(HashMap::new()),
        }
    }

    /// A place for a connection from `address` to handshake and authenticate in; `None` when
    /// [`MAX_PENDING`] are pending in all or [`MAX_PENDING_PER_ADDRESS`] from that address.
    pub(super) fn take_pending(self: &Arc<Self>, address: IpAddr) -> Option<PendingSlot> {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        let total: usize = pending.values().sum();
        let from_address = pending.get(&address).copied().unwrap_or(0);
        if total >= MAX_PENDING || from_address >= MAX_PENDING_PER_ADDRESS {
            return None;
        }
        pending.insert(address, from_address + 1);
        Some(PendingSlot { registry: Arc::clone(self), address })
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
