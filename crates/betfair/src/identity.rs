//! Betfair's identity calls, as betfairlightweight makes them against `identity_uri`:
//!
//! - `POST login` (interactive) and `POST certlogin` (non-interactive; Backlay cannot see a
//!   client certificate behind its HTTP port, so both check the name and password alike), a
//!   form `username=…&password=…`. Answers `{"token","product","status":"SUCCESS","error":""}`
//!   and `{"sessionToken","loginStatus":"SUCCESS"}`; a refusal is the same shape with Betfair's
//!   code (`INVALID_USERNAME_OR_PASSWORD`, `ACCOUNT_ALREADY_LOCKED`, …), always HTTP 200.
//! - `POST keepAlive` and `POST logout` with `X-Authentication`: the session lives on (its
//!   expiry moves to a full session length from now, never past 7 days from its log-in:
//!   `backlay_store::sessions::MAX_SESSION_LIFE_MS`) or ends. Only a session this log-in
//!   opened is kept alive: a web app's token answers `NO_SESSION`.
//!
//! The log-in is the web app's, throttled the same way (`backlay_operator::session::check_password`). A client
//! whose password must still be changed is told `CHANGE_PASSWORD_REQUIRED`; one with security
//! auth (TOTP) on, `PENDING_AUTH` (the code step is the web app's); an operator account,
//! `AGENT_CLIENT_MASTER` (bots bet as clients).

use axum::extract::{rejection::FormRejection, State};
use axum::http::HeaderMap;
use axum::routing::post;
use axum::{Form, Json, Router};
use backlay_store::sessions::SessionKind;
use backlay_store::users::Role;
use serde::Deserialize;
use serde_json::{json, Value};

use super::session_user;
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;
use backlay_kit::password::PASSWORD_MAX_CHARS;
use backlay_operator::session::check_password;
use backlay_operator::session::{start_session, ClientIp, Device};
use backlay_operator::AppState;

pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/betfair/identity/login", post(login_interactive))
        .route("/betfair/identity/certlogin", post(login_certificate))
        .route("/betfair/identity/keepAlive", post(keep_alive))
        .route("/betfair/identity/logout", post(logout))
}

#[derive(Deserialize)]
struct LoginForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
}

/// A log-in's outcome: the session token, or Betfair's code for why not.
type LoginOutcome = Result<String, &'static str>;

async fn log_in(
    state: &AppState,
    ip: Option<&str>,
    device: &Device,
    form: Result<Form<LoginForm>, FormRejection>,
) -> LoginOutcome {
    let Ok(Form(form)) = form else { return Err("INPUT_VALIDATION_ERROR") };
    let user_name = form.username.trim();
    if user_name.is_empty()
        || user_name.chars().count() > 64
        || form.password.is_empty()
        || form.password.chars().count() > PASSWORD_MAX_CHARS * 2
    {
        return Err("INPUT_VALIDATION_ERROR");
    }
    let refused = |err: AppError| match err {
        AppError::Invalid { .. } => "INVALID_USERNAME_OR_PASSWORD",
        AppError::Unprocessable(_) => "ACCOUNT_ALREADY_LOCKED",
        // A time-out or self-exclusion (issue 33).
        AppError::Refused(_) => "ACCOUNT_ALREADY_LOCKED",
        AppError::TooManyRequests { .. } | AppError::Busy { .. } => {
            "TEMPORARY_BAN_TOO_MANY_REQUESTS"
        }
        other => {
            tracing::error!("bot log-in failed: {other}");
            "UNEXPECTED_ERROR"
        }
    };
    let (user, attempt) =
        check_password(state, user_name, form.password, ip, device).await.map_err(refused)?;
    // The password was right: whatever is refused now does not count as a failure.
    let unusable = if user.role != Role::Client {
        Some("AGENT_CLIENT_MASTER")
    } else if user.is_change_password {
        Some("CHANGE_PASSWORD_REQUIRED")
    } else {
        match state.store.totp_state(user.id).await {
            Ok(totp) if totp.enabled => Some("PENDING_AUTH"),
            Ok(_) => None,
            Err(err) => return Err(refused(err.into())),
        }
    };
    if let Some(code) = unusable {
        attempt.release().await.map_err(|e| refused(e.into()))?;
        return Err(code);
    }
    attempt.succeeded(now_ms()).await.map_err(|e| refused(e.into()))?;
    let session =
        start_session(state, &user, ip, device, SessionKind::Bot).await.map_err(refused)?;
    Ok(session.token)
}

fn app_key(headers: &HeaderMap) -> &str {
    headers.get("x-application").and_then(|v| v.to_str().ok()).unwrap_or("")
}

/// The interactive answer shape, which keep-alive and log-out share.
fn interactive_answer(headers: &HeaderMap, outcome: Result<String, &str>) -> Json<Value> {
    Json(match outcome {
        Ok(token) => {
            json!({ "token": token, "product": app_key(headers), "status": "SUCCESS", "error": "" })
        }
        Err(code) => {
            json!({ "token": "", "product": app_key(headers), "status": "FAIL", "error": code })
        }
    })
}

async fn login_interactive(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    device: Device,
    headers: HeaderMap,
    form: Result<Form<LoginForm>, FormRejection>,
) -> Json<Value> {
    let outcome = log_in(&state, ip.as_deref(), &device, form).await;
    interactive_answer(&headers, outcome)
}

async fn login_certificate(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    device: Device,
    form: Result<Form<LoginForm>, FormRejection>,
) -> Json<Value> {
    Json(match log_in(&state, ip.as_deref(), &device, form).await {
        Ok(token) => json!({ "sessionToken": token, "loginStatus": "SUCCESS" }),
        Err(code) => json!({ "loginStatus": code }),
    })
}

/// The session the call names in `X-Authentication`, and its token.
async fn session_of(state: &AppState, headers: &HeaderMap) -> Result<(i64, String), &'static str> {
    let token = headers
        .get("x-authentication")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 256)
        .ok_or("NO_SESSION")?;
    let caller = session_user(state, token).await.map_err(|_| "NO_SESSION")?;
    Ok((caller.session_id, token.to_string()))
}

async fn keep_alive(State(state): State<AppState>, headers: HeaderMap) -> Json<Value> {
    let outcome = async {
        let (session_id, token) = session_of(&state, &headers).await?;
        let extended = async {
            let mut writer = state.store.begin_write().await?;
            let wanted = now_ms() + state.config.session_ttl_ms;
            let bot = writer.extend_bot_session(session_id, wanted).await?;
            writer.commit().await.map(|()| bot)
        };
        let bot = extended.await.map_err(|err| {
            tracing::error!("bot keep-alive failed: {err}");
            "UNEXPECTED_ERROR"
        })?;
        // A web app's session is not a bot's to keep alive.
        if !bot {
            return Err("NO_SESSION");
        }
        Ok(token)
    }
    .await;
    interactive_answer(&headers, outcome)
}

async fn logout(State(state): State<AppState>, headers: HeaderMap) -> Json<Value> {
    let outcome = async {
        let (session_id, token) = session_of(&state, &headers).await?;
        let revoked = async {
            let mut writer = state.store.begin_write().await?;
            writer.revoke_session(session_id, now_ms()).await?;
            writer.commit().await
        };
        revoked.await.map_err(|err| {
            tracing::error!("bot log-out failed: {err}");
            "UNEXPECTED_ERROR"
        })?;
        Ok(token)
    }
    .await;
    interactive_answer(&headers, outcome)
}
