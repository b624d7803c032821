//! The dashboard's "System" card (`console/system`, admins only): this server's own figures,
//! read from the same scrape `GET /metrics` answers ([`AppState::metrics_scrape`], parsed back
//! by [`backlay_kit::metrics::reading`]), so that the card and Prometheus can never disagree.
//! The names behind each figure are in `backlay_kit::metrics`.
//!
//! Counters count from this server's start; latencies are quantiles of every bet since then,
//! estimated from the histograms' buckets as Prometheus's `histogram_quantile` does (so a p99
//! reads a bucket's bound or a point inside it, not an exact observation). Example: after 200
//! bets in 50 commits, of which 100 answered within 1 ms and 100 within 2 ms, the card reads
//! 200 bets placed, placement p50 1 ms and p99 1.98 ms, 4 bets per commit. In a cluster each
//! node answers for itself.

use anyhow::Context as _;
use axum::extract::State;
use backlay_kit::error::{ok, ApiResult, AppError, Envelope};
use backlay_kit::metrics::reading::Reading;
use backlay_kit::metrics::{
    BETS_PLACED, BETS_REFUSED, COMMIT_SECONDS, DB_POOL_CONNECTIONS, ENGINE_QUEUE_DEPTH,
    FEED_LAG_MS, FORWARDED_CALL_SECONDS, GROUP_COMMIT_BETS, LEASE_RENEWALS, LOGINS,
    MARKETS_RUNNING, PLACEMENT_SECONDS, STREAM_SUBSCRIBERS,
};
use backlay_operator::session::Operator;
use backlay_operator::AppState;
use backlay_store::users::Role;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(system))
}

/// How many refusal reasons the card lists, the commonest first.
pub const REFUSAL_REASONS_MAX: usize = 5;

/// A refusal's reason and how many bets it refused.
#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct RefusalCount {
    /// The refusal's code: `insufficient_funds`, `market_not_open`, …; `error` for the rest.
    pub reason: String,
    pub bets: u64,
}

#[derive(Serialize, ToSchema, Debug, Default, PartialEq)]
pub struct LoginCounts {
    pub ok: u64,
    /// A wrong name or password, or a locked account.
    pub refused: u64,
    /// Refused unchecked: too many attempts.
    pub throttled: u64,
}

/// A cluster node's lease renewals (none on SQLite, where one server runs everything).
#[derive(Serialize, ToSchema, Debug, Default, PartialEq)]
pub struct LeaseRenewals {
    pub ok: u64,
    /// The lease had passed: the node gave its markets up.
    pub lost: u64,
    /// The renewal failed and was tried again.
    pub failed: u64,
}

/// A live feed's lag behind its upstream, as last measured.
#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct FeedLag {
    /// The feed's id, as `admin/feed/status` numbers it.
    pub feed: u64,
    pub lag_ms: i64,
}

/// This server's figures since it started.
#[derive(Serialize, ToSchema, Debug, Default, PartialEq)]
pub struct SystemFigures {
    /// False when this process has no metrics recorder (another was installed first): every
    /// figure then reads 0 or null.
    pub recording: bool,
    /// Bets placed (committed).
    pub bets_placed: u64,
    /// Bets refused, for any reason.
    pub bets_refused: u64,
    /// The commonest refusals, most first (at most 5: `REFUSAL_REASONS_MAX`).
    pub refused_by_reason: Vec<RefusalCount>,
    /// A bet's arrival at the engine to its answer, median, in ms; null before any bet.
    #[schema(required = true)]
    pub placement_p50_ms: Option<f64>,
    /// The same, 99th percentile.
    #[schema(required = true)]
    pub placement_p99_ms: Option<f64>,
    /// A placement batch's COMMIT alone, 99th percentile, in ms; null before any.
    #[schema(required = true)]
    pub commit_p99_ms: Option<f64>,
    /// Bets placed per placement batch committed (group commit), on average: a batch whose
    /// bets were all refused commits too, with none. Null before any.
    #[schema(required = true)]
    pub bets_per_commit: Option<f64>,
    /// Live streams open (`GET /api/stream`).
    pub stream_subscribers: u64,
    /// Market tasks this server runs.
    pub markets_running: u64,
    /// The most commands waiting for any one market's task.
    pub deepest_queue: u64,
    /// The database pool's connections in use.
    pub db_pool_in_use: u64,
    /// The database pool's connections idle.
    pub db_pool_idle: u64,
    /// Log-ins by outcome.
    pub logins: LoginCounts,
    /// Each live feed's lag, by feed id.
    pub feed_lag: Vec<FeedLag>,
    /// Calls sent on to a market's owner in a cluster.
    pub forwarded_calls: u64,
    /// Their median there and back, in ms; null before any.
    #[schema(required = true)]
    pub forwarded_p50_ms: Option<f64>,
    /// This node's lease renewals in a cluster.
    pub lease_renewals: LeaseRenewals,
}

