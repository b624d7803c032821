//! The web API: the bettor's `/api` routes, one module per area, each exposing `routes()`, and
//! the assembly of the whole `/api` (these and the console's, `backlay_console_api`, given to
//! [`router`] and [`openapi_document`]) with the layers every API answer shares: the envelope
//! for 404/405/panics, `Cache-Control: no-store, no-cache`, a body-size limit, and logging of
//! server errors.
//!
//! Routes are registered through `utoipa_axum`, so a route cannot be added without its
//! OpenAPI description: `/api/openapi.json` is generated from these same registrations.

pub mod auth;
pub mod bet;
pub mod bet_edit;
pub mod cash_out;
pub mod casino;
pub mod export;
pub mod health;
pub mod market;
pub mod matches;
pub mod notices;
pub mod payment;
pub mod preferences;
pub mod report;
pub mod safer;
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
use axum::http::{header, HeaderValue};
use axum::middleware;
use axum::routing::get;
use axum::{Json, Router};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{self as oas, Content, Ref, RefOr, Schema};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;

use backlay_kit::error::{log_server_errors, panic_response, AppError};
use backlay_kit::input::MAX_BODY_BYTES;
use backlay_operator::session::{ClientIp, Operator};
use backlay_operator::AppState;
use backlay_operator::{Actor, OperatorContext};

#[derive(OpenApi)]
#[openapi(
    info(title = "Backlay API", description = "The HTTP contract of the Backlay betting exchange. \
        Every answer is the envelope {status, message, data}; money is a number with 2 decimals; \
        times are ISO-8601 UTC."),
    modifiers(&BearerAuth),
    // Sent as a stream's `round` event, so no handler's body names it.
    components(schemas(backlay_live::round_events::RoundEvent, backlay_live::market_book::ListOdds)),
    tags(
        (name = "auth", description = "Log-in, sign-up, log-out, passwords"),
        (name = "user", description = "The caller's balance and stake buttons"),
        (name = "catalogue", description = "Sports, series, matches, casino categories, site settings"),
        (name = "bet", description = "Bets and exposure"),
        (name = "casino", description = "In-house casino rounds: tables, bets, results, fairness; the world-casino catalogue and launch"),
        (name = "wallet", description = "Seamless wallet for game providers: signed by the provider (docs/wallet.md), no user log-in"),
        (name = "admin", description = "Operator actions (admin; agents over their own clients)"),
        (name = "console", description = "The operator console's reads: downline accounts, their statements, bets and P&L, market analysis (admin: everyone; agent: its downline)"),
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

/// serde's internally tagged enums (`#[serde(tag = "sport")]`, e.g. the score) are documented
/// by utoipa as `oneOf: [allOf: [$ref Variant, {tag}]]`; a variant struct that refuses unknown
/// fields (`deny_unknown_fields`, so `additionalProperties: false`) would then refuse its own
/// tag, and no value could match. serde takes the tag off before the variant reads its fields,
/// so the variant does accept it: this adds the tag to such a variant's properties (its value
/// stays pinned by the `allOf`'s other half). Applied after the routes are merged, as
/// [`ErrorAnswers`] is.
struct InternalTags;

impl Modify for InternalTags {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let Some(components) = openapi.components.as_mut() else { return };
        // (variant schema's name, tag property's name) for every tagged variant.
        let mut tagged: Vec<(String, String)> = Vec::new();
        for schema in components.schemas.values() {
            let RefOr::T(Schema::OneOf(one_of)) = schema else { continue };
            for item in &one_of.items {
                let RefOr::T(Schema::AllOf(all_of)) = item else { continue };
                let [RefOr::Ref(variant), RefOr::T(Schema::Object(tag))] = all_of.items.as_slice()
                else {
                    continue;
                };
                let Some(name) = variant.ref_location.rsplit('/').next() else { continue };
                tagged.extend(tag.properties.keys().map(|key| (name.to_string(), key.clone())));
            }
        }
        for (variant, tag) in tagged {
            let Some(RefOr::T(Schema::Object(object))) = components.schemas.get_mut(&variant)
            else {
                continue;
            };
            let closed = matches!(
                object.additional_properties.as_deref(),
                Some(oas::schema::AdditionalProperties::FreeForm(false))
            );
            if closed {
                object.properties.entry(tag).or_insert_with(|| {
                    oas::ObjectBuilder::new().schema_type(oas::schema::Type::String).into()
                });
            }
        }
    }
}

/// Name of the error envelope's schema in the document.
const ERROR_ENVELOPE: &str = "ErrorEnvelope";

/// Paths whose bearer session may still have to change its password (they take [`Authed`],
/// not `CurrentUser`): every other bearer route answers 428 to such a session.
///
/// [`Authed`]: backlay_operator::session::Authed
const PASSWORD_CHANGE_NOT_REQUIRED: [&str; 3] =
    ["/api/user/logout", "/api/user/changePassword", "/api/user/getUserBalance"];

/// What the extractors answer on their own, documented on every operation they guard rather
/// than in each path's annotation, where one forgotten line would make the document lie: the
/// 400 and 413 of a body ([`ApiJson`](backlay_kit::input::ApiJson)), and the 401 and 428 of a bearer
/// session. Every error response without a body of its own gets the envelope's shape.
/// Applied to the merged document: `#[openapi(modifiers)]` runs before the routes are added.
struct ErrorAnswers;

