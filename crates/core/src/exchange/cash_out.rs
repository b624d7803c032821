//! Cash out on a one-winner exchange market (match odds, win): the bets that make a bettor's
//! position the same whatever wins ("greening up"), at the best prices the book offers now.
//!
//! A bettor's position is `P_r`, their P&L if runner `r` wins. A back of `x` at odds `o` on
//! runner `r` adds `x·(o − 1)` if `r` wins and `−x` otherwise, that is `x·o` on `r` and `−x` on
//! every outcome; a lay is the same with `x < 0`. Hedging every runner `r` with `x_r`:
//!
//! ```text
//! P'_r = P_r + x_r·o_r − S,   S = Σ x_j
//! ```
//!
//! Equal outcomes `P'_r = V` need `x_r = (K − P_r) / o_r` with `K = V + S`: each runner's stake
//! is its position's difference from a common level `K`, divided by its price (a back where the
//! runner is below `K`, at the price to back; a lay where it is above, at the price to lay), and
//! the bettor is left with `V = K − Σ x_r`. `V` as a function of `K` rises while the prices it
//! uses sum to under 100% and falls after, so the best `K` is one of the positions themselves:
//! one runner left unhedged. [`cash_out`] tries each and takes the highest `V` the book can
//! fill.
//!
//! Example: a back of ₹100.00 at 3.00 on A gives `P_A = 200`, `P_B = −100`. With A to lay at
//! 2.00, `K = P_B` lays A for `(200 − (−100)) / 2 = 150` and leaves `V = −100 − (−150) = 50`:
//! ₹50.00 whichever wins.
//!
//! On a bookmaker market the same arithmetic hedges against the house at its posted rates:
//! a rate `r` is odds `1 + r/100` ([`HedgePrice::Rate`]), and the house offers any size (the
//! market's stake limits still bind each leg). On a place market each runner is a market of its
//! own, placed or not: the engine hedges each runner alone with one leg on it.
//!
//! A partial cash out of `p`% places `p`% of each stake: the position becomes
//! `(1 − p)·P_r + p·V`, the rest of it open in proportion. Stakes are whole paise (rounded to
//! the nearest) and each fill's backer profit rounds down (`backer_profit_minor`), so the
//! outcomes after can differ by a paisa or two a leg: [`CashOut::outcomes`] gives them exactly
//! as the exchange will settle them.

use super::{backer_profit_minor, rate_profit_minor, RunnerId, Side};
use crate::money::mul_div_round_half_even;
use crate::odds::Price;

/// The price of a hedge's leg: odds on the exchange's ladder, or a house's posted rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HedgePrice {
    /// Decimal odds on the ladder; a fill's backer profit rounds down.
    Odds(Price),
    /// A bookmaker's rate (45 is odds 1.45); a house bet's profit rounds half to even.
    Rate(u32),
}

impl HedgePrice {
    /// Decimal odds in hundredths (a rate of 45 is 145).
    pub fn odds_hundredths(self) -> i64 {
        match self {
            HedgePrice::Odds(price) => i64::from(price.hundredths()),
            HedgePrice::Rate(rate) => 100 + i64::from(rate),
        }
    }

    /// What a back of `stake_minor` at this price wins, as the exchange pays it.
    pub fn profit_minor(self, stake_minor: i64) -> i64 {
        match self {
            HedgePrice::Odds(price) => backer_profit_minor(stake_minor, price),
            // The rate is a posted one (1..=MAX_RATE) and the stake a leg's: in range.
            HedgePrice::Rate(rate) => rate_profit_minor(stake_minor, rate).unwrap_or(0),
        }
    }
}

/// One runner as a cash out sees it: the bettor's position and the best prices the book
/// offers now, with the size at each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunnerQuote {
    /// The runner.
    pub runner: RunnerId,
    /// The bettor's P&L if this runner wins, from their matched bets.
    pub position_minor: i64,
    /// The best price to back at (the best lay offer) and its size; `None` if none is offered.
    pub back: Option<(HedgePrice, i64)>,
    /// The best price to lay at (the best back offer) and its size.
    pub lay: Option<(HedgePrice, i64)>,
}

