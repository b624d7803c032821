//! Requests you can follow in the log.
//!
//! Every request gets an id: the client's `x-request-id` when it is a safe one (1 to 64
//! characters of `A-Z a-z 0-9 - _ . :`), otherwise a fresh UUID. The answer carries the id
//! back in `x-request-id`, and every line logged while the request is served — a handler's
//! warning, the one line a server error logs with its cause (`error::log_server_errors`) — is
//! inside the span `request{id=… method=… path=…}`:
//!
//! ```text
//! ERROR request{id=3f6c… method=POST path=/api/bet/placeBet}: backlay_kit::error: server error: …
//! ```
//!
//! The path is logged without its query, which may hold a token (a provider's launch URL
//! does). At the default level a request that goes well writes nothing;
//! `BACKLAY_LOG=info,tower_http=debug` adds a line as each starts and ends, with status and
//! latency.

use axum::extract::Request;
use axum::http::{HeaderName, HeaderValue};
use axum::Router;
use tower::ServiceBuilder;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;

pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Longest `x-request-id` taken from a client; a longer one is replaced.
pub const MAX_REQUEST_ID_LEN: usize = 64;

/// `router` with the request id and the request's span around every route.
pub fn layer(router: Router) -> Router {
    router.layer(
        ServiceBuilder::new()
            .map_request(drop_unsafe_request_id)
            .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            // Server errors are logged once, with their cause, by `error::log_server_errors`.
            .layer(TraceLayer::new_for_http().make_span_with(span).on_failure(())),
    )
}

/// True for an id that is short and cannot break a log line or a header.
pub fn is_safe_request_id(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    (1..=MAX_REQUEST_ID_LEN).contains(&bytes.len())
        && bytes.iter().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(b))
}

/// A client's id that is not safe, or sent more than once, is dropped: the request gets a
/// fresh one.
fn drop_unsafe_request_id(mut request: Request) -> Request {
    let mut ids = request.headers().get_all(&REQUEST_ID).iter();
    let keep = match (ids.next(), ids.next()) {
        (None, _) => true,
        (Some(id), None) => is_safe_request_id(id),
        (Some(_), Some(_)) => false,
    };
    if !keep {
        request.headers_mut().remove(&REQUEST_ID);
    }
    request
}

fn span(request: &Request) -> tracing::Span {
    let id = request.headers().get(&REQUEST_ID).and_then(|id| id.to_str().ok()).unwrap_or("-");
    tracing::info_span!("request", id = %id, method = %request.method(), path = %request.uri().path())
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use axum::body::Body;
    use axum::http::{HeaderValue, StatusCode};
    use axum::middleware;
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    use super::{is_safe_request_id, layer, REQUEST_ID};
    use crate::error::AppError;

    #[test]
    fn only_short_plain_ids_are_taken_from_the_client() {
        for id in ["a", "3f6c2e1a-9b1d-4c1e-8f00-0123456789ab", "web:42.7_x", &"x".repeat(64)] {
            assert!(is_safe_request_id(&HeaderValue::from_str(id).unwrap()), "{id}");
        }
        for id in ["", "has space", "semi;colon", "quote\"", "tab\t", "ü", &"x".repeat(65)] {
            let value = HeaderValue::from_bytes(id.as_bytes()).unwrap();
            assert!(!is_safe_request_id(&value), "{id:?}");
        }
    }

    /// A log sink shared with the subscriber.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn every_line_a_request_logs_carries_its_id() {
        let sink = Sink::default();
        let writer = sink.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .with_max_level(tracing::Level::INFO)
            .finish();
        let router = layer(
            Router::new()
                .route(
                    "/fails",
                    get(|| async {
                        tracing::warn!("about to fail");
                        AppError::Internal(anyhow::anyhow!("the disk is full"))
                    }),
                )
                .layer(middleware::from_fn(crate::error::log_server_errors)),
        );
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let status = tracing::subscriber::with_default(subscriber, || {
            runtime.block_on(async {
                let request = axum::http::Request::get("/fails?token=t0ken")
                    .header(REQUEST_ID, "trace-me-1")
                    .body(Body::empty())
                    .unwrap();
                let response = router.oneshot(request).await.unwrap();
                assert_eq!(response.headers()[REQUEST_ID], "trace-me-1");
                response.status()
            })
        });
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        let log = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = log.lines().collect();
        assert_eq!(lines.len(), 2, "a warning and the error, once:\n{log}");
        for line in &lines {
            assert!(line.contains("request{id=trace-me-1 method=GET path=/fails}"), "{line}");
        }
        assert!(lines[1].contains("server error: the disk is full"), "{log}");
        assert!(!log.contains("t0ken"), "the query stays out of the log:\n{log}");
    }
}
