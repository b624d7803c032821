//! Recorded streams: Betfair's historical data files and betfairlightweight's and flumine's
//! recordings, one JSON message a line, plain, gzip or bzip2 (told by their first bytes, not
//! their names), a file or a folder of them.
//!
//! Several recordings given together (a market's file and its score stream; the WIN and PLACE
//! markets of a race) play as one timeline in publish-time order: each file is read a line
//! ahead, and the earliest of those lines goes next, the file given first on a tie, so that a
//! market given before its scores is defined before they arrive. Within a file the order is the
//! file's. Memory stays one line per file, each line at most [`MAX_LINE_BYTES`].
//!
//! ```no_run
//! use backlay_feed::recording::Timeline;
//! use backlay_feed::Mirror;
//!
//! let mut timeline = Timeline::open(&["../shared/feeds/flumine/1.197931750".as_ref()])?;
//! let mut mirror = Mirror::default();
//! while let Some(entry) = timeline.next_entry() {
//!     if let Ok(message) = entry.message {
//!         let _ = mirror.apply(message);
//!     }
//! }
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use crate::message::{Message, Refusal};

/// The longest line read: a full image of many markets runs to a few megabytes; beyond this a
/// line is refused (and skipped to its end) rather than held.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// One line of a recording, read.
#[derive(Debug)]
pub struct Entry {
    /// Which file, as given (or found in a folder).
    pub source: PathBuf,
    /// Its line number in that file, from 1.
    pub line: u64,
    /// The message, or why the line was not one.
    pub message: Result<Message, Refusal>,
}

/// The time of a line read before its file's first timed message: first in the timeline.
pub const UNTIMED_PT: i64 = i64::MIN;

/// Recordings played as one timeline.
pub struct Timeline {
    sources: Vec<Source>,
}

struct Source {
    path: PathBuf,
    lines: Box<dyn BufRead + Send>,
    line: u64,
    /// The next entry, read ahead.
    ahead: Option<Entry>,
    /// The publish time of the last message read from this file: a line without one (a refused
    /// line, a message with no `pt`) goes at that time.
    last_pt: i64,
    done: bool,
}

impl Timeline {
    /// Opens every path: a file, or a folder whose files (not its sub-folders) are read in
    /// name order.
    pub fn open(paths: &[&Path]) -> io::Result<Timeline> {
        let mut sources = Vec::new();
        for path in paths {
            if path.is_dir() {
                let mut files: Vec<PathBuf> = std::fs::read_dir(path)?
                    .filter_map(|entry| entry.ok().map(|e| e.path()))
                    .filter(|p| p.is_file())
                    .collect();
                files.sort();
                for file in files {
                    sources.push(Source::open(&file)?);
                }
            } else {
                sources.push(Source::open(path)?);
            }
        }
        if sources.is_empty() {
            return Err(io::Error::new(io::ErrorKind::NotFound, "no recording files given"));
        }
        let mut timeline = Timeline { sources };
        for source in &mut timeline.sources {
            source.read_ahead();
        }
        Ok(timeline)
    }

    /// The next line of the timeline, or `None` when every file has ended. A read error ends
    /// that file with a refused entry saying why.
    pub fn next_entry(&mut self) -> Option<Entry> {
        let next = self
            .sources
            .iter()
            .enumerate()
            .filter_map(|(at, source)| {
                source.ahead.as_ref().map(|entry| (at, entry_pt(entry, source)))
            })
            .min_by_key(|&(at, pt)| (pt, at))
            .map(|(at, _)| at)?;
        let source = &mut self.sources[next];
        let entry = source.ahead.take();
        source.read_ahead();
        entry
    }

    /// The publish time the next entry goes at, without taking it.
    pub fn next_pt(&self) -> Option<i64> {
        self.sources
            .iter()
            .filter_map(|source| source.ahead.as_ref().map(|entry| entry_pt(entry, source)))
            .min()
    }
}

fn entry_pt(entry: &Entry, source: &Source) -> i64 {
    entry.message.as_ref().ok().and_then(Message::pt).unwrap_or(source.last_pt)
}

impl Source {
    fn open(path: &Path) -> io::Result<Source> {
        let file = File::open(path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let mut raw = BufReader::new(file);
        let head = raw.fill_buf()?;
        let lines: Box<dyn BufRead + Send> = if head.starts_with(&[0x1f, 0x8b]) {
            Box::new(BufReader::new(flate2::bufread::MultiGzDecoder::new(raw)))
        } else if head.starts_with(b"BZh") {
            Box::new(BufReader::new(bzip2::bufread::MultiBzDecoder::new(raw)))
        } else {
            Box::new(raw)
        };
        Ok(Source {
            path: path.to_owned(),
            lines,
            line: 0,
            ahead: None,
            last_pt: UNTIMED_PT,
            done: false,
        })
    }

    fn read_ahead(&mut self) {
        if self.done {
            return;
        }
        let message = match read_message(&mut self.lines) {
            Ok(None) => {
                self.done = true;
                return;
            }
            Ok(Some((lines, message))) => {
                self.line += lines;
                message
            }
            Err(e) => {
                self.done = true;
                self.line += 1;
                Err(Refusal::Malformed(format!("the file could not be read on: {e}")))
            }
        };
        if let Some(pt) = message.as_ref().ok().and_then(Message::pt) {
            self.last_pt = pt;
        }
        self.ahead = Some(Entry { source: self.path.clone(), line: self.line, message });
    }
}

/// One line as read, without its end: what a file's reader and a live stream's both hand on.
pub enum Line {
    Text(String),
    /// Over [`MAX_LINE_BYTES`]: skipped to its end, never held whole.
    TooLong,
}

impl Line {
    /// A whole line's bytes, its `\r` dropped; bytes that are not UTF-8 read as a line no
    /// message is (refused as malformed).
    pub fn of_bytes(mut bytes: Vec<u8>) -> Line {
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        match String::from_utf8(bytes) {
            Ok(text) => Line::Text(text),
            Err(_) => Line::Text("\u{fffd}".into()),
        }
    }

