//! Sessions: who is calling (the bearer token → session → user, as axum extractors), and
//! opening a session once a log-in, a sign-up or the second step of security auth succeeded.
//!
//! - [`Authed`]: any live session, even one whose password must still be changed (used by
//!   log-out, change-password and the balance poll).
//! - [`CurrentUser`]: a live session whose password has been changed (every other user call);
//!   otherwise 428, so the client can send the user to the change-password page.
//! - [`Operator`]: an admin or agent (403 for a client).
//!
//! Tokens are 32 random bytes (base64url); only their SHA-256 is stored.

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use backlay_kit::config::Config;
use backlay_store::safer::{BlockKind, LoginResult};
use backlay_store::sessions::SessionKind;
use backlay_store::users::{Role, User};
use backlay_store::{Store, Writer};
use serde::Serialize;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use utoipa::ToSchema;

use crate::AppState;
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;
use backlay_kit::throttle::{Attempt, AttemptKeys, Refused};

pub use crate::safer::Device;
pub use backlay_kit::token::{new_token, token_hash};
use backlay_office_store::{AuditLog, AuditWrites};

/// A caller with a live session.
#[derive(Clone, Debug)]
pub struct Authed {
    pub session_id: i64,
    pub user: User,
}

/// A caller with a live session and a password of their own.
#[derive(Clone, Debug)]
pub struct CurrentUser(pub Authed);

/// An admin or agent with a live session and a password of their own.
#[derive(Clone, Debug)]
pub struct Operator(pub Authed);

