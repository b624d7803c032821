//! The one error type of the API and the envelope every answer is wrapped in.
//!
//! Handlers return `ApiResult<T>`; `?` turns store errors and bad input into an [`AppError`],
//! which becomes the HTTP status of API.md with `{"status": false, "message": …, "data": …}`.
//! 5xx causes are never sent to the client: the response carries the error in an extension and
//! the `log_server_errors` middleware logs it once, with its chain.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use backlay_store::StoreError;

use crate::refusal::Refusal;
use serde::Serialize;
use utoipa::ToSchema;

/// `{"status": true|false, "message": "…", "data": …}` — the shape of every `/api` answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct Envelope<T> {
    pub status: bool,
    pub message: String,
    pub data: T,
}

/// A successful answer with `data` and a message for a toast.
pub fn ok_with<T: Serialize>(message: impl Into<String>, data: T) -> Json<Envelope<T>> {
    Json(Envelope { status: true, message: message.into(), data })
}

/// A successful answer with `data` and the message "OK".
pub fn ok<T: Serialize>(data: T) -> Json<Envelope<T>> {
    ok_with("OK", data)
}

pub type ApiResult<T> = Result<Json<Envelope<T>>, AppError>;

/// Field name → what is wrong with it, for `data.errors` of a 400.
pub type FieldErrors = BTreeMap<String, String>;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// 400: the request is malformed or a field is invalid.
    #[error("{message}")]
    Invalid { message: String, errors: FieldErrors },
    /// 401: no token, or one that is unknown, expired or revoked (also a refused log-in).
    #[error("{0}")]
    Unauthorized(String),
    /// 403: a valid token without the right (a client on an operator route, an agent outside
    /// its own clients). The client app ends the session on a 403 (spec §8), so a refusal the
    /// user should read and stay logged in for is a 409 or 422, never this.
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    /// 409: the state does not allow it (duplicate, suspended market, odds changed).
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    PayloadTooLarge(String),
    /// 422: a business rule says no.
    #[error("{0}")]
    Unprocessable(String),
    /// A bet refused, with the facts of why (insufficient funds, a limit, the market's status):
    /// its status and words are the refusal's own ([`Refusal`]), and callers that act on the
    /// reason (the bot API) match on it.
    #[error("{0}")]
    Refused(Refusal),
    /// 428: the user must change the password given to them before doing anything else.
    #[error("Change your password before you continue.")]
    PasswordChangeRequired,
    /// 429: too many attempts; try again after `retry_after_s`.
    #[error("{message}")]
    TooManyRequests { message: String, retry_after_s: u64 },
    /// 503: the server is at a bound it keeps (the password hasher's queue); try again after
    /// `retry_after_s`.
    #[error("{message}")]
    Busy { message: String, retry_after_s: u64 },
    /// 503: the market or table changed servers (a server stopped, or the cluster rebalanced)
    /// while the command was on its way, and nothing was done. The engine sends the command on
    /// to the new owner before it answers this, so a caller sees it only when no server took
    /// the market over in time.
    #[error("{0}")]
    Moved(String),
    /// 503: the database is not answering or cannot take the work now (a connection cut, a
    /// full disk), or a market is being checked against it after such a failure. Nothing the
    /// caller did: try again after `retry_after_s`. The cause, if any, is logged (WARN), never
    /// shown.
    #[error("{message}")]
    Unavailable { message: String, retry_after_s: u64, cause: Option<Arc<anyhow::Error>> },
    /// 500: our fault. The cause is logged, never shown.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl AppError {
    /// A 400 about one field.
    pub fn field(field: &str, message: impl Into<String>) -> AppError {
        let message = message.into();
        AppError::Invalid {
            message: message.clone(),
            errors: BTreeMap::from([(field.to_string(), message)]),
        }
    }

    /// A 400 about several fields; the first one's message is the headline.
    pub fn fields(errors: FieldErrors) -> AppError {
        let message = errors.values().next().cloned().unwrap_or_else(|| "Invalid request.".into());
        AppError::Invalid { message, errors }
    }

    /// A bet from an account its parent has bet-locked (it may still log in): 422, not 403,
    /// so that the client app keeps its session.
    pub fn betting_locked() -> AppError {
        AppError::Refused(Refusal::BettingLocked)
    }

    /// A 503 to try again in a second, with `message` and no cause to log.
    pub fn unavailable(message: impl Into<String>) -> AppError {
        AppError::Unavailable { message: message.into(), retry_after_s: 1, cause: None }
    }

    /// The 503 of a request that needed the database while it was not answering.
    pub fn database_unavailable(cause: impl Into<anyhow::Error>) -> AppError {
        AppError::Unavailable {
            message: DATABASE_UNAVAILABLE.into(),
            retry_after_s: 1,
            cause: Some(Arc::new(cause.into())),
        }
    }

    pub fn invalid(message: impl Into<String>) -> AppError {
        AppError::Invalid { message: message.into(), errors: FieldErrors::new() }
    }

    /// What went wrong behind this error, for the log: the cause of a 500, or of a 503 for
    /// database trouble (never shown to a client), else the error itself.
    pub fn cause_for_log(&self) -> String {
        match self {
            AppError::Internal(cause) => format!("{cause:#}"),
            AppError::Unavailable { cause: Some(cause), .. } => format!("{cause:#}"),
            other => other.to_string(),
        }
    }

    pub fn status_code(&self) -> StatusCode {
        match self {
            AppError::Invalid { .. } => StatusCode::BAD_REQUEST,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Refused(refusal) => refusal.status(),
            AppError::PasswordChangeRequired => StatusCode::PRECONDITION_REQUIRED,
            AppError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            AppError::Busy { .. } | AppError::Moved(_) | AppError::Unavailable { .. } => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// A server error's cause, carried from the response to the logging middleware.
#[derive(Clone)]
pub struct LoggedCause(pub Arc<anyhow::Error>);

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        // A database that stopped answering, met deep inside some other failure, is still a
        // 503 to try again, not our fault.
        let this = match self {
            AppError::Internal(cause) if database_is_unavailable(&cause) => {
                AppError::database_unavailable(cause)
            }
            other => other,
        };
        let status = this.status_code();
        let data = match &this {
            AppError::Invalid { errors, .. } if !errors.is_empty() => {
                serde_json::json!({ "errors": errors })
            }
            // The facts of a refused bet, so that a client words it in its bettor's language
            // (the web app's Hindi) rather than show this message's English.
            AppError::Refused(refusal) => serde_json::json!({ "refusal": refusal }),
            _ => serde_json::Value::Null,
        };
        let message = match &this {
            AppError::Internal(_) => {
                "Something went wrong on our side. Please try again.".to_string()
            }
            other => other.to_string(),
        };
        let mut response =
            (status, Json(Envelope { status: false, message, data })).into_response();
        match this {
            AppError::TooManyRequests { retry_after_s, .. }
            | AppError::Busy { retry_after_s, .. } => {
                response.headers_mut().insert("retry-after", HeaderValue::from(retry_after_s));
            }
            AppError::Unavailable { retry_after_s, cause, .. } => {
                response.headers_mut().insert("retry-after", HeaderValue::from(retry_after_s));
                if let Some(cause) = cause {
                    response.extensions_mut().insert(LoggedCause(cause));
                }
            }
            AppError::Moved(_) => {
                response.headers_mut().insert("retry-after", HeaderValue::from(1));
            }
            AppError::Internal(cause) => {
                response.extensions_mut().insert(LoggedCause(Arc::new(cause)));
            }
            _ => {}
        }
        response
    }
}

