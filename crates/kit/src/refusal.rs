//! Why a bet was refused, as facts: the money it needed and what was available, the limit it
//! would pass, the market's status. The engine, the casino and the wallet refuse with a
//! [`Refusal`] (inside [`AppError::Refused`](crate::error::AppError::Refused)); each edge reads
//! it by match, never by its words:
//! - the web API writes its status and message here, in [`Refusal::status`] and its `Display`,
//!   the one place a refusal's text is written;
//! - the bot API maps it to Betfair's error codes (`backlay_betfair::orders::refusal_of`);
//! - between the nodes of a cluster it travels as itself (`backlay_engine::wire::WireError`).
//!
//! Example: a ₹1,000 back at 2.5 from an account with ₹400 available is
//! `InsufficientFunds { needed_minor: 1_000_00, available_minor: 400_00 }`, which the web app
//! shows as 422 "Insufficient funds: this bet needs ₹1,000.00 and you have ₹400.00
//! available." and a bot hears as `INSUFFICIENT_FUNDS`.

use std::fmt;

use axum::http::StatusCode;
use backlay_core::exchange::MarketStatus;
use backlay_core::money::Money;
use backlay_core::safer::Period;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "refusal", rename_all = "snake_case")]
pub enum Refusal {
    /// 422: the bet's worst case (or a wallet debit) needs more than the account has available.
    /// `needed_minor` is `None` where only the available balance is known (a chip transfer).
    InsufficientFunds { needed_minor: Option<i64>, available_minor: i64 },
    /// 422: the account's exposure would pass the limit its parent set. `this_bet`: said of a
    /// bet ("This bet would …"), else of a move of money ("This would …").
    ExposureLimit { limit_minor: i64, this_bet: bool },
    /// 422: the parent has bet-locked the account (it may still log in).
    BettingLocked,
    /// 422: the stake is above the cap the account's parent set.
    StakeCap { cap_minor: i64 },
    /// 422: the stake is below the market's (or table's) minimum.
    StakeBelowMinimum { min_minor: i64 },
    /// 422: the stake is above the market's (or table's) maximum.
    StakeAboveMaximum { max_minor: i64 },
    /// 409: the market is suspended or the ball is running; it may open again.
    MarketNotOpen { status: MarketStatus },
    /// 409: an in-play bet waited out its delay and the market was suspended meanwhile.
    SuspendedDuringDelay,
    /// 409: the market is settled or void, for good.
    MarketClosed,
    /// 404: the runner is not in this market.
    UnknownRunner { runner_id: i64 },
    /// 409: the runner was withdrawn from the market (a non-runner) and takes no bets.
    RunnerRemoved { runner_id: i64 },
    /// 409: cash out is not offered on this kind of market (a fancy).
    CashOutNotOffered,
    /// 409: nothing to cash out: no matched bets here (`has_bets` false), or a position that is
    /// already the same whatever wins.
    NothingToCashOut { has_bets: bool },
    /// 422: nobody offers the price a cash out's bet on `runner` needs.
    CashOutNoPrice { runner: String },
    /// 422: less is offered at the best price than a cash out's bet on `runner` needs.
    CashOutNotEnough { runner: String, needed_minor: i64, available_minor: i64 },
    /// 422: the bettor's own unmatched order waits at the price (odds in hundredths) a cash
    /// out's bet on `runner` would take.
    CashOutOwnOrder { runner: String, price: u32 },
    /// 422: a cash out's bet on `runner` would be above the market's maximum stake.
    CashOutAboveMaximum { runner: String, stake_minor: i64, max_minor: i64 },
    /// 409: the prices moved past the bettor's tolerance since the cash out was quoted.
    CashOutPricesMoved,
    /// 422: the bet (or casino stake, or wallet debit) would take the bettor past a loss limit
    /// they set: `left_minor` could still be lost in `period`, whose limit binds.
    LossLimit { left_minor: i64, period: Period, limit_minor: i64 },
    /// 422: the stake is above the bettor's own stake limit or the operator's tree-wide one.
    OwnStakeLimit { limit_minor: i64 },
    /// 422: a deposit past the bettor's deposit limit: `left_minor` could still come in in
    /// `period`.
    DepositLimit { left_minor: i64, period: Period, limit_minor: i64 },
    /// 422: the bettor took a time-out, which lasts until `until_ms`.
    TimedOut { until_ms: i64 },
    /// 422: the bettor excluded themselves until `until_ms`.
    SelfExcluded { until_ms: i64 },
}

