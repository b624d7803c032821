//! Calls between the nodes of a cluster: the engine of the node a request reached sends a
//! market's [`Call`] to the node that owns the market, at `POST /internal/engine/call`, and gets
//! its [`Answer`] (or the owner's error) back.
//!
//! The call travels sealed with the server's secret key (XChaCha20-Poly1305, as the secrets in
//! the database are: `backlay_store::secrets`), which every node of one database holds: a
//! sender without the key cannot make a call the owner opens, and a sealed call older than
//! [`MAX_CALL_AGE_MS`] is refused, so a copy cannot be replayed later. The route is not part of
//! the public API (no `/api` prefix, not in the OpenAPI document); a proxy in front of the
//! cluster should not pass `/internal/` on (docs/operating.md).
//!
//! When the owner cannot be reached the call is not lost:
//! - nothing was sent (the connection was refused): "moving", and the engine looks for the
//!   owner again;
//! - sent, but no answer came (the owner died mid-call): a call that is safe to send again
//!   ([`Call::safe_to_repeat`]: everything but a bet without a `client_ref`) is "moving" too;
//!   a bet without one cannot be, as it may have been placed, and the bettor is told to look
//!   at their open bets before placing it again. With a `client_ref` the owner that runs it
//!   next answers the bet already placed, so a bettor gets at most one bet.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use backlay_store::cluster::LiveNode;
use backlay_store::secrets::SecretSlot;

use super::Node;
use crate::wire::{Answer, Call, Forwarded, ForwardedActor, WireError};
use crate::ActedBy;
use backlay_kit::actor::Actor;
use backlay_kit::error::{AppError, MOVED};
use std::sync::Arc;

use backlay_store::Store;

use crate::Engine;

/// The internal route's path.
const CALL_PATH: &str = "/internal/engine/call";

/// How long a forwarded call may take: a bet waits out its in-play bet delay on the owner.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// A sealed call older (or newer) than this, by the sender's clock, is refused.
const MAX_CALL_AGE_MS: i64 = 60_000;

/// The largest sealed call accepted (a bet or a result is a few hundred bytes).
const MAX_CALL_BYTES: usize = 64 * 1024;

/// What the calls are sealed as (the associated data of the seal).
fn slot() -> SecretSlot {
    SecretSlot::new("cluster", "call", "engine")
}

/// The answer the owner sends back.
type CallResult = Result<Answer, WireError>;

impl Node {
    /// Sends `call` for `market_id` to `owner` and answers what it answered (see the module
    /// docs for what a failure to reach it means).
    pub(crate) async fn forward(
        &self,
        owner: &LiveNode,
        market_id: i64,
        call: &Call,
    ) -> Result<Answer, AppError> {
        let keys = self.store.keys().ok_or_else(|| {
            AppError::Internal(anyhow::anyhow!("a node of a cluster has no secret key"))
        })?;
        let by = call.acted_by().map(|by| ForwardedActor {
            user_id: match &by.actor {
                Actor::Console => None,
                Actor::User(user) => Some(user.id),
            },
            client_ip: by.client_ip.clone(),
        });
        let forwarded = Forwarded {
            market_id,
            call: call.clone(),
            by,
            sent_at_ms: backlay_kit::clock::now_ms(),
        };
        let json = serde_json::to_vec(&forwarded)
            .map_err(|err| AppError::Internal(anyhow::anyhow!("serialising a call: {err}")))?;
        let sealed = keys.seal(&json, &slot());
        let sent = self
            .client
            .post(format!("{}{CALL_PATH}", owner.url.trim_end_matches('/')))
            .header("content-type", "text/plain")
            .body(sealed)
            .send()
            .await;
        let response = match sent {
            Ok(response) => response,
            Err(err) if err.is_connect() => return Err(AppError::Moved(MOVED.into())),
            Err(err) => return Err(lost_on_the_way(call, owner, &err)),
        };
        if !response.status().is_success() {
            return Err(AppError::Internal(anyhow::anyhow!(
                "node {} answered a forwarded call with {}",
                owner.node_id,
                response.status()
            )));
        }
        match response.json::<CallResult>().await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(err)) => Err(err.into_app_error()),
            Err(err) => Err(lost_on_the_way(call, owner, &err)),
        }
    }
}

/// The call was sent but its answer did not come back whole.
fn lost_on_the_way(call: &Call, owner: &LiveNode, err: &reqwest::Error) -> AppError {
    tracing::warn!(node_id = %owner.node_id, "a forwarded call got no answer: {err}");
    if call.safe_to_repeat() {
        AppError::Moved(MOVED.into())
    } else {
        AppError::Busy {
            message: "The server placing your bet stopped before it answered. Check your open \
                      bets before you place it again (a bet sent with a client_ref is never \
                      placed twice)."
                .into(),
            retry_after_s: 1,
        }
    }
}

/// What the internal route reads: the store (its keys, the acting user) and this node's engine.
#[derive(Clone)]
struct Receiver {
    store: Store,
    engine: Arc<Engine>,
}

/// The internal route other nodes send calls to.
pub fn routes(store: Store, engine: Arc<Engine>) -> Router {
    Router::new()
        .route(CALL_PATH, post(take_call))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_CALL_BYTES))
        .with_state(Receiver { store, engine })
}

/// Opens a sealed call and runs it on this node's task for the market (never sent on: a node
/// that no longer owns the market answers "moving", and the sender looks again).
async fn take_call(
    State(state): State<Receiver>,
    body: Bytes,
) -> Result<Json<CallResult>, AppError> {
    let keys = state.store.keys().ok_or_else(|| AppError::NotFound("Not found.".into()))?;
    let refused = || AppError::Forbidden("This call is not from a node of this cluster.".into());
    let sealed = std::str::from_utf8(&body).map_err(|_| refused())?;
    let opened = keys.open(sealed, &slot()).map_err(|_| refused())?;
    let forwarded: Forwarded = serde_json::from_slice(&opened)
        .map_err(|err| AppError::invalid(format!("A forwarded call that does not parse: {err}")))?;
    if (backlay_kit::clock::now_ms() - forwarded.sent_at_ms).abs() > MAX_CALL_AGE_MS {
        return Err(refused());
    }
    let Forwarded { market_id, mut call, by, .. } = forwarded;
    if let Some(by) = by {
        let actor = match by.user_id {
            None => Actor::Console,
            Some(user_id) => Actor::User(state.store.user_by_id(user_id).await?),
        };
        call.set_acted_by(Some(ActedBy { actor, client_ip: by.client_ip }));
    }
    let answer = state.engine.call_here(market_id, call).await;
    Ok(Json(answer.map_err(|err| {
        if let AppError::Internal(cause) = &err {
            tracing::error!(market_id, "a forwarded call failed: {cause:#}");
        }
        WireError::of(&err)
    })))
}
