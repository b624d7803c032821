//! Backlay's benchmarks. The workloads live here so that every bench and binary that runs one
//! runs the same thing:
//!
//! - [`matching`]: the pure order book under a steady place / cancel / crossing mix, for
//!   `benches/matching.rs` (criterion) and `src/bin/matching_latency.rs` (a histogram of
//!   per-operation latency);
//! - `src/bin/place_load.rs`: placeBet over HTTP against a running server;
//! - `src/bin/fsync_rate.rs`: how many durable writes per second the disk takes, the ceiling
//!   on commits without group commit;
//! - `src/bin/poll_load.rs`: the balance poll (`getUserBalance`) beside a trivial endpoint;
//! - `src/bin/stream_fanout.rs`: many subscribers on one match's live stream, delivery latency
//!   and server memory per connection;
//! - [`client`]: the set-up calls and helpers those two share;
//! - [`sse`]: the lean Server-Sent Events client `stream_fanout`'s subscribers read with.
//!
//! `bench/run.sh` runs them all and appends the figures to `bench/RESULTS.md`.

pub mod client;
pub mod matching;
pub mod sse;

/// Formats a count per second with thousands separators: `1234567.8` → `1,234,568`.
pub fn per_second(count: f64) -> String {
    let whole = count.round() as u64;
    let digits = whole.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn per_second_groups_thousands() {
        assert_eq!(super::per_second(0.0), "0");
        assert_eq!(super::per_second(999.4), "999");
        assert_eq!(super::per_second(1_234_567.8), "1,234,568");
    }
}