impl Refusal {
    /// Its name, as it is serialised (`insufficient_funds`, …): the metrics' `reason` label.
    pub const fn reason(&self) -> &'static str {
        match self {
            Refusal::InsufficientFunds { .. } => "insufficient_funds",
            Refusal::ExposureLimit { .. } => "exposure_limit",
            Refusal::BettingLocked => "betting_locked",
            Refusal::StakeCap { .. } => "stake_cap",
            Refusal::StakeBelowMinimum { .. } => "stake_below_minimum",
            Refusal::StakeAboveMaximum { .. } => "stake_above_maximum",
            Refusal::MarketNotOpen { .. } => "market_not_open",
            Refusal::SuspendedDuringDelay => "suspended_during_delay",
            Refusal::MarketClosed => "market_closed",
            Refusal::UnknownRunner { .. } => "unknown_runner",
            Refusal::RunnerRemoved { .. } => "runner_removed",
            Refusal::CashOutNotOffered => "cash_out_not_offered",
            Refusal::NothingToCashOut { .. } => "nothing_to_cash_out",
            Refusal::CashOutNoPrice { .. } => "cash_out_no_price",
            Refusal::CashOutNotEnough { .. } => "cash_out_not_enough",
            Refusal::CashOutOwnOrder { .. } => "cash_out_own_order",
            Refusal::CashOutAboveMaximum { .. } => "cash_out_above_maximum",
            Refusal::CashOutPricesMoved => "cash_out_prices_moved",
            Refusal::LossLimit { .. } => "loss_limit",
            Refusal::OwnStakeLimit { .. } => "own_stake_limit",
            Refusal::DepositLimit { .. } => "deposit_limit",
            Refusal::TimedOut { .. } => "timed_out",
            Refusal::SelfExcluded { .. } => "self_excluded",
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Refusal::InsufficientFunds { .. }
            | Refusal::ExposureLimit { .. }
            | Refusal::BettingLocked
            | Refusal::StakeCap { .. }
            | Refusal::StakeBelowMinimum { .. }
            | Refusal::StakeAboveMaximum { .. }
            | Refusal::CashOutNoPrice { .. }
            | Refusal::CashOutNotEnough { .. }
            | Refusal::CashOutOwnOrder { .. }
            | Refusal::CashOutAboveMaximum { .. }
            | Refusal::LossLimit { .. }
            | Refusal::OwnStakeLimit { .. }
            | Refusal::DepositLimit { .. }
            | Refusal::TimedOut { .. }
            | Refusal::SelfExcluded { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            Refusal::MarketNotOpen { .. }
            | Refusal::SuspendedDuringDelay
            | Refusal::MarketClosed
            | Refusal::RunnerRemoved { .. }
            | Refusal::CashOutNotOffered
            | Refusal::NothingToCashOut { .. }
            | Refusal::CashOutPricesMoved => StatusCode::CONFLICT,
            Refusal::UnknownRunner { .. } => StatusCode::NOT_FOUND,
        }
    }
}

