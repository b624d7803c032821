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
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::error::{AppError, FieldErrors};

/// Largest request body the API reads.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// A JSON body parsed into `T`, with errors a person can act on.
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, AppError> {
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.into_response().status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::PayloadTooLarge(format!(
                    "The request body is too large: the limit is {} KiB.",
                    MAX_BODY_BYTES / 1024
                ))
            } else {
                AppError::invalid("The request body could not be read.")
            }
        })?;
        let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &bytes };
        parse_json(text).map(ApiJson)
    }
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
        if let Some(field) = detail.strip_prefix("missing field `").and_then(|rest| rest.split('`').next()) {
            let field = if path == "." { field.to_string() } else { format!("{path}.{field}") };
            return AppError::field(&field, format!("{field} is required."));
        }
        if path == "." {
            AppError::invalid(format!("The request body has the wrong shape: {detail}."))
        } else {
            AppError::Invalid {
                message: format!("{path}: {detail}."),
                errors: FieldErrors::from([(path, format!("{}{}.", detail[..1].to_uppercase(), &detail[1..]))]),
            }
        }
    })?;
    deserializer
        .end()
        .map_err(|_| AppError::invalid("The request body has extra text after the JSON value."))?;
    Ok(value)
}

/// serde_json appends " at line 1 column 9", which means nothing to a person filling a form.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_string(),
        None => message.to_string(),
    }
}

/// An integer id or number sent as `5` or `"5"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlexI64(pub i64);

impl<'de> Deserialize<'de> for FlexI64 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct IntVisitor;
        impl Visitor<'_> for IntVisitor {
            type Value = FlexI64;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a whole number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<FlexI64, E> {
                Ok(FlexI64(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<FlexI64, E> {
                i64::try_from(v).map(FlexI64).map_err(|_| E::custom("number is too large"))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<FlexI64, E> {
                Err(E::custom("expected a whole number"))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<FlexI64, E> {
                v.trim().parse().map(FlexI64).map_err(|_| E::custom(format!("{v:?} is not a whole number")))
            }
        }
        deserializer.deserialize_any(IntVisitor)
    }
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

/// A yes/no flag sent as `true`/`false`, `1`/`0` or `"1"`/`"0"`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FlexBool(pub bool);

impl<'de> Deserialize<'de> for FlexBool {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct BoolVisitor;
        impl Visitor<'_> for BoolVisitor {
            type Value = FlexBool;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("true/false or 1/0")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<FlexBool, E> {
                Ok(FlexBool(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<FlexBool, E> {
                match v {
                    0 => Ok(FlexBool(false)),
                    1 => Ok(FlexBool(true)),
                    _ => Err(E::custom("expected 1 or 0")),
                }
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<FlexBool, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<FlexBool, E> {
                match v.trim() {
                    "1" | "true" => Ok(FlexBool(true)),
                    "0" | "false" => Ok(FlexBool(false)),
                    _ => Err(E::custom(format!("{v:?} is not 1/0 or true/false"))),
                }
            }
        }
        deserializer.deserialize_any(BoolVisitor)
    }
}

/// An amount of money sent as a JSON number (`10.5`) or string (`"10.50"`), parsed from its
/// exact text: at most two decimal places, within [`Money::MAX_AMOUNT_MINOR`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AmountInput(pub Money);

impl<'de> Deserialize<'de> for AmountInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw: Box<RawValue> = Deserialize::deserialize(deserializer)?;
        let text = raw.get();
        let text = match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Some(inner) => inner,
            None if text.starts_with(['-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9']) => text,
            None => return Err(de::Error::custom("expected an amount such as 100 or 99.50")),
        };
        Money::parse_decimal(text).map(AmountInput).map_err(de::Error::custom)
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

    pub fn finish(self) -> Result<(), AppError> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(AppError::fields(self.errors))
        }
    }
}

/// A required text field: trimmed, not empty, at most `max_chars` characters.
pub fn text_field(checks: &mut Checks, field: &str, label: &str, value: &str, max_chars: usize) -> String {
    let value = value.trim();
    if value.is_empty() {
        checks.fail(field, format!("{label} is required."));
    } else if value.chars().count() > max_chars {
        checks.fail(field, format!("{label} must be at most {max_chars} characters."));
    }
    value.to_string()
}

/// Most rows one page may hold.
pub const MAX_PAGE_LIMIT: i64 = 100;
pub const DEFAULT_PAGE_LIMIT: i64 = 20;

/// `page` (1-based) and `limit` of a list that can grow (API.md conventions).
#[derive(Clone, Copy, Debug, Default, Deserialize, utoipa::ToSchema)]
pub struct PageRequest {
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub page: Option<FlexI64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
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
            return Err(AppError::field("limit", format!("limit must be between 1 and {MAX_PAGE_LIMIT}.")));
        }
        Ok((page, limit, (page - 1) * limit))
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
    fn amounts_are_parsed_from_exact_text() {
        let body: Body = parse_json(br#"{"id": 1, "amount": 10.5}"#).unwrap();
        assert_eq!(body.amount, Some(AmountInput(Money::from_minor(1050))));
        let body: Body = parse_json(br#"{"id": 1, "amount": "99.99"}"#).unwrap();
        assert_eq!(body.amount, Some(AmountInput(Money::from_minor(9999))));
        assert!(parse_json::<Body>(br#"{"id": 1, "amount": 10.005}"#).is_err());
        assert!(parse_json::<Body>(br#"{"id": 1, "amount": 1e18}"#).is_err());
        assert!(parse_json::<Body>(br#"{"id": 1, "amount": true}"#).is_err());
    }

    #[test]
    fn syntax_errors_and_trailing_text_are_refused() {
        assert!(message(parse_json::<Body>(br#"{"id": 1"#).unwrap_err()).contains("not valid JSON"));
        assert!(message(parse_json::<Body>(br#"{"id": 1} x"#).unwrap_err()).contains("extra text"));
    }
}
