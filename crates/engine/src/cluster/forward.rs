//! Calls between the nodes of a cluster: the engine of the node a request reached sends a
//! market's [`Call`] to the node that owns the market, at `POST /internal/engine/call`, and gets
//! its [`Answer`] (or the owner's error) back.
//!
//! The call travels sealed with the server's secret key (XChaCha20-Poly1305, as the secrets in
//! the database are: `backlay_store::secrets`), which every node of one database holds: a
//! sender without the key cannot make a call the owner opens. A sealed call dated more than
//! [`MAX_CALL_AGE_MS`] from the owner's clock either way is refused, and so is one whose
//! `call_id` the owner has seen within that window ([`SeenCalls`]): a copy cannot be replayed,
//! now or later. The route is not part of the public API (no `/api` prefix, not in the OpenAPI
//! document), is served only by a node of a cluster, and a proxy in front of the cluster should
//! not pass `/internal/` on (docs/operating.md).
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

/// A sealed call dated further than this from the owner's clock, either way, is refused (the
/// nodes' clocks agree to well within it; a call is sealed just before it is sent).
const MAX_CALL_AGE_MS: i64 = 5_000;

/// The most call ids remembered at once: far more than a node's calls in two windows.
const MAX_SEEN_CALLS: usize = 1_000_000;

/// The call ids an owner took within the window, each with when it may be forgotten (its date
/// plus the window: after that its age refuses it anyway).
#[derive(Default)]
struct SeenCalls {
    by_id: std::collections::HashMap<String, i64>,
    /// (forget at, id), oldest first: what pruning takes from.
    order: std::collections::VecDeque<(i64, String)>,
}

impl SeenCalls {
    /// Remembers `call_id`; `false` when it was seen already (a replay) or when too many are
    /// remembered to take another (refused rather than forgotten early).
    fn first_sight(&mut self, call_id: &str, sent_at_ms: i64, now_ms: i64) -> bool {
        while self.order.front().is_some_and(|(forget_at, _)| *forget_at < now_ms) {
            if let Some((_, id)) = self.order.pop_front() {
                self.by_id.remove(&id);
            }
        }
        if self.by_id.contains_key(call_id) || self.by_id.len() >= MAX_SEEN_CALLS {
            return false;
        }
        let forget_at = sent_at_ms + MAX_CALL_AGE_MS;
        self.by_id.insert(call_id.to_owned(), forget_at);
        // Dates are not quite in order across senders: a later prune takes a straggler.
        self.order.push_back((forget_at, call_id.to_owned()));
        true
    }
}

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
            call_id: format!("{:032x}", rand::random::<u128>()),
        };
        let json = serde_json::to_vec(&forwarded)
            .map_err(|err| AppError::Internal(anyhow::anyhow!("serialising a call: {err}")))?;
        let sealed = keys.seal(&json, &slot());
        let sending = std::time::Instant::now();
        let answered = self.send_sealed(owner, call, sealed).await;
        backlay_kit::metrics::forwarded_call_took(sending.elapsed());
        answered
    }

    /// Sends a sealed call to `owner` and reads its answer.
    async fn send_sealed(
        &self,
        owner: &LiveNode,
        call: &Call,
        sealed: String,
    ) -> Result<Answer, AppError> {
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
    seen: Arc<std::sync::Mutex<SeenCalls>>,
}

/// The internal route other nodes send calls to; none on a server on its own (`clustered`
/// false), which takes no calls from anyone.
pub fn routes(store: Store, engine: Arc<Engine>, clustered: bool) -> Router {
    if !clustered {
        return Router::new();
    }
    let seen = Arc::new(std::sync::Mutex::new(SeenCalls::default()));
    Router::new()
        .route(CALL_PATH, post(take_call))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_CALL_BYTES))
        .with_state(Receiver { store, engine, seen })
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
    let now = backlay_kit::clock::now_ms();
    if (now - forwarded.sent_at_ms).abs() > MAX_CALL_AGE_MS {
        return Err(refused());
    }
    let first = state.seen.lock().unwrap_or_else(|e| e.into_inner()).first_sight(
        &forwarded.call_id,
        forwarded.sent_at_ms,
        now,
    );
    if !first {
        tracing::warn!(market_id = forwarded.market_id, "a forwarded call was sent again: refused");
        return Err(AppError::Forbidden("This call was taken already.".into()));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_id_is_taken_once_within_the_window_and_forgotten_after() {
        let mut seen = SeenCalls::default();
        assert!(seen.first_sight("a", 1_000, 1_000));
        assert!(!seen.first_sight("a", 1_000, 2_000), "a replay inside the window");
        assert!(seen.first_sight("b", 1_500, 2_000));
        // Past a's window it is forgotten (its age refuses it by then); b is still held.
        assert!(!seen.first_sight("b", 1_500, 6_400));
        assert!(!seen.by_id.contains_key("a"));
        assert!(seen.first_sight("c", 7_000, 7_000));
        assert_eq!(seen.by_id.len(), 1, "b forgotten too");
    }
}