/// The message a person reads (the web API's `message`).
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rupees = |minor: i64| Money::from_minor(minor).rupees();
        match *self {
            Refusal::InsufficientFunds { needed_minor: Some(needed), available_minor } => write!(
                f,
                "Insufficient funds: this bet needs {} and you have {} available.",
                rupees(needed),
                rupees(available_minor.max(0))
            ),
            Refusal::InsufficientFunds { needed_minor: None, available_minor } => {
                write!(f, "Insufficient funds: {} available.", rupees(available_minor))
            }
            Refusal::ExposureLimit { limit_minor, this_bet } => write!(
                f,
                "This {}would take your exposure over your limit of {}.",
                if this_bet { "bet " } else { "" },
                rupees(limit_minor)
            ),
            Refusal::BettingLocked => {
                f.write_str("Betting is locked on this account: ask your agent.")
            }
            Refusal::StakeCap { cap_minor } => {
                write!(f, "Your stake limit is {} a bet.", rupees(cap_minor))
            }
            Refusal::StakeBelowMinimum { min_minor } => {
                write!(f, "The minimum stake here is {}.", rupees(min_minor))
            }
            Refusal::StakeAboveMaximum { max_minor } => {
                write!(f, "The maximum stake here is {}.", rupees(max_minor))
            }
            Refusal::MarketNotOpen { status: MarketStatus::BallRunning } => {
                f.write_str("This market is suspended (ball running) and takes no bets now.")
            }
            Refusal::MarketNotOpen { status } => {
                write!(f, "This market is {status} and takes no bets now.")
            }
            Refusal::SuspendedDuringDelay => f.write_str(
                "The market was suspended during the bet delay, so the bet was not placed.",
            ),
            Refusal::MarketClosed => f.write_str("This market is closed."),
            Refusal::UnknownRunner { runner_id } => {
                write!(f, "Runner {runner_id} is not in this market.")
            }
            Refusal::RunnerRemoved { runner_id } => {
                write!(f, "Runner {runner_id} was withdrawn from this market and takes no bets.")
            }
            Refusal::CashOutNotOffered => f.write_str(
                "Cash out is offered on match odds, win, place and bookmaker markets, not on a fancy.",
            ),
            Refusal::NothingToCashOut { has_bets: false } => {
                f.write_str("You have no matched bets on this market to cash out.")
            }
            Refusal::NothingToCashOut { has_bets: true } => f.write_str(
                "Your position here is already the same whatever wins: there is nothing to cash out.",
            ),
            Refusal::CashOutNoPrice { ref runner } => write!(
                f,
                "Nobody offers a price on {runner} now, so the position cannot be cashed out."
            ),
            Refusal::CashOutNotEnough { ref runner, needed_minor, available_minor } => write!(
                f,
                "Not enough is offered to cash out: {} needed on {runner}, {} offered at the best \
                 price. Try cashing out part of it.",
                rupees(needed_minor),
                rupees(available_minor)
            ),
            Refusal::CashOutOwnOrder { ref runner, price } => write!(
                f,
                "Your own unmatched bet at {}.{:02} on {runner} would be matched by the cash out: \
                 cancel your unmatched bets on this market first.",
                price / 100,
                price % 100
            ),
            Refusal::CashOutAboveMaximum { ref runner, stake_minor, max_minor } => write!(
                f,
                "The cash out needs a bet of {} on {runner}, above this market's maximum stake of \
                 {}: cash out part of it.",
                rupees(stake_minor),
                rupees(max_minor)
            ),
            Refusal::CashOutPricesMoved => f.write_str(
                "The prices moved since the cash out was quoted: look at its new value and cash out \
                 again.",
            ),
            Refusal::LossLimit { left_minor, period, limit_minor } => write!(
                f,
                "This would take you past your loss limit of {} a {period}: you can lose {} more {}.",
                rupees(limit_minor),
                rupees(left_minor),
                this_period(period)
            ),
            Refusal::OwnStakeLimit { limit_minor } => {
                write!(f, "Your stake limit is {} a bet.", rupees(limit_minor))
            }
            Refusal::DepositLimit { left_minor, period, limit_minor } => write!(
                f,
                "This would take you past your deposit limit of {} a {period}: you can deposit {} \
                 more {}.",
                rupees(limit_minor),
                rupees(left_minor),
                this_period(period)
            ),
            Refusal::TimedOut { until_ms } => write!(
                f,
                "You are taking a time-out until {}. You can log in again then.",
                crate::clock::ist_text(until_ms)
            ),
            Refusal::SelfExcluded { until_ms } => write!(
                f,
                "You excluded yourself from betting until {}. Your account cannot be used until then.",
                crate::clock::ist_text(until_ms)
            ),
        }
    }
}

/// "today", "this week", "this month".
fn this_period(period: Period) -> &'static str {
    match period {
        Period::Day => "today",
        Period::Week => "this week",
        Period::Month => "this month",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_refusal_says_its_facts_in_words_and_crosses_nodes_as_itself() {
        let cases = [
            (
                Refusal::InsufficientFunds { needed_minor: Some(1_000_00), available_minor: -5 },
                422,
                "Insufficient funds: this bet needs ₹1,000.00 and you have ₹0.00 available.",
            ),
            (
                Refusal::InsufficientFunds { needed_minor: None, available_minor: 400_50 },
                422,
                "Insufficient funds: ₹400.50 available.",
            ),
            (
                Refusal::ExposureLimit { limit_minor: 100_00, this_bet: true },
                422,
                "This bet would take your exposure over your limit of ₹100.00.",
            ),
            (
                Refusal::ExposureLimit { limit_minor: 100_00, this_bet: false },
                422,
                "This would take your exposure over your limit of ₹100.00.",
            ),
            (Refusal::StakeCap { cap_minor: 500_00 }, 422, "Your stake limit is ₹500.00 a bet."),
            (
                Refusal::MarketNotOpen { status: MarketStatus::BallRunning },
                409,
                "This market is suspended (ball running) and takes no bets now.",
            ),
            (
                Refusal::MarketNotOpen { status: MarketStatus::Suspended },
                409,
                "This market is suspended and takes no bets now.",
            ),
            (Refusal::MarketClosed, 409, "This market is closed."),
            (Refusal::UnknownRunner { runner_id: 9 }, 404, "Runner 9 is not in this market."),
            (
                Refusal::RunnerRemoved { runner_id: 9 },
                409,
                "Runner 9 was withdrawn from this market and takes no bets.",
            ),
        ];
        for (refusal, status, message) in cases {
            assert_eq!(refusal.status().as_u16(), status, "{refusal:?}");
            assert_eq!(refusal.to_string(), message);
            let wire = serde_json::to_string(&refusal).unwrap();
            assert_eq!(serde_json::from_str::<Refusal>(&wire).unwrap(), refusal, "{wire}");
            // The metrics' reason is the name it crosses nodes under.
            let tag = serde_json::to_value(&refusal).unwrap()["refusal"].clone();
            assert_eq!(tag, refusal.reason(), "{wire}");
        }
    }
}
