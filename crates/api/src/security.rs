//! Security auth (API.md "Auth and user"): a TOTP second factor a user turns on for their own
//! account, and the second step of log-in once it is on.
//!
//! Turning it on takes two calls: `user/security/setup` makes a pending secret and shows it
//! (with an `otpauth://` URI for the QR code); `user/security/enable` turns it on once the user
//! types a code their app computed from it, which proves the app holds the secret. From then on
//! `user/login` with the right password answers `{otp_required: true, otp_token}` instead of a
//! session, and `user/verifyOtp` trades that token and a code for the session:
//!
//! ```text
//! POST user/login     {user_name, password}  → {otp_required: true, otp_token: "Yq3…"}
//! POST user/verifyOtp {otp_token, otp: "287082"} → {token, user_id, …, security_enabled: 1}
//! ```
//!
//! The log-in token lives [`OTP_CHALLENGE_TTL_MS`], is stored hashed, is used once, and dies
//! after [`MAX_WRONG_CODES_PER_CHALLENGE`] wrong codes. Wrong codes also count against the log-in
//! throttle of the user name and address, and the password's failure count is only cleared once
//! the code is right too, so knowing the password does not buy unlimited code guesses.
//! A code is refused if its step was already used (see [`backlay_kit::totp`]).

use axum::extract::State;
use backlay_office_store::audit::NewAuditEntry;
use backlay_store::safer::LoginResult;
use backlay_store::security::NewOtpChallenge;
use backlay_store::sessions::SessionKind;
use backlay_store::users::User;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::clock::now_ms;
use backlay_kit::error::{ok, ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{ApiJson, Checks};
use backlay_kit::password::PASSWORD_MAX_CHARS;
use backlay_kit::throttle::AttemptKeys;
use backlay_kit::totp::{self, Check, Secret};
use backlay_office_store::AuditWrites;
use backlay_operator::session::{
    insert_session, lock_refusal, new_token, token_hash, too_many_attempts, ClientIp, CurrentUser,
    Device, LoginData,
};
use backlay_operator::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(verify_otp))
        .routes(routes!(setup))
        .routes(routes!(enable))
        .routes(routes!(disable))
        .routes(routes!(status))
}

/// The name authenticator apps show next to the code.
pub const ISSUER: &str = "Backlay";
/// How long a log-in waits for its code.
pub const OTP_CHALLENGE_TTL_MS: i64 = 5 * 60 * 1000;
/// Wrong codes one log-in may give before it must start again.
pub const MAX_WRONG_CODES_PER_CHALLENGE: i64 = 5;
/// Log-ins of one user waiting for a code at once; older ones are dropped.
pub const MAX_LIVE_CHALLENGES_PER_USER: i64 = 5;
/// Longest `otp_token` looked up (ours are 43 characters).
const OTP_TOKEN_MAX_CHARS: usize = 256;

const ENTER_THE_CODE: &str = "Enter the 6-digit code from your authenticator app.";
const WRONG_CODE: &str =
    "The code is not correct. Check that your phone's clock is right and try again.";
const USED_CODE: &str = "This code has already been used. Wait for the next one.";

/// What `user/login` answers instead of a session when security auth is on.
// `Debug` leaves the token out (not said above: the doc comment is the schema's description).
#[derive(Serialize, ToSchema)]
pub struct OtpRequired {
    /// Always true.
    pub otp_required: bool,
    /// Pass to `user/verifyOtp` with the code, within 5 minutes.
    pub otp_token: String,
}

impl std::fmt::Debug for OtpRequired {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OtpRequired")
            .field("otp_required", &self.otp_required)
            .finish_non_exhaustive()
    }
}

/// Opens a log-in challenge for a user whose password was right.
pub(crate) async fn open_otp_challenge(
    state: &AppState,
    user_id: i64,
    ip: Option<&str>,
) -> Result<OtpRequired, AppError> {
    let otp_token = new_token();
    let now = now_ms();
    let mut writer = state.store.begin_write().await?;
    writer
        .insert_otp_challenge(
            &NewOtpChallenge {
                user_id,
                token_hash: &token_hash(&otp_token),
                client_ip: ip,
                expires_at_ms: now + OTP_CHALLENGE_TTL_MS,
            },
            now,
            MAX_LIVE_CHALLENGES_PER_USER,
        )
        .await?;
    writer.commit().await?;
    Ok(OtpRequired { otp_required: true, otp_token })
}

