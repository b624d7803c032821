//! The exchange endpoints in Betfair's two forms, and its errors:
//!
//! - JSON-RPC 2.0: `POST /betfair/exchange/betting/json-rpc/v1` with
//!   `{"jsonrpc":"2.0","method":"SportsAPING/v1.0/listEventTypes","params":{…},"id":1}` (or an
//!   array of such calls, at most [`MAX_BATCH`]); the account API at `account/json-rpc/v1` with
//!   `AccountAPING/v1.0/<op>`. Every answer is HTTP 200, a refusal included: betfairlightweight
//!   raises a bare status error on anything else, before it reads the body, so a bot would never
//!   see the error code. A refusal is `{"error":{"code":-32099,"message":"ANGX-0003","data":
//!   {"APINGException":{"errorCode":…,"errorDetails":…,"requestUUID":…},"exceptionname":…}}}`.
//! - REST: `POST /betfair/exchange/betting/rest/v1.0/<op>/` with the params as the body; the
//!   result alone with 200, or 400 with `{"detail":{"APINGException":{…}},"faultcode":"Client",
//!   "faultstring":"ANGX-0003"}`.
//!
//! Business refusals of orders (bad odds, funds, a suspended market) are not errors here: they
//! are reports with `status: FAILURE` in the operation's own result.

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};

use super::{account, caller, catalogue, orders, Caller};
use backlay_kit::error::AppError;
use backlay_operator::AppState;

/// Largest request body read: 200 place instructions take about 60 kB.
const MAX_BODY_BYTES: usize = 512 * 1024;
/// Most calls in one JSON-RPC batch.
pub(crate) const MAX_BATCH: usize = 20;

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/betfair/exchange/betting/json-rpc/v1", post(betting_json_rpc))
        .route("/betfair/exchange/account/json-rpc/v1", post(account_json_rpc))
        .route("/betfair/exchange/betting/rest/v1.0/{operation}", post(betting_rest))
        .route("/betfair/exchange/betting/rest/v1.0/{operation}/", post(betting_rest))
        .route("/betfair/exchange/account/rest/v1.0/{operation}", post(account_rest))
        .route("/betfair/exchange/account/rest/v1.0/{operation}/", post(account_rest))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
}

/// Betting or account: the two APIs differ in method prefix and exception name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Api {
    Betting,
    Account,
}

impl Api {
    fn method_prefix(self) -> &'static str {
        match self {
            Api::Betting => "SportsAPING/v1.0/",
            Api::Account => "AccountAPING/v1.0/",
        }
    }

    fn exception_name(self) -> &'static str {
        match self {
            Api::Betting => "APINGException",
            Api::Account => "AccountAPINGException",
        }
    }

    fn code_prefix(self) -> &'static str {
        match self {
            Api::Betting => "ANGX",
            Api::Account => "AANGX",
        }
    }
}

/// An APINGException: one of Betfair's error codes, and what a person can do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ApiNgError {
    pub code: &'static str,
    pub details: String,
}

impl ApiNgError {
    pub(crate) fn new(code: &'static str, details: impl Into<String>) -> ApiNgError {
        ApiNgError { code, details: details.into() }
    }

    /// INVALID_INPUT_DATA naming what was wrong.
    pub(crate) fn input(details: impl Into<String>) -> ApiNgError {
        ApiNgError::new("INVALID_INPUT_DATA", details)
    }

    /// Our fault: logged, never shown.
    pub(crate) fn unexpected(err: impl std::fmt::Display) -> ApiNgError {
        tracing::error!("bot API call failed: {err}");
        ApiNgError::new("UNEXPECTED_ERROR", "Something went wrong on our side; try again.")
    }

    /// Betfair's number for the code (`ANGX-0003` for INVALID_SESSION_INFORMATION).
    fn number(&self) -> u32 {
        match self.code {
            "TOO_MUCH_DATA" => 1,
            "INVALID_INPUT_DATA" => 2,
            "INVALID_SESSION_INFORMATION" => 3,
            "NO_APP_KEY" => 4,
            "NO_SESSION" => 5,
            "INVALID_APP_KEY" => 7,
            "TOO_MANY_REQUESTS" => 8,
            "SERVICE_BUSY" => 9,
            "TIMEOUT_ERROR" => 10,
            "REQUEST_SIZE_EXCEEDS_LIMIT" => 11,
            "ACCESS_DENIED" => 12,
            _ => 6, // UNEXPECTED_ERROR
        }
    }

    fn exception(&self, api: Api) -> Value {
        json!({
            api.exception_name(): {
                "errorCode": self.code,
                "errorDetails": self.details,
                "requestUUID": format!("{:032x}", rand::random::<u128>()),
            },
            "exceptionname": api.exception_name(),
        })
    }

    fn fault_string(&self, api: Api) -> String {
        format!("{}-{:04}", api.code_prefix(), self.number())
    }
}

