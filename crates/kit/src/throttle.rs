//! Log-in throttling: after too many failed attempts for one user name, or from one address,
//! further attempts are refused with 429 for a while, whether or not the password is right.
//! Sign-ups count the same way under a key of their own per address (`signup:`): every sign-up
//! that reaches its password's hashing counts, made or not, so one address cannot open accounts
//! (or keep the hasher busy) without bound.
//! The seamless wallet uses the same counts, keyed by address only, to stop writing unsigned
//! refusals to the audit log once an address has sent too many (`wallet::handle`).
//!
//! Counts live in the database (`backlay_store::throttle`), so every server on one database
//! shares them: failures made through one node block the name on all of them. A window starts
//! at the first failure; reaching the limit within the window blocks the key until `block_ms`
//! has passed.
//! A successful log-in clears the user name's count (not the address's, so that one address
//! cannot spray many accounts by logging in to its own between guesses).
//!
//! An attempt is counted *before* its password is checked ([`LoginThrottle::begin`]): a check
//! takes tens of milliseconds, and counting only its outcome let any number of attempts sent at
//! once pass the check together. Each key holds the failures settled so far and the attempts
//! still in flight, and a new attempt is let in only while the two together are under the
//! limit, so at most `limit` passwords are ever being checked or failed for one key, across
//! every node (each begin and settle is one transaction that locks the key's row first):
//!
//! ```text
//! limit 5, 25 wrong passwords for "demo" at once:
//!   attempts 1–5   in flight 1..5  → checked, each settles as a failure (failures 1..5 → blocked)
//!   attempts 6–25  5 in flight     → 429 at once, before any hashing
//!   right password sent meanwhile  → 429 (in flight or failed, five are counted)
//! ```
//!
//! An attempt that ends without a verdict on the password (the hasher was busy, the database
//! failed, the client went away) is released: it neither fails nor clears anything. A success
//! clears only the failures already settled; attempts still in flight stay counted and fail
//! when they finish, so a right password in a burst opens no room for the wrong ones.
//!
//! An attempt in flight is a row with its start time, counted only for
//! [`ATTEMPT_IN_FLIGHT_MAX_MS`]: the attempts of a node that died mid-check are forgotten then,
//! not counted for ever. Expired rows are deleted as keys are touched, and every
//! [`SWEEP_EVERY`]th write of a node sweeps a bounded batch of those nobody touched.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use backlay_store::throttle::ThrottleKey;
use backlay_store::{Store, StoreResult, Writer};

use crate::token::new_token;

/// The limits; [`ThrottlePolicy::default`] is what production uses.
#[derive(Clone, Debug)]
pub struct ThrottlePolicy {
    pub max_failures_per_user: u32,
    pub max_failures_per_address: u32,
    /// Sign-ups one address may make (or try, up to the hashing) within a window.
    pub max_sign_ups_per_address: u32,
    pub window_ms: i64,
    pub block_ms: i64,
}

impl Default for ThrottlePolicy {
    fn default() -> ThrottlePolicy {
        ThrottlePolicy {
            max_failures_per_user: 5,
            max_failures_per_address: 30,
            max_sign_ups_per_address: 10,
            window_ms: 15 * 60 * 1000,
            block_ms: 15 * 60 * 1000,
        }
    }
}

/// Seconds a caller is asked to wait when a key is full only of attempts still in flight: they
/// settle within a password check, and then the key is either free or blocked.
pub const IN_FLIGHT_RETRY_AFTER_S: u64 = 2;

/// How long an attempt counts as in flight without being settled. A password check takes tens
/// of milliseconds and the hasher refuses work it cannot start soon, so only an attempt whose
/// node died (or whose settling failed) lives this long.
pub const ATTEMPT_IN_FLIGHT_MAX_MS: i64 = 30_000;

/// One write in this many (per node) also sweeps expired rows, [`SWEEP_BATCH`] at most.
pub const SWEEP_EVERY: u64 = 64;
const SWEEP_BATCH: i64 = 500;

