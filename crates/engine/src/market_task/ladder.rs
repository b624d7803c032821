//! A runner's full ladder (`market/ladder`) and what traded on an exchange market, both kept
//! by the market's own task so that they are the book that matches: every price of the
//! runner's book with money on it (the view shows only the best [`crate::VIEW_DEPTH`]), the
//! caller's own unmatched orders at their prices, the volume traded at each price and the last
//! price traded.
//!
//! What traded ([`Traded`]) is read from the market's fills when the task loads the market,
//! then counted from each placement batch's fills once its transaction has committed, so it
//! never runs ahead of the database: a batch that fails rebuilds the task, and with it this
//! count, from what is stored. Only the fills of runners still running count (those of a
//! non-runner are void, and the rebuild that follows a removal reads them no more), so the
//! market's total matched is what its settlement will settle.
//!
//! Example: Ann lays 100.00 at 2.50 and Bob backs 40.00 at 2.50. The ladder of that runner, as
//! Ann asks for it, has one level: 2.50 with 60.00 to back (Ann's lay, what is left of it),
//! traded 40.00, `my_lay` 60.00; the last traded price is 2.50 and the runner's total matched
//! 40.00. Bob asking sees the same level with `my_lay` 0.

use std::collections::{BTreeMap, HashMap};

use backlay_core::exchange::{MarketStatus, MarketType, RunnerId, Side, UserId};
use backlay_core::money::Money;
use backlay_core::odds::{Price, TICK_COUNT};
use backlay_store::bets::FillRow;
use serde::{Deserialize, Serialize};

use super::MarketActor;
use crate::wire::{minor, price, price_opt};
use backlay_kit::error::AppError;

/// One price of a runner's ladder with something on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LadderLevel {
    #[serde(with = "price")]
    pub price: Price,
    /// Money available to back at this price: the resting LAYs.
    #[serde(with = "minor")]
    pub back_size: Money,
    /// Money available to lay at this price: the resting BACKs.
    #[serde(with = "minor")]
    pub lay_size: Money,
    /// Matched at this price so far (the backers' stakes).
    #[serde(with = "minor")]
    pub traded: Money,
    /// The caller's own unmatched BACK orders here (part of `lay_size`).
    #[serde(with = "minor")]
    pub my_back: Money,
    /// The caller's own unmatched LAY orders here (part of `back_size`).
    #[serde(with = "minor")]
    pub my_lay: Money,
}

/// A runner's full ladder as its market's task holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunnerLadder {
    pub market_id: i64,
    pub selection_id: i64,
    pub name: String,
    pub status: MarketStatus,
    pub in_play: bool,
    /// The price of the runner's last fill; `None` before any.
    #[serde(with = "price_opt")]
    pub last_traded: Option<Price>,
    /// Everything matched on this runner (the sum of the levels' `traded`).
    #[serde(with = "minor")]
    pub total_matched: Money,
    /// Every price with money available, traded or an order of the caller's, lowest first: at
    /// most the ladder's 350.
    pub levels: Vec<LadderLevel>,
}

/// What traded on each runner of an exchange market (see the module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Traded {
    runners: HashMap<i64, RunnerTraded>,
    total_minor: i64,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct RunnerTraded {
    by_price: BTreeMap<Price, i64>,
    total_minor: i64,
    last: Option<Price>,
}

impl Traded {
    /// What the market's stored fills (of its running runners, oldest first) traded.
    pub(super) fn of_fills(fills: &[FillRow]) -> Result<Traded, AppError> {
        let mut traded = Traded::default();
        for fill in fills {
            let price = u32::try_from(fill.price)
                .ok()
                .and_then(|hundredths| Price::from_hundredths(hundredths).ok())
                .ok_or_else(|| {
                    AppError::Internal(anyhow::anyhow!(
                        "fill {} is stored at {}, not a ladder price",
                        fill.fill_id,
                        fill.price
                    ))
                })?;
            traded.record(fill.runner_id, price, fill.size_minor);
        }
        Ok(traded)
    }

    /// Counts one fill (a committed one: see the module docs).
    pub(super) fn record(&mut self, runner_id: i64, price: Price, size_minor: i64) {
        let runner = self.runners.entry(runner_id).or_default();
        *runner.by_price.entry(price).or_default() += size_minor;
        runner.total_minor += size_minor;
        runner.last = Some(price);
        self.total_minor += size_minor;
    }

    /// Everything matched in the market.
    pub(super) fn total(&self) -> Money {
        Money::from_minor(self.total_minor)
    }
}