impl From<AppError> for ApiNgError {
    /// The web API's refusals in Betfair's codes, for the reads that go through it.
    fn from(err: AppError) -> ApiNgError {
        match err {
            AppError::Invalid { message, .. }
            | AppError::NotFound(message)
            | AppError::Conflict(message)
            | AppError::Unprocessable(message)
            | AppError::MethodNotAllowed(message) => ApiNgError::input(message),
            AppError::Refused(refusal) => ApiNgError::input(refusal.to_string()),
            AppError::Unauthorized(message) => {
                ApiNgError::new("INVALID_SESSION_INFORMATION", message)
            }
            AppError::Forbidden(message) => ApiNgError::new("ACCESS_DENIED", message),
            AppError::PasswordChangeRequired => ApiNgError::new(
                "ACCESS_DENIED",
                "Change the password given to you in the web app before using the bot API.",
            ),
            AppError::PayloadTooLarge(message) => {
                ApiNgError::new("REQUEST_SIZE_EXCEEDS_LIMIT", message)
            }
            AppError::TooManyRequests { message, .. } => {
                ApiNgError::new("TOO_MANY_REQUESTS", message)
            }
            AppError::Busy { message, .. }
            | AppError::Moved(message)
            | AppError::Unavailable { message, .. } => ApiNgError::new("SERVICE_BUSY", message),
            other => ApiNgError::unexpected(other),
        }
    }
}

impl From<backlay_store::StoreError> for ApiNgError {
    fn from(err: backlay_store::StoreError) -> ApiNgError {
        ApiNgError::from(AppError::from(err))
    }
}

/// One operation's answer: the `result`, or the exception.
pub(crate) type OpResult = Result<Value, ApiNgError>;

/// Runs one operation of `api` for the caller.
async fn run(
    state: &AppState,
    caller: &Caller,
    api: Api,
    operation: &str,
    params: Value,
) -> OpResult {
    let params = match params {
        Value::Null => Value::Object(Default::default()),
        Value::Object(_) => params,
        _ => return Err(ApiNgError::input("params must be a JSON object.")),
    };
    let answered = match api {
        Api::Betting => match catalogue::call(state, caller, operation, &params).await {
            Some(answer) => Some(answer),
            None => orders::call(state, caller, operation, &params).await,
        },
        Api::Account => account::call(state, caller, operation, &params).await,
    };
    answered.unwrap_or_else(|| {
        Err(ApiNgError::input(format!(
            "{operation} is not an operation of the {} API that Backlay offers (docs/bot-api.md lists them).",
            match api {
                Api::Betting => "betting",
                Api::Account => "account",
            }
        )))
    })
}

async fn betting_json_rpc(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    json_rpc(&state, &headers, Api::Betting, &body).await
}

async fn account_json_rpc(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    json_rpc(&state, &headers, Api::Account, &body).await
}

/// A JSON-RPC error answer (for errors of the envelope itself, before any operation ran).
fn rpc_error(code: i64, message: &str, id: Value) -> Value {
    json!({ "jsonrpc": "2.0", "error": { "code": code, "message": message }, "id": id })
}

async fn json_rpc(state: &AppState, headers: &HeaderMap, api: Api, body: &[u8]) -> Response {
    let request: Value = match serde_json::from_slice(body) {
        Ok(value) => value,
        Err(_) => return Json(rpc_error(-32700, "DSC-0008", Value::Null)).into_response(),
    };
    // The caller is looked up once for a whole batch.
    let who = caller(state, headers).await;
    match request {
        Value::Array(calls) if calls.is_empty() || calls.len() > MAX_BATCH => {
            Json(rpc_error(-32600, "DSC-0009", Value::Null)).into_response()
        }
        Value::Array(calls) => {
            let mut answers = Vec::with_capacity(calls.len());
            for call in calls {
                answers.push(one_call(state, &who, api, call).await);
            }
            Json(Value::Array(answers)).into_response()
        }
        call => Json(one_call(state, &who, api, call).await).into_response(),
    }
}

/// One JSON-RPC call's answer.
async fn one_call(
    state: &AppState,
    who: &Result<Caller, ApiNgError>,
    api: Api,
    call: Value,
) -> Value {
    let Value::Object(mut call) = call else {
        return rpc_error(-32600, "DSC-0009", Value::Null);
    };
    let id = call.remove("id").unwrap_or(Value::Null);
    let Some(operation) = call
        .get("method")
        .and_then(Value::as_str)
        .and_then(|m| m.strip_prefix(api.method_prefix()))
        .map(str::to_string)
    else {
        return rpc_error(-32601, "DSC-0021", id);
    };
    let params = call.remove("params").unwrap_or(Value::Null);
    let answer = match who {
        Ok(caller) => run(state, caller, api, &operation, params).await,
        Err(err) => Err(err.clone()),
    };
    match answer {
        Ok(result) => json!({ "jsonrpc": "2.0", "result": result, "id": id }),
        Err(err) => json!({
            "jsonrpc": "2.0",
            "error": { "code": -32099, "message": err.fault_string(api), "data": err.exception(api) },
            "id": id,
        }),
    }
}

async fn betting_rest(
    State(state): State<AppState>,
    Path(operation): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    rest(&state, &headers, Api::Betting, &operation, &body).await
}

async fn account_rest(
    State(state): State<AppState>,
    Path(operation): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    rest(&state, &headers, Api::Account, &operation, &body).await
}

async fn rest(
    state: &AppState,
    headers: &HeaderMap,
    api: Api,
    operation: &str,
    body: &[u8],
) -> Response {
    let answer = async {
        let params: Value = if body.iter().all(u8::is_ascii_whitespace) {
            Value::Null
        } else {
            serde_json::from_slice(body)
                .map_err(|e| ApiNgError::input(format!("The body is not JSON: {e}.")))?
        };
        let caller = caller(state, headers).await?;
        run(state, &caller, api, operation, params).await
    }
    .await;
    match answer {
        Ok(result) => Json(result).into_response(),
        Err(err) => (
            StatusCode::BAD_REQUEST,
            Json(json!({
                "detail": err.exception(api),
                "faultcode": "Client",
                "faultstring": err.fault_string(api),
            })),
        )
            .into_response(),
    }
}