/// A key's state inside a begin or settle: as stored, plus the attempts in flight.
#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    window_start_ms: i64,
    blocked_until_ms: i64,
    /// Attempts let in and not yet settled (nor past [`ATTEMPT_IN_FLIGHT_MAX_MS`]).
    in_flight: u32,
}

impl Failures {
    fn new(stored: ThrottleKey, in_flight: u32) -> Failures {
        Failures {
            count: stored.failures,
            window_start_ms: stored.window_start_ms,
            blocked_until_ms: stored.blocked_until_ms,
            in_flight,
        }
    }

    fn stored(&self) -> ThrottleKey {
        ThrottleKey {
            failures: self.count,
            window_start_ms: self.window_start_ms,
            blocked_until_ms: self.blocked_until_ms,
        }
    }

    /// Forgets failures whose window has passed, and those that a block has already punished.
    fn roll_window(&mut self, now_ms: i64, window_ms: i64) {
        if self.blocked_until_ms != 0 && self.blocked_until_ms <= now_ms {
            self.blocked_until_ms = 0;
            self.count = 0;
        }
        if self.count > 0 && now_ms - self.window_start_ms > window_ms {
            self.count = 0;
        }
        if self.count == 0 && self.in_flight == 0 {
            self.window_start_ms = now_ms;
        }
    }

    fn fail(&mut self, now_ms: i64, policy: &ThrottlePolicy, limit: u32) {
        self.roll_window(now_ms, policy.window_ms);
        self.count += 1;
        if self.count >= limit {
            self.blocked_until_ms = now_ms + policy.block_ms;
        }
    }

    /// Nothing worth keeping: no failures, nothing in flight, no block.
    fn is_idle(&self, now_ms: i64) -> bool {
        self.count == 0 && self.in_flight == 0 && self.blocked_until_ms <= now_ms
    }

    /// When the row stops holding anything: its window and block over, its attempts past
    /// their bound.
    fn expires_at_ms(&self, now_ms: i64, window_ms: i64) -> i64 {
        let in_flight_until_ms =
            if self.in_flight > 0 { now_ms + ATTEMPT_IN_FLIGHT_MAX_MS } else { 0 };
        (self.window_start_ms + window_ms).max(self.blocked_until_ms).max(in_flight_until_ms)
    }
}

/// Why an attempt was not let in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Too many failures: blocked for this many more seconds.
    Blocked { retry_after_s: u64 },
    /// As many attempts as the limit are being checked right now; ask again in a moment.
    Busy { retry_after_s: u64 },
}

impl Refused {
    pub fn retry_after_s(self) -> u64 {
        match self {
            Refused::Blocked { retry_after_s } | Refused::Busy { retry_after_s } => retry_after_s,
        }
    }
}

#[derive(Debug)]
pub struct LoginThrottle {
    policy: ThrottlePolicy,
    store: Store,
    /// This node's writes so far, to sweep every [`SWEEP_EVERY`]th.
    writes: AtomicU64,
}

/// The keys one attempt counts against.
#[derive(Clone, Debug)]
pub struct AttemptKeys {
    user: Option<String>,
    address: Option<String>,
    sign_up: Option<String>,
}

impl AttemptKeys {
    pub fn new(user_name: &str, address: Option<&str>) -> AttemptKeys {
        AttemptKeys {
            user: Some(format!("user:{}", user_name.to_lowercase())),
            address: address.map(|a| format!("addr:{a}")),
            sign_up: None,
        }
    }

    /// Counts against an address alone (no user name is known), under the address limit.
    pub fn address(address: &str) -> AttemptKeys {
        AttemptKeys { user: None, address: Some(format!("addr:{address}")), sign_up: None }
    }

    /// A sign-up from an address, under the sign-up limit (a count of its own, apart from the
    /// address's failed log-ins).
    pub fn sign_up(address: &str) -> AttemptKeys {
        AttemptKeys { user: None, address: None, sign_up: Some(format!("signup:{address}")) }
    }

