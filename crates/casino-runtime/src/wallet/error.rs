//! A refused wallet call (`{status: false, message, data: {code}}` with a 4xx), or our own
//! failure.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use backlay_store::StoreError;
use serde::Serialize;
use utoipa::ToSchema;

use backlay_kit::error::{AppError, Envelope, FieldErrors};

/// A refused call, or our own failure.
#[derive(Debug)]
pub enum WalletError {
    Refused { status: StatusCode, code: &'static str, message: String, errors: FieldErrors },
    Internal(anyhow::Error),
}

impl WalletError {
    pub fn refuse(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> WalletError {
        WalletError::Refused { status, code, message: message.into(), errors: FieldErrors::new() }
    }

    pub(super) fn field(field: &str, message: impl Into<String>) -> WalletError {
        let message = message.into();
        WalletError::Refused {
            status: StatusCode::BAD_REQUEST,
            code: "bad_request",
            message: message.clone(),
            errors: FieldErrors::from([(field.to_string(), message)]),
        }
    }

    /// The HTTP status the call is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            WalletError::Refused { status, .. } => *status,
            WalletError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The machine-readable reason (`bad_signature`, `insufficient_funds` …).
    pub fn code(&self) -> &'static str {
        match self {
            WalletError::Refused { code, .. } => code,
            WalletError::Internal(_) => "internal",
        }
    }

    /// What a person reads.
    pub fn message(&self) -> String {
        match self {
            WalletError::Refused { message, .. } => message.clone(),
            WalletError::Internal(_) => {
                "Something went wrong on our side. Please try again.".into()
            }
        }
    }
}

impl From<StoreError> for WalletError {
    fn from(err: StoreError) -> WalletError {
        WalletError::Internal(err.into())
    }
}

impl From<anyhow::Error> for WalletError {
    fn from(err: anyhow::Error) -> WalletError {
        WalletError::Internal(err)
    }
}

/// Bad input found by the shared JSON parser: a 400 naming the field.
impl From<AppError> for WalletError {
    fn from(err: AppError) -> WalletError {
        match err {
            AppError::Invalid { message, errors } => WalletError::Refused {
                status: StatusCode::BAD_REQUEST,
                code: "bad_request",
                message,
                errors,
            },
            AppError::Internal(cause) => WalletError::Internal(cause),
            other => WalletError::refuse(other.status_code(), "refused", other.to_string()),
        }
    }
}

/// `data` of a refusal.
#[derive(Serialize, ToSchema)]
pub struct RefusalData {
    /// bad_signature, missing_signature, stale_timestamp, unknown_provider, invalid_token,
    /// insufficient_funds, bet_not_allowed, unknown_debit, round_settled, already_rolled_back, tx_id_reused …
    pub code: String,
    /// Field → what is wrong, for a 400.
    #[serde(skip_serializing_if = "FieldErrors::is_empty")]
    pub errors: FieldErrors,
}

impl IntoResponse for WalletError {
    fn into_response(self) -> Response {
        match self {
            WalletError::Refused { status, code, message, errors } => {
                let data = RefusalData { code: code.to_string(), errors };
                (status, Json(Envelope { status: false, message, data })).into_response()
            }
            // Logged once by the API's middleware, never shown.
            WalletError::Internal(cause) => AppError::Internal(cause).into_response(),
        }
    }
}

pub(super) fn unauthorised(code: &'static str, message: impl Into<String>) -> WalletError {
    WalletError::refuse(StatusCode::UNAUTHORIZED, code, message)
}

pub(super) fn conflict(code: &'static str, message: impl Into<String>) -> WalletError {
    WalletError::refuse(StatusCode::CONFLICT, code, message)
}
