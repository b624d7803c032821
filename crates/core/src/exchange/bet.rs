//! A bet as exposure and settlement see it: on what, which way, the backer's stake, and the
//! backer's profit, computed once by the one rule for its market.

use crate::money::mul_div_round_half_even;
use crate::odds::Price;

use super::{RunnerId, Side, MAX_FANCY_LINE, MAX_RATE, MAX_STAKE_MINOR};

/// What a bet is on: a runner (it wins, or is placed), or a fancy line (the result reaches it).
/// Either way the bet's selection "happens" or not, and that alone decides its P&L.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Selection {
    /// A runner of a one-winner, place or bookmaker market.
    Runner(RunnerId),
    /// A fancy line `L`: it happens when the result `x ≥ L`.
    FancyLine(u32),
}

/// A matched bet, or an unmatched order looked at as if it were matched.
///
/// Both sides are described by the backer's stake and the backer's profit: a BACK wins
/// `profit_minor` if its selection happens and loses `stake_minor` if not; a LAY loses
/// `profit_minor` (its liability) if the selection happens and wins `stake_minor` if not.
/// The constructors compute the profit by the rule of each market, so a `Bet` is always
/// within the limits.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Bet {
    selection: Selection,
    side: Side,
    stake_minor: i64,
    profit_minor: i64,
}

impl Bet {
    /// An exchange bet on `runner` at a ladder `price`: profit [`backer_profit_minor`].
    /// Use it for an unmatched order (at its own price) and for a stored fill (at the fill's
    /// price); [`Fill::bets`](super::Fill::bets) gives a fresh fill's two bets.
    pub fn exchange(
        runner: RunnerId,
        side: Side,
        price: Price,
        stake_minor: i64,
    ) -> Result<Bet, BetError> {
        check_stake(stake_minor)?;
        Ok(Bet::exchange_unchecked(runner, side, price, stake_minor))
    }

    /// [`Bet::exchange`] for a stake already known to be within `0..=MAX_STAKE_MINOR`.
    pub(crate) fn exchange_unchecked(
        runner: RunnerId,
        side: Side,
        price: Price,
        stake_minor: i64,
    ) -> Bet {
        Bet {
            selection: Selection::Runner(runner),
            side,
            stake_minor,
            profit_minor: backer_profit_minor(stake_minor, price),
        }
    }

    /// A matched exchange bet whose backer's profit was reduced below what its `price` pays by
    /// non-runners removed after it was matched (`non_runner`): the profit must be from 0 to
    /// [`backer_profit_minor`] at the price.
    pub fn exchange_reduced(
        runner: RunnerId,
        side: Side,
        price: Price,
        stake_minor: i64,
        profit_minor: i64,
    ) -> Result<Bet, BetError> {
        check_stake(stake_minor)?;
        let full = backer_profit_minor(stake_minor, price);
        if !(0..=full).contains(&profit_minor) {
            return Err(BetError::ProfitAbovePrice { profit_minor, full_minor: full });
        }
        Ok(Bet { selection: Selection::Runner(runner), side, stake_minor, profit_minor })
    }

    /// A matched bet whose amounts were computed elsewhere by this module's rules (a fill).
    pub(crate) const fn matched(
        selection: Selection,
        side: Side,
        stake_minor: i64,
        profit_minor: i64,
    ) -> Bet {
        Bet { selection, side, stake_minor, profit_minor }
    }

    /// A bookmaker bet on `runner` at the posted `rate` (45 means decimal 1.45): profit
    /// [`rate_profit_minor`]. A LAY ("khai") of stake `s` risks `s × rate / 100` to win `s`.
    pub fn bookmaker(
        runner: RunnerId,
        side: Side,
        rate: u32,
        stake_minor: i64,
    ) -> Result<Bet, BetError> {
        check_stake(stake_minor)?;
        Ok(Bet {
            selection: Selection::Runner(runner),
            side,
            stake_minor,
            profit_minor: rate_profit_minor(stake_minor, rate)?,
        })
    }

    /// A fancy bet: YES ([`Side::YES`]) at `line` and `rate` wins `stake × rate / 100` if the
    /// result reaches the line and loses the stake otherwise; NO ([`Side::NO`]) wins the stake
    /// if the result stays below the line and loses `stake × rate / 100` otherwise.
    pub fn fancy(line: u32, side: Side, rate: u32, stake_minor: i64) -> Result<Bet, BetError> {
        check_stake(stake_minor)?;
        if line > MAX_FANCY_LINE {
            return Err(BetError::LineOutOfRange { line });
        }
        Ok(Bet {
            selection: Selection::FancyLine(line),
            side,
            stake_minor,
            profit_minor: rate_profit_minor(stake_minor, rate)?,
        })
    }

    /// What the bet is on.
    pub const fn selection(&self) -> Selection {
        self.selection
    }

    /// Back (YES) or lay (NO).
    pub const fn side(&self) -> Side {
        self.side
    }

    /// The backer's stake.
    pub const fn stake_minor(&self) -> i64 {
        self.stake_minor
    }