    fn all(&self) -> impl Iterator<Item = &String> {
        self.user.iter().chain(self.address.iter()).chain(self.sign_up.iter())
    }

    /// Each key with its limit, sorted by key: every transaction locks keys in this order, so
    /// none waits on another in a cycle.
    fn with_limits(&self, policy: &ThrottlePolicy) -> Vec<(&String, u32)> {
        let mut keys: Vec<(&String, u32)> = self
            .user
            .iter()
            .map(|key| (key, policy.max_failures_per_user))
            .chain(self.address.iter().map(|key| (key, policy.max_failures_per_address)))
            .chain(self.sign_up.iter().map(|key| (key, policy.max_sign_ups_per_address)))
            .collect();
        keys.sort();
        keys
    }
}

/// An attempt let in by [`LoginThrottle::begin`], counted until it is settled. Dropping it
/// without settling it releases it (no verdict was reached) in a task of its own; failing to
/// release it leaves it counted until [`ATTEMPT_IN_FLIGHT_MAX_MS`] has passed.
#[must_use = "an attempt is released when dropped: settle it with failed() or succeeded()"]
#[derive(Debug)]
pub struct Attempt {
    throttle: Arc<LoginThrottle>,
    id: String,
    keys: AttemptKeys,
    settled: bool,
}

impl Attempt {
    /// The password (or code) was wrong: the attempt becomes a failure of every key.
    pub async fn failed(self, now_ms: i64) -> StoreResult<()> {
        self.settle(now_ms, Outcome::Failed).await
    }

    /// A sign-up went as far as its hashing: it counts against the address, made or not.
    pub async fn counted(self, now_ms: i64) -> StoreResult<()> {
        self.settle(now_ms, Outcome::Failed).await
    }

    /// The user proved who they are: the name's settled failures are cleared (attempts of the
    /// name still in flight stay counted).
    pub async fn succeeded(self, now_ms: i64) -> StoreResult<()> {
        self.settle(now_ms, Outcome::Succeeded).await
    }

    /// No verdict was reached: the attempt stops counting, and counts for nothing.
    pub async fn release(self) -> StoreResult<()> {
        self.settle(crate::clock::now_ms(), Outcome::Released).await
    }

    async fn settle(mut self, now_ms: i64, outcome: Outcome) -> StoreResult<()> {
        self.throttle.settle(&self.id, &self.keys, now_ms, outcome).await?;
        // Only once it is stored: when settling fails, dropping releases it instead.
        self.settled = true;
        Ok(())
    }
}

impl Drop for Attempt {
    fn drop(&mut self) {
        if self.settled {
            return;
        }
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let (throttle, id, keys) =
            (Arc::clone(&self.throttle), std::mem::take(&mut self.id), self.keys.clone());
        runtime.spawn(async move {
            if let Err(err) =
                throttle.settle(&id, &keys, crate::clock::now_ms(), Outcome::Released).await
            {
                tracing::warn!(
                    "a log-in attempt could not be released (it stops counting by itself): {err:#}"
                );
            }
        });
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Failed,
    Succeeded,
    Released,
}

impl LoginThrottle {
    pub fn new(policy: ThrottlePolicy, store: Store) -> LoginThrottle {
        LoginThrottle { policy, store, writes: AtomicU64::new(0) }
    }

