//! The `/api` routes, one module per area, each exposing `routes()`; merged here with the
//! layers every API answer shares: the envelope for 404/405/panics, `Cache-Control: no-store,
//! no-cache`, a body-size limit, and logging of server errors.
//!
//! Routes are registered through `utoipa_axum`, so a route cannot be added without its
//! OpenAPI description: `/api/openapi.json` is generated from these same registrations.

pub mod admin;
pub mod auth;
pub mod bet;
pub mod casino;
pub mod health;
pub mod market;
pub mod matches;
pub mod payment;
pub mod report;
pub mod security;
pub mod series;
pub mod settings;
pub mod sport;
pub mod stream;
pub mod user;
pub mod wallet;
pub mod world_casino;

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;

use crate::error::{AppError, LoggedCause};
use crate::input::MAX_BODY_BYTES;
use crate::AppState;

#[derive(OpenApi)]
#[openapi(
    info(title = "Backlay API", description = "The HTTP contract of the Backlay betting exchange. \
        Every answer is the envelope {status, message, data}; money is a number with 2 decimals; \
        times are ISO-8601 UTC."),
    modifiers(&BearerAuth),
    // Sent as a stream's `round` event, so no handler's body names it.
    components(schemas(crate::casino::RoundEvent)),
    tags(
        (name = "auth", description = "Log-in, sign-up, log-out, passwords"),
        (name = "user", description = "The caller's balance and stake buttons"),
        (name = "catalogue", description = "Sports, series, matches, casino categories, site settings"),
        (name = "bet", description = "Bets and exposure"),
        (name = "casino", description = "In-house casino rounds: tables, bets, results, fairness; the world-casino catalogue and launch"),
        (name = "wallet", description = "Seamless wallet for game providers: signed by the provider (docs/wallet.md), no user log-in"),
        (name = "admin", description = "Operator actions (admin; agents over their own clients)"),
        (name = "health", description = "Readiness"),
    )
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// Every `/api` route with its layers, plus `/api/openapi.json`.
pub fn router(state: AppState) -> Router {
    let (routes, openapi) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .nest(
            "/api",
            OpenApiRouter::new()
                .merge(health::routes())
                .merge(auth::routes())
                .merge(security::routes())
                .merge(user::routes())
                .merge(settings::routes())
                .merge(sport::routes())
                .merge(series::routes())
                .merge(matches::routes())
                .merge(casino::routes())
                .merge(world_casino::routes())
                .merge(wallet::routes())
                .merge(bet::routes())
                .merge(admin::routes())
                .merge(market::routes())
                .merge(report::routes())
                .merge(payment::routes())
                .merge(stream::routes()),
        )
        .split_for_parts();
    let openapi = Arc::new(openapi);
    routes
        .route("/api/openapi.json", get(move || async move { Json(openapi.as_ref().clone()) }))
        .route("/api", axum::routing::any(unknown_route))
        .route("/api/{*rest}", axum::routing::any(unknown_route))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(middleware::from_fn(log_server_errors))
        .layer(SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("no-store, no-cache")))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .with_state(state)
}

async fn unknown_route(request: Request) -> AppError {
    AppError::NotFound(format!("There is no API call {} {}.", request.method(), request.uri().path()))
}

async fn method_not_allowed(request: Request) -> AppError {
    AppError::MethodNotAllowed(format!("{} is not allowed on {}.", request.method(), request.uri().path()))
}

/// A panicking handler answers a plain 500 in the envelope; the panic message goes to the log.
pub(crate) fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into());
    AppError::Internal(anyhow::anyhow!("a request handler panicked: {message}")).into_response()
}

/// Logs each server error once, with its cause chain; the client only sees a generic message.
pub(crate) async fn log_server_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    if response.status() == StatusCode::INTERNAL_SERVER_ERROR {
        match response.extensions().get::<LoggedCause>() {
            Some(LoggedCause(cause)) => tracing::error!(%method, %path, "server error: {cause:#}"),
            None => tracing::error!(%method, %path, "server error"),
        }
    }
    response
}
