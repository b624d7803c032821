//! `GET /api/health`: 200 when the server can reach its database, 503 (`database:
//! "unavailable"`) while it cannot: a load balancer takes the node out of rotation, and an
//! operator sees why.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::Envelope;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// "ok", or "unavailable" while the database does not answer.
    pub database: String,
    pub version: String,
}

#[utoipa::path(get, path = "/health", tag = "health",
    responses((status = 200, body = Envelope<Health>), (status = 503, body = Envelope<Health>)))]
async fn health(State(state): State<AppState>) -> (StatusCode, Json<Envelope<Health>>) {
    let database_ok = state.store.ping().await;
    let status = if database_ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    let health = Health {
        database: if database_ok { "ok" } else { "unavailable" }.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    };
    (
        status,
        Json(Envelope {
            status: database_ok,
            message: if database_ok { "ready" } else { "not ready" }.into(),
            data: health,
        }),
    )
}
