//! Log-in, sign-up, log-out and change-password (API.md "Auth and user").
//!
//! Log-in answers the same "incorrect user name or password" for an unknown name and a wrong
//! password, after the same argon2 work. Repeated failures for one name or from one address get
//! 429 for a while (see `throttle`); each attempt is counted before its password is checked, so
//! attempts sent at once cannot outrun the count. A locked user is told so only after giving the right
//! password, so the lock does not reveal that the name exists. For a user with security auth on,
//! the right password opens no session yet: the answer is `{otp_required: true, otp_token}`, and
//! `user/verifyOtp` (see `security`) finishes the log-in.

use axum::extract::State;
use backlay_store::sessions::SessionKind;
use backlay_store::users::{NewUser, Role};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::now_ms;
use backlay_kit::error::{ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{text_field, user_name_field, ApiJson, Checks};
use backlay_kit::password::{password_rule_violation, PASSWORD_MAX_CHARS};
use backlay_kit::throttle::AttemptKeys;
use backlay_office_store::AuditWrites;
use backlay_operator::session::{
    check_password, confirm_own_password, start_session, too_many_sign_ups, Authed, ClientIp,
    Device, LoginData,
};
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(signup))
        .routes(routes!(logout))
        .routes(routes!(change_password))
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    pub user_name: String,
    pub password: String,
}

/// What `user/login` answers: a session, or, with security auth on, a request for the code.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum LoginAnswer {
    Session(LoginData),
    OtpRequired(super::security::OtpRequired),
}

#[utoipa::path(post, path = "/user/login", tag = "auth", request_body = LoginRequest,
    responses((status = 200, body = Envelope<LoginAnswer>), (status = 400, description = "Missing fields or incorrect user name or password"),
        (status = 422, description = "The account is locked"), (status = 429, description = "Too many failed attempts"),
        (status = 503, description = "The server is busy checking other log-ins: try again after Retry-After")))]
async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    device: Device,
    ApiJson(body): ApiJson<LoginRequest>,
) -> ApiResult<LoginAnswer> {
    let mut checks = Checks::default();
    let user_name = text_field(&mut checks, "user_name", "User name", &body.user_name, 64);
    if body.password.is_empty() {
        checks.fail("password", "Password is required.");
    } else if body.password.chars().count() > PASSWORD_MAX_CHARS * 2 {
        checks.fail("password", "Password is too long.");
    }
    checks.finish()?;

    let (user, attempt) =
        check_password(&state, &user_name, body.password, ip.as_deref(), &device).await?;
    if state.store.totp_state(user.id).await?.enabled {
        // The name's failure count is kept until the code is right too: clearing it here would let
        // someone who has the password reset it between rounds of code guesses. The attempt is
        // released.
        attempt.release().await?;
        let challenge = super::security::open_otp_challenge(&state, user.id, ip.as_deref()).await?;
        return Ok(ok_with(
            "Enter the code from your authenticator app.",
            LoginAnswer::OtpRequired(challenge),
        ));
    }
    attempt.succeeded(now_ms()).await?;
    let data = start_session(&state, &user, ip.as_deref(), &device, SessionKind::Web).await?;
    Ok(ok_with("Logged in.", LoginAnswer::Session(data)))
}

#[derive(Deserialize, ToSchema)]
pub struct SignupRequest {
    pub user_name: String,
    pub password: String,
    pub confirm_password: String,
    /// E.g. "+91".
    pub dial_code: String,
    pub mobile: String,
}

#[utoipa::path(post, path = "/user/signup", tag = "auth", request_body = SignupRequest,
    responses((status = 200, body = Envelope<LoginData>), (status = 400, description = "Field errors"),
        (status = 409, description = "User name taken"), (status = 422, description = "Sign-up is closed"),
        (status = 429, description = "Too many sign-ups from this address: try again after Retry-After"),
        (status = 503, description = "The server is busy hashing other passwords: try again after Retry-After")))]
