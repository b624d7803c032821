//! The seamless wallet's routes, `POST /api/wallet/{balance,debit,credit,rollback}`: no user
//! log-in, a provider's signature instead. Each route reads the raw body (the signature covers
//! its exact bytes) and hands it to [`backlay_casino_runtime::wallet::handle`], which the built-in provider
//! calls too. The protocol is in docs/wallet.md.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_casino_runtime::wallet::{
    handle, refuse_unread, BalanceAnswer, BalanceRequest, CreditRequest, DebitRequest, MoveAnswer,
    RefusalData, RollbackRequest, SignedBy, WalletCall, WalletError,
};
use backlay_kit::error::{ok, Envelope};
use backlay_kit::input::MAX_BODY_BYTES;
use backlay_operator::session::ClientIp;
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(wallet_balance))
        .routes(routes!(wallet_debit))
        .routes(routes!(wallet_credit))
        .routes(routes!(wallet_rollback))
}

async fn answer(
    state: AppState,
    call: WalletCall,
    ip: Option<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let signed = SignedBy::from_headers(&headers);
    let body = match body {
        Ok(body) => body,
        Err(rejection) => {
            let refusal = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                WalletError::refuse(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    format!(
                        "The request body is too large: the limit is {} KiB.",
                        MAX_BODY_BYTES / 1024
                    ),
                )
            } else {
                WalletError::refuse(
                    StatusCode::BAD_REQUEST,
                    "bad_request",
                    "The request body could not be read.",
                )
            };
            return refuse_unread(&state, call, &signed, refusal, ip.as_deref())
                .await
                .into_response();
        }
    };
    match handle(&state, call, &signed, &body, ip.as_deref()).await {
        Ok(data) => ok(data).into_response(),
        Err(refusal) => refusal.into_response(),
    }
}

#[utoipa::path(post, path = "/wallet/balance", tag = "wallet", request_body = BalanceRequest,
    params(
        ("X-Backlay-Provider" = String, Header, description = "The provider's code"),
        ("X-Backlay-Timestamp" = String, Header, description = "Epoch milliseconds; within 30 s of the server's clock"),
        ("X-Backlay-Signature" = String, Header, description = "hex HMAC-SHA256(secret, timestamp + \".\" + raw body)"),
    ),
    responses((status = 200, body = Envelope<BalanceAnswer>), (status = 400, body = Envelope<RefusalData>),
        (status = 401, body = Envelope<RefusalData>, description = "missing or bad signature, stale timestamp, unknown token")))]
async fn wallet_balance(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(state, WalletCall::Balance, ip, headers, body).await
}

#[utoipa::path(post, path = "/wallet/debit", tag = "wallet", request_body = DebitRequest,
    params(
        ("X-Backlay-Provider" = String, Header, description = "The provider's code"),
        ("X-Backlay-Timestamp" = String, Header, description = "Epoch milliseconds; within 30 s of the server's clock"),
        ("X-Backlay-Signature" = String, Header, description = "hex HMAC-SHA256(secret, timestamp + \".\" + raw body)"),
    ),
    responses((status = 200, body = Envelope<MoveAnswer>, description = "debited; a repeated tx_id gets the first answer"),
        (status = 400, body = Envelope<RefusalData>), (status = 401, body = Envelope<RefusalData>),
        (status = 409, body = Envelope<RefusalData>, description = "round closed, tx_id reused for another call"),
        (status = 422, body = Envelope<RefusalData>, description = "insufficient funds")))]
async fn wallet_debit(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(state, WalletCall::Debit, ip, headers, body).await
}

#[utoipa::path(post, path = "/wallet/credit", tag = "wallet", request_body = CreditRequest,
    params(
        ("X-Backlay-Provider" = String, Header, description = "The provider's code"),
        ("X-Backlay-Timestamp" = String, Header, description = "Epoch milliseconds; within 30 s of the server's clock"),
        ("X-Backlay-Signature" = String, Header, description = "hex HMAC-SHA256(secret, timestamp + \".\" + raw body)"),
    ),
    responses((status = 200, body = Envelope<MoveAnswer>, description = "credited, the round settled"),
        (status = 400, body = Envelope<RefusalData>), (status = 401, body = Envelope<RefusalData>),
        (status = 404, body = Envelope<RefusalData>, description = "unknown debit"),
        (status = 409, body = Envelope<RefusalData>, description = "round already settled or rolled back")))]
async fn wallet_credit(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(state, WalletCall::Credit, ip, headers, body).await
}

#[utoipa::path(post, path = "/wallet/rollback", tag = "wallet", request_body = RollbackRequest,
    params(
        ("X-Backlay-Provider" = String, Header, description = "The provider's code"),
        ("X-Backlay-Timestamp" = String, Header, description = "Epoch milliseconds; within 30 s of the server's clock"),
        ("X-Backlay-Signature" = String, Header, description = "hex HMAC-SHA256(secret, timestamp + \".\" + raw body)"),
    ),
    responses((status = 200, body = Envelope<MoveAnswer>, description = "the debit undone"),
        (status = 400, body = Envelope<RefusalData>), (status = 401, body = Envelope<RefusalData>),
        (status = 404, body = Envelope<RefusalData>, description = "unknown debit"),
        (status = 409, body = Envelope<RefusalData>, description = "round settled, or the debit already rolled back")))]
async fn wallet_rollback(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    answer(state, WalletCall::Rollback, ip, headers, body).await
}