    /// Lets an attempt in and counts it, or refuses it: one transaction that locks the keys
    /// first, so attempts arriving together on any node cannot all see room that only one of
    /// them may take.
    pub async fn begin(
        self: &Arc<Self>,
        keys: &AttemptKeys,
        now_ms: i64,
    ) -> StoreResult<Result<Attempt, Refused>> {
        let mut writer = self.store.begin_write().await?;
        let mut states = Vec::new();
        for (key, limit) in keys.with_limits(&self.policy) {
            let stored = lock_key(&mut writer, key, now_ms).await?;
            states.push((key, limit, failures(&mut writer, key, stored).await?));
        }
        // Refused: the transaction rolls back, leaving everything as it was. `now_ms` was read
        // before this transaction waited for its locks, so a block set meanwhile by an attempt
        // stamped later can end more than `block_ms` after it: the wait said is at most a block.
        let blocked_ms = states
            .iter()
            .map(|(_, _, f)| f.blocked_until_ms - now_ms)
            .max()
            .unwrap_or(0)
            .min(self.policy.block_ms);
        if blocked_ms > 0 {
            return Ok(Err(Refused::Blocked {
                retry_after_s: u64::try_from(blocked_ms).unwrap_or(0).div_ceil(1000),
            }));
        }
        for (_, _, f) in &mut states {
            f.roll_window(now_ms, self.policy.window_ms);
        }
        if states.iter().any(|(_, limit, f)| f.count + f.in_flight >= *limit) {
            return Ok(Err(Refused::Busy { retry_after_s: IN_FLIGHT_RETRY_AFTER_S }));
        }
        let id = new_token();
        for (key, _, f) in &mut states {
            writer.insert_login_attempt(&id, key, now_ms).await?;
            f.in_flight += 1;
            writer
                .save_throttle_key(key, &f.stored(), f.expires_at_ms(now_ms, self.policy.window_ms))
                .await?;
        }
        writer.commit().await?;
        self.after_write(now_ms).await;
        Ok(Ok(Attempt { throttle: Arc::clone(self), id, keys: keys.clone(), settled: false }))
    }

    async fn settle(
        &self,
        attempt_id: &str,
        keys: &AttemptKeys,
        now_ms: i64,
        outcome: Outcome,
    ) -> StoreResult<()> {
        let mut writer = self.store.begin_write().await?;
        let mut states = Vec::new();
        for (key, limit) in keys.with_limits(&self.policy) {
            states.push((key, limit, lock_key(&mut writer, key, now_ms).await?));
        }
        writer.delete_login_attempt(attempt_id).await?;
        for (key, limit, stored) in states {
            let mut entry = failures(&mut writer, key, stored).await?;
            match outcome {
                Outcome::Failed => entry.fail(now_ms, &self.policy, limit),
                // Only the name's count: see the module docs.
                Outcome::Succeeded if Some(key) == keys.user.as_ref() => entry.count = 0,
                Outcome::Succeeded | Outcome::Released => {}
            }
            self.write_back(&mut writer, key, &entry, now_ms).await?;
        }
        writer.commit().await
    }

    /// `Err(seconds to wait)` when any of the attempt's keys is blocked. For counts that are not
    /// checked concurrently (the wallet's audit allowance); log-ins use [`LoginThrottle::begin`].
    pub async fn check(&self, keys: &AttemptKeys, now_ms: i64) -> StoreResult<Result<(), u64>> {
        let keys: Vec<&str> = keys.all().map(String::as_str).collect();
        let wait_ms =
            self.store.throttle_blocked_until(&keys).await?.map_or(0, |until| until - now_ms);
        Ok(if wait_ms > 0 {
            Err(u64::try_from(wait_ms).unwrap_or(0).div_ceil(1000))
        } else {
            Ok(())
        })
    }

    /// Counts a failure that was not let in by [`LoginThrottle::begin`] (see [`LoginThrottle::check`]).
    pub async fn record_failure(&self, keys: &AttemptKeys, now_ms: i64) -> StoreResult<()> {
        let mut writer = self.store.begin_write().await?;
        for (key, limit) in keys.with_limits(&self.policy) {
            let stored = lock_key(&mut writer, key, now_ms).await?;
            let mut entry = failures(&mut writer, key, stored).await?;
            entry.fail(now_ms, &self.policy, limit);
            self.write_back(&mut writer, key, &entry, now_ms).await?;
        }
        writer.commit().await?;
        self.after_write(now_ms).await;
        Ok(())
    }

