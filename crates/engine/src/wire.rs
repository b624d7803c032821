//! A market's commands as one server of a cluster sends them to another (each [`Call`] and its
//! [`Answer`] are defined with what the task does with them, in `market_task/calls.rs`): the node that took a request runs the call on the
//! market's task when it owns the market, and otherwise sends it to the owner
//! (`cluster::forward`), which runs it on its task and sends the answer back.
//!
//! Money travels as minor units and prices as hundredths (the `with` modules below), never as
//! the API's JSON numbers, so nothing is rounded on the way.

use serde::{Deserialize, Serialize};

pub use crate::market_task::calls::{Answer, Call};
use backlay_kit::error::{AppError, FieldErrors};
use backlay_kit::refusal::Refusal;

/// A call on its way to the market's owner.
#[derive(Debug, Serialize, Deserialize)]
pub struct Forwarded {
    pub market_id: i64,
    pub call: Call,
    /// The operator who acted: `None` inside, and the console's own actions, carry none.
    pub by: Option<ForwardedActor>,
    /// When the sender sealed it (its clock): a sealed call older (or newer) than a few seconds
    /// is refused.
    pub sent_at_ms: i64,
    /// Unique to this sending (random, hex): the owner refuses an id it has seen within the
    /// window, so a copy cannot be replayed inside it either.
    pub call_id: String,
}

/// [`ActedBy`] by reference: the owner reads the user again.
#[derive(Debug, Serialize, Deserialize)]
pub struct ForwardedActor {
    /// `None`: the operator's console (`backlay admin`).
    pub user_id: Option<i64>,
    pub client_ip: Option<String>,
}

/// An [`AppError`] as it crosses between servers: its status, message, field errors and wait.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireError {
    pub status: u16,
    pub message: String,
    #[serde(default)]
    pub errors: FieldErrors,
    pub retry_after_s: Option<u64>,
    /// A bet's refusal crosses as itself, facts and all, for callers that match on it.
    #[serde(default)]
    pub refusal: Option<Refusal>,
}

impl WireError {
    pub fn of(err: &AppError) -> WireError {
        let (errors, retry_after_s) = match err {
            AppError::Invalid { errors, .. } => (errors.clone(), None),
            AppError::TooManyRequests { retry_after_s, .. }
            | AppError::Busy { retry_after_s, .. }
            | AppError::Unavailable { retry_after_s, .. } => {
                (FieldErrors::new(), Some(*retry_after_s))
            }
            _ => (FieldErrors::new(), None),
        };
        let message = match err {
            // The cause stays in the owner's log.
            AppError::Internal(_) => "the market's owner failed".to_string(),
            other => other.to_string(),
        };
        let refusal = match err {
            AppError::Refused(refusal) => Some(refusal.clone()),
            _ => None,
        };
        WireError { status: err.status_code().as_u16(), message, errors, retry_after_s, refusal }
    }

    /// The error again, as the owner gave it.
    pub fn into_app_error(self) -> AppError {
        let WireError { status, message, errors, retry_after_s, refusal } = self;
        if let Some(refusal) = refusal {
            return AppError::Refused(refusal);
        }
        match status {
            400 => AppError::Invalid { message, errors },
            401 => AppError::Unauthorized(message),
            403 => AppError::Forbidden(message),
            404 => AppError::NotFound(message),
            405 => AppError::MethodNotAllowed(message),
            409 => AppError::Conflict(message),
            413 => AppError::PayloadTooLarge(message),
            422 => AppError::Unprocessable(message),
            428 => AppError::PasswordChangeRequired,
            429 => AppError::TooManyRequests { message, retry_after_s: retry_after_s.unwrap_or(1) },
            503 => match retry_after_s {
                Some(retry_after_s) => AppError::Busy { message, retry_after_s },
                None => AppError::Moved(message),
            },
            _ => AppError::Internal(anyhow::anyhow!(
                "the market's owner answered {status}: {message}"
            )),
        }
    }
}

/// [`Money`] as minor units.
pub(crate) mod minor {
    use backlay_core::money::Money;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(money: &Money, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(money.minor())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Money, D::Error> {
        i64::deserialize(d).map(Money::from_minor)
    }
}

/// An optional [`Money`] as minor units.
pub(crate) mod minor_opt {
    use backlay_core::money::Money;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(money: &Option<Money>, s: S) -> Result<S::Ok, S::Error> {
        money.map(Money::minor).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Money>, D::Error> {
        Ok(Option::<i64>::deserialize(d)?.map(Money::from_minor))
    }
}

/// A [`Price`](backlay_core::odds::Price) as hundredths.
pub(crate) mod price {
    use backlay_core::odds::Price;
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(price: &Price, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(price.hundredths())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Price, D::Error> {
        Price::from_hundredths(u32::deserialize(d)?).map_err(D::Error::custom)
    }
}

/// An optional [`Price`](backlay_core::odds::Price) as hundredths.
pub(crate) mod price_opt {
    use backlay_core::odds::Price;
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(price: &Option<Price>, s: S) -> Result<S::Ok, S::Error> {
        price.map(Price::hundredths).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Price>, D::Error> {
        Option::<u32>::deserialize(d)?
            .map(|hundredths| Price::from_hundredths(hundredths).map_err(D::Error::custom))
            .transpose()
    }
}

/// One side of a runner's book, `(price, money)` best first, as `(hundredths, minor)`.
pub(crate) mod book_side {
    use backlay_core::money::Money;
    use backlay_core::odds::Price;
    use serde::{de::Error, Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(side: &[(Price, Money)], s: S) -> Result<S::Ok, S::Error> {
        let raw: Vec<(u32, i64)> = side.iter().map(|(p, m)| (p.hundredths(), m.minor())).collect();
        raw.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(Price, Money)>, D::Error> {
        Vec::<(u32, i64)>::deserialize(d)?
            .into_iter()
            .map(|(p, m)| {
                Ok((Price::from_hundredths(p).map_err(D::Error::custom)?, Money::from_minor(m)))
            })
            .collect()
    }
}

/// A fancy book's rows `(from, to, pnl)` with the P&L as minor units.
pub(crate) mod fancy_rows {
    use backlay_core::money::Money;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    type Row = (u32, Option<u32>, Money);

    pub fn serialize<S: Serializer>(rows: &[Row], s: S) -> Result<S::Ok, S::Error> {
        let raw: Vec<(u32, Option<u32>, i64)> =
            rows.iter().map(|(from, to, pnl)| (*from, *to, pnl.minor())).collect();
        raw.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Row>, D::Error> {
        Ok(Vec::<(u32, Option<u32>, i64)>::deserialize(d)?
            .into_iter()
            .map(|(from, to, pnl)| (from, to, Money::from_minor(pnl)))
            .collect())
    }
}
