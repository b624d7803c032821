//! Placing a casino bet: the stake's bounds, the game open, the round still betting by the
//! server's clock to the millisecond (`Round::check_bet` with `now_ms`), the odds the ones
//! posted, and again inside the bet's transaction (`close_at_ms > now` on the round's row), so a
//! bet can never land in a closed round. The stake moves from the player to the house in the
//! same transaction as the bet's row.

use backlay_casino::market::{Market, Odds};
use backlay_casino::round::BetRefusal;
use backlay_casino_store::casino::{CasinoGame, CasinoRound, NewCasinoBet};
use backlay_core::money::Money;
use backlay_store::Store;

use super::{rebuild, MAX_STAKE_MINOR, MIN_STAKE_MINOR};
use backlay_casino_store::{CasinoReads, CasinoWrites};
use backlay_kit::clock::{iso_utc, now_ms};
use backlay_kit::error::{AppError, OrNotFound};

/// A bet to place, its fields parsed.
#[derive(Clone, Copy, Debug)]
pub struct NewBet<'a> {
    pub user_id: i64,
    pub round_id: &'a str,
    /// The market's code in the round.
    pub market_code: &'a str,
    /// The odds the player saw: anything but the posted odds is refused.
    pub odds: Odds,
    pub stake_minor: i64,
}

/// A placed bet, with what the answer shows of it.
#[derive(Clone, Debug)]
pub struct PlacedBet {
    pub bet_id: i64,
    pub round: CasinoRound,
    pub game: CasinoGame,
    pub market: Market,
    pub stake_minor: i64,
    pub placed_at_ms: i64,
    /// The player's balance after the stake was taken.
    pub balance_after_minor: i64,
}

/// Places a bet in a round that is taking bets.
pub async fn place_bet(store: &Store, bet: NewBet<'_>) -> Result<PlacedBet, AppError> {
    let NewBet { user_id, round_id, market_code, odds, stake_minor } = bet;
    if !(MIN_STAKE_MINOR..=MAX_STAKE_MINOR).contains(&stake_minor) {
        return Err(AppError::field(
            "stake",
            format!(
                "stake must be between {} and {}.",
                Money::from_minor(MIN_STAKE_MINOR).rupees(),
                Money::from_minor(MAX_STAKE_MINOR).rupees()
            ),
        ));
    }
    let player = store.user_by_id(user_id).await?;
    backlay_kit::actor::check_stake_allowed(
        player.is_effectively_bet_locked(),
        player.max_stake_minor,
        stake_minor,
    )?;
    let round = store
        .casino_round(round_id)
        .await
        .or_not_found(|| format!("There is no casino round {round_id}."))?;
    let game = store.casino_game(round.game_id).await?;
    if !game.is_active {
        return Err(AppError::Conflict(format!("{} is closed.", game.title)));
    }
    let pure = rebuild(&round)?;
    // The server's clock decides, by the millisecond.
    let now = now_ms();
    let market = match pure.check_bet(now, market_code, odds, stake_minor) {
        Ok(market) => market.clone(),
        Err(BetRefusal::Closed { close_at_ms, .. }) => {
            return Err(AppError::Conflict(format!(
                "Betting on round {round_id} closed at {}: the bet came too late.",
                iso_utc(close_at_ms)
            )))
        }
        Err(BetRefusal::UnknownMarket(code)) => {
            return Err(AppError::field(
                "market",
                format!("Round {round_id} has no market {code:?}."),
            ))
        }
        Err(BetRefusal::OddsNotPosted { posted, asked }) => {
            return Err(AppError::Conflict(format!(
                "Odds changed: {} is at {posted}, not {asked}.",
                market_code
            )))
        }
        Err(BetRefusal::Stake) => {
            return Err(AppError::field("stake", "The stake is out of range."))
        }
    };
    let description = format!(
        "Casino bet: {} round {round_id}, {} {} at {}",
        game.title,
        market.name,
        Money::from_minor(stake_minor),
        market.odds
    );
    let mut w = store.begin_write().await?;
    // The bettor's own limits (issue 33), with the account locked: casino stakes at once count
    // one after the other against the loss limit.
    backlay_operator::safer::check_play_stake(&mut w, user_id, stake_minor).await?;
    let (bet_id, balance_after) = w
        .place_casino_bet(
            &NewCasinoBet {
                user_id,
                round_pk: round.id,
                market_code: &market.code,
                market_name: &market.name,
                odds_hundredths: i64::from(market.odds.hundredths()),
                stake_minor,
                description,
                remark: round_id.to_string(),
            },
            now,
        )
        .await
        .map_err(|err| match err {
            backlay_store::StoreError::Conflict(_) => AppError::Conflict(format!(
                "Betting on round {round_id} closed at {}: the bet came too late.",
                iso_utc(round.close_at_ms)
            )),
            other => other.into(),
        })?;
    w.commit().await?;
    Ok(PlacedBet {
        bet_id,
        round,
        game,
        market,
        stake_minor,
        placed_at_ms: now,
        balance_after_minor: balance_after,
    })
}
