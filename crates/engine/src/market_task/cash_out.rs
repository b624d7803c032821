//! Cash out (issue 32): the bets that make a bettor's position the same whatever wins, worked
//! out and placed inside the market's task, so that the book it is worked out from is the book
//! the bets meet.
//!
//! The arithmetic is `backlay_core::exchange::cash_out` (module docs there: stake = the
//! position's difference from a common level ÷ price). Here:
//!
//! - **Quote** ([`MarketActor::cash_out_quote`]): the legs at the best prices offered now and
//!   what every runner becomes, or the reason there is no cash out (the market not open, a
//!   fancy, a flat position, too little offered, the bettor's own unmatched bet at a price a leg
//!   would take). Nothing moves.
//! - **Cash out** ([`MarketActor::cash_out`]): the same worked out again when the order reaches
//!   the task, after the in-play bet delay (which the caller waits out, `Engine::cash_out`).
//!   Every leg's price must be no more than the bettor's tolerance (in ticks; in rate points on
//!   a bookmaker) worse than the quote's, and no suspension may have arrived since the quote (no
//!   past-posting). The legs are placed in one batch, all or none: each must match whole at
//!   once. The funds check is on the position the whole cash out ends with, not leg by leg (a
//!   back on one runner raises the loss on the others until the next leg lowers it).
//!
//! Exchange legs match whole at one price (the best offer, whose size the quote checked), but
//! each fill's backer profit rounds down, so a leg met by several orders can leave its runner a
//! paisa lower per extra order: the answer says whether the outcomes came out equal to the paisa
//! or within that rounding. A bookmaker leg is one bet against the house at its posted rate.
//! On a place market each runner is hedged alone (placed or not), one leg on it.

use std::collections::BTreeSet;

use backlay_core::exchange::{
    cash_out, Bet, BetSide, CashOut, CashOutRefusal, HedgeLeg, HedgePrice, MarketKind,
    MarketStatus, MarketType, RunnerId, RunnerQuote, Side, UserId,
};
use backlay_core::money::Money;
use backlay_core::odds::{Price, Quote};
use serde::{Deserialize, Serialize};

use super::{market_error, suspended_during_delay, BetAnswer, MarketActor, PlaceBet, Placement};
use backlay_kit::error::AppError;
use backlay_kit::refusal::Refusal;

/// The most ticks (or rate points) worse than quoted a bettor may accept for a leg.
pub const MAX_TOLERANCE_TICKS: u32 = 10;

/// A leg of a cash out, carried by its [`PlaceBet`]: the exposure the whole cash out ends with,
/// which its funds check is made against instead of the leg's own worst case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CashOutLeg {
    pub exposure_after_minor: i64,
}

/// A cash out as the bettor would get it now.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CashOutQuote {
    /// Of the position, 1–100.
    pub percent: u32,
    /// The legs and what they leave, or why there is no cash out now.
    pub plan: Result<CashOutPlan, Refusal>,
    /// The in-play bet delay a cash out waits now (0 when the market is not in play).
    pub delay_ms: u64,
    /// The market's count of suspensions when quoted: a cash out placed after its delay is
    /// refused if another arrived meanwhile.
    pub suspensions: u64,
    /// The market's type: its legs' prices are odds, or a house's rates.
    pub market_type: MarketType,
}

/// The legs of a cash out and what each runner becomes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CashOutPlan {
    /// What the bettor is sure of afterwards whatever wins (on a place market, the sum over its
    /// runners); for a part, that part of the whole cash out's value (the rest stays open).
    pub value_minor: i64,
    pub runners: Vec<CashOutRunner>,
    /// The highest outcome after less the lowest (per runner on a place market), as the legs
    /// would settle matched whole: 0 when equal to the paisa (a part leaves them unequal on
    /// purpose: 0).
    pub spread_minor: i64,
}

