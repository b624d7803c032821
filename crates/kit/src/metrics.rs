//! The server's figures for Prometheus (`GET /metrics`, `crates/server`): every name and label
//! in one place, recorded through the `metrics` facade by the crate where it happens. The
//! Grafana dashboard in `docs/grafana-dashboard.json` is built on these names; change one here
//! and there together.
//!
//! | name | kind | labels | what |
//! |---|---|---|---|
//! | `backlay_bets_placed_total` | counter | `market_type` | bets placed (committed) |
//! | `backlay_bets_refused_total` | counter | `reason`, `market_type` | bets refused, by the refusal (`insufficient_funds`, `market_not_open`, …; `error` for the rest) |
//! | `backlay_placement_seconds` | histogram | | a bet's arrival at the engine to its answer |
//! | `backlay_commit_seconds` | histogram | | a placement batch's commit alone (on SQLite, where the batches of many markets commit together: from its transaction given back to its group's COMMIT) |
//! | `backlay_group_commit_bets` | histogram | | bets placed per batch (group commit) |
//! | `backlay_placement_groups_total` | counter | | SQLite: transactions that committed several markets' batches together, read at each scrape |
//! | `backlay_placement_group_batches_total` | counter | | SQLite: the batches in them (÷ the groups: batches sharing a COMMIT), read at each scrape |
//! | `backlay_logins_total` | counter | `outcome` | log-ins: `ok`, `refused`, `throttled` |
//! | `backlay_stream_subscribers` | gauge | | live streams open (`GET /api/stream`) |
//! | `backlay_wallet_calls_total` | counter | `call`, `outcome` | game providers' wallet calls: `ok` or the refusal's code |
//! | `backlay_feed_lag_milliseconds` | gauge | `feed` | how far behind its upstream a live feed acts |
//! | `backlay_forwarded_call_seconds` | histogram | | a call sent on to a market's owner in a cluster, there and back |
//! | `backlay_db_pool_connections` | gauge | `state`: `in_use`, `idle` | the database pool, read at each scrape |
//! | `backlay_markets_running` | gauge | | market tasks this server runs, read at each scrape |
//! | `backlay_engine_queue_depth` | gauge | `market_id` | commands waiting for a market's task, read at each scrape |
//! | `backlay_lease_renewals_total` | counter | `outcome`: `ok`, `lost`, `failed` | a cluster node's lease renewals |
//! | `backlay_stream_lagged_total` | counter | `stream`: `web`, `bot` | readers that fell behind: a web stream sent a fresh snapshot, a bot stream closed |
//! | `backlay_casino_rounds_total` | counter | `game` (its kind: `dt`, `teen`, …) | in-house casino rounds settled |
//!
//! The process has one recorder ([`recorder`]) and one scrape of it: `GET /metrics` answers the
//! text, and the console's `console/system` (the dashboard's "System" card, admins only) reads
//! the same text back ([`reading`]) into figures a person reads: bets placed and refused (the
//! commonest reasons), placement p50 and p99 and commit p99 in ms estimated from the buckets as
//! Prometheus's `histogram_quantile` does, bets per commit (`_sum` / `_count` of
//! `backlay_group_commit_bets`), stream subscribers, markets running and the deepest queue, the
//! pool, log-ins by outcome, each feed's lag, forwarded calls and their p50, lease renewals.
//! Both are this server's alone: in a cluster each node answers for itself.

pub mod reading;
pub mod recorder;

use std::time::Duration;