/// 400 for a ladder (or a price chart) asked of a bookmaker or fancy market: the house posts
/// one rate there, and nothing is matched between bettors.
pub fn no_ladder(market_type: MarketType) -> AppError {
    AppError::field(
        "market_id",
        format!(
            "There is no ladder on a {} market: only exchange markets (match odds, win, place) \
             have one.",
            market_type.as_str()
        ),
    )
}

impl MarketActor {
    /// The ladder of runner `selection_id` with `user_id`'s own orders on it.
    pub(super) fn ladder(&self, user_id: i64, selection_id: i64) -> Result<RunnerLadder, AppError> {
        if self.kind().is_house_banked() {
            return Err(no_ladder(self.setup.market_type));
        }
        let runner = self.runner_row(Some(selection_id))?;
        let mut levels: BTreeMap<Price, LadderLevel> = BTreeMap::new();
        if let Some(book) = self.market.book(RunnerId(selection_id)) {
            for (price, size) in book.available_to_back(TICK_COUNT) {
                level(&mut levels, price).back_size = Money::from_minor(size);
            }
            for (price, size) in book.available_to_lay(TICK_COUNT) {
                level(&mut levels, price).lay_size = Money::from_minor(size);
            }
            for order in book.orders_of(UserId(user_id)) {
                let level = level(&mut levels, order.price);
                let mine = match order.side {
                    Side::Back => &mut level.my_back,
                    Side::Lay => &mut level.my_lay,
                };
                *mine = Money::from_minor(mine.minor() + order.remaining_minor);
            }
        }
        let traded = self.traded.runners.get(&selection_id);
        for (price, size) in traded.iter().flat_map(|t| t.by_price.iter()) {
            level(&mut levels, *price).traded = Money::from_minor(*size);
        }
        Ok(RunnerLadder {
            market_id: self.setup.market_id,
            selection_id,
            name: runner.name.clone(),
            status: self.market.status(),
            in_play: self.in_play,
            last_traded: traded.and_then(|t| t.last),
            total_matched: Money::from_minor(traded.map_or(0, |t| t.total_minor)),
            levels: levels.into_values().collect(),
        })
    }
}

/// The level at `price`, made empty if there is none yet.
fn level(levels: &mut BTreeMap<Price, LadderLevel>, price: Price) -> &mut LadderLevel {
    levels.entry(price).or_insert_with(|| LadderLevel {
        price,
        back_size: Money::ZERO,
        lay_size: Money::ZERO,
        traded: Money::ZERO,
        my_back: Money::ZERO,
        my_lay: Money::ZERO,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn price(hundredths: u32) -> Price {
        Price::from_hundredths(hundredths).unwrap()
    }

    fn fill(fill_id: i64, runner_id: i64, price: i64, size_minor: i64) -> FillRow {
        FillRow {
            fill_id,
            market_id: 1,
            runner_id,
            back_bet_id: 1,
            back_user_id: 1,
            lay_bet_id: 2,
            lay_user_id: 2,
            price,
            size_minor,
            backer_profit_minor: 0,
        }
    }

    #[test]
    fn traded_sums_each_runner_by_price_and_keeps_the_last_price() {
        let traded = Traded::of_fills(&[
            fill(1, 7, 250, 40_00),
            fill(2, 8, 300, 5_00),
            fill(3, 7, 240, 10_00),
            fill(4, 7, 250, 2_50),
        ])
        .unwrap();
        let seven = &traded.runners[&7];
        assert_eq!(
            seven.by_price.iter().map(|(p, s)| (p.hundredths(), *s)).collect::<Vec<_>>(),
            vec![(240, 10_00), (250, 42_50)]
        );
        assert_eq!(seven.total_minor, 52_50);
        assert_eq!(seven.last, Some(price(250)));
        assert_eq!(traded.runners[&8].last, Some(price(300)));
        assert_eq!(traded.total(), Money::from_minor(57_50));

        // Counting the same fills one by one gives the same figures.
        let mut counted = Traded::default();
        for (runner, at, size) in [(7, 250, 40_00), (8, 300, 5_00), (7, 240, 10_00), (7, 250, 2_50)]
        {
            counted.record(runner, price(at), size);
        }
        assert_eq!(counted, traded);
    }

    #[test]
    fn a_stored_fill_off_the_ladder_fails_the_load() {
        let err = Traded::of_fills(&[fill(9, 7, 201, 1_00)]).unwrap_err();
        assert!(matches!(err, AppError::Internal(_)), "{err:?}");
    }
}
