//! The stream's framing: requests in as CRLF- (or LF-) ended lines of bounded length, messages
//! out as JSON with a CRLF, each written within a bounded time.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::protocol::Refusal;
use super::{MAX_LINE_BYTES, WRITE_TIMEOUT_MS};

/// Reads CRLF- (or LF-) ended lines of at most [`MAX_LINE_BYTES`].
pub(super) struct LineReader<R> {
    reader: R,
    buffer: Vec<u8>,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub(super) fn new(reader: R) -> Self {
        LineReader { reader, buffer: Vec::new() }
    }

    /// The next line; `None` at the end; an error for a line too long or not UTF-8.
    pub(super) async fn next(&mut self) -> Result<Option<String>, Refusal> {
        loop {
            if let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
                let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return String::from_utf8(line)
                    .map(Some)
                    .map_err(|_| Refusal::new("INVALID_INPUT", "Requests must be UTF-8 JSON."));
            }
            if self.buffer.len() > MAX_LINE_BYTES {
                return Err(Refusal::new(
                    "INVALID_INPUT",
                    format!("A request line may be at most {MAX_LINE_BYTES} bytes."),
                ));
            }
            let mut chunk = [0u8; 4096];
            match self.reader.read(&mut chunk).await {
                Ok(0) | Err(_) => return Ok(None),
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
            }
        }
    }
}

/// Writes the messages of one connection, each within [`WRITE_TIMEOUT_MS`].
pub(super) struct Writer<W> {
    half: W,
}

impl<W: AsyncWrite + Unpin> Writer<W> {
    pub(super) fn new(half: W) -> Self {
        Writer { half }
    }

    /// Writes one message and its CRLF; an error when it cannot within [`WRITE_TIMEOUT_MS`].
    pub(super) async fn send(&mut self, message: &Value) -> Result<(), ()> {
        let mut bytes = serde_json::to_vec(message).map_err(|_| ())?;
        bytes.extend_from_slice(b"\r\n");
        let write = async {
            self.half.write_all(&bytes).await?;
            self.half.flush().await
        };
        match tokio::time::timeout(Duration::from_millis(WRITE_TIMEOUT_MS), write).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(()),
            Err(_) => {
                // Not read in time: a reader that does not keep up, closed.
                backlay_kit::metrics::stream_lagged("bot");
                Err(())
            }
        }
    }

    /// Closes the writing half (the end of the connection).
    pub(super) async fn shutdown(&mut self) -> std::io::Result<()> {
        self.half.shutdown().await
    }
}
