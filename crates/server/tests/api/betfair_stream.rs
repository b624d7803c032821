//! The Betfair-compatible Exchange Stream over TLS (issue 17): a bot logs in at
//! /betfair/identity/login, connects with TLS (the server's certificate is self-signed; bots do
//! not verify it), authenticates, subscribes to a market and to its orders, and sees a bet
//! placed from the web app in both: the market's delta and the order's state.

use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, ReadHalf, WriteHalf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::{self, DigitallySignedStruct, SignatureScheme};
use tokio_rustls::TlsConnector;

use crate::both_databases;
use crate::common::TestApp;

/// Longest the test waits for any one message.
const PATIENCE: Duration = Duration::from_secs(10);

fn with_stream(config: &mut backlay_kit::config::Config) {
    config.betfair_stream = Some(backlay_kit::config::BetfairStreamConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        cert_file: None,
        key_file: None,
        default_addr: false,
    });
}

/// Accepts any certificate, as betfairlightweight does.
#[derive(Debug)]
struct AcceptAny;

impl ServerCertVerifier for AcceptAny {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        _: &[u8],
        _: &CertificateDer<'_>,
        _: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Ok(HandshakeSignatureValid::assertion())
    }

    fn verify_tls13_signature(
        &self,
        _: &[u8],
        _: &CertificateDer<'_>,
        _: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        Ok(HandshakeSignatureValid::assertion())
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        rustls::crypto::ring::default_provider()
            .signature_verification_algorithms
            .supported_schemes()
    }
}

/// A stream connection: lines in, lines out.
struct Client {
    lines: BufReader<ReadHalf<TlsStream<TcpStream>>>,
    out: WriteHalf<TlsStream<TcpStream>>,
}

impl Client {
    async fn connect(app: &TestApp) -> Client {
        Client::connect_from(app, None).await
    }

    /// [`Client::connect`] from a loopback address of its own (127.0.0.2 …), as another host.
    async fn connect_from(app: &TestApp, local: Option<std::net::IpAddr>) -> Client {
        let addr = app.betfair_stream_addr.expect("the stream was asked for");
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(AcceptAny))
        .with_no_client_auth();
        let tcp = match local {
            None => TcpStream::connect(addr).await.unwrap(),
            Some(local) => {
                let socket = tokio::net::TcpSocket::new_v4().unwrap();
                socket.bind(std::net::SocketAddr::new(local, 0)).unwrap();
                socket.connect(addr).await.unwrap()
            }
        };
        // An IP address, as bots use: no SNI is sent.
        let name = ServerName::IpAddress(addr.ip().into());
        let tls = TlsConnector::from(Arc::new(config)).connect(name, tcp).await.unwrap();
        let (reader, out) = tokio::io::split(tls);
        Client { lines: BufReader::new(reader), out }
    }

    async fn send(&mut self, message: Value) {
        let mut line = message.to_string();
        line.push_str("\r\n");
        self.out.write_all(line.as_bytes()).await.unwrap();
    }

    /// The next message; `None` when the server closed the connection.
    async fn next(&mut self) -> Option<Value> {
        let mut line = String::new();
        let read = tokio::time::timeout(PATIENCE, self.lines.read_line(&mut line)).await;
        match read.expect("a message within the patience") {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                assert!(line.ends_with("\r\n"), "every message ends with CRLF: {line:?}");
                Some(serde_json::from_str(&line).unwrap())
            }
        }
    }

    /// Skips messages (heartbeats, other changes) until one satisfies `wanted`.
    async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        for _ in 0..50 {
            let message = self.next().await.expect("the connection stays open");
            assert!(message.get("pt").is_none_or(Value::is_i64), "pt is epoch ms: {message}");
            if wanted(&message) {
                return message;
            }
        }
        panic!("no wanted message among 50");
    }

    /// Connects and authenticates with `session`.
    async fn authenticated(app: &TestApp, session: &str) -> Client {
        Client::authenticated_from(app, session, None).await
    }

    /// [`Client::authenticated`] from a loopback address of its own.
    async fn authenticated_from(
        app: &TestApp,
        session: &str,
        local: Option<std::net::IpAddr>,
    ) -> Client {
        let mut client = Client::connect_from(app, local).await;
        let hello = client.next().await.unwrap();
        assert_eq!(hello["op"], "connection");
        assert!(hello["connectionId"].is_string());
        client.send(json!({ "op": "authentication", "id": 2, "appKey": "test-bot", "session": session })).await;
        let status = client.next().await.unwrap();
        assert_eq!(status["statusCode"], "SUCCESS", "{status}");
        assert_eq!(status["id"], 2);
        client
    }
}