async fn signup(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    device: Device,
    ApiJson(body): ApiJson<SignupRequest>,
) -> ApiResult<LoginData> {
    let settings = backlay_kit::settings::load(&state.store).await?;
    if settings.get("signup_enabled").map(String::as_str) == Some("0") {
        return Err(AppError::Unprocessable(
            "Sign-up is closed. Ask an agent for an account.".into(),
        ));
    }
    let mut checks = Checks::default();
    let user_name = user_name_field(&mut checks, "user_name", &body.user_name);
    if let Some(problem) = password_rule_violation(&body.password) {
        checks.fail("password", problem);
    }
    if body.confirm_password != body.password {
        checks.fail("confirm_password", "Passwords must match.");
    }
    let dial_code = body.dial_code.trim();
    if !(dial_code.starts_with('+')
        && (2..=5).contains(&dial_code.len())
        && dial_code[1..].chars().all(|c| c.is_ascii_digit()))
    {
        checks.fail("dial_code", "Choose a country dial code such as +91.");
    }
    let mobile = body.mobile.trim();
    if !((6..=15).contains(&mobile.len()) && mobile.chars().all(|c| c.is_ascii_digit())) {
        checks.fail("mobile", "Mobile number must be 6 to 15 digits.");
    }
    checks.finish()?;
    let user_name = user_name.expect("a user name that did not parse failed the checks");
    backlay_operator::safer::refuse_excluded_mobile(&state, dial_code, mobile).await?;

    // Only an admin or agent takes sign-ups (admin/settings checks that when the name is set).
    let parent_id = match settings
        .get("default_parent")
        .map(|name| name.trim())
        .filter(|name| !name.is_empty())
    {
        Some(name) => backlay_kit::settings::parent_named(&state.store, name).await?.map(|p| p.id),
        None => None,
    };
    // Counted per address before the hashing, as a log-in is (`backlay_kit::throttle`); an
    // address the server cannot tell counts under one shared key.
    let keys = AttemptKeys::sign_up(ip.as_deref().unwrap_or("unknown"));
    let attempt = state.throttle.begin(&keys, now_ms()).await?.map_err(too_many_sign_ups)?;
    let password_hash = state.passwords.hash(body.password).await?;
    // Hashed: it counts, whether or not the account is made below.
    attempt.counted(now_ms()).await?;
    let now = now_ms();
    let mut writer = state.store.begin_write().await?;
    let user_id = writer
        .insert_user(
            &NewUser {
                user_name: &user_name,
                password_hash: &password_hash,
                role: Role::Client,
                parent_id,
                is_change_password: false,
                dial_code: Some(dial_code),
                mobile: Some(mobile),
                partnership_bp: 0,
            },
            now,
        )
        .await?;
    writer
        .audit(
            backlay_office_store::audit::NewAuditEntry {
                actor_user_id: Some(user_id),
                action: "user.signup",
                target: format!("user:{user_id}"),
                detail: serde_json::json!({ "user_name": user_name, "parent_id": parent_id }),
                client_ip: ip.as_deref(),
            },
            now,
        )
        .await?;
    writer.apply_default_limits(user_id, now).await?;
    let user = writer.user_by_id(user_id).await?;
    writer.commit().await?;
    let data = start_session(&state, &user, ip.as_deref(), &device, SessionKind::Web).await?;
    Ok(ok_with("Welcome to Backlay.", data))
}

/// The spec's client sends `user_id` and `token`; the session ended is always the caller's own.
#[derive(Deserialize, ToSchema, Default)]
pub struct LogoutRequest {
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub user_id: Option<serde_json::Value>,
    #[serde(default)]
    pub token: Option<String>,
}

#[utoipa::path(post, path = "/user/logout", tag = "auth", request_body = LogoutRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 401, description = "No live session")))]
async fn logout(
    State(state): State<AppState>,
    authed: Authed,
    ApiJson(_body): ApiJson<LogoutRequest>,
) -> ApiResult<Option<String>> {
    let mut writer = state.store.begin_write().await?;
    writer.revoke_session(authed.session_id, now_ms()).await?;
    writer.commit().await?;
    Ok(ok_with("Logged out.", None))
}

#[derive(Deserialize, ToSchema)]
pub struct ChangePasswordRequest {
    /// The current password.
    pub master_password: String,
    pub new_password: String,
    pub confirm_password: String,
    /// Accepted for the spec's form; the current password is `master_password`.
    #[serde(default)]
    pub old_password: Option<String>,
}

#[utoipa::path(post, path = "/user/changePassword", tag = "auth", request_body = ChangePasswordRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400, description = "Field errors"), (status = 401), (status = 429),
        (status = 503, description = "The server is busy hashing other passwords: try again after Retry-After")))]
async fn change_password(
    State(state): State<AppState>,
    authed: Authed,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<ChangePasswordRequest>,
) -> ApiResult<Option<String>> {
    let mut checks = Checks::default();
    if body.master_password.is_empty() {
        checks.fail("master_password", "Current password is required.");
    }
    if body.new_password.is_empty() {
        checks.fail("new_password", "New password is required.");
    } else if let Some(problem) = password_rule_violation(&body.new_password) {
        checks.fail("new_password", problem);
    }
    if body.confirm_password.is_empty() {
        checks.fail("confirm_password", "Confirm the new password.");
    } else if body.confirm_password != body.new_password {
        checks.fail("confirm_password", "Passwords must match.");
    }
    if !body.master_password.is_empty() && body.master_password == body.new_password {
        checks.fail("new_password", "The new password must differ from the current one.");
    }
    checks.finish()?;

    confirm_own_password(
        &state,
        &authed.user,
        body.master_password,
        ip.as_deref(),
        "master_password",
        "Current password is incorrect.",
    )
    .await?;
    let new_hash = state.passwords.hash(body.new_password).await?;
    let now = now_ms();
    let mut writer = state.store.begin_write().await?;
    writer.set_password(authed.user.id, &new_hash, false).await?;
    let revoked = writer.revoke_user_sessions(authed.user.id, authed.session_id, now).await?;
    writer
        .audit(
            backlay_office_store::audit::NewAuditEntry {
                actor_user_id: Some(authed.user.id),
                action: "user.password_change",
                target: format!("user:{}", authed.user.id),
                detail: serde_json::json!({ "other_sessions_revoked": revoked }),
                client_ip: ip.as_deref(),
            },
            now,
        )
        .await?;
    writer.commit().await?;
    Ok(ok_with("Password changed.", None))
}
