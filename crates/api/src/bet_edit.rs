//! Editing an unmatched bet (issue 32): `bet/updateBet {bet_id, price?, stake?, persistence?}`.
//!
//! Queue priority is the exchange's fairness rule (price, then time), so an edit keeps the
//! bet's place only where it asks for less of the same thing:
//! - a **lower stake** at the same price cancels part of the unmatched size: the same bet, the
//!   same place in the queue;
//! - a **new price**, or a **higher stake**, is a new order at the back of the queue at that
//!   price (as Betfair's replaceOrders): the unmatched part is cancelled and a new bet placed
//!   for the new unmatched size, through the same funds check, in-play delay and limits as any
//!   bet. The new bet's id is answered, with the old one as `replaced_bet_id`;
//! - **persistence** (lapse or persist) changes in place.
//!
//! `stake` is the bet's new whole stake, matched part included: a bet of ₹400.00 with ₹150.00
//! matched and stake 300 keeps ₹150.00 unmatched. The checks that can be made before anything
//! moves are made first (whose bet, its market's kind, the price on the ladder, the market's
//! minimum stake), so that a replacement is refused before its cancel. What only the placement
//! can say (the funds, a suspension meanwhile) comes after it: then the answer says the
//! unmatched part was cancelled and nothing placed (Betfair's CANCELLED_NOT_PLACED), with the
//! placement's reason.

use axum::extract::State;
use backlay_core::exchange::Persistence;
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_core::odds::{Price, Quote};
use backlay_engine::{PlaceBet, PlacementStatus};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use backlay_kit::error::{ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{choice_field, AmountInput, ApiJson, FlexI64};
use backlay_operator::session::CurrentUser;
use backlay_operator::AppState;

use crate::bet::NumberText;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(update_bet))
}

#[derive(Deserialize, ToSchema)]
pub struct UpdateBetRequest {
    #[schema(value_type = i64)]
    pub bet_id: FlexI64,
    /// A new price (odds on the ladder): a new order at the back of the queue.
    #[serde(default)]
    #[schema(value_type = Option<f64>, exclusive_minimum = 0)]
    pub price: Option<NumberText>,
    /// The bet's new whole stake, matched part included: lower keeps the queue place, higher
    /// is a new order for the difference's unmatched size at the back.
    #[serde(default)]
    #[schema(value_type = Option<f64>, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub stake: Option<AmountInput>,
    /// lapse or persist: what happens to the unmatched part at a suspension or the off.
    #[serde(default)]
    #[schema(value_type = Option<Persistence>)]
    pub persistence: Option<String>,
}

#[derive(Serialize, ToSchema, Debug)]
pub struct UpdateBetData {
    /// The bet as it stands now: the same one when it kept its place, else the new one.
    pub bet_id: i64,
    /// The bet whose unmatched part was cancelled for the new one; null when edited in place.
    #[schema(required = true)]
    pub replaced_bet_id: Option<i64>,
    /// Whether the bet kept its place in the queue.
    pub kept_queue_place: bool,
    /// The new bet's placement (null when edited in place): it may match at once.
    #[schema(required = true)]
    pub status: Option<PlacementStatus>,
    /// What of the bet waits unmatched now.
    #[schema(value_type = f64)]
    pub remaining: Money,
}

/// What an edit does, decided before anything moves.
#[derive(Debug, PartialEq, Eq)]
enum Edit {
    /// Cancel this much of the unmatched size: the bet keeps its place.
    Reduce(i64),
    /// Cancel the unmatched part and place a new order at this price (hundredths) for the new
    /// unmatched size (`None`: what was cancelled).
    Replace { price: i64, unmatched_minor: Option<i64> },
    /// Price and stake as they are (a persistence change alone, or nothing).
    Keep,
}

/// The edit asked for a bet of `stake_minor` with `matched_minor` matched and `remaining_minor`
/// unmatched at `price`: the new price (hundredths) and whole stake, when given.
fn edit_of(
    price: i64,
    matched_minor: i64,
    remaining_minor: i64,
    new_price: Option<i64>,
    new_stake_minor: Option<i64>,
) -> Result<Edit, AppError> {
    let unmatched = match new_stake_minor {
        Some(stake) if stake <= matched_minor => {
            return Err(AppError::field(
                "stake",
                format!(
                    "The stake must be more than the {} already matched; to cancel the rest, cancel the bet.",
                    Money::from_minor(matched_minor).rupees()
                ),
            ))
        }
        Some(stake) => Some(stake - matched_minor),
        None => None,
    };
    let new_price = new_price.filter(|p| *p != price);
    Ok(match (new_price, unmatched) {
        (Some(price), unmatched) => Edit::Replace { price, unmatched_minor: unmatched },
        (None, Some(unmatched)) if unmatched < remaining_minor => {
            Edit::Reduce(remaining_minor - unmatched)
        }
        (None, Some(unmatched)) if unmatched > remaining_minor => {
            Edit::Replace { price, unmatched_minor: Some(unmatched) }
        }
        (None, _) => Edit::Keep,
    })
}

