//! Wall-clock time for the server (the domain crate gets time passed in, never reads it).

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

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

/// Parses an ISO-8601 / RFC 3339 time (with a zone) into epoch milliseconds.
pub fn parse_iso(text: &str) -> Option<i64> {
    let time = OffsetDateTime::parse(text.trim(), &Rfc3339).ok()?;
    i64::try_from(time.unix_timestamp_nanos() / 1_000_000).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_round_trip() {
        assert_eq!(iso_utc(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso_utc(1_795_356_000_123), "2026-11-22T14:00:00.123Z");
        assert_eq!(iso_utc(1_795_356_000_500), "2026-11-22T14:00:00.500Z");
        assert_eq!(parse_iso("2026-11-22T14:00:00.123Z"), Some(1_795_356_000_123));
        assert_eq!(parse_iso("2026-11-22T19:30:00+05:30"), Some(1_795_356_000_000));
        assert_eq!(parse_iso("23/11/2026"), None);
    }
}