/// One runner of a cash out.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CashOutRunner {
    pub selection_id: i64,
    pub name: String,
    /// The bettor's P&L if this runner wins now (on a place market: if it is placed).
    pub position_minor: i64,
    /// The same after the cash out.
    pub after_minor: i64,
    /// The bet placed on this runner, if any.
    pub leg: Option<PlannedLeg>,
}

/// One bet of a cash out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedLeg {
    pub side: BetSide,
    /// Odds in hundredths on an exchange market, the rate on a bookmaker.
    pub price: u32,
    pub stake_minor: i64,
}

/// A cash out to place, with the quote it was made from.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CashOutOrder {
    pub user_id: i64,
    pub percent: u32,
    /// How many ticks (rate points on a bookmaker) worse than quoted a leg may be placed at.
    pub tolerance_ticks: u32,
    /// The quote's legs: (runner, side, price).
    pub quoted: Vec<(i64, BetSide, u32)>,
    /// The quote's count of suspensions.
    pub suspensions_at_quote: u64,
    /// The legs' `client_ref` is this with `/runner` after it, so a repeat is known.
    pub client_ref: Option<String>,
}

/// A cash out placed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CashedOut {
    pub value_minor: i64,
    /// Each runner's position after, as the exchange holds it now.
    pub runners: Vec<CashOutRunner>,
    /// The legs placed, each with its bet.
    pub bets: Vec<CashOutBet>,
    /// The highest position after less the lowest (per runner on a place market): 0 when equal
    /// to the paisa. For a part, the part's own rounding is not told apart from the position
    /// left open: 0.
    pub spread_minor: i64,
}

/// A leg placed.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CashOutBet {
    pub selection_id: i64,
    pub leg: PlannedLeg,
    pub bet: BetAnswer,
}

/// A plan and the bets that carry it out, runner by runner.
struct Worked {
    plan: CashOutPlan,
    legs: Vec<HedgeLeg>,
}

impl MarketActor {
    /// The cash out of `percent` of `user_id`'s position at the prices offered now.
    pub(super) fn cash_out_quote(&self, user_id: i64, percent: u32) -> CashOutQuote {
        let delay_ms =
            if self.in_play { u64::try_from(self.setup.bet_delay_ms).unwrap_or(0) } else { 0 };
        CashOutQuote {
            percent,
            plan: self.work_out(user_id, percent).map(|w| w.plan),
            delay_ms,
            suspensions: self.suspensions.count(),
            market_type: self.setup.market_type,
        }
    }