/// One bet of a cash out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HedgeLeg {
    /// The runner bet on.
    pub runner: RunnerId,
    /// Back where the runner's position is below the level, lay where it is above.
    pub side: Side,
    /// The best price the book offers on that side.
    pub price: HedgePrice,
    /// Whole paise.
    pub stake_minor: i64,
}

/// The bets that cash a position out, and what it becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CashOut {
    /// The bets to place, one per runner hedged.
    pub legs: Vec<HedgeLeg>,
    /// Each runner's P&L if it wins after the legs, as the exchange settles them.
    pub outcomes: Vec<(RunnerId, i64)>,
}

impl CashOut {
    /// What the bettor is sure of after the legs: the lowest outcome.
    pub fn value_minor(&self) -> i64 {
        self.outcomes.iter().map(|(_, pnl)| *pnl).min().unwrap_or(0)
    }

    /// What a cash out of `percent` of the positions in `quotes` (those it was worked out from)
    /// makes sure whatever wins: `p·V` of the module docs, read from the outcomes as the least
    /// of each outcome less the part of its position left open, `(1 − p)·P_r`. For 100% it is
    /// [`CashOut::value_minor`].
    pub fn sure_minor(&self, quotes: &[RunnerQuote], percent: u32) -> i64 {
        let left_open = |position: i64| {
            mul_div_round_half_even(position, 100 - i64::from(percent.min(100)), 100).unwrap_or(0)
        };
        self.outcomes
            .iter()
            .zip(quotes)
            .map(|((_, after), quote)| after - left_open(quote.position_minor))
            .min()
            .unwrap_or(0)
    }

    /// The highest outcome less the lowest: 0 when every outcome is equal to the paisa.
    pub fn spread_minor(&self) -> i64 {
        let pnls = self.outcomes.iter().map(|(_, pnl)| *pnl);
        pnls.clone().max().unwrap_or(0) - pnls.min().unwrap_or(0)
    }
}

/// Why a position cannot be cashed out now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CashOutRefusal {
    /// Every outcome is already the same: nothing to cash out.
    #[error("your position here is already the same whatever wins")]
    Flat,
    /// A percentage outside 1–100.
    #[error("the percentage to cash out is from 1 to 100")]
    Percent,
    /// A runner that needs hedging has no price offered on the side it needs.
    #[error("nobody offers the price to hedge runner {0:?}")]
    NoPrice(RunnerId),
    /// The best price's size is less than the leg needs.
    #[error("not enough is offered to hedge runner {runner:?}: {needed_minor} needed, {available_minor} offered")]
    NotEnoughLiquidity {
        /// The runner.
        runner: RunnerId,
        /// The leg's stake.
        needed_minor: i64,
        /// What the book offers at the best price.
        available_minor: i64,
    },
}

/// The cash out of `percent` (1–100) of a position on a one-winner market at the prices
/// quoted: the hedge with the highest sure value the quoted sizes fill (module docs).
pub fn cash_out(quotes: &[RunnerQuote], percent: u32) -> Result<CashOut, CashOutRefusal> {
    if !(1..=100).contains(&percent) {
        return Err(CashOutRefusal::Percent);
    }
    let positions = quotes.iter().map(|q| q.position_minor);
    if positions.clone().max() == positions.min() {
        return Err(CashOutRefusal::Flat);
    }
    let mut best: Option<(i64, Vec<HedgeLeg>)> = None;
    let mut refusal = None;
    for level in quotes.iter().map(|q| q.position_minor) {
        match legs_to_level(quotes, level, percent) {
            Ok(legs) => {
                let value = outcomes(quotes, &legs).iter().map(|(_, pnl)| *pnl).min().unwrap_or(0);
                if best.as_ref().is_none_or(|(v, _)| value > *v) {
                    best = Some((value, legs));
                }
            }
            // Too little offered says more than no price at all: a smaller part may go.
            Err(why) => {
                let more_telling = matches!(
                    (refusal, why),
                    (Some(CashOutRefusal::NoPrice(_)), CashOutRefusal::NotEnoughLiquidity { .. })
                );
                if refusal.is_none() || more_telling {
                    refusal = Some(why);
                }
            }
        }
    }
    match best {
        Some((_, legs)) => Ok(CashOut { outcomes: outcomes(quotes, &legs), legs }),
        None => Err(refusal.unwrap_or(CashOutRefusal::Flat)),
    }
}

