//! Parsing request bodies at the edge into values that cannot be wrong.
//!
//! [`ApiJson`] replaces axum's `Json` extractor so that every malformed body, wrong type, missing
//! field or oversized body becomes a 4xx in the envelope naming the field, and an empty body reads
//! as `{}` (the spec's client posts some calls with no payload). The field types below accept what
//! hand-written clients send (ids as numbers or numeric strings, flags as 0/1 or booleans) and
//! parse money from the JSON text itself, so `10.005` is refused exactly instead of rounded.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use backlay_core::money::Money;
use backlay_core::user::UserName;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::clock::parse_report_date;
use crate::error::{AppError, FieldErrors};

/// Largest request body the API reads.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// A JSON body parsed into `T`, with errors a person can act on.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let bytes = read_body(req, state).await?;
        parse_json(json_text(&bytes)).map(ApiJson)
    }
}

/// The body's bytes, or the 413 or 400 of one that cannot be read.
pub async fn read_body<S: Send + Sync>(req: Request, state: &S) -> Result<Bytes, AppError> {
    Bytes::from_request(req, state).await.map_err(|rejection| {
        if rejection.into_response().status() == StatusCode::PAYLOAD_TOO_LARGE {
            AppError::PayloadTooLarge(format!(
                "The request body is too large: the limit is {} KiB.",
                MAX_BODY_BYTES / 1024
            ))
        } else {
            AppError::invalid("The request body could not be read.")
        }
    })
}

/// The JSON text of a body: an empty one reads as `{}`.
pub fn json_text(bytes: &[u8]) -> &[u8] {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    }
}

/// For `#[serde(default, deserialize_with = "present")]` on an `Option<Option<T>>` field: a
/// field left out is `None` (keep what is stored), `null` is `Some(None)` (clear it).
pub fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(deserializer).map(Some)
}

/// Parses JSON into `T`, turning serde's complaint into a field error when it names a field.
pub fn parse_json<T: DeserializeOwned>(text: &[u8]) -> Result<T, AppError> {
    let mut deserializer = serde_json::Deserializer::from_slice(text);
    let value = serde_path_to_error::deserialize(&mut deserializer).map_err(|err| {
        let path = err.path().to_string();
        let inner = err.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            return AppError::invalid(format!("The request body is not valid JSON ({inner})."));
        }
        let detail = strip_position(&inner.to_string());
        if let Some(field) =
            detail.strip_prefix("missing field `").and_then(|rest| rest.split('`').next())
        {
            let field = if path == "." { field.to_string() } else { format!("{path}.{field}") };
            return AppError::field(&field, format!("{field} is required."));
        }
        if path == "." {
            AppError::invalid(format!("The request body has the wrong shape: {detail}."))
        } else {
            AppError::Invalid {
                message: format!("{path}: {detail}."),
                errors: FieldErrors::from([(
                    path,
                    format!("{}{}.", detail[..1].to_uppercase(), &detail[1..]),
                )]),
            }
        }
    })?;
    deserializer
        .end()
        .map_err(|_| AppError::invalid("The request body has extra text after the JSON value."))?;
    refuse_nul_text(text)?;
    Ok(value)
}

/// Refuses a body holding the character U+0000 in any string. PostgreSQL's text cannot store
/// it (the query fails, which was a 500: the fuzzer found `casino/round {"round_id": "\u0000"}`),
/// SQLite's can but then compares it oddly, and no field of ours means anything by it. The
/// scan is of the raw text, so a body without one is not parsed twice; one with it is read
/// again only to name the field.
fn refuse_nul_text(text: &[u8]) -> Result<(), AppError> {
    if !has_nul_escape(text) {
        return Ok(());
    }
    let message = |field: &str| format!("{field} may not contain the character U+0000.");
    match serde_json::from_slice::<serde_json::Value>(text)
        .ok()
        .as_ref()
        .and_then(|v| path_to_nul(v, "."))
    {
        Some(path) => Err(AppError::Invalid {
            message: message(&path),
            errors: FieldErrors::from([(path.clone(), message(&path))]),
        }),
        None => Err(AppError::invalid(message("Text"))),
    }
}

/// Whether JSON text holds the escape `\u0000` (NUL itself may not appear raw inside a JSON
/// string). The escape counts only when its backslash is not itself escaped: `\\u0000` is a
/// backslash and the letters u0000.
fn has_nul_escape(text: &[u8]) -> bool {
    let mut backslashes = 0usize;
    for (at, &byte) in text.iter().enumerate() {
        if byte == b'\\' {
            backslashes += 1;
            continue;
        }
        if byte == b'u'
            && backslashes % 2 == 1
            && text.get(at + 1..at + 5) == Some(b"0000".as_slice())
        {
            return true;
        }
        backslashes = 0;
    }
    false
}