    /// The backer's profit if the selection happens (the layer's liability).
    pub const fn profit_minor(&self) -> i64 {
        self.profit_minor
    }

    /// The bet's P&L for whoever holds it, given whether its selection happens.
    pub const fn pnl_minor(&self, selection_happens: bool) -> i64 {
        match (self.side, selection_happens) {
            (Side::Back, true) => self.profit_minor,
            (Side::Back, false) => -self.stake_minor,
            (Side::Lay, true) => -self.profit_minor,
            (Side::Lay, false) => self.stake_minor,
        }
    }

    /// What the bet risks and what it may win, for whoever holds it: [`liability_and_profit`].
    pub const fn liability_and_profit(&self) -> (i64, i64) {
        liability_and_profit(self.side, self.stake_minor, self.profit_minor)
    }
}

/// What a bet of `side` risks and what it may win, for whoever holds it, as `(liability,
/// profit)`, from the backer's stake and the backer's profit (a bet's two amounts, see
/// [`Bet`]): a BACK risks its stake to win the profit, a LAY risks the profit (its liability)
/// to win the stake. For an exchange bet matched in pieces, the backer's profit is the sum of
/// its fills' (each at its own price), so it is given here rather than computed from a price.
///
/// ```
/// use backlay_core::exchange::{liability_and_profit, Side};
/// // 100.00 at 2.50: the backer risks 100.00 to win 150.00; the layer the other way round.
/// assert_eq!(liability_and_profit(Side::Back, 100_00, 150_00), (100_00, 150_00));
/// assert_eq!(liability_and_profit(Side::Lay, 100_00, 150_00), (150_00, 100_00));
/// ```
pub const fn liability_and_profit(
    side: Side,
    backer_stake_minor: i64,
    backer_profit_minor: i64,
) -> (i64, i64) {
    match side {
        Side::Back => (backer_stake_minor, backer_profit_minor),
        Side::Lay => (backer_profit_minor, backer_stake_minor),
    }
}

/// The backer's profit on `size_minor` matched at `price`: `⌊size × (price − 1)⌋`, rounded
/// **down** to a minor unit. Down, so that the pieces an order is matched in never add up to
/// more than the whole (`⌊a⌋ + ⌊b⌋ ≤ ⌊a + b⌋`); see the module's "Decisions".
///
/// ```
/// use backlay_core::exchange::backer_profit_minor;
/// use backlay_core::odds::Price;
/// let price = "2.50".parse::<Price>().unwrap();
/// assert_eq!(backer_profit_minor(100_00, price), 150_00);
/// assert_eq!(backer_profit_minor(3, price), 4); // 4.5 minor units, rounded down
/// ```
///
/// `size_minor` must be within `0..=MAX_STAKE_MINOR` (checked in debug builds).
pub fn backer_profit_minor(size_minor: i64, price: Price) -> i64 {
    debug_assert!((0..=MAX_STAKE_MINOR).contains(&size_minor));
    // Cannot overflow: MAX_STAKE_MINOR × 99_900 < 2^63. Both factors are ≥ 0, so `/` floors.
    size_minor * (i64::from(price.hundredths()) - 100) / 100
}

/// A house bet's profit, `stake × rate / 100`, rounded half to even once (it is never split).
/// The rate must be within `1..=MAX_RATE`.
///
/// ```
/// use backlay_core::exchange::rate_profit_minor;
/// assert_eq!(rate_profit_minor(100_00, 45), Ok(45_00)); // bookmaker 1.45
/// assert_eq!(rate_profit_minor(1_05, 90), Ok(94)); // 94.5 → 94 (half to even)
/// ```
pub fn rate_profit_minor(stake_minor: i64, rate: u32) -> Result<i64, BetError> {
    if !(1..=MAX_RATE).contains(&rate) {
        return Err(BetError::RateOutOfRange { rate });
    }
    mul_div_round_half_even(stake_minor, i64::from(rate), 100)
        .ok_or(BetError::StakeOutOfRange { stake_minor })
}

fn check_stake(stake_minor: i64) -> Result<(), BetError> {
    if (1..=MAX_STAKE_MINOR).contains(&stake_minor) {
        Ok(())
    } else {
        Err(BetError::StakeOutOfRange { stake_minor })
    }
}

