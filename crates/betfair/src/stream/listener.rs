//! The stream's own listener: bound before the server runs, then accepting TLS connections
//! until the server stops, each served by a [`Connection`] (which takes its place among
//! [`MAX_CONNECTIONS`](super::MAX_CONNECTIONS) once authenticated), or, past the bound on
//! connections not yet authenticated, closed at once.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use super::connection::Connection;
use super::registry::Registry;
use super::{tls, HANDSHAKE_TIMEOUT_MS};
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
    let mut next_id: u64 = 0;
    loop {
        let accepted = tokio::select! {
            () = state.stopping.cancelled() => return,
            accepted = bound.listener.accept() => accepted,
        };
        let (tcp, peer) = match accepted {
            Ok(pair) => pair,
            Err(err) => {
                tracing::warn!("Betfair stream: accept failed: {err}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Until it authenticates a connection holds a place among the pending only (bounded in
        // all and per address), never among the authenticated: sockets that say nothing cannot
        // keep bots off. Past the bound it is closed unanswered, before any TLS work.
        let Some(pending) = registry.take_pending(peer.ip()) else { continue };
        next_id += 1;
        let connection_id = format!("{:x}-{next_id:06}", now_ms());
        let (acceptor, state, registry) = (bound.acceptor.clone(), state.clone(), registry.clone());
        tokio::spawn(async move {
            let handshake = tokio::time::timeout(
                Duration::from_millis(HANDSHAKE_TIMEOUT_MS),
                acceptor.accept(tcp),
            );
            let Ok(Ok(stream)) = handshake.await else { return };
            Connection::new(state, registry, connection_id, pending).serve(stream).await;
        });
    }
}