    /// The message it holds, or why it holds none; `None` for a blank line (passed over).
    pub fn message(&self) -> Option<Result<Message, Refusal>> {
        match self {
            Line::Text(text) if text.trim().is_empty() => None,
            Line::Text(text) => Some(Message::read(text)),
            Line::TooLong => Some(Err(Refusal::TooLong { limit_bytes: MAX_LINE_BYTES })),
        }
    }
}

/// One line, without its end; a line over [`MAX_LINE_BYTES`] is skipped to its end and said to
/// be too long, so that no line is ever held whole beyond the bound.
fn read_line(reader: &mut dyn BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            break;
        }
        any = true;
        let (chunk, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], Some(at + 1)),
            None => (available, None),
        };
        if !too_long {
            if bytes.len() + chunk.len() > MAX_LINE_BYTES {
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(chunk);
            }
        }
        let used = ends.unwrap_or(available.len());
        reader.consume(used);
        if ends.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Line::TooLong));
    }
    Ok(Some(Line::of_bytes(bytes)))
}

/// How a recording is played: its pace, and where it stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pace {
    /// 1: the recording's own pace (from `pt`); 10: ten times faster; 0: as fast as it can.
    pub speed: f64,
    /// Stop before the first message published after this moment (`pt`, ms).
    pub until_pt: Option<i64>,
}

impl Pace {
    /// Whether a message published at `pt` is still played.
    pub fn plays(&self, pt: i64) -> bool {
        self.until_pt.is_none_or(|until| pt <= until)
    }

    /// How long after the first timed line (its publish time kept in `first_pt`, set by the
    /// first call with one) a line published at `pt` is due, in milliseconds of the wall clock;
    /// 0 at speed 0, and for a line with no time yet ([`UNTIMED_PT`]: a refused line before a
    /// file's first message, such as a licence beside the recordings in a folder), which must
    /// neither wait nor set the pace.
    pub fn due_after_ms(&self, first_pt: &mut Option<i64>, pt: i64) -> u64 {
        if self.speed <= 0.0 || pt == UNTIMED_PT {
            return 0;
        }
        let first = *first_pt.get_or_insert(pt);
        let recorded_ms = pt.saturating_sub(first).max(0) as f64;
        (recorded_ms / self.speed) as u64
    }
}

/// The next message of any reader, a stream's as well as a file's (the same bound, the same
/// refusals), with how many lines it took: blank lines are passed over.
pub fn read_message(
    reader: &mut dyn BufRead,
) -> io::Result<Option<(u64, Result<Message, Refusal>)>> {
    let mut lines = 0;
    loop {
        lines += 1;
        return match read_line(reader)? {
            None => Ok(None),
            Some(line) => match line.message() {
                None => continue,
                Some(message) => Ok(Some((lines, message))),
            },
        };
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    #[test]
    fn a_line_over_the_bound_is_refused_and_the_next_one_read() {
        let mut text = vec![b'x'; MAX_LINE_BYTES + 10];
        text.extend_from_slice(b"\n{\"op\":\"status\"}\r\n");
        let mut reader = Cursor::new(text);
        let mut next = || read_message(&mut reader).unwrap().map(|(_, message)| message);
        assert!(matches!(next(), Some(Err(Refusal::TooLong { .. }))));
        assert!(matches!(next(), Some(Ok(Message::Other { .. }))));
        assert!(next().is_none());
    }

    #[test]
    fn the_pace_follows_publish_times_at_the_speed_given() {
        let pace = Pace { speed: 10.0, until_pt: Some(5_000) };
        let mut first = None;
        // A line with no time (a licence's) neither waits nor sets the pace.
        assert_eq!(pace.due_after_ms(&mut first, UNTIMED_PT), 0);
        assert_eq!(pace.due_after_ms(&mut first, 1_000), 0);
        assert_eq!(pace.due_after_ms(&mut first, 3_000), 200);
        assert_eq!(first, Some(1_000));
        assert!(pace.plays(5_000));
        assert!(!pace.plays(5_001));
        let flat_out = Pace { speed: 0.0, until_pt: None };
        assert_eq!(flat_out.due_after_ms(&mut Some(1_000), 900_000), 0);
        assert!(flat_out.plays(i64::MAX));
    }
}