/// The path (as serde_path_to_error writes it: `a.b[0]`, the root `.`) of the first string or
/// key holding U+0000.
fn path_to_nul(value: &serde_json::Value, path: &str) -> Option<String> {
    let join = |key: &str| if path == "." { key.to_string() } else { format!("{path}.{key}") };
    match value {
        serde_json::Value::String(text) => text.contains('\0').then(|| path.to_string()),
        serde_json::Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            path_to_nul(item, &if path == "." { format!("[{i}]") } else { format!("{path}[{i}]") })
        }),
        serde_json::Value::Object(fields) => fields.iter().find_map(|(key, item)| {
            if key.contains('\0') {
                Some(join(&key.replace('\0', "")))
            } else {
                path_to_nul(item, &join(key))
            }
        }),
        _ => None,
    }
}

/// serde_json appends " at line 1 column 9", which means nothing to a person filling a form.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_string(),
        None => message.to_string(),
    }
}

/// A whole number sent as `5`, `5.0`, `5e0` or `"5"`: the value counts, not how a client's JSON
/// library spelt it (a float-typed client sends every number with a point). Read from the exact
/// text, so `5.5` is refused and so is `5.000000000000001`, which an `f64` would round to 5.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlexI64(pub i64);

impl<'de> Deserialize<'de> for FlexI64 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = number_text(deserializer, "a whole number")?;
        let plain = plain_decimal(&text)
            .ok_or_else(|| de::Error::custom(format!("{text:?} is not a whole number")))?;
        if plain.contains('.') {
            return Err(de::Error::custom(format!("expected a whole number, not {}", text.trim())));
        }
        plain.parse().map(FlexI64).map_err(|_| de::Error::custom("number is too large"))
    }
}

/// The text of a JSON number, or of a string that should hold one (unescaped); anything else
/// (true, null, an object) is refused as not being `expected`.
fn number_text<'de, D: Deserializer<'de>>(
    deserializer: D,
    expected: &str,
) -> Result<String, D::Error> {
    let raw: Box<RawValue> = Deserialize::deserialize(deserializer)?;
    let text = raw.get();
    if text.starts_with('"') {
        serde_json::from_str(text).map_err(de::Error::custom)
    } else if text.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
        Ok(text.to_string())
    } else {
        Err(de::Error::custom(format!("expected {expected}")))
    }
}

/// Largest power of ten [`plain_decimal`] applies: far past any id, amount or price, and it
/// bounds the text it writes (`1e999999` would otherwise be a million digits).
const MAX_DECIMAL_EXPONENT: i32 = 40;

/// A decimal number's text rewritten in one plain form, exactly, without a trip through `f64`:
/// the exponent applied, no `+`, no leading zeros, no zeros ending the fraction, and no point
/// when the value is whole. `107`, `107.0`, `1.07e2` and `"107.00"` all read `107`; `2.50`
/// reads `2.5`; `-0.0` reads `0`. `None` unless the text is an optional sign, one or more
/// digits, optionally a point and one or more digits, and optionally an exponent of at most
/// [`MAX_DECIMAL_EXPONENT`]. Written here because it only moves a point in a digit string;
/// a decimal crate would bound the digits it holds instead.
pub fn plain_decimal(text: &str) -> Option<String> {
    let text = text.trim();
    let (negative, unsigned) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => {
            let exponent = &unsigned[at + 1..];
            let digits = exponent.strip_prefix(['+', '-']).unwrap_or(exponent);
            if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit())
            {
                return None;
            }
            (&unsigned[..at], exponent.parse::<i32>().ok()?)
        }
        None => (unsigned, 0),
    };
    if exponent.abs() > MAX_DECIMAL_EXPONENT {
        return None;
    }
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || !all_digits(whole)
        || !all_digits(fraction)
        || (mantissa.contains('.') && fraction.is_empty())
    {
        return None;
    }
    // The value is `digits × 10^(point − digits.len())`: move the point, then trim the zeros.
    let digits = format!("{whole}{fraction}");
    let point = whole.len() as i64 + i64::from(exponent);
    let (int_part, frac_part) = if point <= 0 {
        (String::new(), format!("{}{digits}", "0".repeat(point.unsigned_abs() as usize)))
    } else if point as usize >= digits.len() {
        (format!("{digits}{}", "0".repeat(point as usize - digits.len())), String::new())
    } else {
        let (i, f) = digits.split_at(point as usize);
        (i.to_string(), f.to_string())
    };
    let int_part = int_part.trim_start_matches('0');
    let frac_part = frac_part.trim_end_matches('0');
    let mut plain = String::with_capacity(int_part.len() + frac_part.len() + 3);
    if negative && !(int_part.is_empty() && frac_part.is_empty()) {
        plain.push('-');
    }
    plain.push_str(if int_part.is_empty() { "0" } else { int_part });
    if !frac_part.is_empty() {
        plain.push('.');
        plain.push_str(frac_part);
    }
    Some(plain)
}