impl Modify for ErrorAnswers {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        let envelope: Schema = serde_json::from_value(serde_json::json!({
            "type": "object",
            "description": "A refusal: status is false, message says why in words a person can act on; \
                a 400 names each bad field in data.errors, a wallet refusal gives data.code, a bet \
                refused for a reason the exchange names gives its facts in data.refusal \
                ({refusal: insufficient_funds | exposure_limit | …, amounts in paise}).",
            "required": ["status", "message", "data"],
            "properties": {
                "status": { "type": "boolean", "enum": [false] },
                "message": { "type": "string" },
                "data": {
                    "type": ["object", "null"],
                    "properties": {
                        "errors": { "type": "object", "additionalProperties": { "type": "string" } },
                        "code": { "type": "string" },
                        "refusal": {
                            "type": "object",
                            "required": ["refusal"],
                            "properties": { "refusal": { "type": "string" } },
                            "additionalProperties": true
                        }
                    }
                }
            }
        }))
        .expect("the error envelope's schema is valid");
        components.schemas.insert(ERROR_ENVELOPE.to_string(), envelope.into());
        let bearer = SecurityRequirement::new("bearer", Vec::<String>::new());

        for (path, item) in openapi.paths.paths.iter_mut() {
            let operations =
                [&mut item.get, &mut item.put, &mut item.post, &mut item.delete, &mut item.patch];
            for operation in operations.into_iter().flatten() {
                let responses = &mut operation.responses.responses;
                let mut add = |status: &str, description: &str| {
                    responses
                        .entry(status.to_string())
                        .or_insert_with(|| oas::Response::new(description).into());
                };
                if operation.request_body.is_some() {
                    add("400", "The body is not valid JSON, has the wrong shape, or a field is invalid (data.errors)");
                    add("413", "The body is over 64 KiB");
                }
                if operation.security.as_ref().is_some_and(|s| s.contains(&bearer)) {
                    add("401", "No token, or an unknown, expired or revoked one: log in again");
                    if !PASSWORD_CHANGE_NOT_REQUIRED.contains(&path.as_str()) {
                        add("428", "The user must change the password they were given first");
                    }
                }
                for (status, response) in operation.responses.responses.iter_mut() {
                    if let (true, RefOr::T(response)) = (status.starts_with(['4', '5']), response) {
                        if response.content.is_empty() {
                            let schema = RefOr::Ref(Ref::from_schema_name(ERROR_ENVELOPE));
                            response
                                .content
                                .insert("application/json".into(), Content::new(Some(schema)));
                        }
                    }
                }
            }
        }
    }
}

/// The OpenAPI document `/api/openapi.json` serves, built from the same registrations as the
/// routes (the web app's API types are generated from it: `cd web && npm run gen:api`), with
/// `more` (the console's routes) beside the bettor's.
pub fn openapi_document(more: OpenApiRouter<AppState>) -> oas::OpenApi {
    api_routes(more).1
}

/// Every `/api` route without its layers (this crate's and `more`), and the document that
/// describes them.
fn api_routes(more: OpenApiRouter<AppState>) -> (Router<AppState>, oas::OpenApi) {
    let (routes, mut openapi) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .nest(
            "/api",
            OpenApiRouter::new()
                .merge(health::routes())
                .merge(auth::routes())
                .merge(security::routes())
                .merge(user::routes())
                .merge(notices::routes())
                .merge(preferences::routes())
                .merge(safer::routes())
                .merge(settings::routes())
                .merge(sport::routes())
                .merge(series::routes())
                .merge(matches::routes())
                .merge(casino::routes())
                .merge(world_casino::routes())
                .merge(wallet::routes())
                .merge(bet::routes())
                .merge(bet_edit::routes())
                .merge(cash_out::routes())
                .merge(market::routes())
                .merge(report::routes())
                .merge(payment::routes())
                .merge(stream::routes())
                .merge(more),
        )
        .split_for_parts();
    ErrorAnswers.modify(&mut openapi);
    InternalTags.modify(&mut openapi);
    (routes, openapi)
}

/// Every `/api` route (this crate's and `more`) with its layers, plus `/api/openapi.json`.
pub fn router(state: AppState, more: OpenApiRouter<AppState>) -> Router {
    let (routes, openapi) = api_routes(more);
    let openapi = Arc::new(openapi);
    routes
        .route("/api/openapi.json", get(move || async move { Json(openapi.as_ref().clone()) }))
        .route("/api", axum::routing::any(unknown_route))
        .route("/api/{*rest}", axum::routing::any(unknown_route))
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(CatchPanicLayer::custom(panic_response))
        .layer(middleware::from_fn(log_server_errors))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store, no-cache"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .with_state(state)
}

async fn unknown_route(request: Request) -> AppError {
    AppError::NotFound(format!(
        "There is no API call {} {}.",
        request.method(),
        request.uri().path()
    ))
}

async fn method_not_allowed(request: Request) -> AppError {
    AppError::MethodNotAllowed(format!(
        "{} is not allowed on {}.",
        request.method(),
        request.uri().path()
    ))
}

/// What the operator functions (backlay_operator, which the CLI calls too) are given for a request:
/// the logged-in admin or agent acting, from its address, on the server's store.
pub fn operator_context(
    state: &AppState,
    Operator(authed): Operator,
    ClientIp(ip): ClientIp,
) -> OperatorContext<'_> {
    OperatorContext { store: &state.store, actor: Actor::User(authed.user), client_ip: ip }
}