    /// Writes a key's state back in the caller's transaction, or deletes its row when there is
    /// nothing left to remember (no failures in the window, no block).
    async fn write_back(
        &self,
        writer: &mut Writer,
        key: &str,
        entry: &Failures,
        now_ms: i64,
    ) -> StoreResult<()> {
        if entry.is_idle(now_ms) {
            writer.delete_throttle_key(key).await
        } else {
            let expires_at_ms = entry.expires_at_ms(now_ms, self.policy.window_ms);
            writer.save_throttle_key(key, &entry.stored(), expires_at_ms).await
        }
    }

    /// Every [`SWEEP_EVERY`]th write of this node sweeps (see the module docs). A sweep that
    /// fails is logged and left to the next one: nothing waits on it.
    async fn after_write(&self, now_ms: i64) {
        if self.writes.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY == SWEEP_EVERY - 1 {
            if let Err(err) = self.sweep(now_ms).await {
                tracing::warn!("sweeping the log-in throttle's expired rows failed: {err:#}");
            }
        }
    }

    /// Deletes a bounded batch of expired keys and attempts past their bound.
    pub async fn sweep(&self, now_ms: i64) -> StoreResult<u64> {
        self.store
            .sweep_login_throttle(now_ms, now_ms - ATTEMPT_IN_FLIGHT_MAX_MS, SWEEP_BATCH)
            .await
    }
}

/// Locks `key`'s row for the caller's transaction (attempts on any node queue on it) and reads
/// it, forgetting attempts in flight that started too long ago to be alive.
async fn lock_key(writer: &mut Writer, key: &str, now_ms: i64) -> StoreResult<ThrottleKey> {
    writer.lock_throttle_key(key, now_ms, now_ms - ATTEMPT_IN_FLIGHT_MAX_MS).await
}

/// The key's failures as stored, with the attempts still in flight on it counted in.
async fn failures(writer: &mut Writer, key: &str, stored: ThrottleKey) -> StoreResult<Failures> {
    let in_flight = writer.login_attempts_in_flight(key).await?;
    Ok(Failures::new(stored, in_flight))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> ThrottlePolicy {
        ThrottlePolicy {
            max_failures_per_user: 3,
            max_failures_per_address: 5,
            max_sign_ups_per_address: 2,
            window_ms: 1_000,
            block_ms: 10_000,
        }
    }

    /// A throttle on a fresh SQLite file (kept while the folder lives).
    async fn throttle(policy: ThrottlePolicy) -> (Arc<LoginThrottle>, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("throttle.db").display());
        let store = Store::connect(&url).await.expect("store");
        store.migrate().await.expect("migrated");
        (Arc::new(LoginThrottle::new(policy, store)), dir)
    }

    async fn begin(
        throttle: &Arc<LoginThrottle>,
        keys: &AttemptKeys,
        now_ms: i64,
    ) -> Result<Attempt, Refused> {
        throttle.begin(keys, now_ms).await.expect("the store answers")
    }

    async fn fail(throttle: &Arc<LoginThrottle>, keys: &AttemptKeys, now_ms: i64) {
        begin(throttle, keys, now_ms).await.expect("let in").failed(now_ms).await.expect("settled");
    }

    async fn rows(throttle: &LoginThrottle) -> (i64, i64) {
        throttle.store.login_throttle_rows().await.expect("counted")
    }

    #[tokio::test]
    async fn blocks_a_user_name_after_the_limit_and_releases_after_the_block() {
        let (throttle, _dir) = throttle(policy()).await;
        let keys = AttemptKeys::new("Demo", Some("1.2.3.4"));
        fail(&throttle, &keys, 0).await;
        fail(&throttle, &keys, 1).await;
        fail(&throttle, &keys, 2).await;
        assert_eq!(
            begin(&throttle, &keys, 2).await.unwrap_err(),
            Refused::Blocked { retry_after_s: 10 }
        );
        // the same name in another case, from another address, is blocked too
        assert!(begin(&throttle, &AttemptKeys::new("DEMO", Some("5.6.7.8")), 3).await.is_err());
        // After the block the name starts afresh: three more tries.
        for t in 10_002..10_005 {
            fail(&throttle, &keys, t).await;
        }
        assert!(matches!(begin(&throttle, &keys, 10_005).await, Err(Refused::Blocked { .. })));
    }