/// This server's figures: bets, latencies, streams, markets, the pool, log-ins, feeds and the
/// cluster, from the same scrape as `GET /metrics` (admin only).
#[utoipa::path(post, path = "/console/system", tag = "console", security(("bearer" = [])),
    responses((status = 200, body = Envelope<SystemFigures>), (status = 401), (status = 403)))]
async fn system(
    State(state): State<AppState>,
    Operator(authed): Operator,
) -> ApiResult<SystemFigures> {
    if authed.user.role != Role::Admin {
        return Err(AppError::Forbidden("Only an admin reads the server's own figures.".into()));
    }
    let figures = match state.metrics_scrape().await {
        Some(text) => {
            SystemFigures::read(&Reading::parse(&text).context("reading back the metrics scrape")?)
        }
        None => SystemFigures::default(),
    };
    Ok(ok(figures))
}

impl SystemFigures {
    /// The figures of a scrape.
    pub fn read(reading: &Reading) -> SystemFigures {
        let mut refused_by_reason: Vec<RefusalCount> = reading
            .by_label(BETS_REFUSED, "reason")
            .into_iter()
            .map(|(reason, bets)| RefusalCount { reason, bets: count(bets) })
            .collect();
        // Most first; equal counts by reason, so that the order holds from one read to the next.
        refused_by_reason.sort_by(|a, b| b.bets.cmp(&a.bets).then_with(|| a.reason.cmp(&b.reason)));
        refused_by_reason.truncate(REFUSAL_REASONS_MAX);
        let placement = reading.histogram(PLACEMENT_SECONDS);
        let forwarded = reading.histogram(FORWARDED_CALL_SECONDS);
        let outcome =
            |name: &str, outcome: &str| count(reading.total(name, &[("outcome", outcome)]));
        let pool = |state: &str| count(reading.total(DB_POOL_CONNECTIONS, &[("state", state)]));
        let mut feed_lag: Vec<FeedLag> = reading
            .by_label(FEED_LAG_MS, "feed")
            .into_iter()
            // Lags are whole milliseconds (`backlay_kit::metrics::feed_lag`).
            .filter_map(|(feed, lag)| {
                Some(FeedLag { feed: feed.parse().ok()?, lag_ms: lag as i64 })
            })
            .collect();
        feed_lag.sort_by_key(|lag| lag.feed);
        SystemFigures {
            recording: true,
            bets_placed: count(reading.total(BETS_PLACED, &[])),
            bets_refused: count(reading.total(BETS_REFUSED, &[])),
            refused_by_reason,
            placement_p50_ms: placement.quantile(0.5).map(ms),
            placement_p99_ms: placement.quantile(0.99).map(ms),
            commit_p99_ms: reading.histogram(COMMIT_SECONDS).quantile(0.99).map(ms),
            bets_per_commit: reading.histogram(GROUP_COMMIT_BETS).mean(),
            stream_subscribers: count(reading.total(STREAM_SUBSCRIBERS, &[])),
            markets_running: count(reading.total(MARKETS_RUNNING, &[])),
            deepest_queue: count(
                reading.values(ENGINE_QUEUE_DEPTH, &[]).into_iter().fold(0.0, f64::max),
            ),
            db_pool_in_use: pool("in_use"),
            db_pool_idle: pool("idle"),
            logins: LoginCounts {
                ok: outcome(LOGINS, "ok"),
                refused: outcome(LOGINS, "refused"),
                throttled: outcome(LOGINS, "throttled"),
            },
            feed_lag,
            forwarded_calls: count(forwarded.count),
            forwarded_p50_ms: forwarded.quantile(0.5).map(ms),
            lease_renewals: LeaseRenewals {
                ok: outcome(LEASE_RENEWALS, "ok"),
                lost: outcome(LEASE_RENEWALS, "lost"),
                failed: outcome(LEASE_RENEWALS, "failed"),
            },
        }
    }
}

/// A counter's or gauge's value as a count (the text writes whole numbers; a gauge that dipped
/// below zero reads 0).
fn count(value: f64) -> u64 {
    // Saturating: NaN and negatives read 0.
    value.round() as u64
}

