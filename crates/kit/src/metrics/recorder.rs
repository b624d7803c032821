//! The process's Prometheus recorder and its scrape, which `GET /metrics` answers and
//! `console/system` reads ([`super::reading`]): one text, so the two can never disagree.
//!
//! The recorder is the process's (the `metrics` facade has one): installed by the first server
//! a process builds, shared by any other (tests build many).

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use super::{
    db_pool, engine_queues, placement_groups, BATCH_BUCKETS, GROUP_COMMIT_BETS, SECONDS_BUCKETS,
};

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed on first use (a server calls this as it starts, so that
/// what happens from the start is counted); `None` when another recorder was installed first.
pub fn install() -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let built = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS_BUCKETS)
                .and_then(|b| {
                    b.set_buckets_for_metric(Matcher::Full(GROUP_COMMIT_BETS.into()), BATCH_BUCKETS)
                })
                .and_then(PrometheusBuilder::install_recorder);
            match built {
                Ok(handle) => Some(handle),
                Err(err) => {
                    tracing::error!("metrics: no recorder: {err}");
                    None
                }
            }
        })
        .as_ref()
}

/// What a server reads of itself at each scrape rather than records as it goes.
pub struct Readings {
    /// The database pool's connections in use and idle.
    pub pool_in_use: usize,
    pub pool_idle: usize,
    /// The market tasks running here and the commands waiting for each: (market id, depth).
    pub queue_depths: Vec<(i64, usize)>,
    /// Placement groups committed and the markets' batches in them (SQLite; `None` on
    /// PostgreSQL).
    pub placement_groups: Option<(u64, u64)>,
}

/// The scrape in Prometheus's text format: the recorder's figures with `readings` written in
/// first. `None` when this process has no recorder.
pub fn scrape(readings: &Readings) -> Option<String> {
    let handle = install()?;
    db_pool(readings.pool_in_use, readings.pool_idle);
    if let Some((groups, batches)) = readings.placement_groups {
        placement_groups(groups, batches);
    }
    let queues = engine_queues(&readings.queue_depths);
    let mut text = handle.render();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&queues);
    Some(text)
}