fn log_in_again() -> AppError {
    AppError::Unauthorized("This log-in has expired or is no longer valid. Log in again.".into())
}

/// The active secret of a user with security auth on.
fn active_secret(state: &backlay_store::security::TotpState) -> Option<Secret> {
    Secret::from_base32(state.secret.as_deref().filter(|_| state.enabled)?)
}

fn audit_entry<'a>(user: &User, action: &'a str, ip: Option<&'a str>) -> NewAuditEntry<'a> {
    NewAuditEntry {
        actor_user_id: Some(user.id),
        action,
        target: format!("user:{}", user.id),
        detail: serde_json::json!({ "user_name": user.user_name }),
        client_ip: ip,
    }
}

#[derive(Deserialize, ToSchema)]
pub struct VerifyOtpRequest {
    /// From the `user/login` answer.
    pub otp_token: String,
    /// The 6-digit code.
    #[schema(pattern = "^[0-9]{6}$")]
    pub otp: String,
}

#[utoipa::path(post, path = "/user/verifyOtp", tag = "auth", request_body = VerifyOtpRequest,
    responses((status = 200, body = Envelope<LoginData>), (status = 400, description = "Missing or wrong code"),
        (status = 401, description = "The log-in token is unknown, expired, used or out of attempts: log in again"),
        (status = 422, description = "The account is locked"), (status = 429, description = "Too many failed attempts")))]
async fn verify_otp(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    device: Device,
    ApiJson(body): ApiJson<VerifyOtpRequest>,
) -> ApiResult<LoginData> {
    let otp_token = body.otp_token.trim();
    if otp_token.is_empty() || otp_token.len() > OTP_TOKEN_MAX_CHARS {
        return Err(log_in_again());
    }
    let code = totp::parse_code(&body.otp).ok_or_else(|| AppError::field("otp", ENTER_THE_CODE))?;
    let now = now_ms();
    let challenge = state
        .store
        .live_otp_challenge(&token_hash(otp_token), now, MAX_WRONG_CODES_PER_CHALLENGE)
        .await?
        .ok_or_else(log_in_again)?;
    let user = state.store.user_by_id(challenge.user_id).await?;
    // Counted before the code is checked, like a password (see `throttle`).
    let keys = AttemptKeys::new(&user.user_name, ip.as_deref());
    let attempt = state.throttle.begin(&keys, now).await?.map_err(too_many_attempts)?;
    let totp_state = state.store.totp_state(user.id).await?;
    // Turned off since the password was checked: nothing left to verify against.
    let secret = active_secret(&totp_state).ok_or_else(log_in_again)?;

    let refused = match totp::check(&secret, &code, now, totp_state.last_step) {
        Check::Accepted { step } => {
            if let Some(refusal) = lock_refusal(&state.store, &user).await? {
                return Err(refusal);
            }
            backlay_operator::safer::refuse_if_blocked(&state, user.id).await?;
            let mut writer = state.store.begin_write().await?;
            if !writer
                .consume_otp_challenge(challenge.id, now, MAX_WRONG_CODES_PER_CHALLENGE)
                .await?
            {
                return Err(log_in_again());
            }
            // Lost a race with another request using the same code: a replay after all.
            if writer.use_totp_step(user.id, &totp_state, step).await? {
                let data = insert_session(
                    &state,
                    &mut writer,
                    &user,
                    ip.as_deref(),
                    &device,
                    SessionKind::Web,
                    now,
                    true,
                )
                .await?;
                writer.commit().await?;
                // Logged in already: failing to clear the name's count only leaves it to expire.
                if let Err(err) = attempt.succeeded(now_ms()).await {
                    tracing::error!("a log-in's throttle count could not be cleared: {err:#}");
                }
                return Ok(ok_with("Logged in.", data));
            }
            USED_CODE
        }
        Check::Replayed => USED_CODE,
        Check::Wrong => WRONG_CODE,
    };
    let mut writer = state.store.begin_write().await?;
    let attempts = writer.record_wrong_otp(challenge.id, MAX_WRONG_CODES_PER_CHALLENGE).await?;
    writer.record_login(user.id, now, ip.as_deref(), &device.0, LoginResult::WrongCode).await?;
    writer.commit().await?;
    attempt.failed(now_ms()).await?;
    match attempts {
        Some(attempts) if attempts < MAX_WRONG_CODES_PER_CHALLENGE => {
            Err(AppError::field("otp", refused))
        }
        _ => Err(AppError::field(
            "otp",
            format!("{refused} Too many wrong codes for this log-in: log in again."),
        )),
    }
}

