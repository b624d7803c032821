//! How the server holds its connections: the accept loop, the limits on each connection, and
//! shutdown.
//!
//! `axum::serve` waits for ever on a client that sends half a request and, at shutdown, on every
//! open connection, live streams included. This loop puts a bound on each:
//!
//! - **Connections at once**: at most `max_connections`. The loop takes a slot before it
//!   accepts, so a connection beyond the cap waits in the kernel's listen queue, costing the
//!   server no file descriptor, and is served as soon as another closes.
//! - **Headers**: a connection must send a request's headers within `header_timeout_ms`, counted
//!   from when the server starts waiting for them: at connect, and after each answer on a kept-
//!   alive connection, so an idle connection is closed after the same time (hyper's
//!   `header_read_timeout`).
//! - **Body**: a request's body must arrive whole within `body_timeout_ms` of its headers
//!   ([`DeadlineBody`]); past that, reading it fails, the handler answers 4xx and the
//!   connection closes, as hyper cannot reuse a connection whose body was not read to its end.
//!   Any answer to a request whose body was not read to its end (refused before it was read, or
//!   too long) says `Connection: close`, so that the client does not reuse the connection.
//! - **Shutdown**: when the signal comes the listener closes (new connections are refused),
//!   `stopping` is cancelled (live streams end: `GET /api/stream`), every connection finishes the
//!   request it is serving and closes, and after `shutdown_grace_ms` whatever is left is
//!   dropped. A request cut off there never got its answer; one that got its answer had already
//!   committed (the engine answers after the commit), so no acknowledged bet is lost.
//!
//! For example, with the defaults (10 s, 10 s, 4096, 10 s): a client that opens a connection and
//! sends `GET / HTTP/1.1\r\nHost: x\r\n` and nothing more is disconnected 10 s after it
//! connected; a client that sends `Content-Length: 100` and 10 bytes of body gets a 400 10 s
//! after its headers, and the connection closes.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::http::header::CONNECTION;
use axum::http::{HeaderValue, Request};
use axum::Router;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tokio::time::Sleep;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;

/// The bounds on connections (`Config`'s fields of the same names).
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    pub header_timeout_ms: u64,
    pub body_timeout_ms: u64,
    pub max_connections: usize,
    pub shutdown_grace_ms: u64,
}

/// Serves `router` on `listener` until `shutdown` resolves, then shuts down as the module docs
/// say: `stopping` is cancelled at once, the connections get `shutdown_grace_ms` to finish.
pub async fn run(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()>,
    stopping: CancellationToken,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut connections = JoinSet::new();
    tokio::select! {
        () = accept(&listener, &router, limits, &slots, &mut connections, &stopping) => {}
        () = shutdown => {}
    }
    drop(listener);
    stopping.cancel();
    while connections.try_join_next().is_some() {}
    if connections.is_empty() {
        return;
    }
    let grace = Duration::from_millis(limits.shutdown_grace_ms);
    tracing::info!(
        "shutting down: waiting up to {} s for {} connection(s) to finish",
        grace.as_secs_f32(),
        connections.len()
    );
    let drained =
        tokio::time::timeout(grace, async { while connections.join_next().await.is_some() {} })
            .await;
    if drained.is_err() {
        tracing::warn!(
            "shutdown: {} connection(s) still busy after {} s are closed",
            connections.len(),
            grace.as_secs_f32()
        );
        connections.shutdown().await;
    }
}

/// Accepts connections for ever, each once a slot is free.
async fn accept(
    listener: &TcpListener,
    router: &Router,
    limits: Limits,
    slots: &Arc<Semaphore>,
    connections: &mut JoinSet<()>,
    stopping: &CancellationToken,
) {
    loop {
        // Finished connections leave the set here, so it holds only live ones.
        while connections.try_join_next().is_some() {}
        let slot =
            slots.clone().acquire_owned().await.expect("the connection semaphore is never closed");
        let (socket, remote) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(err) => {
                // Out of file descriptors or memory, or a connection reset before it was
                // accepted: none is a reason to stop serving. Pause a little so a lasting
                // condition does not spin the loop.
                tracing::warn!("could not accept a connection: {err}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        connections.spawn(connection(
            socket,
            remote,
            router.clone(),
            limits,
            slot,
            stopping.clone(),
        ));
    }
}

