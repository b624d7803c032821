//! Wall-clock time for the server (the domain crate gets time passed in, never reads it).

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// The server's clock as the safer-gambling rules read it (a limit's cooling-off, a time-out's
/// end): the wall clock, moved forward by what a test asked for. Shared by clones. Tests
/// advance it instead of waiting a day; the running server never does.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    ahead_ms: std::sync::Arc<std::sync::atomic::AtomicI64>,
}

impl Clock {
    /// Now, in epoch milliseconds.
    pub fn now_ms(&self) -> i64 {
        now_ms() + self.ahead_ms.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Moves this clock (and its clones) `ms` forward.
    pub fn advance(&self, ms: i64) {
        self.ahead_ms.fetch_add(ms, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Milliseconds since the Unix epoch, as stored in the database.
pub fn now_ms() -> i64 {
    let nanos = OffsetDateTime::now_utc().unix_timestamp_nanos();
    i64::try_from(nanos / 1_000_000).expect("the clock is within i64 milliseconds")
}

/// An epoch-millisecond time as the API shows it: ISO-8601 in UTC, e.g. `2026-11-22T14:00:00.000Z`.
pub fn iso_utc(epoch_ms: i64) -> String {
    let time = OffsetDateTime::from_unix_timestamp_nanos(i128::from(epoch_ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH);
    let text = time.format(&Rfc3339).unwrap_or_default();
    // RFC 3339 formatting omits fractional seconds when they are zero; keep one fixed width.
    match text.strip_suffix('Z') {
        Some(base) if !base.contains('.') => format!("{base}.000Z"),
        Some(base) => {
            let (whole, fraction) = base.split_once('.').unwrap_or((base, "0"));
            format!("{whole}.{:0<3}Z", &fraction[..fraction.len().min(3)])
        }
        None => text,
    }
}

/// An epoch-millisecond time as a person in India reads it: `30 Nov 2026, 14:05 IST`.
pub fn ist_text(epoch_ms: i64) -> String {
    let offset =
        time::UtcOffset::from_whole_seconds(i32::try_from(DISPLAY_OFFSET_MS / 1000).unwrap_or(0))
            .unwrap_or(time::UtcOffset::UTC);
    let time = OffsetDateTime::from_unix_timestamp_nanos(i128::from(epoch_ms) * 1_000_000)
        .unwrap_or(OffsetDateTime::UNIX_EPOCH)
        .to_offset(offset);
    let format = time::macros::format_description!(
        "[day padding:none] [month repr:short] [year], [hour]:[minute] IST"
    );
    time.format(&format).unwrap_or_default()
}

/// Parses an ISO-8601 / RFC 3339 time (with a zone) into epoch milliseconds.
pub fn parse_iso(text: &str) -> Option<i64> {
    let time = OffsetDateTime::parse(text.trim(), &Rfc3339).ok()?;
    i64::try_from(time.unix_timestamp_nanos() / 1_000_000).ok()
}

/// The zone the product shows times in (UTC+5:30).
pub const DISPLAY_OFFSET_MS: i64 = (5 * 60 + 30) * 60 * 1000;

/// A report's date bound: `yyyy-MM-dd` is a whole day at UTC+5:30 (its first millisecond, or
/// with `end_of_day` its last); an ISO-8601 time with a zone is taken as it is.
pub fn parse_report_date(text: &str, end_of_day: bool) -> Option<i64> {
    let text = text.trim();
    if let Some(ms) = parse_iso(text) {
        return Some(ms);
    }
    let format = time::macros::format_description!("[year]-[month]-[day]");
    let date = time::Date::parse(text, &format).ok()?;
    let midnight_utc_ms =
        i64::try_from(date.midnight().assume_utc().unix_timestamp_nanos() / 1_000_000).ok()?;
    let start = midnight_utc_ms - DISPLAY_OFFSET_MS;
    Some(if end_of_day { start + 24 * 60 * 60 * 1000 - 1 } else { start })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_in_india() {
        assert_eq!(ist_text(1_795_356_000_123), "22 Nov 2026, 19:30 IST");
        assert_eq!(ist_text(0), "1 Jan 1970, 05:30 IST");
    }

    #[test]
    fn iso_round_trip() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_utc(1_795_356_000_123), "2026-11-22T14:00:00.123Z");
        assert_eq!(iso_utc(1_795_356_000_500), "2026-11-22T14:00:00.500Z");
        assert_eq!(parse_iso("2026-11-22T14:00:00.123Z"), Some(1_795_356_000_123));
        assert_eq!(parse_iso("2026-11-22T19:30:00+05:30"), Some(1_795_356_000_000));
        assert_eq!(parse_iso("23/11/2026"), None);
    }

    #[test]
    fn report_dates_are_days_at_india_time() {
        // 22 Nov 2026 00:00 at UTC+5:30 is 21 Nov 18:30 UTC.
        assert_eq!(
            parse_report_date("2026-11-22", false).map(iso_utc).as_deref(),
            Some("2026-11-21T18:30:00.000Z")
        );
        assert_eq!(
            parse_report_date("2026-11-22", true).map(iso_utc).as_deref(),
            Some("2026-11-22T18:29:59.999Z")
        );
        assert_eq!(
            parse_report_date("2026-11-22T10:00:00Z", true).map(iso_utc).as_deref(),
            Some("2026-11-22T10:00:00.000Z")
        );
        assert_eq!(parse_report_date("22-11-2026", false), None);
    }
}