/// A new secret for the authenticator app.
// `Debug` prints neither the secret nor the URI that holds it.
#[derive(Serialize, ToSchema)]
pub struct SecuritySetup {
    /// Base32, for typing into the app by hand.
    pub secret: String,
    /// `otpauth://totp/Backlay:<user_name>?secret=…&issuer=Backlay`, for a QR code.
    pub otpauth_uri: String,
}

impl std::fmt::Debug for SecuritySetup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SecuritySetup").finish_non_exhaustive()
    }
}

/// Makes a new pending secret, replacing any earlier one that was not enabled.
#[utoipa::path(post, path = "/user/security/setup", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Envelope<SecuritySetup>), (status = 401), (status = 409, description = "Security auth is already on")))]
async fn setup(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<SecuritySetup> {
    let secret = Secret::generate();
    let mut writer = state.store.begin_write().await?;
    if !writer.set_pending_totp_secret(authed.user.id, &secret.to_base32()).await? {
        return Err(AppError::Conflict(
            "Security auth is already on. Turn it off first to set up a new key.".into(),
        ));
    }
    writer.commit().await?;
    Ok(ok_with(
        "Scan the QR code with your authenticator app, then enter the code it shows.",
        SecuritySetup {
            secret: secret.to_base32(),
            otpauth_uri: totp::otpauth_uri(ISSUER, &authed.user.user_name, &secret),
        },
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct EnableRequest {
    /// A current code from the app, for the secret `user/security/setup` gave.
    #[schema(pattern = "^[0-9]{6}$")]
    pub otp: String,
}

#[utoipa::path(post, path = "/user/security/enable", tag = "auth", request_body = EnableRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400, description = "Missing or wrong code"), (status = 401),
        (status = 409, description = "Already on, or not set up")))]
async fn enable(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<EnableRequest>,
) -> ApiResult<Option<String>> {
    let code = totp::parse_code(&body.otp).ok_or_else(|| AppError::field("otp", ENTER_THE_CODE))?;
    let user = &authed.user;
    let totp_state = state.store.totp_state(user.id).await?;
    if totp_state.enabled {
        return Err(AppError::Conflict("Security auth is already on.".into()));
    }
    let pending_text = totp_state.pending_secret.as_deref().ok_or_else(|| {
        AppError::Conflict("Set up security auth first, then enter the code your app shows.".into())
    })?;
    let pending = Secret::from_base32(pending_text).ok_or_else(|| {
        AppError::Internal(anyhow::anyhow!("user {} has a malformed pending TOTP secret", user.id))
    })?;
    let now = now_ms();
    let Check::Accepted { step } = totp::check(&pending, &code, now, None) else {
        return Err(AppError::field("otp", WRONG_CODE));
    };
    let mut writer = state.store.begin_write().await?;
    if !writer.enable_totp(user.id, &totp_state, step).await? {
        return Err(AppError::Conflict(
            "Security auth was changed meanwhile (turned on, or a new key was made). Reload the page and try again.".into(),
        ));
    }
    writer.audit(audit_entry(user, "user.security_enable", ip.as_deref()), now).await?;
    writer.commit().await?;
    Ok(ok_with("Security auth is on. Your next log-in will ask for a code.", None))
}

#[derive(Deserialize, ToSchema)]
pub struct DisableRequest {
    /// A current code from the app.
    #[schema(pattern = "^[0-9]{6}$")]
    pub otp: String,
    /// The account's password.
    pub password: String,
}

/// Needs both the password and a code; guesses count against the log-in throttle.
#[utoipa::path(post, path = "/user/security/disable", tag = "auth", request_body = DisableRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<Option<String>>), (status = 400, description = "Missing or wrong code or password"),
        (status = 401), (status = 409, description = "Security auth is not on"), (status = 429),
        (status = 503, description = "The server is busy hashing other passwords: try again after Retry-After")))]
