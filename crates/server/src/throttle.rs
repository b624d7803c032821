//! Log-in throttling: after too many failed attempts for one user name, or from one address,
//! further attempts are refused with 429 for a while, whether or not the password is right.
//! The seamless wallet uses the same counts, keyed by address only, to stop writing unsigned
//! refusals to the audit log once an address has sent too many (`wallet::handle`).
//!
//! Counts live in memory (per server process) in a bounded map. A window starts at the first
//! failure; reaching the limit within the window blocks the key until `block_ms` has passed.
//! A successful log-in clears the user name's count (not the address's, so that one address
//! cannot spray many accounts by logging in to its own between guesses).
//!
//! An attempt is counted *before* its password is checked ([`LoginThrottle::begin`]): a check
//! takes tens of milliseconds, and counting only its outcome let any number of attempts sent at
//! once pass the check together. Each key holds the failures settled so far and the attempts
//! still in flight, and a new attempt is let in only while the two together are under the
//! limit, so at most `limit` passwords are ever being checked or failed for one key:
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

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The limits; [`ThrottlePolicy::default`] is what production uses.
#[derive(Clone, Debug)]
pub struct ThrottlePolicy {
    pub max_failures_per_user: u32,
    pub max_failures_per_address: u32,
    pub window_ms: i64,
    pub block_ms: i64,
    /// Bound on tracked keys; beyond it, expired keys are dropped first, then the oldest.
    pub max_keys: usize,
}

impl Default for ThrottlePolicy {
    fn default() -> ThrottlePolicy {
        ThrottlePolicy {
            max_failures_per_user: 5,
            max_failures_per_address: 30,
            window_ms: 15 * 60 * 1000,
            block_ms: 15 * 60 * 1000,
            max_keys: 100_000,
        }
    }
}

/// Seconds a caller is asked to wait when a key is full only of attempts still in flight: they
/// settle within a password check, and then the key is either free or blocked.
pub const IN_FLIGHT_RETRY_AFTER_S: u64 = 2;

#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    window_start_ms: i64,
    blocked_until_ms: i64,
    /// Attempts let in and not yet settled.
    in_flight: u32,
}