/// The legs that bring every runner to `level` (`K` in the module docs), `percent` of each.
fn legs_to_level(
    quotes: &[RunnerQuote],
    level: i64,
    percent: u32,
) -> Result<Vec<HedgeLeg>, CashOutRefusal> {
    let mut legs = Vec::new();
    for quote in quotes {
        let difference = level - quote.position_minor;
        if difference == 0 {
            continue;
        }
        let (side, offered) =
            if difference > 0 { (Side::Back, quote.back) } else { (Side::Lay, quote.lay) };
        let (price, size) = offered.ok_or(CashOutRefusal::NoPrice(quote.runner))?;
        // |K − P_r| ÷ odds, in paise: × 100 ÷ hundredths, rounded to the nearest; then percent.
        let whole =
            div_round(i128::from(difference.abs()) * 100, i128::from(price.odds_hundredths()));
        let stake = div_round(whole * i128::from(percent), 100);
        let stake_minor = i64::try_from(stake).unwrap_or(i64::MAX);
        if stake_minor == 0 {
            continue;
        }
        if stake_minor > size {
            return Err(CashOutRefusal::NotEnoughLiquidity {
                runner: quote.runner,
                needed_minor: stake_minor,
                available_minor: size,
            });
        }
        legs.push(HedgeLeg { runner: quote.runner, side, price, stake_minor });
    }
    Ok(legs)
}

/// `a ÷ b` rounded to the nearest, halves away from zero (`a ≥ 0`, `b > 0`).
fn div_round(a: i128, b: i128) -> i128 {
    (a + b / 2) / b
}

