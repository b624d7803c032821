//! Log-in throttling: after too many failed attempts for one user name, or from one address,
//! further attempts are refused with 429 for a while, whether or not the password is right.
//! The seamless wallet uses the same counts, keyed by address only, to stop writing unsigned
//! refusals to the audit log once an address has sent too many (`wallet::handle`).
//!
//! Counts live in memory (per server process) in a bounded map. A window starts at the first
//! failure; reaching the limit within the window blocks the key until `block_ms` has passed.
//! A successful log-in clears the user name's count (not the address's, so that one address
//! cannot spray many accounts by logging in to its own between guesses).

use std::collections::HashMap;
use std::sync::Mutex;

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

#[derive(Clone, Copy, Debug)]
struct Failures {
    count: u32,
    window_start_ms: i64,
    blocked_until_ms: i64,
}

#[derive(Debug)]
pub struct LoginThrottle {
    policy: ThrottlePolicy,
    keys: Mutex<HashMap<String, Failures>>,
}

/// The keys one attempt counts against.
pub struct AttemptKeys {
    user: Option<String>,
    address: Option<String>,
}

impl AttemptKeys {
    pub fn new(user_name: &str, address: Option<&str>) -> AttemptKeys {
        AttemptKeys { user: Some(format!("user:{}", user_name.to_lowercase())), address: address.map(|a| format!("addr:{a}")) }
    }

    /// Counts against an address alone (no user name is known), under the address limit.
    pub fn address(address: &str) -> AttemptKeys {
        AttemptKeys { user: None, address: Some(format!("addr:{address}")) }
    }

    fn all(&self) -> impl Iterator<Item = &String> {
        self.user.iter().chain(self.address.iter())
    }
}

impl LoginThrottle {
    pub fn new(policy: ThrottlePolicy) -> LoginThrottle {
        LoginThrottle { policy, keys: Mutex::new(HashMap::new()) }
    }

    /// `Err(seconds to wait)` when any of the attempt's keys is blocked.
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

    pub fn record_failure(&self, keys: &AttemptKeys, now_ms: i64) {
        let mut map = self.keys.lock().expect("throttle lock");
        if map.len() >= self.policy.max_keys {
            self.prune(&mut map, now_ms);
        }
        for (key, limit) in [(keys.user.as_ref(), self.policy.max_failures_per_user), (keys.address.as_ref(), self.policy.max_failures_per_address)] {
            let Some(key) = key else { continue };
            let entry = map.entry(key.clone()).or_insert(Failures { count: 0, window_start_ms: now_ms, blocked_until_ms: 0 });
            if now_ms - entry.window_start_ms > self.policy.window_ms {
                *entry = Failures { count: 0, window_start_ms: now_ms, blocked_until_ms: 0 };
            }
            entry.count += 1;
            if entry.count >= limit {
                entry.blocked_until_ms = now_ms + self.policy.block_ms;
            }
        }
    }

    pub fn record_success(&self, keys: &AttemptKeys) {
        if let Some(user) = &keys.user {
            self.keys.lock().expect("throttle lock").remove(user);
        }
    }

    fn prune(&self, map: &mut HashMap<String, Failures>, now_ms: i64) {
        let window_ms = self.policy.window_ms;
        map.retain(|_, f| f.blocked_until_ms > now_ms || now_ms - f.window_start_ms <= window_ms);
        while map.len() >= self.policy.max_keys {
            let oldest = map.iter().min_by_key(|(_, f)| f.window_start_ms).map(|(k, _)| k.clone());
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
        ThrottlePolicy { max_failures_per_user: 3, max_failures_per_address: 5, window_ms: 1_000, block_ms: 10_000, max_keys: 4 }
    }

    #[test]
    fn blocks_a_user_name_after_the_limit_and_releases_after_the_block() {
        let throttle = LoginThrottle::new(policy());
        let keys = AttemptKeys::new("Demo", Some("1.2.3.4"));
        for t in 0..2 {
            throttle.record_failure(&keys, t);
            assert_eq!(throttle.check(&keys, t), Ok(()));
        }
        throttle.record_failure(&keys, 2);
        assert_eq!(throttle.check(&keys, 2), Err(10));
        // the same name in another case, from another address, is blocked too
        assert!(throttle.check(&AttemptKeys::new("DEMO", Some("5.6.7.8")), 3).is_err());
        assert_eq!(throttle.check(&keys, 10_002), Ok(()));
    }

    #[test]
    fn failures_outside_the_window_start_a_new_count() {
        let throttle = LoginThrottle::new(policy());
        let keys = AttemptKeys::new("demo", None);
        throttle.record_failure(&keys, 0);
        throttle.record_failure(&keys, 500);
        throttle.record_failure(&keys, 2_000);
        assert_eq!(throttle.check(&keys, 2_000), Ok(()));
    }

    #[test]
    fn an_address_is_blocked_across_user_names_and_success_does_not_clear_it() {
        let throttle = LoginThrottle::new(ThrottlePolicy { max_keys: 100, ..policy() });
        for (i, name) in ["a", "b", "c", "d", "e"].iter().enumerate() {
            let keys = AttemptKeys::new(name, Some("9.9.9.9"));
            throttle.record_success(&keys);
            throttle.record_failure(&keys, i as i64);
        }
        assert!(throttle.check(&AttemptKeys::new("fresh", Some("9.9.9.9")), 5).is_err());
        assert!(throttle.check(&AttemptKeys::new("fresh", Some("8.8.8.8")), 5).is_ok());
    }

    #[test]
    fn address_keys_count_under_the_address_limit_only() {
        let throttle = LoginThrottle::new(ThrottlePolicy { max_keys: 100, ..policy() });
        let keys = AttemptKeys::address("wallet 7.7.7.7");
        for t in 0..4 {
            throttle.record_failure(&keys, t);
            assert_eq!(throttle.check(&keys, t), Ok(()), "under the address limit of 5 after {} failures", t + 1);
        }
        throttle.record_failure(&keys, 4);
        assert_eq!(throttle.check(&keys, 4), Err(10));
        // A log-in from that address is a different key, and is not blocked by it.
        assert!(throttle.check(&AttemptKeys::new("demo", Some("7.7.7.7")), 4).is_ok());
    }

    #[test]
    fn the_map_stays_bounded() {
        let throttle = LoginThrottle::new(policy());
        for i in 0..50 {
            throttle.record_failure(&AttemptKeys::new(&format!("u{i}"), None), i);
        }
        assert!(throttle.keys.lock().unwrap().len() <= 4);
    }
}