impl Failures {
    fn new(now_ms: i64) -> Failures {
        Failures { count: 0, window_start_ms: now_ms, blocked_until_ms: 0, in_flight: 0 }
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

    /// Nothing worth keeping: no failures, nothing in flight, no block.
    fn is_idle(&self, now_ms: i64) -> bool {
        self.count == 0 && self.in_flight == 0 && self.blocked_until_ms <= now_ms
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
    keys: Mutex<HashMap<String, Failures>>,
}

/// The keys one attempt counts against.
#[derive(Clone, Debug)]
pub struct AttemptKeys {
    user: Option<String>,
    address: Option<String>,
}

impl AttemptKeys {
    pub fn new(user_name: &str, address: Option<&str>) -> AttemptKeys {
        AttemptKeys {
            user: Some(format!("user:{}", user_name.to_lowercase())),
            address: address.map(|a| format!("addr:{a}")),
        }
    }

    /// Counts against an address alone (no user name is known), under the address limit.
    pub fn address(address: &str) -> AttemptKeys {
        AttemptKeys { user: None, address: Some(format!("addr:{address}")) }
    }

    fn all(&self) -> impl Iterator<Item = &String> {
        self.user.iter().chain(self.address.iter())
    }

    fn with_limits(&self, policy: &ThrottlePolicy) -> impl Iterator<Item = (&String, u32)> {
        let (user_limit, address_limit) =
            (policy.max_failures_per_user, policy.max_failures_per_address);
        self.user
            .iter()
            .map(move |key| (key, user_limit))
            .chain(self.address.iter().map(move |key| (key, address_limit)))
    }
}

/// An attempt let in by [`LoginThrottle::begin`], counted until it is settled. Dropping it
/// without [`Attempt::failed`] or [`Attempt::succeeded`] releases it (no verdict was reached).
#[must_use = "an attempt is released when dropped: settle it with failed() or succeeded()"]
#[derive(Debug)]
pub struct Attempt {
    throttle: Arc<LoginThrottle>,
    keys: AttemptKeys,
    settled: bool,
}

impl Attempt {
    /// The password (or code) was wrong: the attempt becomes a failure of every key.
    pub fn failed(mut self, now_ms: i64) {
        self.settled = true;
        self.throttle.settle(&self.keys, now_ms, Outcome::Failed);
    }

    /// The user proved who they are: the name's settled failures are cleared (attempts of the
    /// name still in flight stay counted).
    pub fn succeeded(mut self, now_ms: i64) {
        self.settled = true;
        self.throttle.settle(&self.keys, now_ms, Outcome::Succeeded);
    }
}

impl Drop for Attempt {
    fn drop(&mut self) {
        if !self.settled {
            self.throttle.settle(&self.keys, crate::clock::now_ms(), Outcome::Released);
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Failed,
    Succeeded,
    Released,
}

impl LoginThrottle {
    pub fn new(policy: ThrottlePolicy) -> LoginThrottle {
        LoginThrottle { policy, keys: Mutex::new(HashMap::new()) }
    }

    /// Lets an attempt in and counts it, or refuses it: one step under the lock, so attempts
    /// arriving together cannot all see room that only one of them may take.
    pub fn begin(self: &Arc<Self>, keys: &AttemptKeys, now_ms: i64) -> Result<Attempt, Refused> {
        let mut map = self.keys.lock().expect("throttle lock");
        let blocked_ms = keys
            .all()
            .filter_map(|key| map.get(key))
            .map(|f| f.blocked_until_ms - now_ms)
            .max()
            .unwrap_or(0);
        if blocked_ms > 0 {
            return Err(Refused::Blocked {
                retry_after_s: u64::try_from(blocked_ms).unwrap_or(0).div_ceil(1000),
            });
        }
        let window_ms = self.policy.window_ms;
        let full = keys.with_limits(&self.policy).any(|(key, limit)| {
            map.get(key).is_some_and(|f| {
                let mut f = *f;
                f.roll_window(now_ms, window_ms);
                f.count + f.in_flight >= limit
            })
        });
        if full {
            return Err(Refused::Busy { retry_after_s: IN_FLIGHT_RETRY_AFTER_S });
        }
        let room = keys.all().count();
        if map.len() + room > self.policy.max_keys {
            self.prune(&mut map, now_ms, room);
        }
        for key in keys.all() {
            let entry = map.entry(key.clone()).or_insert_with(|| Failures::new(now_ms));
            entry.roll_window(now_ms, window_ms);
            entry.in_flight += 1;
        }
        drop(map);
        Ok(Attempt { throttle: Arc::clone(self), keys: keys.clone(), settled: false })
    }

    fn settle(&self, keys: &AttemptKeys, now_ms: i64, outcome: Outcome) {
        let mut map = self.keys.lock().expect("throttle lock");
        for (key, limit) in keys.with_limits(&self.policy) {
            let Some(entry) = map.get_mut(key) else { continue };
            entry.in_flight = entry.in_flight.saturating_sub(1);
            match outcome {
                Outcome::Failed => {
                    entry.roll_window(now_ms, self.policy.window_ms);
                    entry.count += 1;
                    if entry.count >= limit {
                        entry.blocked_until_ms = now_ms + self.policy.block_ms;
                    }
                }
                // Only the name's count: see the module docs.
                Outcome::Succeeded if Some(key) == keys.user.as_ref() => entry.count = 0,
                Outcome::Succeeded | Outcome::Released => {}
            }
            if entry.is_idle(now_ms) {
                map.remove(key);
            }
        }
    }

    /// `Err(seconds to wait)` when any of the attempt's keys is blocked. For counts that are not
    /// checked concurrently (the wallet's audit allowance); log-ins use [`LoginThrottle::begin`].
    pub fn check(&self, keys: &AttemptKeys, now_ms: i64) -> Result<(), u64> {
        let map = self.keys.lock().expect("throttle lock");
        let wait_ms = keys
            .all()
            .filter_map(|key| map.get(key))
            .map(|f| f.blocked_until_ms - now_ms)
            .max()
            .unwrap_or(0);
        if wait_ms > 0 {
            Err(u64::try_from(wait_ms).unwrap_or(0).div_ceil(1000))
        } else {
            Ok(())
        }
    }

    /// Counts a failure that was not let in by [`LoginThrottle::begin`] (see [`LoginThrottle::check`]).
    pub fn record_failure(&self, keys: &AttemptKeys, now_ms: i64) {
        let mut map = self.keys.lock().expect("throttle lock");
        let room = keys.all().count();
        if map.len() + room > self.policy.max_keys {
            self.prune(&mut map, now_ms, room);
        }
        for (key, limit) in keys.with_limits(&self.policy) {
            let entry = map.entry(key.clone()).or_insert_with(|| Failures::new(now_ms));
            entry.roll_window(now_ms, self.policy.window_ms);
            entry.count += 1;
            if entry.count >= limit {
                entry.blocked_until_ms = now_ms + self.policy.block_ms;
            }
        }
    }

    /// Drops keys until `room` more fit under `max_keys`.
    fn prune(&self, map: &mut HashMap<String, Failures>, now_ms: i64, room: usize) {
        let window_ms = self.policy.window_ms;
        map.retain(|_, f| {
            f.in_flight > 0
                || f.blocked_until_ms > now_ms
                || now_ms - f.window_start_ms <= window_ms
        });
        // Keys with attempts in flight are kept: their attempts must find them to settle.
        while map.len() + room > self.policy.max_keys {
            let oldest = map
                .iter()
                .filter(|(_, f)| f.in_flight == 0)
                .min_by_key(|(_, f)| f.window_start_ms)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(key) => map.remove(&key),
                None => break,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> ThrottlePolicy {
        ThrottlePolicy {
            max_failures_per_user: 3,
            max_failures_per_address: 5,
            window_ms: 1_000,
            block_ms: 10_000,
            max_keys: 4,
        }
    }

    fn throttle(policy: ThrottlePolicy) -> Arc<LoginThrottle> {
        Arc::new(LoginThrottle::new(policy))
    }

    fn fail(throttle: &Arc<LoginThrottle>, keys: &AttemptKeys, now_ms: i64) {
        throttle.begin(keys, now_ms).expect("let in").failed(now_ms);
    }

    #[test]
    fn blocks_a_user_name_after_the_limit_and_releases_after_the_block() {
        let throttle = throttle(policy());
        let keys = AttemptKeys::new("Demo", Some("1.2.3.4"));
        fail(&throttle, &keys, 0);
        fail(&throttle, &keys, 1);
        fail(&throttle, &keys, 2);
        assert_eq!(throttle.begin(&keys, 2).unwrap_err(), Refused::Blocked { retry_after_s: 10 });
        // the same name in another case, from another address, is blocked too
        assert!(throttle.begin(&AttemptKeys::new("DEMO", Some("5.6.7.8")), 3).is_err());
        // After the block the name starts afresh: three more tries.
        for t in 10_002..10_005 {
            fail(&throttle, &keys, t);
        }
        assert!(matches!(throttle.begin(&keys, 10_005), Err(Refused::Blocked { .. })));
    }

    #[test]
    fn failures_outside_the_window_start_a_new_count() {
        let throttle = throttle(policy());
        let keys = AttemptKeys::new("demo", None);
        fail(&throttle, &keys, 0);
        fail(&throttle, &keys, 500);
        fail(&throttle, &keys, 2_000);
        assert!(throttle.begin(&keys, 2_000).is_ok());
    }

    #[test]
    fn attempts_in_flight_count_against_the_limit_before_their_verdict() {
        let throttle = throttle(ThrottlePolicy { max_keys: 100, ..policy() });
        let keys = AttemptKeys::new("demo", Some("1.2.3.4"));
        let in_flight: Vec<Attempt> =
            (0..3).map(|_| throttle.begin(&keys, 0).expect("under the limit")).collect();
        // A fourth, right or wrong, waits: three are being checked.
        assert_eq!(
            throttle.begin(&keys, 0).unwrap_err(),
            Refused::Busy { retry_after_s: IN_FLIGHT_RETRY_AFTER_S }
        );
        for attempt in in_flight {
            attempt.failed(1);
        }
        assert_eq!(throttle.begin(&keys, 1).unwrap_err(), Refused::Blocked { retry_after_s: 10 });
    }

    #[test]
    fn a_success_clears_settled_failures_but_not_those_in_flight() {
        let throttle = throttle(ThrottlePolicy { max_keys: 100, ..policy() });
        let keys = AttemptKeys::new("demo", Some("1.2.3.4"));
        fail(&throttle, &keys, 0);
        let wrong = throttle.begin(&keys, 1).unwrap();
        let right = throttle.begin(&keys, 1).unwrap();
        assert!(
            throttle.begin(&keys, 1).is_err(),
            "one settled and two in flight fill the limit of 3"
        );
        right.succeeded(2);
        // The settled failure is forgotten; the wrong one in flight still counts, and fails.
        let another = throttle.begin(&keys, 2).unwrap();
        let third = throttle.begin(&keys, 2).unwrap();
        assert!(throttle.begin(&keys, 2).is_err());
        wrong.failed(3);
        another.failed(3);
        drop(third);
        assert!(throttle.begin(&keys, 3).is_ok(), "two failures and nothing else in flight");
    }

    #[test]
    fn a_released_attempt_counts_for_nothing() {
        let throttle = throttle(ThrottlePolicy { max_keys: 100, ..policy() });
        let keys = AttemptKeys::new("demo", Some("1.2.3.4"));
        for _ in 0..10 {
            drop(throttle.begin(&keys, 0).unwrap());
        }
        assert!(throttle.keys.lock().unwrap().is_empty(), "nothing left behind");
        fail(&throttle, &keys, 0);
        fail(&throttle, &keys, 0);
        assert!(throttle.begin(&keys, 0).is_ok());
    }

    #[test]
    fn an_address_is_blocked_across_user_names_and_success_does_not_clear_it() {
        let throttle = throttle(ThrottlePolicy { max_keys: 100, ..policy() });
        for (i, name) in ["a", "b", "c", "d", "e"].iter().enumerate() {
            let keys = AttemptKeys::new(name, Some("9.9.9.9"));
            throttle.begin(&keys, i as i64).unwrap().succeeded(i as i64);
            fail(&throttle, &keys, i as i64);
        }
        assert!(throttle.begin(&AttemptKeys::new("fresh", Some("9.9.9.9")), 5).is_err());
        assert!(throttle.begin(&AttemptKeys::new("fresh", Some("8.8.8.8")), 5).is_ok());
    }

    #[test]
    fn address_keys_count_under_the_address_limit_only() {
        let throttle = throttle(ThrottlePolicy { max_keys: 100, ..policy() });
        let keys = AttemptKeys::address("wallet 7.7.7.7");
        for t in 0..4 {
            throttle.record_failure(&keys, t);
            assert_eq!(
                throttle.check(&keys, t),
                Ok(()),
                "under the address limit of 5 after {} failures",
                t + 1
            );
        }
        throttle.record_failure(&keys, 4);
        assert_eq!(throttle.check(&keys, 4), Err(10));
        // A log-in from that address is a different key, and is not blocked by it.
        assert!(throttle.check(&AttemptKeys::new("demo", Some("7.7.7.7")), 4).is_ok());
    }

    #[test]
    fn the_map_stays_bounded() {
        let throttle = throttle(policy());
        for i in 0..50 {
            fail(&throttle, &AttemptKeys::new(&format!("u{i}"), None), i);
        }
        assert!(throttle.keys.lock().unwrap().len() <= 4);
    }
}