    /// Places a cash out (module docs): all its legs in one batch, or none.
    pub(super) async fn cash_out(
        &mut self,
        order: CashOutOrder,
    ) -> Result<(CashedOut, BTreeSet<i64>), AppError> {
        self.check_open()?;
        if self.suspensions.count() != order.suspensions_at_quote {
            return Err(suspended_during_delay());
        }
        let user = order.user_id;
        let worked = self.work_out(user, order.percent).map_err(AppError::Refused)?;
        for leg in &worked.legs {
            self.within_tolerance(leg, &order)?;
        }
        let kind = self.kind();
        let bets = worked
            .legs
            .iter()
            .map(|leg| match leg.price {
                HedgePrice::Odds(price) => {
                    Bet::exchange(leg.runner, leg.side, price, leg.stake_minor)
                }
                HedgePrice::Rate(rate) => {
                    Bet::bookmaker(leg.runner, leg.side, rate, leg.stake_minor)
                }
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| AppError::Unprocessable(super::capitalised(&e.to_string())))?;
        let exposure_after_minor =
            self.market.exposure_with_matched_minor(UserId(user), &bets).map_err(market_error)?;
        let placements = worked
            .legs
            .iter()
            .map(|leg| {
                let price = match leg.price {
                    HedgePrice::Odds(price) => Quote::of_price(price),
                    HedgePrice::Rate(rate) => Quote::read(&rate.to_string()),
                };
                let client_ref = order.client_ref.as_ref().map(|r| format!("{r}/{}", leg.runner.0));
                let bet = PlaceBet {
                    user_id: user,
                    market_id: self.setup.market_id,
                    selection_id: Some(leg.runner.0),
                    side: BetSide::on(kind, leg.side),
                    request_hash: format!(
                        "cash-out|{}|{:?}|{}|{}",
                        leg.runner.0,
                        leg.side,
                        price.as_text(),
                        leg.stake_minor
                    ),
                    price,
                    line: None,
                    stake: Money::from_minor(leg.stake_minor),
                    persistence: backlay_core::exchange::Persistence::Lapse,
                    client_ref,
                    refs: Default::default(),
                    house_liquidity: false,
                    house_max_exposure_minor: None,
                    accept_rate_changes: Default::default(),
                    cash_out: Some(CashOutLeg { exposure_after_minor }),
                };
                Placement::arriving(bet, order.suspensions_at_quote)
            })
            .collect::<Vec<_>>();
        let (answers, touched) = self.place_all_or_none(placements).await?;
        let bets = worked
            .legs
            .iter()
            .zip(answers)
            .map(|(leg, bet)| CashOutBet {
                selection_id: leg.runner.0,
                leg: planned_leg(kind, leg),
                bet,
            })
            .collect();
        let after = self.positions_of(user);
        let runners: Vec<CashOutRunner> = worked
            .plan
            .runners
            .into_iter()
            .map(|runner| CashOutRunner {
                after_minor: after
                    .iter()
                    .find(|(id, _, _)| *id == runner.selection_id)
                    .map_or(runner.after_minor, |(_, if_wins, _)| *if_wins),
                ..runner
            })
            .collect();
        let spread_minor = match kind {
            _ if order.percent < 100 => 0,
            MarketKind::Place { .. } => {
                after.iter().map(|(_, placed, not)| (placed - not).abs()).max().unwrap_or(0)
            }
            _ => {
                let pnls = after.iter().map(|(_, pnl, _)| *pnl);
                pnls.clone().max().unwrap_or(0) - pnls.min().unwrap_or(0)
            }
        };
        let value_minor = match kind {
            _ if order.percent < 100 => worked.plan.value_minor,
            MarketKind::Place { .. } => after.iter().map(|(_, placed, not)| *placed.min(not)).sum(),
            _ => after.iter().map(|(_, pnl, _)| *pnl).min().unwrap_or(0),
        };
        Ok((CashedOut { value_minor, runners, bets, spread_minor }, touched))
    }

    /// Each runner's (P&L if it wins, P&L if it does not) of `user`'s matched bets: on a
    /// one-winner or bookmaker market the second is unused (the runner's position is the whole
    /// market's P&L); on a place market runners are placed independently.
    fn positions_of(&self, user: i64) -> Vec<(i64, i64, i64)> {
        match self.kind() {
            MarketKind::Place { .. } => self
                .market
                .place_outcomes(UserId(user))
                .into_iter()
                .map(|(runner, placed, not)| (runner.0, placed, not))
                .collect(),
            _ => self
                .market
                .runner_positions(UserId(user))
                .into_iter()
                .map(|(runner, pnl)| (runner.0, pnl, 0))
                .collect(),
        }
    }

    /// The legs of a cash out of `percent` of `user`'s position at the best prices now.
    fn work_out(&self, user: i64, percent: u32) -> Result<Worked, Refusal> {
        match self.market.status() {
            MarketStatus::Open => {}
            MarketStatus::Closed | MarketStatus::Void => return Err(Refusal::MarketClosed),
            status => return Err(Refusal::MarketNotOpen { status }),
        }
        let kind = self.kind();
        if kind == MarketKind::Fancy {
            return Err(Refusal::CashOutNotOffered);
        }
        let name = |runner: RunnerId| {
            self.setup
                .runners
                .iter()
                .find(|r| r.runner_id == runner.0)
                .map_or_else(|| format!("runner {}", runner.0), |r| r.name.clone())
        };
        let positions = self.positions_of(user);
        let quote_of =
            |runner: RunnerId, position_minor: i64| self.runner_quote(runner, position_minor);
        // One cash out per market (one-winner, bookmaker), or per runner (place).
        let mut done: Vec<(CashOut, Vec<RunnerQuote>)> = Vec::new();
        let mut flat = true;
        match kind {
            MarketKind::Place { .. } => {
                for (runner, placed, not) in &positions {
                    if placed == not {
                        continue;
                    }
                    flat = false;
                    // The runner placed or not, as a two-outcome market whose "not placed"
                    // has no price of its own: the level is "not placed" (tried first, so a
                    // refusal names the runner), hedged with one leg on the runner.
                    let quotes = [
                        RunnerQuote {
                            runner: RunnerId(0),
                            position_minor: *not,
                            back: None,
                            lay: None,
                        },
                        quote_of(RunnerId(*runner), *placed),
                    ];
                    let hedged = cash_out(&quotes, percent).map_err(|why| refusal(why, &name))?;
                    done.push((hedged, quotes.to_vec()));
                }
            }
            _ => {
                let quotes: Vec<RunnerQuote> = positions
                    .iter()
                    .map(|(runner, pnl, _)| quote_of(RunnerId(*runner), *pnl))
                    .collect();
                match cash_out(&quotes, percent) {
                    Err(CashOutRefusal::Flat) => {}
                    other => {
                        flat = false;
                        done.push((other.map_err(|why| refusal(why, &name))?, quotes));
                    }
                }
            }
        }
        if flat {
            let has_bets = positions.iter().any(|(_, a, b)| *a != 0 || *b != 0);
            return Err(Refusal::NothingToCashOut { has_bets });
        }
        let legs: Vec<HedgeLeg> = done.iter().flat_map(|(c, _)| c.legs.iter().copied()).collect();
        for leg in &legs {
            self.leg_allowed(leg, user, &name)?;
        }
        let runners = positions
            .iter()
            .map(|(runner, if_wins, _)| {
                let after_minor = match kind {
                    MarketKind::Place { .. } => done
                        .iter()
                        .find(|(_, quotes)| quotes[1].runner.0 == *runner)
                        .map_or(*if_wins, |(c, _)| c.outcomes[1].1),
                    _ => done[0]
                        .0
                        .outcomes
                        .iter()
                        .find(|(r, _)| r.0 == *runner)
                        .map_or(*if_wins, |(_, pnl)| *pnl),
                };
                CashOutRunner {
                    selection_id: *runner,
                    name: name(RunnerId(*runner)),
                    position_minor: *if_wins,
                    after_minor,
                    leg: legs
                        .iter()
                        .find(|leg| leg.runner.0 == *runner)
                        .map(|leg| planned_leg(kind, leg)),
                }
            })
            .collect();
        // A part's value is that part of the whole's: sure whatever wins, the rest still open.
        let value_minor = done.iter().map(|(c, quotes)| c.sure_minor(quotes, percent)).sum();
        let spread_minor = if percent == 100 {
            done.iter().map(|(c, _)| c.spread_minor()).max().unwrap_or(0)
        } else {
            0
        };
        Ok(Worked { plan: CashOutPlan { value_minor, runners, spread_minor }, legs })
    }

    /// A runner as the cash out sees it: the best prices offered on each side and their sizes
    /// (the house's posted rates, of any size, on a bookmaker).
    fn runner_quote(&self, runner: RunnerId, position_minor: i64) -> RunnerQuote {
        let (back, lay) = if self.kind() == MarketKind::Bookmaker {
            let row = self.setup.runners.iter().find(|r| r.runner_id == runner.0);
            let rate = |rate: Option<i64>| {
                rate.and_then(|r| u32::try_from(r).ok())
                    .filter(|r| *r > 0)
                    .map(|r| (HedgePrice::Rate(r), i64::MAX / 4))
            };
            (rate(row.and_then(|r| r.back_rate)), rate(row.and_then(|r| r.lay_rate)))
        } else {
            let best = |levels: Vec<(Price, i64)>| {
                levels.first().map(|(price, size)| (HedgePrice::Odds(*price), *size))
            };
            match self.market.book(runner) {
                Some(book) => (best(book.available_to_back(1)), best(book.available_to_lay(1))),
                None => (None, None),
            }
        };
        RunnerQuote { runner, position_minor, back, lay }
    }

    /// A leg the market takes: within its maximum stake, and not at a price where the bettor's
    /// own unmatched order waits (matching it would leave the position as it was).
    fn leg_allowed(
        &self,
        leg: &HedgeLeg,
        user: i64,
        name: &dyn Fn(RunnerId) -> String,
    ) -> Result<(), Refusal> {
        if leg.stake_minor > self.setup.max_stake_minor {
            return Err(Refusal::CashOutAboveMaximum {
                runner: name(leg.runner),
                stake_minor: leg.stake_minor,
                max_minor: self.setup.max_stake_minor,
            });
        }
        if let (HedgePrice::Odds(price), Some(book)) = (leg.price, self.market.book(leg.runner)) {
            // A back takes resting lays, a lay resting backs.
            let met = match leg.side {
                Side::Back => Side::Lay,
                Side::Lay => Side::Back,
            };
            if book.orders_of(UserId(user)).iter().any(|o| o.side == met && o.price == price) {
                return Err(Refusal::CashOutOwnOrder {
                    runner: name(leg.runner),
                    price: price.hundredths(),
                });
            }
        }
        Ok(())
    }

    /// A leg's price now against the quote's: no more than the tolerance worse.
    fn within_tolerance(&self, leg: &HedgeLeg, order: &CashOutOrder) -> Result<(), AppError> {
        let side = BetSide::on(self.kind(), leg.side);
        let moved = || AppError::Refused(Refusal::CashOutPricesMoved);
        let (_, _, quoted) = order
            .quoted
            .iter()
            .find(|(runner, s, _)| *runner == leg.runner.0 && *s == side)
            .ok_or_else(moved)?;
        let tolerance = order.tolerance_ticks.min(MAX_TOLERANCE_TICKS);
        let (now, quoted) = match leg.price {
            HedgePrice::Odds(price) => {
                let quoted = Price::from_hundredths(*quoted).map_err(|_| moved())?;
                (price.tick() as i64, quoted.tick() as i64)
            }
            HedgePrice::Rate(rate) => (i64::from(rate), i64::from(*quoted)),
        };
        // A back is worse at lower odds, a lay at higher.
        let worse_by = match leg.side {
            Side::Back => quoted - now,
            Side::Lay => now - quoted,
        };
        if worse_by > i64::from(tolerance) {
            return Err(moved());
        }
        Ok(())
    }
}

fn planned_leg(kind: MarketKind, leg: &HedgeLeg) -> PlannedLeg {
    PlannedLeg {
        side: BetSide::on(kind, leg.side),
        price: match leg.price {
            HedgePrice::Odds(price) => price.hundredths(),
            HedgePrice::Rate(rate) => rate,
        },
        stake_minor: leg.stake_minor,
    }
}

/// A refusal of the arithmetic, naming the runner.
fn refusal(why: CashOutRefusal, name: &dyn Fn(RunnerId) -> String) -> Refusal {
    match why {
        // A percent outside 1–100 is refused at the edge (`bet/cashOut`'s 400).
        CashOutRefusal::Flat | CashOutRefusal::Percent => {
            Refusal::NothingToCashOut { has_bets: true }
        }
        CashOutRefusal::NoPrice(runner) => Refusal::CashOutNoPrice { runner: name(runner) },
        CashOutRefusal::NotEnoughLiquidity { runner, needed_minor, available_minor } => {
            Refusal::CashOutNotEnough { runner: name(runner), needed_minor, available_minor }
        }
    }
}