/// An id or code sent as text or as a whole number (`"d-17"` or `17`), kept as text: what a
/// partner's system sends for its own ids (a provider's tx id, a catalogue game id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextId(pub String);

impl<'de> Deserialize<'de> for TextId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IdVisitor;
        impl Visitor<'_> for IdVisitor {
            type Value = TextId;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an id (text or a whole number)")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<TextId, E> {
                Ok(TextId(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<TextId, E> {
                Ok(TextId(v.to_string()))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<TextId, E> {
                Ok(TextId(v.to_string()))
            }
        }
        deserializer.deserialize_any(IdVisitor)
    }
}

/// A yes/no flag sent as `true`/`false`, `1`/`0` (or `1.0`/`0.0`: a number is read by its
/// value, as [`FlexI64`] is) or `"1"`/`"0"`/`"true"`/`"false"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlexBool(pub bool);

impl<'de> Deserialize<'de> for FlexBool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw: Box<RawValue> = Deserialize::deserialize(deserializer)?;
        let text = match raw.get() {
            "true" => return Ok(FlexBool(true)),
            "false" => return Ok(FlexBool(false)),
            quoted if quoted.starts_with('"') => {
                serde_json::from_str::<String>(quoted).map_err(de::Error::custom)?
            }
            number => number.to_string(),
        };
        match text.trim() {
            "true" => return Ok(FlexBool(true)),
            "false" => return Ok(FlexBool(false)),
            _ => {}
        }
        match plain_decimal(&text).as_deref() {
            Some("1") => Ok(FlexBool(true)),
            Some("0") => Ok(FlexBool(false)),
            _ => Err(de::Error::custom(format!(
                "expected 1 or 0 (or true/false), not {}",
                text.trim()
            ))),
        }
    }
}

/// An amount of money sent as a JSON number (`10.5`, `1.05e1`) or string (`"10.50"`), parsed
/// from its exact text: at most two decimal places, within [`Money::MAX_AMOUNT_MINOR`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AmountInput(pub Money);

impl<'de> Deserialize<'de> for AmountInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = number_text(deserializer, "an amount such as 100 or 99.50")?;
        // `1.5e2` is 150; text that is no number at all gets the money parser's own message.
        let plain = plain_decimal(&text);
        Money::parse_decimal(plain.as_deref().unwrap_or(&text))
            .map(AmountInput)
            .map_err(de::Error::custom)
    }
}

/// A percentage sent as a JSON number or string (`40`, `12.5`, `"33.33"`), at most two decimal
/// places, 0 to 100, held as basis points (40 → 4000): partnerships.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PercentInput(pub u32);

impl<'de> Deserialize<'de> for PercentInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = number_text(deserializer, "a percentage such as 40 or 12.5")?;
        let plain = plain_decimal(&text);
        // Two decimals of a percent are basis points, as two decimals of a rupee are paise.
        let bp = Money::parse_decimal(plain.as_deref().unwrap_or(&text))
            .map_err(|_| de::Error::custom("a percentage such as 40 or 12.5, at most 2 decimals"))?
            .minor();
        u32::try_from(bp)
            .ok()
            .filter(|bp| *bp <= backlay_core::partnership::WHOLE_BP)
            .map(PercentInput)
            .ok_or_else(|| de::Error::custom("a percentage from 0 to 100"))
    }
}

/// Collects field errors while checking a request, then fails with all of them at once.
#[derive(Default)]
pub struct Checks {
    errors: FieldErrors,
}

impl Checks {
    pub fn fail(&mut self, field: &str, message: impl Into<String>) {
        self.errors.entry(field.to_string()).or_insert_with(|| message.into());
    }

