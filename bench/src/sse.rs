//! A minimal client for Server-Sent Events, lean enough to hold ten thousand streams: one bare
//! HTTP/1.1 connection per stream (a GET written by hand), the chunked body and the
//! `event:`/`data:` lines parsed as they arrive, nothing else kept.
//!
//! ```text
//! GET /api/stream?match_id=7&ticket=… HTTP/1.1      →  HTTP/1.1 200 OK
//!                                                       transfer-encoding: chunked
//!                                                       1a␍␊event: market␊data: {…}␊␊␍␊ …
//! connect() answers the socket, an EventReader for the body, and the body's first bytes;
//! EventReader::feed(bytes, on_event) calls on_event(b"market", b"{…}") once per whole event.
//! ```
//!
//! `stream_fanout` opens its subscribers with it.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Bytes read from a socket at once.
pub const READ_BUFFER: usize = 4_096;
/// A response's headers may not be longer than this.
const MAX_HEADER_BYTES: usize = 16_384;

/// Connects to `authority` (`host:port`), sends `GET path_and_query` for an event stream and
/// reads the answer's headers: an error naming the status and the envelope's message unless it
/// is 200. Answers the connection, a reader for the body, and the body's bytes that came with
/// the headers (feed them first).
pub async fn connect(
    authority: &str,
    path_and_query: &str,
) -> Result<(TcpStream, EventReader, Vec<u8>), String> {
    let mut stream =
        TcpStream::connect(authority).await.map_err(|e| format!("connect: {}", e.kind()))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let request = format!(
        "GET {path_and_query} HTTP/1.1\r\nHost: {authority}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.map_err(|e| format!("write: {}", e.kind()))?;
    // Headers.
    let mut head = Vec::with_capacity(1_024);
    let mut buffer = vec![0_u8; READ_BUFFER];
    let header_end = loop {
        let n = stream.read(&mut buffer).await.map_err(|e| format!("read: {}", e.kind()))?;
        if n == 0 {
            return Err("closed before the answer's headers".into());
        }
        head.extend_from_slice(&buffer[..n]);
        if let Some(end) = head.windows(4).position(|w| w == b"\r\n\r\n") {
            break end + 4;
        }
        if head.len() > MAX_HEADER_BYTES {
            return Err("headers too long".into());
        }
    };
    let headers = String::from_utf8_lossy(&head[..header_end]).to_ascii_lowercase();
    let status: u16 = headers.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    if status != 200 {
        let body = String::from_utf8_lossy(&head[header_end..]);
        let message = body
            .find("\"message\":\"")
            .map(|at| body[at + 11..].split('"').next().unwrap_or_default().to_string())
            .unwrap_or_default();
        return Err(format!("HTTP {status}: {message}"));
    }
    let reader = EventReader::new(headers.contains("transfer-encoding: chunked"));
    let body = head.split_off(header_end);
    Ok((stream, reader, body))
}

/// An HTTP/1.1 body (chunked or not) → Server-Sent Events.
#[derive(Default)]
pub struct EventReader {
    chunked: bool,
    /// Chunked: bytes of the current chunk still to come (0: a size line is next).
    chunk_left: usize,
    size_line: Vec<u8>,
    ended: bool,
    line: Vec<u8>,
    event: Vec<u8>,
    data: Vec<u8>,
    has_data: bool,
}

impl EventReader {
    /// A reader for a body sent in chunks (`Transfer-Encoding: chunked`) or not.
    pub fn new(chunked: bool) -> EventReader {
        EventReader { chunked, ..EventReader::default() }
    }

    /// Feeds bytes of the body, calling `on_event(name, data)` for each whole event in them;
    /// false once the body has ended.
    pub fn feed(&mut self, mut bytes: &[u8], on_event: &mut impl FnMut(&[u8], &[u8])) -> bool {
        if !self.chunked {
            self.feed_events(bytes, on_event);
            return true;
        }
        while !bytes.is_empty() && !self.ended {
            if self.chunk_left > 0 {
                let n = self.chunk_left.min(bytes.len());
                self.feed_events(&bytes[..n], on_event);
                self.chunk_left -= n;
                bytes = &bytes[n..];
                continue;
            }
            // A size line ("1a\r\n"), after the CRLF that closes the previous chunk.
            match bytes.iter().position(|b| *b == b'\n') {
                Some(end) => {
                    self.size_line.extend_from_slice(&bytes[..end]);
                    bytes = &bytes[end + 1..];
                    let line = std::mem::take(&mut self.size_line);
                    let text = String::from_utf8_lossy(&line);
                    let hex = text.split(';').next().unwrap_or_default().trim();
                    if hex.is_empty() {
                        continue;
                    }
                    match usize::from_str_radix(hex, 16) {
                        Ok(0) | Err(_) => self.ended = true,
                        Ok(size) => self.chunk_left = size,
                    }
                }
                None => {
                    self.size_line.extend_from_slice(bytes);
                    if self.size_line.len() > 64 {
                        self.ended = true;
                    }
                    bytes = &[];
                }
            }
        }
        !self.ended
    }

    fn feed_events(&mut self, mut bytes: &[u8], on_event: &mut impl FnMut(&[u8], &[u8])) {
        while let Some(end) = bytes.iter().position(|b| *b == b'\n') {
            self.line.extend_from_slice(&bytes[..end]);
            bytes = &bytes[end + 1..];
            let mut line = std::mem::take(&mut self.line);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            self.on_line(&line, on_event);
            line.clear();
            self.line = line;
        }
        self.line.extend_from_slice(bytes);
    }

    fn on_line(&mut self, line: &[u8], on_event: &mut impl FnMut(&[u8], &[u8])) {
        if line.is_empty() {
            if self.has_data {
                on_event(&self.event, &self.data);
            }
            self.event.clear();
            self.data.clear();
            self.has_data = false;
            // A snapshot is large and rare: do not keep its buffer for every subscriber.
            if self.data.capacity() > 16_384 {
                self.data = Vec::new();
            }
            if self.line.capacity() > 16_384 {
                self.line = Vec::new();
            }
            return;
        }
        if line[0] == b':' {
            return;
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match field {
            b"event" => {
                self.event.clear();
                self.event.extend_from_slice(value);
            }
            b"data" => {
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_events_are_read_across_reads() {
        let chunk = |text: &str| format!("{:x}\r\n{text}\r\n", text.len());
        let wire = [
            chunk("event: snapshot\ndata: [1,\ndata: 2]\n\n"),
            chunk("event: market\r\ndata: {\"a\":1}\r\n\r\n"),
            chunk(": keep-alive\n\n"),
            chunk("data: no name\n\n"),
        ]
        .concat();
        let mut reader = EventReader::new(true);
        let mut events = Vec::new();
        for piece in wire.as_bytes().chunks(3) {
            let mut on_event = |name: &[u8], data: &[u8]| {
                events.push((
                    String::from_utf8_lossy(name).into_owned(),
                    String::from_utf8_lossy(data).into_owned(),
                ));
            };
            assert!(reader.feed(piece, &mut on_event));
        }
        let expected = [("snapshot", "[1,\n2]"), ("market", "{\"a\":1}"), ("", "no name")];
        assert_eq!(events, expected.map(|(n, d)| (n.to_string(), d.to_string())));
        assert!(!reader.feed(b"0\r\n\r\n", &mut |_: &[u8], _: &[u8]| {}));
    }
}