pub const BETS_PLACED: &str = "backlay_bets_placed_total";
pub const BETS_REFUSED: &str = "backlay_bets_refused_total";
pub const PLACEMENT_SECONDS: &str = "backlay_placement_seconds";
pub const COMMIT_SECONDS: &str = "backlay_commit_seconds";
pub const GROUP_COMMIT_BETS: &str = "backlay_group_commit_bets";
pub const PLACEMENT_GROUPS: &str = "backlay_placement_groups_total";
pub const PLACEMENT_GROUP_BATCHES: &str = "backlay_placement_group_batches_total";
pub const LOGINS: &str = "backlay_logins_total";
pub const STREAM_SUBSCRIBERS: &str = "backlay_stream_subscribers";
pub const WALLET_CALLS: &str = "backlay_wallet_calls_total";
pub const FEED_LAG_MS: &str = "backlay_feed_lag_milliseconds";
pub const FORWARDED_CALL_SECONDS: &str = "backlay_forwarded_call_seconds";
pub const DB_POOL_CONNECTIONS: &str = "backlay_db_pool_connections";
pub const MARKETS_RUNNING: &str = "backlay_markets_running";
pub const ENGINE_QUEUE_DEPTH: &str = "backlay_engine_queue_depth";
pub const LEASE_RENEWALS: &str = "backlay_lease_renewals_total";
pub const STREAM_LAGGED: &str = "backlay_stream_lagged_total";
pub const CASINO_ROUNDS: &str = "backlay_casino_rounds_total";

/// The buckets of the `_seconds` histograms: 0.5 ms to 10 s.
pub const SECONDS_BUCKETS: &[f64] =
    &[0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// The buckets of the group-commit sizes: 1 to 512 bets.
pub const BATCH_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];

/// A bet placed on a market of `market_type` (`match_odds`, `bookmaker`, …).
pub fn bet_placed(market_type: &'static str) {
    metrics::counter!(BETS_PLACED, "market_type" => market_type).increment(1);
}

/// A bet refused, with the refusal's `reason`.
pub fn bet_refused(reason: &'static str, market_type: &'static str) {
    metrics::counter!(BETS_REFUSED, "reason" => reason, "market_type" => market_type).increment(1);
}

/// How long a bet took from its arrival at the engine to its answer.
pub fn placement_took(took: Duration) {
    metrics::histogram!(PLACEMENT_SECONDS).record(took.as_secs_f64());
}

/// How long a placement batch's COMMIT took, and how many bets it placed.
pub fn batch_committed(took: Duration, bets: u64) {
    metrics::histogram!(COMMIT_SECONDS).record(took.as_secs_f64());
    // Batches are at most a few hundred bets: exact as an f64.
    metrics::histogram!(GROUP_COMMIT_BETS).record(bets as f64);
}

/// The placement groups committed since the start and the batches in them (SQLite's group
/// commit across markets), as the store counts them.
pub fn placement_groups(groups: u64, batches: u64) {
    metrics::counter!(PLACEMENT_GROUPS).absolute(groups);
    metrics::counter!(PLACEMENT_GROUP_BATCHES).absolute(batches);
}

/// A log-in's outcome: `ok`, `refused` (a wrong name or password, a locked account) or
/// `throttled`.
pub fn log_in(outcome: &'static str) {
    metrics::counter!(LOGINS, "outcome" => outcome).increment(1);
}

/// A game provider's wallet call and its outcome (`ok`, or the refusal's code).
pub fn wallet_call(call: &'static str, outcome: &'static str) {
    metrics::counter!(WALLET_CALLS, "call" => call, "outcome" => outcome).increment(1);
}

/// A live feed's lag behind its upstream.
pub fn feed_lag(feed: usize, lag_ms: i64) {
    // Lags are milliseconds, far inside an f64's exact integers.
    metrics::gauge!(FEED_LAG_MS, "feed" => feed.to_string()).set(lag_ms as f64);
}

/// A call forwarded to a market's owner, there and back.
pub fn forwarded_call_took(took: Duration) {
    metrics::histogram!(FORWARDED_CALL_SECONDS).record(took.as_secs_f64());
}

/// The database pool as it stands.
pub fn db_pool(in_use: usize, idle: usize) {
    // Pool sizes are a few dozen connections: exact as f64.
    metrics::gauge!(DB_POOL_CONNECTIONS, "state" => "in_use").set(in_use as f64);
    metrics::gauge!(DB_POOL_CONNECTIONS, "state" => "idle").set(idle as f64);
}