/// Serves one connection's requests until it closes, times out, or shutdown asks it to close.
async fn connection(
    socket: TcpStream,
    remote: SocketAddr,
    router: Router,
    limits: Limits,
    _slot: OwnedSemaphorePermit,
    stopping: CancellationToken,
) {
    // Answers and stream events are written whole: no reason to hold them back for Nagle.
    let _ = socket.set_nodelay(true);
    let body_timeout = Duration::from_millis(limits.body_timeout_ms);
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        // What `into_make_service_with_connect_info` would add: the peer, for `ClientIp`.
        request.extensions_mut().insert(ConnectInfo(remote));
        let (parts, body) = request.into_parts();
        let (body, read_whole) = DeadlineBody::wrap(body, body_timeout);
        let answering = router.clone().oneshot(Request::from_parts(parts, body));
        async move {
            let mut response = answering.await?;
            // A body the handler did not read to its end (refused before reading it: 401, 403;
            // or too long: 413) leaves the rest on the connection, which hyper then closes: say
            // so, so that the client does not send its next request on it.
            if read_whole.is_some_and(|whole| !whole.load(Ordering::Acquire)) {
                response.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
            }
            Ok::<_, std::convert::Infallible>(response)
        }
    });
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(Duration::from_millis(limits.header_timeout_ms));
    let mut conn = pin!(builder.serve_connection(TokioIo::new(socket), service));
    let result = tokio::select! {
        result = conn.as_mut() => result,
        () = stopping.cancelled() => {
            conn.as_mut().graceful_shutdown();
            conn.await
        }
    };
    if let Err(err) = result {
        // A client that went away or timed out: its business, not an error of ours.
        tracing::debug!(%remote, "connection ended: {err}");
    }
}

/// Why a request body could not be read: it did not arrive whole in time.
#[derive(Debug)]
pub struct BodyTimedOut {
    timeout_ms: u64,
}

impl std::fmt::Display for BodyTimedOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the request body did not arrive within {} ms", self.timeout_ms)
    }
}

impl std::error::Error for BodyTimedOut {}

/// A request body with one deadline for the whole of it, set when its headers arrived.
/// tower-http's `RequestBodyTimeout` restarts its clock at every chunk, so a client dripping a
/// byte at a time could hold a connection for as long as the body limit allows; this cannot.
struct DeadlineBody {
    body: Incoming,
    deadline: Pin<Box<Sleep>>,
    timeout_ms: u64,
    /// Set once the body has been read to its end.
    read_whole: Arc<AtomicBool>,
}

impl DeadlineBody {
    /// The body to hand the router, and for a request that has one, whether it was read whole.
    fn wrap(body: Incoming, timeout: Duration) -> (Body, Option<Arc<AtomicBool>>) {
        if http_body::Body::is_end_stream(&body) {
            // No body (most GETs): no timer to keep, nothing to read.
            return (Body::new(body), None);
        }
        let timeout_ms = u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX);
        let read_whole = Arc::new(AtomicBool::new(false));
        let body = Body::new(DeadlineBody {
            body,
            deadline: Box::pin(tokio::time::sleep(timeout)),
            timeout_ms,
            read_whole: Arc::clone(&read_whole),
        });
        (body, Some(read_whole))
    }
}

impl http_body::Body for DeadlineBody {
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.body).poll_frame(cx) {
            if frame.is_none() || self.body.is_end_stream() {
                self.read_whole.store(true, Ordering::Release);
            }
            return Poll::Ready(frame.map(|frame| frame.map_err(Into::into)));
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                Poll::Ready(Some(Err(Box::new(BodyTimedOut { timeout_ms: self.timeout_ms }))))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