fn ms(seconds: f64) -> f64 {
    seconds * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scrape as the recorder writes one, with the engine's queues appended.
    const SCRAPE: &str = "\
# TYPE backlay_bets_placed_total counter
backlay_bets_placed_total{market_type=\"match_odds\"} 150
backlay_bets_placed_total{market_type=\"fancy\"} 50
# TYPE backlay_bets_refused_total counter
backlay_bets_refused_total{reason=\"market_not_open\",market_type=\"match_odds\"} 4
backlay_bets_refused_total{reason=\"market_not_open\",market_type=\"fancy\"} 3
backlay_bets_refused_total{reason=\"insufficient_funds\",market_type=\"match_odds\"} 9
backlay_bets_refused_total{reason=\"error\",market_type=\"match_odds\"} 1
backlay_bets_refused_total{reason=\"price_changed\",market_type=\"match_odds\"} 1
backlay_bets_refused_total{reason=\"over_max_stake\",market_type=\"fancy\"} 2
backlay_bets_refused_total{reason=\"under_min_stake\",market_type=\"fancy\"} 2
# TYPE backlay_placement_seconds histogram
backlay_placement_seconds_bucket{le=\"0.0005\"} 0
backlay_placement_seconds_bucket{le=\"0.001\"} 100
backlay_placement_seconds_bucket{le=\"0.002\"} 200
backlay_placement_seconds_bucket{le=\"+Inf\"} 200
backlay_placement_seconds_sum 0.3
backlay_placement_seconds_count 200
# TYPE backlay_group_commit_bets histogram
backlay_group_commit_bets_bucket{le=\"4\"} 50
backlay_group_commit_bets_bucket{le=\"+Inf\"} 50
backlay_group_commit_bets_sum 200
backlay_group_commit_bets_count 50
# TYPE backlay_logins_total counter
backlay_logins_total{outcome=\"ok\"} 7
backlay_logins_total{outcome=\"throttled\"} 2
# TYPE backlay_stream_subscribers gauge
backlay_stream_subscribers 3
# TYPE backlay_feed_lag_milliseconds gauge
backlay_feed_lag_milliseconds{feed=\"10\"} 40
backlay_feed_lag_milliseconds{feed=\"2\"} 250
# TYPE backlay_db_pool_connections gauge
backlay_db_pool_connections{state=\"in_use\"} 1
backlay_db_pool_connections{state=\"idle\"} 9
# TYPE backlay_markets_running gauge
backlay_markets_running 2
# TYPE backlay_lease_renewals_total counter
backlay_lease_renewals_total{outcome=\"ok\"} 30
backlay_lease_renewals_total{outcome=\"failed\"} 1
# HELP backlay_engine_queue_depth commands waiting for a market's task
# TYPE backlay_engine_queue_depth gauge
backlay_engine_queue_depth{market_id=\"70\"} 3
backlay_engine_queue_depth{market_id=\"71\"} 12
";

    #[test]
    fn the_card_reads_the_scrape() {
        let figures = SystemFigures::read(&Reading::parse(SCRAPE).unwrap());
        assert!(figures.recording);
        assert_eq!((figures.bets_placed, figures.bets_refused), (200, 22));
        let reasons: Vec<(&str, u64)> =
            figures.refused_by_reason.iter().map(|r| (r.reason.as_str(), r.bets)).collect();
        // Summed over market types; ties by name; the sixth (price_changed) left out.
        assert_eq!(
            reasons,
            [
                ("insufficient_funds", 9),
                ("market_not_open", 7),
                ("over_max_stake", 2),
                ("under_min_stake", 2),
                ("error", 1)
            ]
        );
        // The example of the module's docs: half within 1 ms, all within 2 ms.
        let near = |got: Option<f64>, want: f64| (got.unwrap() - want).abs() < 1e-9;
        assert!(near(figures.placement_p50_ms, 1.0), "{:?}", figures.placement_p50_ms);
        assert!(near(figures.placement_p99_ms, 1.98), "{:?}", figures.placement_p99_ms);
        assert_eq!(figures.commit_p99_ms, None, "no commit timed");
        assert_eq!(figures.bets_per_commit, Some(4.0));
        assert_eq!(figures.stream_subscribers, 3);
        assert_eq!((figures.markets_running, figures.deepest_queue), (2, 12));
        assert_eq!((figures.db_pool_in_use, figures.db_pool_idle), (1, 9));
        assert_eq!(figures.logins, LoginCounts { ok: 7, refused: 0, throttled: 2 });
        assert_eq!(
            figures.feed_lag,
            [FeedLag { feed: 2, lag_ms: 250 }, FeedLag { feed: 10, lag_ms: 40 }]
        );
        assert_eq!((figures.forwarded_calls, figures.forwarded_p50_ms), (0, None));
        assert_eq!(figures.lease_renewals, LeaseRenewals { ok: 30, lost: 0, failed: 1 });
    }

    #[test]
    fn an_empty_scrape_reads_zeros_and_nulls_but_is_recording() {
        let figures = SystemFigures::read(&Reading::parse("").unwrap());
        assert_eq!(figures, SystemFigures { recording: true, ..SystemFigures::default() });
        assert!(!SystemFigures::default().recording, "no recorder: said so");
    }
}
