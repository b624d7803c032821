//! The stream's own listener: bound before the server runs, then accepting TLS connections
//! until the server stops, each served by a [`Connection`] or, over [`MAX_CONNECTIONS`],
//! refused at once.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;

use super::connection::Connection;
use super::lines::{LineReader, Writer};
use super::protocol::{self, Refusal};
use super::registry::Registry;
use super::{tls, AUTH_TIMEOUT_MS, HANDSHAKE_TIMEOUT_MS, MAX_CONNECTIONS};
use backlay_kit::clock::now_ms;
use backlay_operator::AppState;

/// The stream's listener, bound (so its address is known) before the server runs.
pub struct Bound {
    listener: TcpListener,
    acceptor: TlsAcceptor,
}

impl Bound {
    /// Binds the configured address and readies the certificate; `None` when the stream is off.
    pub async fn bind(config: &backlay_kit::config::Config) -> anyhow::Result<Option<Bound>> {
        let Some(settings) = &config.betfair_stream else { return Ok(None) };
        let acceptor = tls::acceptor(settings, &config.database_url, &config.secret_key)?;
        let listener = match TcpListener::bind(settings.addr).await {
            Ok(listener) => listener,
            Err(err) if settings.default_addr => {
                tracing::warn!(
                    "no Betfair stream: its default address {} cannot be used ({err}); give one with --betfair-stream-addr",
                    settings.addr
                );
                return Ok(None);
            }
            Err(err) => {
                anyhow::bail!("cannot listen for the Betfair stream on {}: {err}", settings.addr)
            }
        };
        Ok(Some(Bound { listener, acceptor }))
    }

    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound listener has an address")
    }

    /// Accepts connections until the server stops (`AppState::stopping`), which also ends every
    /// connection.
    pub fn start(self, state: AppState) {
        tokio::spawn(accept_loop(self, state));
    }
}

async fn accept_loop(bound: Bound, state: AppState) {
    let registry = Arc::new(Registry::new());
    // Beyond the limit a connection is still answered (with MAX_CONNECTION_LIMIT_EXCEEDED, so
    // that the client says why), up to as many again; past that it is dropped unanswered.
    let answering_refusals = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut next_id: u64 = 0;
    loop {
        let accepted = tokio::select! {
            () = state.stopping.cancelled() => return,
            accepted = bound.listener.accept() => accepted,
        };
        let (tcp, _) = match accepted {
            Ok(pair) => pair,
            Err(err) => {
                tracing::warn!("Betfair stream: accept failed: {err}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        next_id += 1;
        let connection_id = format!("{:x}-{next_id:06}", now_ms());
        let permit = match registry.take_connection() {
            Some(permit) => Some(permit),
            None => match answering_refusals.clone().try_acquire_owned() {
                Ok(permit) => {
                    let acceptor = bound.acceptor.clone();
                    tokio::spawn(async move {
                        let _permit = permit;
                        refuse_at_once(acceptor, tcp, &connection_id).await;
                    });
                    continue;
                }
                Err(_) => continue,
            },
        };
        let (acceptor, state, registry) = (bound.acceptor.clone(), state.clone(), registry.clone());
        tokio::spawn(async move {
            let handshake = tokio::time::timeout(
                Duration::from_millis(HANDSHAKE_TIMEOUT_MS),
                acceptor.accept(tcp),
            );
            let Ok(Ok(stream)) = handshake.await else { return };
            Connection::new(state, registry, connection_id, permit).serve(stream).await;
        });
    }
}

/// Over the limit: `connection`, then the refusal to whatever the client sends first.
async fn refuse_at_once(acceptor: TlsAcceptor, tcp: TcpStream, connection_id: &str) {
    let handshake =
        tokio::time::timeout(Duration::from_millis(HANDSHAKE_TIMEOUT_MS), acceptor.accept(tcp));
    let Ok(Ok(stream)) = handshake.await else { return };
    let (reader, writer) = tokio::io::split(stream);
    let mut out = Writer::new(writer);
    if out.send(&protocol::connection(connection_id)).await.is_err() {
        return;
    }
    let mut lines = LineReader::new(reader);
    let id = match tokio::time::timeout(Duration::from_millis(AUTH_TIMEOUT_MS), lines.next()).await
    {
        Ok(Ok(Some(line))) => {
            protocol::parse(&line).map_or_else(|(id, _)| id, |request| request.id())
        }
        _ => None,
    };
    let refusal = Refusal::new(
        "MAX_CONNECTION_LIMIT_EXCEEDED",
        format!(
            "The stream serves at most {MAX_CONNECTIONS} connections at once: try again shortly."
        ),
    );
    let _ = out.send(&protocol::failure(id, connection_id, &refusal)).await;
}