fn bearer_token(parts: &Parts) -> Option<&str> {
    let value = parts.headers.get(AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The hash of the caller's bearer token, not yet looked up: for a handler that reads the
/// session together with what it needs in one query (the balance the header polls).
#[derive(Clone, Debug)]
pub struct SessionToken {
    pub hash: String,
}

/// 401 for a token that opened a session once, which has since expired or been revoked (or
/// whose user is locked).
pub fn session_expired() -> AppError {
    AppError::Unauthorized("Your session has expired. Log in again.".into())
}

/// 401 for a token that never opened a session.
pub fn not_logged_in() -> AppError {
    AppError::Unauthorized("You are not logged in.".into())
}

/// The 401 for a token with no live session: expired if it was ever issued, else not logged in.
/// Only failed look-ups pay for the second query.
pub async fn no_live_session(store: &Store, token_hash: &str) -> AppError {
    match store.session_was_issued(token_hash).await {
        Ok(true) => session_expired(),
        Ok(false) => not_logged_in(),
        Err(err) => err.into(),
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SessionToken {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<SessionToken, AppError> {
        let token = bearer_token(parts)
            .ok_or_else(|| AppError::Unauthorized("Log in to continue.".into()))?;
        // Ours are 43 characters: a longer one was never issued.
        if token.len() > 256 {
            return Err(not_logged_in());
        }
        Ok(SessionToken { hash: token_hash(token) })
    }
}

// The extractors read what they need from any app state that holds it (the API's, the
// provider's), by axum's `FromRef`.

impl<S: Send + Sync> FromRequestParts<S> for Authed
where
    Store: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Authed, AppError> {
        if let Some(authed) = parts.extensions.get::<Authed>() {
            return Ok(authed.clone());
        }
        let SessionToken { hash } = SessionToken::from_request_parts(parts, state).await?;
        let store = Store::from_ref(state);
        let Some(session) = store.session_by_token_hash(&hash, now_ms()).await? else {
            return Err(no_live_session(&store, &hash).await);
        };
        let authed = Authed { session_id: session.session_id, user: session.user };
        parts.extensions.insert(authed.clone());
        Ok(authed)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for CurrentUser
where
    Store: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<CurrentUser, AppError> {
        let authed = Authed::from_request_parts(parts, state).await?;
        if authed.user.is_change_password {
            return Err(AppError::PasswordChangeRequired);
        }
        Ok(CurrentUser(authed))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Operator
where
    Store: FromRef<S>,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Operator, AppError> {
        let CurrentUser(authed) = CurrentUser::from_request_parts(parts, state).await?;
        match authed.user.role {
            Role::Admin | Role::Agent => Ok(Operator(authed)),
            Role::Client => {
                Err(AppError::Forbidden("This needs an operator (admin or agent) account.".into()))
            }
        }
    }
}

/// The caller's address: the socket peer, or, behind proxies the operator runs
/// (`Config::trust_forwarded_for`), the address the outermost of them saw. `None` when neither
/// is known (in-process tests).
///
/// Each proxy appends the address that connected to it to `X-Forwarded-For`, after whatever the
/// request already carried. So only the last `trusted_proxy_hops` entries were written by our
/// proxies, and the client's address is the one that many from the right; anything left of it
/// is the client's own say and is ignored. With one proxy (the default):
///
/// ```text
/// client sends   X-Forwarded-For: 6.6.6.6            (a lie)
/// proxy appends  X-Forwarded-For: 6.6.6.6, 203.0.113.7
/// Backlay uses   203.0.113.7
/// ```
///
/// A header with fewer entries than the hops, or an entry that is not an address, did not come
/// through the proxies as configured: the socket peer is used.
#[derive(Clone, Debug)]
pub struct ClientIp(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for ClientIp
where
    Arc<Config>: FromRef<S>,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ClientIp, Self::Rejection> {
        let config = Arc::<Config>::from_ref(state);
        if config.trust_forwarded_for {
            if let Some(ip) = forwarded_client(&parts.headers, config.trusted_proxy_hops) {
                return Ok(ClientIp(Some(ip.to_string())));
            }
        }
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip().to_string());
        Ok(ClientIp(peer))
    }
}

/// The entry `hops` from the right of every `X-Forwarded-For` line taken together (later lines
/// were added later), when it is an address (a port after it is allowed).
pub fn forwarded_client(headers: &axum::http::HeaderMap, hops: usize) -> Option<IpAddr> {
    let mut left = hops.checked_sub(1)?;
    for line in headers.get_all("x-forwarded-for").iter().rev() {
        // An unreadable line makes the count of hops unknowable: believe none of them.
        let line = line.to_str().ok()?;
        for entry in line.rsplit(',') {
            if left == 0 {
                let entry = entry.trim();
                return entry
                    .parse::<IpAddr>()
                    .ok()
                    .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()));
            }
            left -= 1;
        }
    }
    None
}

// ---------------------------------------------------------------------------------------------
// Opening a session (log-in, sign-up, the second step of security auth)

/// A started session, as the client stores it (`userinfo`).
#[derive(Serialize, ToSchema)]
pub struct LoginData {
    pub token: String,
    pub user_id: i64,
    pub user_name: String,
    /// 1: the user must change the password before anything else.
    pub is_change_password: i64,
    /// -1 when the user has no parent.
    pub parent_id: i64,
    pub role: Role,
    /// 1: security auth (a TOTP code at log-in) is on for this user.
    pub security_enabled: i64,
}

/// A locked account's log-in: 422, not 403. There is no session yet, and the client app ends
/// whatever session it holds on any 403 (spec §8): a page still logged in as someone else
/// (another tab) would be logged out and the message swallowed instead of shown.
pub fn account_locked() -> AppError {
    AppError::Unprocessable("This account is locked. Contact your agent.".into())
}

/// Why `user` may not log in when it is locked, on its own ([`account_locked`]) or by an agent
/// above it, named (`backlay_store::branch_locks`); `None` when it may. The locker is read only
/// for a refusal.
pub async fn lock_refusal(
    store: &backlay_store::Store,
    user: &User,
) -> Result<Option<AppError>, AppError> {
    if user.is_locked {
        return Ok(Some(account_locked()));
    }
    let Some(locker_id) = user.locked_by_user_id else { return Ok(None) };
    let locker = store.user_by_id(locker_id).await?;
    let message = if user.parent_id == Some(locker_id) {
        format!("Your account is locked: your agent {} is locked.", locker.user_name)
    } else {
        format!("Your account is locked: {}, an agent above yours, is locked.", locker.user_name)
    };
    Ok(Some(AppError::Unprocessable(message)))
}

/// 429 for a log-in (or its code) over the throttle's limit.
pub fn too_many_attempts(refused: Refused) -> AppError {
    throttled(
        refused,
        "Too many failed log-in attempts",
        "Too many log-in attempts at once for this account or address",
    )
}

/// 429 for a sign-up over its address's limit.
pub fn too_many_sign_ups(refused: Refused) -> AppError {
    throttled(
        refused,
        "Too many sign-ups from this address",
        "Too many sign-ups from this address at once",
    )
}

/// The 429 of a throttled attempt: what was too many (`blocked` once the key is blocked, `busy`
/// while the limit's worth are being checked) and when to try again.
fn throttled(refused: Refused, blocked: &str, busy: &str) -> AppError {
    let message = match refused {
        Refused::Blocked { retry_after_s } => {
            let minutes = retry_after_s.div_ceil(60);
            format!(
                "{blocked}. Try again in {minutes} minute{}.",
                if minutes == 1 { "" } else { "s" }
            )
        }
        Refused::Busy { retry_after_s } => {
            format!("{busy}. Try again in {retry_after_s} seconds.")
        }
    };
    AppError::TooManyRequests { message, retry_after_s: refused.retry_after_s() }
}

/// Opens a session for `user`, who has no security auth, and answers what the client stores.
pub async fn start_session(
    state: &AppState,
    user: &User,
    ip: Option<&str>,
    device: &Device,
    kind: SessionKind,
) -> Result<LoginData, AppError> {
    let mut writer = state.store.begin_write().await?;
    let data = insert_session(state, &mut writer, user, ip, device, kind, now_ms(), false).await?;
    writer.commit().await?;
    Ok(data)
}

/// Opens a session for `user` in the caller's transaction and answers what the client stores:
/// recorded in the log-in history, and ended by the bettor's session limit if they set one.
#[allow(clippy::too_many_arguments)]
pub async fn insert_session(
    state: &AppState,
    writer: &mut Writer,
    user: &User,
    ip: Option<&str>,
    device: &Device,
    kind: SessionKind,
    now_ms: i64,
    security_enabled: bool,
) -> Result<LoginData, AppError> {
    let token = new_token();
    let mut expires_at_ms = now_ms + state.config.session_ttl_ms;
    if let Some(minutes) = writer.limits_of(user.id).await?.session_minutes {
        expires_at_ms = expires_at_ms.min(now_ms + minutes * 60_000);
    }
    writer
        .insert_session(
            user.id,
            &token_hash(&token),
            ip,
            device.name(),
            kind,
            now_ms,
            expires_at_ms,
        )
        .await?;
    writer.record_login(user.id, now_ms, ip, &device.0, LoginResult::Ok).await?;
    // Every session opened is a log-in (the web app's, the bot API's, after a code), recorded
    // with it.
    writer
        .audit(
            backlay_office_store::audit::NewAuditEntry {
                actor_user_id: Some(user.id),
                action: "user.login",
                target: format!("user:{}", user.id),
                detail: serde_json::json!({
                    "user_name": user.user_name,
                    "role": user.role.as_str(),
                    "security_auth": security_enabled,
                }),
                client_ip: ip,
            },
            now_ms,
        )
        .await?;
    Ok(LoginData {
        token,
        user_id: user.id,
        user_name: user.user_name.clone(),
        is_change_password: i64::from(user.is_change_password),
        parent_id: user.parent_id.unwrap_or(-1),
        role: user.role,
        security_enabled: i64::from(security_enabled),
    })
}

/// Checks the password of `user`, already logged in, before something only its holder may do
/// (change the password, take a time-out): throttled as log-in is, since a stolen session must
/// not guess it. A wrong one is 400 on `field`.
pub async fn confirm_own_password(
    state: &AppState,
    user: &User,
    password: String,
    ip: Option<&str>,
    field: &str,
    wrong: &str,
) -> Result<(), AppError> {
    let keys = AttemptKeys::new(&user.user_name, ip);
    let attempt = state.throttle.begin(&keys, now_ms()).await?.map_err(too_many_attempts)?;
    let hash = state.store.password_hash(user.id).await?;
    if !state.passwords.verify(password, hash).await? {
        attempt.failed(now_ms()).await?;
        return Err(AppError::field(field, wrong));
    }
    // Right: released, as a success here clears nothing.
    attempt.release().await?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Checking a password (the web app's log-in and the bot API's)

fn incorrect_credentials() -> AppError {
    AppError::invalid("Incorrect user name or password.")
}

/// The throttled check of a user name and password that every log-in makes (the web app's and
/// the bot API's): the user, unlocked, and the attempt, still counted, for the caller to settle
/// (`succeeded` once a session opens, `release` otherwise). Refused with "incorrect user name
/// or password" (an unknown name costs the same argon2 work), 429 past the throttle's limits,
/// or 422 for a locked account, said only after the right password.
pub async fn check_password(
    state: &AppState,
    user_name: &str,
    password: String,
    ip: Option<&str>,
    device: &Device,
) -> Result<(User, Attempt), AppError> {
    let checked = check_password_once(state, user_name, password, ip, device).await;
    backlay_kit::metrics::log_in(match &checked {
        Ok(_) => "ok",
        Err(AppError::TooManyRequests { .. } | AppError::Busy { .. }) => "throttled",
        Err(_) => "refused",
    });
    checked
}

async fn check_password_once(
    state: &AppState,
    user_name: &str,
    password: String,
    ip: Option<&str>,
    device: &Device,
) -> Result<(User, Attempt), AppError> {
    // Counted from here on: an early return releases it, a wrong password fails it.
    let keys = AttemptKeys::new(user_name, ip);
    let attempt = state.throttle.begin(&keys, now_ms()).await?.map_err(too_many_attempts)?;

    let found = state.store.user_for_login(user_name).await?;
    let (user, hash) = match found {
        Some(found) => found,
        None => (placeholder_user(), state.dummy_password_hash.as_ref().clone()),
    };
    let matches = state.passwords.verify(password, hash).await?;
    if !matches || user.id == 0 {
        attempt.failed(now_ms()).await?;
        if user.id == 0 {
            // Counted into the hour's one entry: the table cannot be grown by sending names.
            state.store.audit_unknown_login(user_name, ip, now_ms()).await?;
        } else {
            // A known name: one entry each, as many as the throttle lets through for the name.
            audit_refused_login(state, &user, ip, "Incorrect password.").await?;
            let now = now_ms();
            state
                .store
                .record_login(user.id, now, ip, &device.0, LoginResult::WrongPassword)
                .await?;
        }
        return Err(incorrect_credentials());
    }
    if let Some(refusal) = lock_refusal(&state.store, &user).await? {
        audit_refused_login(state, &user, ip, &refusal.to_string()).await?;
        state.store.record_login(user.id, now_ms(), ip, &device.0, LoginResult::Locked).await?;
        return Err(refusal);
    }
    // A time-out or self-exclusion: said only after the right password, as a lock is.
    if let Some(block) = state.store.active_block(user.id, state.clock.now_ms()).await? {
        let refusal = crate::safer::block_refusal(&block);
        audit_refused_login(state, &user, ip, &refusal.to_string()).await?;
        let result = match block.kind {
            BlockKind::TimeOut => LoginResult::TimedOut,
            BlockKind::SelfExclusion => LoginResult::SelfExcluded,
        };
        state.store.record_login(user.id, now_ms(), ip, &device.0, result).await?;
        return Err(refusal);
    }
    Ok((user, attempt))
}

/// A refused log-in of a known account: whose, why, from where. No actor: whoever typed the
/// name is not known to be its holder.
async fn audit_refused_login(
    state: &AppState,
    user: &User,
    ip: Option<&str>,
    reason: &str,
) -> Result<(), AppError> {
    let entry = backlay_office_store::audit::NewAuditEntry {
        actor_user_id: None,
        action: "user.login_failed",
        target: format!("user:{}", user.id),
        detail: serde_json::json!({ "user_name": user.user_name, "reason": reason }),
        client_ip: ip,
    };
    state.store.audit(entry, now_ms()).await?;
    Ok(())
}

/// Stands in for an unknown user so the password check still runs; id 0 is never a real user.
fn placeholder_user() -> User {
    User {
        id: 0,
        user_name: String::new(),
        role: Role::Client,
        parent_id: None,
        is_locked: false,
        is_change_password: false,
        dial_code: None,
        mobile: None,
        max_exposure_minor: None,
        created_at_ms: 0,
        partnership_bp: 0,
        credit_reference_minor: 0,
        is_bet_locked: false,
        max_stake_minor: None,
        last_login_at_ms: None,
        locked_by_user_id: None,
        bet_locked_by_user_id: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(lines: &[&str]) -> axum::http::HeaderMap {
        let mut map = axum::http::HeaderMap::new();
        for line in lines {
            map.append("x-forwarded-for", line.parse().unwrap());
        }
        map
    }

    #[test]
    fn the_client_is_the_entry_as_many_hops_from_the_right_as_there_are_proxies() {
        let ip = |text: &str| Some(text.parse::<IpAddr>().unwrap());
        let spoofed = headers(&["6.6.6.6, 198.51.100.9", "10.0.0.2"]);
        assert_eq!(forwarded_client(&spoofed, 1), ip("10.0.0.2"));
        assert_eq!(forwarded_client(&spoofed, 2), ip("198.51.100.9"));
        assert_eq!(forwarded_client(&spoofed, 3), ip("6.6.6.6"));
        assert_eq!(forwarded_client(&spoofed, 4), None, "fewer entries than proxies");
        assert_eq!(forwarded_client(&spoofed, 0), None);
        assert_eq!(forwarded_client(&headers(&[]), 1), None);
        assert_eq!(forwarded_client(&headers(&["6.6.6.6,not-an-address"]), 1), None);
        assert_eq!(forwarded_client(&headers(&["6.6.6.6, "]), 1), None);
        assert_eq!(forwarded_client(&headers(&["203.0.113.7:4711"]), 1), ip("203.0.113.7"));
        assert_eq!(forwarded_client(&headers(&["[2001:db8::1]:443"]), 1), ip("2001:db8::1"));
        assert_eq!(forwarded_client(&headers(&["6.6.6.6, 2001:DB8::1"]), 1), ip("2001:db8::1"));
    }
}