async fn disable(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<DisableRequest>,
) -> ApiResult<Option<String>> {
    let mut checks = Checks::default();
    let code = totp::parse_code(&body.otp);
    if code.is_none() {
        checks.fail("otp", ENTER_THE_CODE);
    }
    if body.password.is_empty() {
        checks.fail("password", "Password is required.");
    } else if body.password.chars().count() > PASSWORD_MAX_CHARS * 2 {
        checks.fail("password", "Password is too long.");
    }
    checks.finish()?;
    let code = code.unwrap_or_default();

    let user = &authed.user;
    let totp_state = state.store.totp_state(user.id).await?;
    let Some(secret) = active_secret(&totp_state) else {
        return Err(AppError::Conflict("Security auth is not on.".into()));
    };
    // Guessing the password or the code through a stolen session is throttled like log-in.
    let keys = AttemptKeys::new(&user.user_name, ip.as_deref());
    let attempt = state.throttle.begin(&keys, now_ms()).await?.map_err(too_many_attempts)?;
    let mut checks = Checks::default();
    let hash = state.store.password_hash(user.id).await?;
    if !state.passwords.verify(body.password, hash).await? {
        checks.fail("password", "Password is incorrect.");
    }
    let now = now_ms();
    let step = match totp::check(&secret, &code, now, totp_state.last_step) {
        Check::Accepted { step } => Some(step),
        Check::Replayed => {
            checks.fail("otp", USED_CODE);
            None
        }
        Check::Wrong => {
            checks.fail("otp", WRONG_CODE);
            None
        }
    };
    if let Err(refused) = checks.finish() {
        attempt.failed(now_ms()).await?;
        return Err(refused);
    }
    // Both right: released, as before a success here cleared nothing.
    attempt.release().await?;
    let step = step.expect("an accepted code has a step");

    let mut writer = state.store.begin_write().await?;
    if !writer.use_totp_step(user.id, &totp_state, step).await? {
        return Err(AppError::field("otp", USED_CODE));
    }
    writer.disable_totp(user.id).await?;
    writer.audit(audit_entry(user, "user.security_disable", ip.as_deref()), now).await?;
    writer.commit().await?;
    Ok(ok_with("Security auth is off. Log-in asks only for your password again.", None))
}

#[derive(Serialize, ToSchema, Debug)]
pub struct SecurityStatus {
    /// 1 when log-in asks for a code.
    pub enabled: i64,
}

#[utoipa::path(get, path = "/user/security/status", tag = "auth", security(("bearer" = [])),
    responses((status = 200, body = Envelope<SecurityStatus>), (status = 401)))]
async fn status(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
) -> ApiResult<SecurityStatus> {
    let totp_state = state.store.totp_state(authed.user.id).await?;
    Ok(ok(SecurityStatus { enabled: i64::from(totp_state.enabled) }))
}

#[cfg(test)]
mod tests {
    use super::{OtpRequired, SecuritySetup};

    #[test]
    fn debug_leaves_secrets_and_tokens_out() {
        let challenge = OtpRequired { otp_required: true, otp_token: "tok-123456".into() };
        let setup = SecuritySetup {
            secret: "JBSWY3DPEHPK3PXP".into(),
            otpauth_uri: "otpauth://totp/Backlay:demo?secret=JBSWY3DPEHPK3PXP&issuer=Backlay"
                .into(),
        };
        let printed = format!("{challenge:?} {setup:?}");
        assert!(!printed.contains("tok-123456"), "{printed}");
        assert!(!printed.contains("JBSWY3DPEHPK3PXP"), "{printed}");
    }
}