async fn bot_session(app: &TestApp, user_name: &str) -> String {
    crate::betfair::bot_login(app, user_name, "Demo@1234").await
}

/// Whether an mcm's runner changes offer `size` at `price` on either side.
fn offers(message: &Value, price: f64, size: f64) -> bool {
    message["mc"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|mc| mc["rc"].as_array().into_iter().flatten())
        .any(|rc| {
            ["atb", "atl"].iter().any(|side| {
                rc[*side]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|level| level == &json!([price, size]))
            })
        })
}

async fn a_bot_sees_a_web_bet_in_its_market_and_order_streams(app: TestApp) {
    let admin = app.admin().await;
    let web = app.demo().await;
    let matches = app.post("match/getMatches", Some(&web), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market_id, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Match Odds", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    let session = bot_session(&app, "demo").await;

    let mut market_stream = Client::authenticated(&app, &session).await;
    market_stream
        .send(json!({
            "op": "marketSubscription", "id": 1,
            "marketFilter": { "marketIds": [format!("1.{market_id}")] },
            "marketDataFilter": { "fields": ["EX_ALL_OFFERS", "EX_TRADED", "EX_TRADED_VOL", "EX_LTP", "EX_MARKET_DEF"], "ladderLevels": null },
            "initialClk": null, "clk": null, "conflateMs": null, "heartbeatMs": null, "segmentationEnabled": true,
        }))
        .await;
    let status = market_stream.next().await.unwrap();
    assert_eq!(
        (status["op"].clone(), status["id"].clone(), status["statusCode"].clone()),
        (json!("status"), json!(1), json!("SUCCESS"))
    );
    let image = market_stream.next().await.unwrap();
    assert_eq!(
        (image["op"].clone(), image["ct"].clone(), image["id"].clone()),
        (json!("mcm"), json!("SUB_IMAGE"), json!(1))
    );
    assert!(image["initialClk"].is_string() && image["clk"].is_string());
    let market = &image["mc"][0];
    assert_eq!(market["id"], format!("1.{market_id}"));
    assert_eq!(market["img"], true);
    assert_eq!(market["marketDefinition"]["status"], "OPEN");
    assert_eq!(market["marketDefinition"]["version"], 1);
    assert_eq!(market["marketDefinition"]["runners"].as_array().unwrap().len(), 2);
    assert_eq!(market["rc"][0]["atb"], json!([]));

    let mut order_stream = Client::authenticated(&app, &session).await;
    order_stream.send(json!({ "op": "orderSubscription", "id": 5, "orderFilter": { "includeOverallPosition": false, "partitionMatchedByStrategyRef": true }, "initialClk": null, "clk": null, "conflateMs": null, "heartbeatMs": 500, "segmentationEnabled": true })).await;
    assert_eq!(order_stream.next().await.unwrap()["statusCode"], "SUCCESS");
    let order_image = order_stream.next().await.unwrap();
    assert_eq!(
        (order_image["op"].clone(), order_image["ct"].clone(), order_image["id"].clone()),
        (json!("ocm"), json!("SUB_IMAGE"), json!(5))
    );

    // A back of 100 at 2.5 from the web app waits in the book.
    let placed = app.post("bet/placeBet", Some(&web), json!({ "market_id": market_id, "selection_id": runners[0], "side": "back", "price": 2.5, "stake": 100 })).await;
    placed.expect(200);
    let bet_id = placed.data()["bet_id"].as_i64().unwrap();

    let delta = market_stream.until(|m| m["op"] == "mcm" && offers(m, 2.5, 100.0)).await;
    assert_eq!(delta["id"], 1);
    assert!(delta.get("ct").is_none(), "a delta has no ct: {delta}");
    assert!(delta["clk"].is_string());

    let change = order_stream.until(|m| m["op"] == "ocm" && m.get("oc").is_some()).await;
    let uo = &change["oc"][0]["orc"][0]["uo"][0];
    assert_eq!(change["oc"][0]["id"], format!("1.{market_id}"));
    assert_eq!(change["oc"][0]["orc"][0]["id"], runners[0]);
    assert_eq!(uo["id"], bet_id.to_string());
    assert_eq!(
        (
            uo["side"].clone(),
            uo["status"].clone(),
            uo["p"].clone(),
            uo["s"].clone(),
            uo["sr"].clone()
        ),
        (json!("B"), json!("E"), json!(2.5), json!(100.0), json!(100.0))
    );
    assert_eq!(
        (uo["rfo"].clone(), uo["rfs"].clone(), uo["ot"].clone()),
        (json!(""), json!(""), json!("L"))
    );

    // Heartbeats every 500 ms while nothing changes.
    let heartbeat = order_stream.until(|m| m["ct"] == "HEARTBEAT").await;
    assert_eq!(heartbeat["id"], 5);

    // A session that is not one is refused, and the connection closed.
    let mut stranger = Client::connect(&app).await;
    stranger.next().await.unwrap();
    stranger.send(json!({ "op": "authentication", "id": 9, "appKey": "test-bot", "session": "not-a-session" })).await;
    let refused = stranger.next().await.unwrap();
    assert_eq!(
        (
            refused["statusCode"].clone(),
            refused["errorCode"].clone(),
            refused["connectionClosed"].clone(),
            refused["id"].clone()
        ),
        (json!("FAILURE"), json!("INVALID_SESSION_INFORMATION"), json!(true), json!(9))
    );
    assert_eq!(stranger.next().await, None, "closed after the refusal");

    // A subscription before authentication is refused.
    let mut eager = Client::connect(&app).await;
    eager.next().await.unwrap();
    eager.send(json!({ "op": "orderSubscription", "id": 3 })).await;
    assert_eq!(eager.next().await.unwrap()["errorCode"], "NOT_AUTHORIZED");

    // A line past 64 KiB is refused, not buffered on.
    let mut flood = Client::authenticated(&app, &session).await;
    flood.out.write_all(&vec![b'x'; 70 * 1024]).await.unwrap();
    let refused = flood.until(|m| m["op"] == "status").await;
    assert_eq!(
        (refused["errorCode"].clone(), refused["connectionClosed"].clone()),
        (json!("INVALID_INPUT"), json!(true))
    );

    // At most 10 connections per account: two are open (the market and order streams).
    let mut more = Vec::new();
    for _ in 0..8 {
        more.push(Client::authenticated(&app, &session).await);
    }
    let mut eleventh = Client::connect(&app).await;
    eleventh.next().await.unwrap();
    eleventh
        .send(json!({ "op": "authentication", "id": 2, "appKey": "test-bot", "session": session }))
        .await;
    assert_eq!(eleventh.next().await.unwrap()["errorCode"], "MAX_CONNECTION_LIMIT_EXCEEDED");
    drop(more);

    // A connection that never authenticates is closed after a few seconds.
    let mut silent = Client::connect(&app).await;
    silent.next().await.unwrap();
    let timed_out = silent.next().await.unwrap();
    assert_eq!(timed_out["errorCode"], "TIMEOUT");
    assert_eq!(silent.next().await, None);
}
both_databases!(a_bot_sees_a_web_bet_in_its_market_and_order_streams, super::with_stream);

/// Sockets that connect and say nothing hold no place among the connections served: past a few
/// from one address they are closed at once, and a bot from elsewhere still gets on. A
/// connection authenticated as one bot cannot be taken over by authenticating again as another.
async fn idle_sockets_cannot_keep_bots_off_and_a_connection_keeps_its_session(app: TestApp) {
    let addr = app.betfair_stream_addr.expect("the stream was asked for");
    let session = bot_session(&app, "demo").await;
    let other = bot_session(&app, "demo2").await;
    let flood = backlay_betfair::stream::MAX_CONNECTIONS + 20;
    let mut idle = Vec::with_capacity(flood);
    for _ in 0..flood {
        idle.push(TcpStream::connect(addr).await.unwrap());
    }
    // From the flooding address, one more is closed unanswered.
    let mut one_more = TcpStream::connect(addr).await.unwrap();
    let mut byte = [0u8; 1];
    let read =
        tokio::time::timeout(PATIENCE, tokio::io::AsyncReadExt::read(&mut one_more, &mut byte))
            .await
            .expect("closed, not held");
    assert!(matches!(read, Ok(0) | Err(_)), "{read:?}");
    // A bot from another address is served.
    let mut bot = Client::authenticated_from(&app, &session, Some([127, 0, 0, 2].into())).await;

    // Its connection stays its own: authenticating again with its own session is fine, with
    // another's is refused and ends the connection.
    bot.send(json!({ "op": "authentication", "id": 3, "appKey": "test-bot", "session": session }))
        .await;
    assert_eq!(bot.next().await.unwrap()["statusCode"], "SUCCESS");
    bot.send(json!({ "op": "authentication", "id": 4, "appKey": "test-bot", "session": other }))
        .await;
    let refused = bot.until(|m| m["op"] == "status").await;
    assert_eq!(
        (refused["id"].clone(), refused["errorCode"].clone(), refused["connectionClosed"].clone()),
        (json!(4), json!("NOT_AUTHORIZED"), json!(true))
    );
    assert_eq!(bot.next().await, None);
    drop(idle);
}
both_databases!(
    idle_sockets_cannot_keep_bots_off_and_a_connection_keeps_its_session,
    super::with_stream
);
