//! Who is calling: the bearer token → session → user, as axum extractors.
//!
//! - [`Authed`]: any live session, even one whose password must still be changed (used by
//!   log-out, change-password and the balance poll).
//! - [`CurrentUser`]: a live session whose password has been changed (every other user call);
//!   otherwise 428, so the client can send the user to the change-password page.
//! - [`Operator`]: an admin or agent (403 for a client).
//!
//! Tokens are 32 random bytes (base64url); only their SHA-256 is stored.

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::header::AUTHORIZATION;
use backlay_store::users::{Role, User};
use base64::Engine as _;
use rand::RngCore;
use sha2::{Digest, Sha256};
use std::net::SocketAddr;

use crate::clock::now_ms;
use crate::error::AppError;
use crate::AppState;

/// A fresh opaque session token.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the database stores of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

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
pub async fn no_live_session(state: &AppState, token_hash: &str) -> AppError {
    match state.store.session_was_issued(token_hash).await {
        Ok(true) => session_expired(),
        Ok(false) => not_logged_in(),
        Err(err) => err.into(),
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SessionToken {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<SessionToken, AppError> {
        let token = bearer_token(parts).ok_or_else(|| AppError::Unauthorized("Log in to continue.".into()))?;
        // Ours are 43 characters: a longer one was never issued.
        if token.len() > 256 {
            return Err(not_logged_in());
        }
        Ok(SessionToken { hash: token_hash(token) })
    }
}

impl FromRequestParts<AppState> for Authed {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Authed, AppError> {
        if let Some(authed) = parts.extensions.get::<Authed>() {
            return Ok(authed.clone());
        }
        let SessionToken { hash } = SessionToken::from_request_parts(parts, state).await?;
        let Some(session) = state.store.session_by_token_hash(&hash, now_ms()).await? else {
            return Err(no_live_session(state, &hash).await);
        };
        let authed = Authed { session_id: session.session_id, user: session.user };
        parts.extensions.insert(authed.clone());
        Ok(authed)
    }
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<CurrentUser, AppError> {
        let authed = Authed::from_request_parts(parts, state).await?;
        if authed.user.is_change_password {
            return Err(AppError::PasswordChangeRequired);
        }
        Ok(CurrentUser(authed))
    }
}

impl FromRequestParts<AppState> for Operator {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Operator, AppError> {
        let CurrentUser(authed) = CurrentUser::from_request_parts(parts, state).await?;
        match authed.user.role {
            Role::Admin | Role::Agent => Ok(Operator(authed)),
            Role::Client => Err(AppError::Forbidden("This needs an operator (admin or agent) account.".into())),
        }
    }
}

/// The caller's address: the socket peer, or the first `X-Forwarded-For` hop when the server is
/// configured to sit behind a trusted proxy. `None` when neither is known (in-process tests).
#[derive(Clone, Debug)]
pub struct ClientIp(pub Option<String>);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<ClientIp, Self::Rejection> {
        if state.config.trust_forwarded_for {
            let forwarded = parts
                .headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty() && v.len() <= 64);
            if forwarded.is_some() {
                return Ok(ClientIp(forwarded));
            }
        }
        let peer = parts.extensions.get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(addr)| addr.ip().to_string());
        Ok(ClientIp(peer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashed() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(token_hash(&a).len(), 64);
        assert_ne!(token_hash(&a), token_hash(&b));
        assert_eq!(token_hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