/// The market tasks this server runs and the commands waiting for each: (market id, depth),
/// as Prometheus text to append to the recorder's scrape.
///
/// The per-market series are written here at each scrape rather than kept in the recorder:
/// `metrics-exporter-prometheus` keeps every series it has been given until an idle timeout,
/// so a market that ended would go on being scraped, and the series would grow with every
/// market ever run. Written from the markets running now, an ended market has none.
pub fn engine_queues(depths: &[(i64, usize)]) -> String {
    use std::fmt::Write as _;
    // Counts of tasks: exact as f64.
    metrics::gauge!(MARKETS_RUNNING).set(depths.len() as f64);
    let mut text = format!(
        "# HELP {ENGINE_QUEUE_DEPTH} commands waiting for a market's task\n\
         # TYPE {ENGINE_QUEUE_DEPTH} gauge\n"
    );
    for (market_id, depth) in depths {
        // Writing to a String cannot fail.
        let _ = writeln!(text, "{ENGINE_QUEUE_DEPTH}{{market_id=\"{market_id}\"}} {depth}");
    }
    text
}

/// A cluster lease renewal's outcome: `ok`, `lost` (it had passed) or `failed` (retried).
pub fn lease_renewal(outcome: &'static str) {
    metrics::counter!(LEASE_RENEWALS, "outcome" => outcome).increment(1);
}

/// A live stream's reader fell behind (`web`: sent a fresh snapshot; `bot`: closed).
pub fn stream_lagged(stream: &'static str) {
    metrics::counter!(STREAM_LAGGED, "stream" => stream).increment(1);
}

/// An in-house casino round of `game` (the game's kind) settled.
pub fn casino_round(game: &str) {
    metrics::counter!(CASINO_ROUNDS, "game" => game.to_owned()).increment(1);
}

/// A live stream open, counted in [`STREAM_SUBSCRIBERS`] until dropped.
pub struct StreamSubscriber(());

impl StreamSubscriber {
    pub fn open() -> StreamSubscriber {
        metrics::gauge!(STREAM_SUBSCRIBERS).increment(1.0);
        StreamSubscriber(())
    }
}

impl Drop for StreamSubscriber {
    fn drop(&mut self) {
        metrics::gauge!(STREAM_SUBSCRIBERS).decrement(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name the Grafana dashboard queries is one recorded here.
    #[test]
    fn the_dashboard_queries_only_names_recorded_here() {
        let dashboard = include_str!("../../../docs/grafana-dashboard.json");
        let known = [
            BETS_PLACED,
            BETS_REFUSED,
            PLACEMENT_SECONDS,
            COMMIT_SECONDS,
            GROUP_COMMIT_BETS,
            PLACEMENT_GROUPS,
            PLACEMENT_GROUP_BATCHES,
            LOGINS,
            STREAM_SUBSCRIBERS,
            WALLET_CALLS,
            FEED_LAG_MS,
            FORWARDED_CALL_SECONDS,
            DB_POOL_CONNECTIONS,
            MARKETS_RUNNING,
            ENGINE_QUEUE_DEPTH,
            LEASE_RENEWALS,
            STREAM_LAGGED,
            CASINO_ROUNDS,
        ];
        let mut queried = 0;
        for (at, _) in dashboard.match_indices("backlay_") {
            let name: String = dashboard[at..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if name == "backlay_" {
                continue; // the dashboard's tag and uid
            }
            let base = ["_bucket", "_sum", "_count"]
                .iter()
                .find_map(|suffix| name.strip_suffix(suffix))
                .unwrap_or(&name);
            assert!(known.contains(&base), "the dashboard queries {name}, which nothing records");
            queried += 1;
        }
        assert!(queried >= known.len(), "the dashboard queries {queried} names");
    }
}