    #[tokio::test]
    async fn failures_outside_the_window_start_a_new_count() {
        let (throttle, _dir) = throttle(policy()).await;
        let keys = AttemptKeys::new("demo", None);
        fail(&throttle, &keys, 0).await;
        fail(&throttle, &keys, 500).await;
        fail(&throttle, &keys, 2_000).await;
        assert!(begin(&throttle, &keys, 2_000).await.is_ok());
    }

    #[tokio::test]
    async fn attempts_in_flight_count_against_the_limit_before_their_verdict() {
        let (throttle, _dir) = throttle(policy()).await;
        let keys = AttemptKeys::new("demo", Some("1.2.3.4"));
        let mut in_flight = Vec::new();
        for _ in 0..3 {
            in_flight.push(begin(&throttle, &keys, 0).await.expect("under the limit"));
        }
        // A fourth, right or wrong, waits: three are being checked.
        assert_eq!(
            begin(&throttle, &keys, 0).await.unwrap_err(),
            Refused::Busy { retry_after_s: IN_FLIGHT_RETRY_AFTER_S }
        );
        for attempt in in_flight {
            attempt.failed(1).await.unwrap();
        }
        assert_eq!(
            begin(&throttle, &keys, 1).await.unwrap_err(),
            Refused::Blocked { retry_after_s: 10 }
        );
    }

    #[tokio::test]
    async fn a_burst_on_two_nodes_checks_at_most_the_limit() {
        let (throttle, _dir) = throttle(policy()).await;
        // Another node: its own throttle on the same database.
        let other = Arc::new(LoginThrottle::new(policy(), throttle.store.clone()));
        let keys = AttemptKeys::new("demo", Some("1.2.3.4"));
        let burst = (0..12).map(|i| {
            let (node, keys) = (if i % 2 == 0 { &throttle } else { &other }, keys.clone());
            let node = Arc::clone(node);
            tokio::spawn(async move { node.begin(&keys, 0).await.expect("the store answers") })
        });
        let mut let_in = Vec::new();
        for attempt in futures::future::join_all(burst).await {
            if let Ok(attempt) = attempt.expect("joined") {
                let_in.push(attempt);
            }
        }
        assert_eq!(let_in.len(), 3, "the limit of 3, across both nodes");
    }

    #[tokio::test]
    async fn a_success_clears_settled_failures_but_not_those_in_flight() {
        let (throttle, _dir) = throttle(policy()).await;
        let keys = AttemptKeys::new("demo", Some("1.2.3.4"));
        fail(&throttle, &keys, 0).await;
        let wrong = begin(&throttle, &keys, 1).await.unwrap();
        let right = begin(&throttle, &keys, 1).await.unwrap();
        assert!(
            begin(&throttle, &keys, 1).await.is_err(),
            "one settled and two in flight fill the limit of 3"
        );
        right.succeeded(2).await.unwrap();
        // The settled failure is forgotten; the wrong one in flight still counts, and fails.
        let another = begin(&throttle, &keys, 2).await.unwrap();
        let third = begin(&throttle, &keys, 2).await.unwrap();
        assert!(begin(&throttle, &keys, 2).await.is_err());
        wrong.failed(3).await.unwrap();
        another.failed(3).await.unwrap();
        third.release().await.unwrap();
        assert!(
            begin(&throttle, &keys, 3).await.is_ok(),
            "two failures and nothing else in flight"
        );
    }

