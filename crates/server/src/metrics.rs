//! `GET /metrics`: the server's figures (`backlay_kit::metrics` names them) in Prometheus's
//! text format, rendered by `metrics-exporter-prometheus`. Read with the `--metrics-token`
//! bearer token (Prometheus's `authorization` setting) or an admin's session; anyone else gets
//! 401. The database pool's gauges are read at each scrape.
//!
//! The recorder is the process's (the `metrics` facade has one): installed by the first server
//! a process builds, shared by any other (tests build many).

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use backlay_kit::metrics::{BATCH_BUCKETS, GROUP_COMMIT_BETS, SECONDS_BUCKETS};
use backlay_kit::totp::constant_time_eq;
use backlay_operator::session::Operator;
use backlay_operator::AppState;
use backlay_store::users::Role;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process's recorder, installed on first use; `None` when another recorder was installed
/// first (then `/metrics` says so).
fn handle() -> Option<&'static PrometheusHandle> {
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

/// Installs the recorder (so that what happens from the start is counted) and answers the
/// route.
pub fn routes(state: AppState) -> Router {
    handle();
    Router::new().route("/metrics", get(render)).with_state(state)
}

async fn render(
    State(state): State<AppState>,
    headers: HeaderMap,
    operator: Result<Operator, backlay_kit::error::AppError>,
) -> Response {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let by_token = match (&state.config.metrics_token, bearer) {
        (Some(token), Some(given)) => constant_time_eq(token.as_bytes(), given.as_bytes()),
        _ => false,
    };
    let by_admin = matches!(&operator, Ok(Operator(authed)) if authed.user.role == Role::Admin);
    if !by_token && !by_admin {
        return (
            StatusCode::UNAUTHORIZED,
            "Metrics are read with the --metrics-token bearer token or an admin's session.\n",
        )
            .into_response();
    }
    let Some(handle) = handle() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "No metrics recorder in this process.\n")
            .into_response();
    };
    let pool = state.store.pool();
    let (size, idle) = (pool.size() as usize, pool.num_idle());
    backlay_kit::metrics::db_pool(size.saturating_sub(idle), idle);
    let queues = backlay_kit::metrics::engine_queues(&state.engine.queue_depths().await);
    let mut text = handle.render();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str(&queues);
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response()
}