impl From<StoreError> for AppError {
    fn from(err: StoreError) -> AppError {
        match err {
            StoreError::NotFound => AppError::NotFound("Not found.".into()),
            StoreError::Conflict(message) => AppError::Conflict(capitalise(&message)),
            StoreError::InsufficientFunds { available_minor } => {
                AppError::Refused(Refusal::InsufficientFunds {
                    needed_minor: None,
                    available_minor,
                })
            }
            StoreError::ExposureLimit { limit_minor } => {
                AppError::Refused(Refusal::ExposureLimit { limit_minor, this_bet: false })
            }
            StoreError::Fenced { .. } => AppError::Moved(MOVED.into()),
            err @ StoreError::Database(_) if err.is_unavailable() => {
                AppError::database_unavailable(err)
            }
            StoreError::Database(err) => AppError::Internal(err.into()),
            secret @ StoreError::Secret { .. } => AppError::Internal(secret.into()),
        }
    }
}

/// Whether `cause`'s chain holds a database error that means "unavailable" (see
/// `StoreError::is_unavailable`).
fn database_is_unavailable(cause: &anyhow::Error) -> bool {
    cause.chain().any(|link| {
        link.downcast_ref::<StoreError>().is_some_and(StoreError::is_unavailable)
            || link.downcast_ref::<sqlx::Error>().is_some_and(backlay_store::is_unavailable)
    })
}

/// What a request hears while the database is not answering.
pub const DATABASE_UNAVAILABLE: &str =
    "The exchange cannot reach its database just now. Try again in a moment.";

/// What a command hears when its market or table changed servers and was not taken over in time.
pub const MOVED: &str = "This market is moving to another server. Try again in a moment.";

/// Gives a store lookup a message that names what was not found.
pub trait OrNotFound<T> {
    fn or_not_found(self, message: impl FnOnce() -> String) -> Result<T, AppError>;
}

impl<T> OrNotFound<T> for Result<T, StoreError> {
    fn or_not_found(self, message: impl FnOnce() -> String) -> Result<T, AppError> {
        self.map_err(|err| match err {
            StoreError::NotFound => AppError::NotFound(message()),
            other => other.into(),
        })
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => {
            let mut out: String = first.to_uppercase().collect();
            out.push_str(chars.as_str());
            if !out.ends_with('.') {
                out.push('.');
            }
            out
        }
        None => String::new(),
    }
}

/// A panicking handler answers a plain 500 in the envelope; the panic message goes to the log.
pub fn panic_response(panic: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let message = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into());
    AppError::Internal(anyhow::anyhow!("a request handler panicked: {message}")).into_response()
}

/// Logs each server error once, with its cause chain; the client only sees a generic message.
/// The line is inside the request's span, which names the request and its id
/// ([`crate::request_log`]).
pub async fn log_server_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if response.status() == StatusCode::INTERNAL_SERVER_ERROR {
        match response.extensions().get::<LoggedCause>() {
            Some(LoggedCause(cause)) => tracing::error!("server error: {cause:#}"),
            None => tracing::error!("server error"),
        }
    } else if let Some(LoggedCause(cause)) = response.extensions().get::<LoggedCause>() {
        // A 503 for database trouble: the operator should see why, once.
        tracing::warn!("unavailable: {cause:#}");
    }
    response
}