    /// Takes over the problems `other` recorded; whether it had none.
    pub fn absorb(&mut self, other: Checks) -> bool {
        let clean = other.errors.is_empty();
        for (field, message) in other.errors {
            self.fail(&field, message);
        }
        clean
    }

    pub fn finish(self) -> Result<(), AppError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(AppError::fields(self.errors))
        }
    }
}

/// A required text field: trimmed, not empty, at most `max_chars` characters.
pub fn text_field(
    checks: &mut Checks,
    field: &str,
    label: &str,
    value: &str,
    max_chars: usize,
) -> String {
    let value = value.trim();
    if value.is_empty() {
        checks.fail(field, format!("{label} is required."));
    } else if value.chars().count() > max_chars {
        checks.fail(field, format!("{label} must be at most {max_chars} characters."));
    }
    value.to_string()
}

/// A user name field, trimmed: the [`UserName`] it holds, or `None` with the reason recorded.
pub fn user_name_field(checks: &mut Checks, field: &str, value: &str) -> Option<UserName> {
    UserName::parse(value.trim()).map_err(|problem| checks.fail(field, problem.to_string())).ok()
}

/// An optional choice of a request (one of a named enum's names), trimmed: `default` when
/// absent or blank, else the value it names; other text is refused on `field` with the message
/// `refusal` writes for it.
pub fn choice_field<T: std::str::FromStr>(
    field: &str,
    text: Option<&str>,
    default: T,
    refusal: impl FnOnce(&str) -> String,
) -> Result<T, AppError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| AppError::field(field, refusal(text))),
    }
}

/// A report's bound in ms from an optional yyyy-MM-dd (a day at UTC+5:30, its start or, with
/// `end_of_day`, its end) or ISO-8601 time; `default` when absent or blank.
pub fn date_bound(
    field: &str,
    text: &Option<String>,
    end_of_day: bool,
    default: i64,
) -> Result<i64, AppError> {
    match text.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(default),
        Some(text) => parse_report_date(text, end_of_day).ok_or_else(|| {
            AppError::field(field, format!("{field} must be a date such as 2026-11-22."))
        }),
    }
}

/// A report's period from its optional `from_date` and `to_date` ([`date_bound`]: a day at
/// UTC+5:30 or an ISO-8601 time) as (from_ms, to_ms), each `default` when absent; a `to_date`
/// before the `from_date` is refused on `to_date`.
pub fn date_range(
    from_date: &Option<String>,
    to_date: &Option<String>,
    (default_from_ms, default_to_ms): (i64, i64),
) -> Result<(i64, i64), AppError> {
    let from_ms = date_bound("from_date", from_date, false, default_from_ms)?;
    let to_ms = date_bound("to_date", to_date, true, default_to_ms)?;
    if to_ms < from_ms {
        return Err(AppError::field("to_date", "to_date must not be before from_date."));
    }
    Ok((from_ms, to_ms))
}

/// Most rows one page may hold.
pub const MAX_PAGE_LIMIT: i64 = 100;
pub const DEFAULT_PAGE_LIMIT: i64 = 20;

/// `page` (1-based) and `limit` of a list that can grow (API.md conventions).
#[derive(Clone, Copy, Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct PageRequest {
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 1)]
    pub page: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 100)]
    pub limit: Option<FlexI64>,
}

impl PageRequest {
    /// (page, limit, offset), checked: page ≥ 1, 1 ≤ limit ≤ [`MAX_PAGE_LIMIT`].
    pub fn resolve(self) -> Result<(i64, i64, i64), AppError> {
        let page = self.page.map_or(1, |p| p.0);
        let limit = self.limit.map_or(DEFAULT_PAGE_LIMIT, |l| l.0);
        if !(1..=1_000_000).contains(&page) {
            return Err(AppError::field("page", "page must be 1 or more."));
        }
        if !(1..=MAX_PAGE_LIMIT).contains(&limit) {
            return Err(AppError::field(
                "limit",
                format!("limit must be between 1 and {MAX_PAGE_LIMIT}."),
            ));
        }
        Ok((page, limit, (page - 1) * limit))
    }
}

/// A list request: its own fields and, beside them, `page` and `limit`.
//
// Every list reads its page here, from the same object as its own fields (`F`). The body is
// read as [`ApiJson`] reads one, then parsed once as `F` and once as the [`PageRequest`], each
// ignoring the other's fields, so that an error in either names its field: deserialising with
// `#[serde(flatten)]` would lose the name, and cannot read our number fields at all.
#[derive(Debug, utoipa::ToSchema)]
pub struct Paging<F> {
    #[serde(flatten)]
    pub request: F,
    #[serde(flatten)]
    pub page: PageRequest,
}