#[utoipa::path(post, path = "/bet/updateBet", tag = "bet", request_body = UpdateBetRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<UpdateBetData>),
        (status = 400, description = "Nothing to change, an off-ladder price, a stake not above the matched part"),
        (status = 401), (status = 404, description = "No unmatched bet of the caller's with that id"),
        (status = 409, description = "A bookmaker or fancy bet; the market not open; cancelled but not placed again"),
        (status = 422, description = "The new size below the market's minimum; cancelled but not placed again (funds, limits)")))]
async fn update_bet(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ApiJson(body): ApiJson<UpdateBetRequest>,
) -> ApiResult<UpdateBetData> {
    let bet_id = body.bet_id.0;
    let user_id = authed.user.id;
    let not_yours = || AppError::NotFound(format!("You have no unmatched bet {bet_id}."));
    let bet = state.store.bet(bet_id).await.map_err(|_| not_yours())?;
    if bet.user_id != user_id || bet.remaining_minor == 0 {
        return Err(not_yours());
    }
    if body.price.is_none() && body.stake.is_none() && body.persistence.is_none() {
        return Err(AppError::field("bet_id", "Give a new price, stake or persistence to change."));
    }
    let market = state.store.market(bet.market_id).await?;
    if market.setup.market_type.is_house_banked() {
        return Err(AppError::Conflict(
            "Bookmaker and fancy bets are matched at once and cannot be edited.".into(),
        ));
    }
    let persistence = match &body.persistence {
        Some(text) => Some(choice_field("persistence", Some(text), bet.persistence, |text| {
            format!("{text} is not {}.", one_of(Persistence::NAMES))
        })?),
        None => None,
    };
    let new_price = match &body.price {
        Some(text) => Some(i64::from(
            Price::parse_decimal(&text.0)
                .map_err(|e| AppError::field("price", e.to_string()))?
                .hundredths(),
        )),
        None => None,
    };
    let new_stake = match body.stake {
        Some(stake) if !stake.0.is_positive() => {
            return Err(AppError::field("stake", "The stake must be more than 0."))
        }
        Some(stake) => Some(stake.0.minor()),
        None => None,
    };
    let edit = edit_of(bet.price, bet.matched_minor, bet.remaining_minor, new_price, new_stake)?;
    if let Edit::Replace { unmatched_minor: Some(size), .. } = edit {
        let minimum = market.setup.min_stake_minor;
        if size < minimum {
            return Err(AppError::Unprocessable(format!(
                "The new bet would be {} unmatched, below this market's minimum stake of {}.",
                Money::from_minor(size).rupees(),
                Money::from_minor(minimum).rupees()
            )));
        }
    }

    match edit {
        Edit::Keep | Edit::Reduce(_) => {
            if let Some(persistence) = persistence.filter(|p| *p != bet.persistence) {
                state.engine.set_persistence(bet.market_id, user_id, bet_id, persistence).await?;
            }
            let mut remaining = Money::from_minor(bet.remaining_minor);
            if let Edit::Reduce(size) = edit {
                let cancel = state
                    .engine
                    .cancel(bet.market_id, user_id, bet_id, Some(Money::from_minor(size)))
                    .await?;
                remaining = cancel.remaining;
            }
            Ok(ok_with(
                format!(
                    "Bet updated: {} waits unmatched, in its place in the queue.",
                    remaining.rupees()
                ),
                UpdateBetData {
                    bet_id,
                    replaced_bet_id: None,
                    kept_queue_place: true,
                    status: None,
                    remaining,
                },
            ))
        }
        Edit::Replace { price, unmatched_minor } => {
            let cancelled = state.engine.cancel(bet.market_id, user_id, bet_id, None).await?;
            // Matched meanwhile: the new whole stake counts what matched by the cancel.
            let matched_now = bet.stake_minor
                - bet.cancelled_minor
                - bet.lapsed_minor
                - cancelled.cancelled.minor()
                - cancelled.remaining.minor();
            let size = match unmatched_minor {
                Some(_) => new_stake.unwrap_or(0) - matched_now,
                None => cancelled.cancelled.minor(),
            };
            if size <= 0 {
                return Ok(ok_with(
                    "Your bet matched before it could be changed: nothing was placed again.",
                    UpdateBetData {
                        bet_id,
                        replaced_bet_id: None,
                        kept_queue_place: true,
                        status: None,
                        remaining: Money::ZERO,
                    },
                ));
            }
            let persistence = persistence.unwrap_or(bet.persistence);
            let fingerprint = format!("update|{bet_id}|{price}|{size}|{persistence:?}");
            let price_quote =
                Quote::of_price(Price::from_hundredths(price as u32).map_err(|e| {
                    AppError::Internal(anyhow::anyhow!("a price read from the ladder: {e}"))
                })?);
            let placed = state
                .engine
                .place(PlaceBet {
                    user_id,
                    market_id: bet.market_id,
                    selection_id: bet.runner_id,
                    side: bet.side,
                    price: price_quote,
                    line: None,
                    stake: Money::from_minor(size),
                    persistence,
                    client_ref: None,
                    request_hash: hex::encode(Sha256::digest(fingerprint.as_bytes())),
                    refs: bet.refs.clone(),
                    house_liquidity: false,
                    house_max_exposure_minor: None,
                    accept_rate_changes: Default::default(),
                    cash_out: None,
                })
                .await
                .map_err(|err| cancelled_not_placed(err, cancelled.cancelled))?;
            let remaining = Money::from_minor(size - placed.size_matched.minor());
            Ok(ok_with(
                format!(
                    "Bet replaced: your unmatched {} was cancelled and a new bet placed. {}",
                    cancelled.cancelled.rupees(),
                    placed.message
                ),
                UpdateBetData {
                    bet_id: placed.bet_id,
                    replaced_bet_id: Some(bet_id),
                    kept_queue_place: false,
                    status: Some(placed.status),
                    remaining,
                },
            ))
        }
    }
}