/// Why a bet cannot be made; each message is meant for the bettor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BetError {
    /// Zero, negative, or above [`MAX_STAKE_MINOR`].
    #[error(
        "the stake must be more than 0 and at most {}",
        crate::money::Money::from_minor(MAX_STAKE_MINOR)
    )]
    StakeOutOfRange {
        /// The stake given.
        stake_minor: i64,
    },
    /// Zero or above [`MAX_RATE`].
    #[error("the rate must be from 1 to {MAX_RATE}, not {rate}")]
    RateOutOfRange {
        /// The rate given.
        rate: u32,
    },
    /// A reduced exchange profit that is negative or more than its price pays.
    #[error(
        "a reduced profit of {profit_minor} must be from 0 to the {full_minor} its price pays"
    )]
    ProfitAbovePrice {
        /// The profit given.
        profit_minor: i64,
        /// What the price pays.
        full_minor: i64,
    },
    /// Above [`MAX_FANCY_LINE`].
    #[error("the line must be at most {MAX_FANCY_LINE}, not {line}")]
    LineOutOfRange {
        /// The line given.
        line: u32,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn price(text: &str) -> Price {
        text.parse().unwrap()
    }

    #[test]
    fn liability_is_the_worst_outcome_and_profit_the_best_on_every_market() {
        let bets = [
            Bet::exchange(RunnerId(1), Side::Back, price("3.75"), 20_00).unwrap(),
            Bet::exchange(RunnerId(1), Side::Lay, price("3.75"), 20_00).unwrap(),
            // Bookmaker 45 (1.45): a lay ("khai") risks 45.00 to win 100.00.
            Bet::bookmaker(RunnerId(1), Side::Back, 45, 100_00).unwrap(),
            Bet::bookmaker(RunnerId(1), Side::Lay, 45, 100_00).unwrap(),
            // Fancy NO at rate 90 risks 90.00 to win the 100.00 stake.
            Bet::fancy(48, Side::YES, 110, 100_00).unwrap(),
            Bet::fancy(48, Side::NO, 90, 100_00).unwrap(),
        ];
        let expected = [
            (20_00, 55_00),
            (55_00, 20_00),
            (100_00, 45_00),
            (45_00, 100_00),
            (100_00, 110_00),
            (90_00, 100_00),
        ];
        for (bet, expected) in bets.iter().zip(expected) {
            let outcomes = [bet.pnl_minor(true), bet.pnl_minor(false)];
            let worst = outcomes.iter().min().unwrap();
            let best = outcomes.iter().max().unwrap();
            assert_eq!(bet.liability_and_profit(), (-worst, *best), "{bet:?}");
            assert_eq!(bet.liability_and_profit(), expected, "{bet:?}");
        }
    }

    #[test]
    fn back_and_lay_are_mirror_images() {
        let back = Bet::exchange(RunnerId(1), Side::Back, price("2.50"), 100_00).unwrap();
        let lay = Bet::exchange(RunnerId(1), Side::Lay, price("2.50"), 100_00).unwrap();
        assert_eq!((back.pnl_minor(true), back.pnl_minor(false)), (150_00, -100_00));
        assert_eq!((lay.pnl_minor(true), lay.pnl_minor(false)), (-150_00, 100_00));
    }

    #[test]
    fn exchange_profit_rounds_down_and_pieces_never_exceed_the_whole() {
        let p = price("2.50");
        assert_eq!(backer_profit_minor(1, p), 1); // 1.5 → 1
        assert_eq!(backer_profit_minor(3, p), 4); // 4.5 → 4
        assert!(3 * backer_profit_minor(1, p) <= backer_profit_minor(3, p));
        assert_eq!(backer_profit_minor(1005, price("1.50")), 502); // 502.5 → 502
        assert_eq!(backer_profit_minor(MAX_STAKE_MINOR, Price::MAX), MAX_STAKE_MINOR * 999);
    }

    #[test]
    fn bookmaker_and_fancy_round_half_to_even_once() {
        let bm = Bet::bookmaker(RunnerId(1), Side::Back, 45, 100_00).unwrap();
        assert_eq!((bm.pnl_minor(true), bm.pnl_minor(false)), (45_00, -100_00));
        let khai = Bet::bookmaker(RunnerId(1), Side::Lay, 45, 100_00).unwrap();
        assert_eq!((khai.pnl_minor(true), khai.pnl_minor(false)), (-45_00, 100_00));

        // YES 57 at rate 100: the result reaches 57 → +stake; not → −stake.
        let yes = Bet::fancy(57, Side::YES, 100, 50_00).unwrap();
        assert_eq!((yes.pnl_minor(true), yes.pnl_minor(false)), (50_00, -50_00));
        // NO 57 at rate 90 (stake 1.05): below → +1.05; reaches → −0.945 → −0.94.
        let no = Bet::fancy(57, Side::NO, 90, 1_05).unwrap();
        assert_eq!((no.pnl_minor(true), no.pnl_minor(false)), (-94, 1_05));
    }

    #[test]
    fn refuses_what_is_out_of_range() {
        let r = RunnerId(1);
        for stake in [0, -1, MAX_STAKE_MINOR + 1] {
            assert_eq!(
                Bet::exchange(r, Side::Back, Price::MIN, stake),
                Err(BetError::StakeOutOfRange { stake_minor: stake })
            );
        }
        assert_eq!(Bet::bookmaker(r, Side::Back, 0, 1), Err(BetError::RateOutOfRange { rate: 0 }));
        assert_eq!(
            Bet::fancy(MAX_FANCY_LINE + 1, Side::YES, 100, 1),
            Err(BetError::LineOutOfRange { line: MAX_FANCY_LINE + 1 })
        );
        assert_eq!(
            BetError::StakeOutOfRange { stake_minor: 0 }.to_string(),
            "the stake must be more than 0 and at most 10000000000.00"
        );
    }
}