/// Each runner's P&L if it wins after `legs`, each leg matched whole at its price: a back wins
/// its profit (as one fill or one house bet pays it) if its runner wins and loses its stake if
/// not; a lay the other way round.
pub fn outcomes(quotes: &[RunnerQuote], legs: &[HedgeLeg]) -> Vec<(RunnerId, i64)> {
    quotes
        .iter()
        .map(|quote| {
            let after = legs.iter().fold(quote.position_minor, |pnl, leg| {
                let profit = leg.price.profit_minor(leg.stake_minor);
                let wins = leg.runner == quote.runner;
                pnl + match (leg.side, wins) {
                    (Side::Back, true) => profit,
                    (Side::Back, false) => -leg.stake_minor,
                    (Side::Lay, true) => -profit,
                    (Side::Lay, false) => leg.stake_minor,
                }
            });
            (quote.runner, after)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn price(text: &str) -> Price {
        Price::parse_decimal(text).unwrap()
    }

    fn quote(runner: u64, position_minor: i64, back: &str, lay: &str) -> RunnerQuote {
        RunnerQuote {
            runner: RunnerId(runner as i64),
            position_minor,
            back: Some((HedgePrice::Odds(price(back)), 1_000_000_00)),
            lay: Some((HedgePrice::Odds(price(lay)), 1_000_000_00)),
        }
    }

    #[test]
    fn the_module_docs_example_greens_a_back_up_to_fifty_rupees() {
        // Back ₹100.00 at 3.00 on A: +200 / −100. A is laid at 2.00 for 150.
        let done =
            cash_out(&[quote(1, 200_00, "1.98", "2.00"), quote(2, -100_00, "1.98", "2.02")], 100)
                .unwrap();
        assert_eq!(
            done.legs,
            vec![HedgeLeg {
                runner: RunnerId(1),
                side: Side::Lay,
                price: HedgePrice::Odds(price("2.00")),
                stake_minor: 150_00
            }]
        );
        assert_eq!(done.outcomes, vec![(RunnerId(1), 50_00), (RunnerId(2), 50_00)]);
        assert_eq!((done.value_minor(), done.spread_minor()), (50_00, 0));
    }

    #[test]
    fn half_a_cash_out_keeps_half_the_position_open() {
        let done =
            cash_out(&[quote(1, 200_00, "1.98", "2.00"), quote(2, -100_00, "1.98", "2.02")], 50)
                .unwrap();
        assert_eq!(done.legs[0].stake_minor, 75_00);
        // (1 − ½)·P + ½·50: 125 and −25.
        assert_eq!(done.outcomes, vec![(RunnerId(1), 125_00), (RunnerId(2), -25_00)]);
        // Half of the whole's 50.00 is sure.
        let quotes = [quote(1, 200_00, "1.98", "2.00"), quote(2, -100_00, "1.98", "2.02")];
        assert_eq!(done.sure_minor(&quotes, 50), 25_00);
    }

    #[test]
    fn refusals_say_why() {
        let flat = [quote(1, 10_00, "2.00", "2.02"), quote(2, 10_00, "2.00", "2.02")];
        assert_eq!(cash_out(&flat, 100), Err(CashOutRefusal::Flat));
        let open = [quote(1, 200_00, "1.98", "2.00"), quote(2, -100_00, "1.98", "2.02")];
        assert_eq!(cash_out(&open, 0), Err(CashOutRefusal::Percent));
        assert_eq!(cash_out(&open, 101), Err(CashOutRefusal::Percent));
        let mut thin = open;
        thin[0].lay = Some((HedgePrice::Odds(price("2.00")), 100_00));
        // Laying A needs 150; backing B instead (K = P_A) needs 300 / 1.98 = 151.52 there.
        thin[1].back = Some((HedgePrice::Odds(price("1.98")), 100_00));
        assert!(matches!(cash_out(&thin, 100), Err(CashOutRefusal::NotEnoughLiquidity { .. })));
        // Half fits in what is offered.
        assert!(cash_out(&thin, 50).is_ok());
        let mut priceless = open;
        priceless[0].lay = None;
        priceless[1].back = None;
        assert_eq!(cash_out(&priceless, 100), Err(CashOutRefusal::NoPrice(RunnerId(2))));
    }

    #[test]
    fn a_bookmaker_position_hedges_at_the_posted_rates() {
        // Back ₹1,000.00 at rate 80 on A: +800 / −1,000. The house lays A at 82 (odds 1.82)
        // and backs B at 118 (odds 2.18).
        let house = |runner, position_minor, back, lay| RunnerQuote {
            runner: RunnerId(runner),
            position_minor,
            back: Some((HedgePrice::Rate(back), i64::MAX / 4)),
            lay: Some((HedgePrice::Rate(lay), i64::MAX / 4)),
        };
        let done =
            cash_out(&[house(1, 800_00, 78, 82), house(2, -1_000_00, 118, 122)], 100).unwrap();
        // Lay A: 1,800 / 1.82 = 989.01, value −1,000 + 989.01 = −10.99; back B: 1,800 / 2.18 =
        // 825.69, value 800 − 825.69 = −25.69. Laying A leaves more.
        assert_eq!(done.legs.len(), 1);
        assert_eq!((done.legs[0].side, done.legs[0].stake_minor), (Side::Lay, 989_01));
        assert_eq!(done.value_minor(), -10_99);
        assert!(done.spread_minor() <= 1, "{done:?}");
    }
}