/// The placement after a replacement's cancel failed: the bettor is told the unmatched part
/// is gone and why nothing took its place. A refusal keeps its status (409 or 422); the
/// server's own trouble (503, 500) passes as it is, the cancel said in its message where it
/// can be.
fn cancelled_not_placed(err: AppError, cancelled: Money) -> AppError {
    let said = |reason: &dyn std::fmt::Display| {
        format!(
            "Your unmatched {} was cancelled, but the new bet was not placed: {reason}",
            cancelled.rupees()
        )
    };
    match err {
        AppError::Refused(refusal) if refusal.status().as_u16() == 422 => {
            AppError::Unprocessable(said(&refusal))
        }
        AppError::Unprocessable(reason) => AppError::Unprocessable(said(&reason)),
        AppError::Refused(refusal) => AppError::Conflict(said(&refusal)),
        AppError::Conflict(reason) | AppError::NotFound(reason) => {
            AppError::Conflict(said(&reason))
        }
        AppError::Invalid { message, .. } => AppError::Conflict(said(&message)),
        AppError::Unavailable { message, retry_after_s, cause } => {
            AppError::Unavailable { message: said(&message), retry_after_s, cause }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lower_stake_at_the_same_price_keeps_the_place_and_anything_else_replaces() {
        // 400 staked at 2.50, 150 matched, 250 waiting.
        let edit = |price, stake| edit_of(250, 150_00, 250_00, price, stake);
        assert_eq!(edit(None, Some(300_00)).unwrap(), Edit::Reduce(100_00));
        assert_eq!(edit(Some(250), Some(300_00)).unwrap(), Edit::Reduce(100_00));
        assert_eq!(
            edit(None, Some(500_00)).unwrap(),
            Edit::Replace { price: 250, unmatched_minor: Some(350_00) }
        );
        assert_eq!(
            edit(Some(260), None).unwrap(),
            Edit::Replace { price: 260, unmatched_minor: None }
        );
        assert_eq!(
            edit(Some(260), Some(200_00)).unwrap(),
            Edit::Replace { price: 260, unmatched_minor: Some(50_00) }
        );
        assert_eq!(edit(None, Some(400_00)).unwrap(), Edit::Keep);
        assert_eq!(edit(Some(250), None).unwrap(), Edit::Keep);
        let all_matched = edit(None, Some(150_00)).unwrap_err();
        assert!(all_matched.to_string().contains("already matched"), "{all_matched}");
    }
}