    #[tokio::test]
    async fn a_released_attempt_counts_for_nothing() {
        let (throttle, _dir) = throttle(policy()).await;
        let keys = AttemptKeys::new("demo", Some("1.2.3.4"));
        for _ in 0..10 {
            begin(&throttle, &keys, 0).await.unwrap().release().await.unwrap();
        }
        assert_eq!(rows(&throttle).await, (0, 0), "nothing left behind");
        // Dropped unsettled (the handler returned early): released in a task of its own.
        drop(begin(&throttle, &keys, 0).await.unwrap());
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        while rows(&throttle).await != (0, 0) {
            assert!(tokio::time::Instant::now() < deadline, "a dropped attempt is released");
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        fail(&throttle, &keys, 0).await;
        fail(&throttle, &keys, 0).await;
        assert!(begin(&throttle, &keys, 0).await.is_ok());
    }

    #[tokio::test]
    async fn an_attempt_never_settled_stops_counting_after_its_bound() {
        let (throttle, _dir) = throttle(policy()).await;
        let keys = AttemptKeys::new("demo", None);
        // Their node died mid-check: never settled, never released.
        for _ in 0..3 {
            std::mem::forget(begin(&throttle, &keys, 0).await.unwrap());
        }
        assert!(matches!(
            begin(&throttle, &keys, ATTEMPT_IN_FLIGHT_MAX_MS).await,
            Err(Refused::Busy { .. })
        ));
        let attempt = begin(&throttle, &keys, ATTEMPT_IN_FLIGHT_MAX_MS + 1)
            .await
            .expect("the dead node's attempts expired");
        assert_eq!(rows(&throttle).await.1, 1, "the expired attempts were deleted");
        attempt.release().await.unwrap();
    }

    #[tokio::test]
    async fn an_address_is_blocked_across_user_names_and_success_does_not_clear_it() {
        let (throttle, _dir) = throttle(policy()).await;
        for (i, name) in ["a", "b", "c", "d", "e"].iter().enumerate() {
            let keys = AttemptKeys::new(name, Some("9.9.9.9"));
            begin(&throttle, &keys, i as i64).await.unwrap().succeeded(i as i64).await.unwrap();
            fail(&throttle, &keys, i as i64).await;
        }
        assert!(begin(&throttle, &AttemptKeys::new("fresh", Some("9.9.9.9")), 5).await.is_err());
        assert!(begin(&throttle, &AttemptKeys::new("fresh", Some("8.8.8.8")), 5).await.is_ok());
    }

    #[tokio::test]
    async fn address_keys_count_under_the_address_limit_only() {
        let (throttle, _dir) = throttle(policy()).await;
        let keys = AttemptKeys::address("wallet 7.7.7.7");
        for t in 0..4 {
            throttle.record_failure(&keys, t).await.unwrap();
            assert_eq!(
                throttle.check(&keys, t).await.unwrap(),
                Ok(()),
                "under the address limit of 5 after {} failures",
                t + 1
            );
        }
        throttle.record_failure(&keys, 4).await.unwrap();
        assert_eq!(throttle.check(&keys, 4).await.unwrap(), Err(10));
        // A log-in from that address is a different key, and is not blocked by it.
        assert!(throttle
            .check(&AttemptKeys::new("demo", Some("7.7.7.7")), 4)
            .await
            .unwrap()
            .is_ok());
    }

    #[tokio::test]
    async fn expired_rows_are_swept() {
        let (throttle, _dir) = throttle(policy()).await;
        for i in 0..50 {
            fail(&throttle, &AttemptKeys::new(&format!("u{i}"), None), i).await;
        }
        std::mem::forget(begin(&throttle, &AttemptKeys::new("gone", None), 0).await.unwrap());
        let blocked = AttemptKeys::new("blocked", None);
        for t in 0..3 {
            fail(&throttle, &blocked, t).await;
        }
        assert_eq!(rows(&throttle).await, (52, 1));
        // Past every window, inside the block and the dead attempt's bound: the block and the
        // key with an attempt in flight stay.
        throttle.sweep(5_000).await.unwrap();
        assert_eq!(rows(&throttle).await, (2, 1));
        assert_eq!(throttle.check(&blocked, 5_000).await.unwrap(), Err(6));
        // Past the block and the bound: nothing is left.
        throttle.sweep(ATTEMPT_IN_FLIGHT_MAX_MS + 1).await.unwrap();
        assert_eq!(rows(&throttle).await, (0, 0));
    }
}