impl<S: Send + Sync, F: DeserializeOwned> FromRequest<S> for Paging<F> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let bytes = read_body(req, state).await?;
        let text = json_text(&bytes);
        Ok(Paging { request: parse_json(text)?, page: parse_json(text)? })
    }
}

/// A page of rows: `{rows, total, page, limit}`.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct Paged<T> {
    pub rows: Vec<T>,
    pub total: i64,
    pub page: i64,
    pub limit: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Body {
        id: FlexI64,
        #[serde(default)]
        flag: Option<FlexBool>,
        #[serde(default)]
        amount: Option<AmountInput>,
    }

    fn message(err: AppError) -> String {
        err.to_string()
    }

    #[test]
    fn text_ids_as_text_or_whole_numbers() {
        #[derive(Debug, Deserialize)]
        struct Ids {
            a: TextId,
            b: TextId,
        }
        let ids: Ids = parse_json(br#"{"a": "d-17", "b": 17}"#).unwrap();
        assert_eq!((ids.a.0.as_str(), ids.b.0.as_str()), ("d-17", "17"));
        assert!(parse_json::<Ids>(br#"{"a": 1.5, "b": "x"}"#).is_err());
        assert!(parse_json::<Ids>(br#"{"a": true, "b": "x"}"#).is_err());
    }

    #[test]
    fn ids_as_numbers_or_numeric_strings() {
        let body: Body = parse_json(br#"{"id": "42", "flag": "1"}"#).unwrap();
        assert_eq!(body.id, FlexI64(42));
        assert_eq!(body.flag, Some(FlexBool(true)));
        let body: Body = parse_json(br#"{"id": -17, "flag": false}"#).unwrap();
        assert_eq!(body.id, FlexI64(-17));
        assert_eq!(body.flag, Some(FlexBool(false)));
    }

    #[test]
    fn wrong_types_and_missing_fields_name_the_field() {
        let err = parse_json::<Body>(br#"{"id": "abc"}"#).unwrap_err();
        assert!(message(err).starts_with("id: \"abc\" is not a whole number"));
        let err = parse_json::<Body>(br#"{"flag": 1}"#).unwrap_err();
        match err {
            AppError::Invalid { errors, .. } => assert_eq!(errors["id"], "id is required."),
            other => panic!("unexpected {other:?}"),
        }
        let err = parse_json::<Body>(br#"{"id": 1.5}"#).unwrap_err();
        assert!(message(err).contains("expected a whole number"));
    }

    #[test]
    fn whole_numbers_are_taken_however_they_are_written_and_fractions_refused() {
        for text in [
            br#"{"id": 5}"#.as_slice(),
            br#"{"id": 5.0}"#,
            br#"{"id": 5.000}"#,
            br#"{"id": 5e0}"#,
            br#"{"id": 0.5E1}"#,
            br#"{"id": "5.0"}"#,
        ] {
            let body: Body = parse_json(text)
                .unwrap_or_else(|e| panic!("{}: {e}", String::from_utf8_lossy(text)));
            assert_eq!(body.id, FlexI64(5));
        }
        for text in [
            br#"{"id": 5.5}"#.as_slice(),
            br#"{"id": 5.000000000000001}"#,
            br#"{"id": 55e-1}"#,
            br#"{"id": "5.5"}"#,
        ] {
            let err = message(parse_json::<Body>(text).unwrap_err());
            assert!(
                err.starts_with("id: expected a whole number, not 5"),
                "{}: {err}",
                String::from_utf8_lossy(text)
            );
        }
        assert!(message(parse_json::<Body>(br#"{"id": 9223372036854775808}"#).unwrap_err())
            .contains("too large"));
        assert!(message(parse_json::<Body>(br#"{"id": 1e99}"#).unwrap_err())
            .contains("not a whole number"));
        assert!(message(parse_json::<Body>(br#"{"id": true}"#).unwrap_err())
            .contains("expected a whole number"));
        let body: Body = parse_json(br#"{"id": -9223372036854775808}"#).unwrap();
        assert_eq!(body.id, FlexI64(i64::MIN));
    }

    #[test]
    fn flags_are_read_by_value() {
        for (text, flag) in [
            ("1", true),
            ("1.0", true),
            ("1e0", true),
            ("\"1\"", true),
            ("true", true),
            ("\"true\"", true),
            ("0", false),
            ("0.0", false),
            ("-0", false),
            ("\"0\"", false),
            ("false", false),
        ] {
            let body: Body = parse_json(format!(r#"{{"id": 1, "flag": {text}}}"#).as_bytes())
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(body.flag, Some(FlexBool(flag)), "{text}");
        }
        for text in ["2", "0.5", "\"yes\"", "[1]"] {
            let err = parse_json::<Body>(format!(r#"{{"id": 1, "flag": {text}}}"#).as_bytes())
                .unwrap_err();
            assert!(message(err).contains("flag"), "{text}");
        }
    }

    #[test]
    fn plain_decimal_moves_the_point_exactly() {
        for (text, plain) in [
            ("107", "107"),
            ("107.0", "107"),
            ("1.07e2", "107"),
            ("1.07E+2", "107"),
            ("107.00", "107"),
            ("2.50", "2.5"),
            ("0.05", "0.05"),
            ("5e-2", "0.05"),
            ("-0.0", "0"),
            ("-1.50", "-1.5"),
            ("+3", "3"),
            ("007", "7"),
            ("12345678901234567890.1e3", "12345678901234567890100"),
            (" 4.0 ", "4"),
        ] {
            assert_eq!(plain_decimal(text).as_deref(), Some(plain), "{text}");
        }
        for text in [
            "", "-", ".5", "5.", "1e", "1e+", "1e99999", "1e41", "0x10", "1,5", "NaN", "1.2.3",
            "--1", "1e1.5",
        ] {
            assert_eq!(plain_decimal(text), None, "{text}");
        }
        assert_eq!(plain_decimal("1e40").map(|p| p.len()), Some(41));
    }

    #[test]
    fn amounts_are_parsed_from_exact_text() {
        let body: Body = parse_json(br#"{"id": 1, "amount": 10.5}"#).unwrap();
        assert_eq!(body.amount, Some(AmountInput(Money::from_minor(1050))));
        let body: Body = parse_json(br#"{"id": 1, "amount": "99.99"}"#).unwrap();
        assert_eq!(body.amount, Some(AmountInput(Money::from_minor(9999))));
        assert!(parse_json::<Body>(br#"{"id": 1, "amount": 10.005}"#).is_err());
        assert!(parse_json::<Body>(br#"{"id": 1, "amount": 1e18}"#).is_err());
        assert!(parse_json::<Body>(br#"{"id": 1, "amount": true}"#).is_err());
        let body: Body = parse_json(br#"{"id": 1, "amount": 1.05e3}"#).unwrap();
        assert_eq!(body.amount, Some(AmountInput(Money::from_minor(105_000))));
        let body: Body = parse_json(br#"{"id": 1, "amount": 10.500}"#).unwrap();
        assert_eq!(body.amount, Some(AmountInput(Money::from_minor(1050))));
        assert!(parse_json::<Body>(br#"{"id": 1, "amount": 1.0005e1}"#).is_err());
    }

    #[test]
    fn text_holding_nul_is_refused_naming_the_field() {
        #[derive(Debug, Deserialize)]
        struct Texts {
            name: String,
            #[serde(default)]
            tags: Vec<String>,
        }
        let field_error = |body: &[u8]| match parse_json::<Texts>(body).unwrap_err() {
            AppError::Invalid { errors, .. } => errors.into_iter().next(),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            field_error(br#"{"name": "a\u0000b"}"#),
            Some(("name".to_string(), "name may not contain the character U+0000.".to_string()))
        );
        assert_eq!(
            field_error(br#"{"name": "ok", "tags": ["x", "\u0000"]}"#).unwrap().0,
            "tags[1]"
        );
        // An escaped backslash before u0000 is text, not NUL; other escapes pass.
        let texts: Texts = parse_json(br#"{"name": "a\\u0000 \u0001 \\\u0041"}"#).unwrap();
        assert_eq!(texts.name, "a\\u0000 \u{1} \\A");
        assert!(texts.tags.is_empty());
        assert!(has_nul_escape(br#""\\\u0000""#));
        assert!(!has_nul_escape(br#""\\\\u0000""#));
    }

    #[test]
    fn syntax_errors_and_trailing_text_are_refused() {
        assert!(message(parse_json::<Body>(br#"{"id": 1"#).unwrap_err()).contains("not valid JSON"));
        assert!(message(parse_json::<Body>(br#"{"id": 1} x"#).unwrap_err()).contains("extra text"));
    }
}
