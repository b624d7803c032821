//! Market analysis for the console: the house's position on a market against a set of accounts
//! (an agent's downline, or every client for an admin), per runner or per fancy run range.
//!
//! The accounts' matched bets are summed into one core [`Position`], the same sums exposure and
//! the bettor's own book are computed from; the house's position is its opposite. Summing is
//! right because each outcome's P&L is a sum over bets: on a bookmaker market with A backing
//! India 100.00 at rate 90 and B laying India 50.00 at rate 90,
//!
//! ```text
//! India wins:     A +90.00, B −45.00   downline +45.00   house −45.00
//! Pakistan wins:  A −100.00, B +50.00  downline −50.00   house +50.00
//! ```
//!
//! On exchange markets (match odds, win, place) clients are matched with each other, so two
//! accounts of one downline on both sides of a fill cancel out: what is left is what the
//! downline as a whole has at stake against the rest of the exchange.

use backlay_core::exchange::{Bet, FancyBookRow, MarketKind, Position, UserId};
use backlay_store::markets::MarketRow;

use crate::error::AppError;

/// The house's P&L on each outcome of one market.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HousePosition {
    /// (runner id, the house's P&L if it wins — placed, on a place market), in the market's
    /// runner order; empty on a fancy.
    pub runners: Vec<(i64, i64)>,
    /// The house's P&L per run range, lowest first; empty on a runner market.
    pub fancy: Vec<FancyBookRow>,
    /// How many matched bets of the accounts went into it (both sides of a fill count).
    pub bets: usize,
}

/// The house's position on `market` against the accounts `counts` accepts, from the market's
/// matched bets as stored (`engine::stored_matched_bets`).
pub fn house_position(
    market: &MarketRow,
    matched: &[(i64, UserId, Bet)],
    counts: impl Fn(i64) -> bool,
) -> Result<HousePosition, AppError> {
    let setup = &market.setup;
    let kind = setup.kind();
    let spec = setup.spec().map_err(|e| {
        AppError::Internal(anyhow::anyhow!("market {} cannot be analysed: {e}", setup.market_id))
    })?;
    let mut position = Position::new();
    let mut count = 0;
    for (_, user, bet) in matched {
        if counts(user.0) {
            position.add_matched(bet);
            count += 1;
        }
    }
    let runners = position
        .runner_positions(&spec)
        .into_iter()
        .map(|(runner, pnl_minor)| (runner.0, -pnl_minor))
        .collect();
    let fancy = if kind == MarketKind::Fancy {
        position
            .fancy_book()
            .into_iter()
            .map(|row| FancyBookRow { pnl_minor: -row.pnl_minor, ..row })
            .collect()
    } else {
        Vec::new()
    };
    Ok(HousePosition { runners, fancy, bets: count })
}
