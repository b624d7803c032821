//! `GET /metrics`: the server's figures (`backlay_kit::metrics` names them) in Prometheus's
//! text format, rendered by `metrics-exporter-prometheus`. Read with the `--metrics-token`
//! bearer token (Prometheus's `authorization` setting) or an admin's session; anyone else gets
//! 401. The database pool and the market tasks' queues are read at each scrape
//! ([`AppState::metrics_scrape`], which the console's `console/system` reads too).

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use backlay_kit::totp::constant_time_eq;
use backlay_operator::session::Operator;
use backlay_operator::AppState;
use backlay_store::users::Role;

/// Installs the process's recorder (so that what happens from the start is counted) and
/// answers the route.
pub fn routes(state: AppState) -> Router {
    backlay_kit::metrics::recorder::install();
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
    match state.metrics_scrape().await {
        Some(text) => ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], text).into_response(),
        None => (StatusCode::SERVICE_UNAVAILABLE, "No metrics recorder in this process.\n")
            .into_response(),
    }
}
