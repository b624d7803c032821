//! Settlement: a declared result turns each user's matched bets into one P&L, commission is
//! taken on net market winnings, and the house takes the other side of house markets.
//!
//! ```text
//! user P&L      = Σ over the user's matched bets of their P&L under the result (0 if void)
//! commission    = round_half_even(P&L × commission_bp / 10_000) if P&L > 0, else 0
//! house P&L     = −Σ user P&L on bookmaker and fancy markets; 0 on exchange markets, where
//!                 Σ user P&L is exactly 0 because each fill's profit is one stored number
//! Σ (P&L − commission) + house P&L + Σ commission = 0       (asserted)
//! ```
//!
//! Worked example, a bookmaker market (house-banked) with commission 2% (200 bp):
//! Ann backs Home 100.00 at rate 45, Bob backs Away 50.00 at rate 120, and Home wins.
//! Ann +45.00, commission 0.90; Bob −50.00; the house −Σ = +5.00; 0.90 to commission.
//! The ledger posts: Ann +44.10, Bob −50.00, house +5.00, commission +0.90 (sum 0).
//!
//! ```
//! use backlay_core::exchange::{settle, Bet, MarketKind, MarketResult, MarketSpec, RunnerId, Side, UserId};
//!
//! let (home, away) = (RunnerId(1), RunnerId(2));
//! let market = MarketSpec::new(MarketKind::Bookmaker, vec![home, away], 200)?;
//! let bets = [
//!     (UserId(1), Bet::bookmaker(home, Side::Back, 45, 100_00)?),
//!     (UserId(2), Bet::bookmaker(away, Side::Back, 120, 50_00)?),
//! ];
//! let settlement = settle(&market, &MarketResult::Winner(home), &bets)?;
//! let ann = settlement.user(UserId(1)).unwrap();
//! assert_eq!((ann.pnl_minor, ann.commission_minor, ann.net_minor()), (45_00, 90, 44_10));
//! assert_eq!(settlement.user(UserId(2)).unwrap().net_minor(), -50_00);
//! assert_eq!(settlement.house_pnl_minor, 5_00);
//! assert_eq!(settlement.commission_total_minor, 90);
//! # Ok::<(), backlay_core::exchange::MarketError>(())
//! ```

use std::collections::BTreeMap;

use crate::money::mul_div_round_half_even;

use super::bet::{Bet, Selection};
use super::exposure::Position;
use super::market::{MarketError, MarketKind, MarketSpec};
use super::{RunnerId, UserId};

/// What the operator declares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MarketResult {
    /// The winner of a one-winner or bookmaker market.
    Winner(RunnerId),
    /// The placed runners of a place market: at least one and at most its number of winners
    /// (fewer when fewer finish).
    Placed(Vec<RunnerId>),
    /// The result of a fancy market: the run total, wickets … it was set on.
    Fancy(u32),
    /// No result: every bet is off and every P&L is 0.
    Void,
}

impl MarketResult {
    /// Whether a bet on `selection` finds its selection happened.
    pub fn happens(&self, selection: Selection) -> bool {
        match (self, selection) {
            (MarketResult::Winner(winner), Selection::Runner(runner)) => *winner == runner,
            (MarketResult::Placed(placed), Selection::Runner(runner)) => placed.contains(&runner),
            (MarketResult::Fancy(result), Selection::FancyLine(line)) => *result >= line,
            _ => false,
        }
    }

    /// What `bet` (matched) wins or loses under this result, before commission: 0 when void.
    /// A user's bets in a market sum to their [`UserSettlement::pnl_minor`], since that is
    /// the same sum taken over their position.
    pub fn bet_pnl_minor(&self, bet: &Bet) -> i64 {
        if self.is_void() {
            0
        } else {
            bet.pnl_minor(self.happens(bet.selection()))
        }
    }

    /// Whether this is [`MarketResult::Void`].
    pub const fn is_void(&self) -> bool {
        matches!(self, MarketResult::Void)
    }

    /// Whether this result can be declared on `market`.
    pub fn check(&self, market: &MarketSpec) -> Result<(), MarketError> {
        let kind = market.kind();
        let known = |runner: &RunnerId| {
            if market.runners().contains(runner) {
                Ok(())
            } else {
                Err(MarketError::UnknownRunner(*runner))
            }
        };
        match (self, kind) {
            (MarketResult::Void, _) | (MarketResult::Fancy(_), MarketKind::Fancy) => Ok(()),
            (MarketResult::Winner(winner), MarketKind::OneWinner | MarketKind::Bookmaker) => {
                known(winner)
            }
            (MarketResult::Placed(placed), MarketKind::Place { winners }) => {
                if placed.is_empty() {
                    return Err(MarketError::NoPlacedRunner);
                }
                if placed.len() > winners as usize {
                    return Err(MarketError::TooManyPlaced { placed: placed.len(), winners });
                }
                for (index, runner) in placed.iter().enumerate() {
                    known(runner)?;
                    if placed[..index].contains(runner) {
                        return Err(MarketError::DuplicatePlacedRunner(*runner));
                    }
                }
                Ok(())
            }
            _ => Err(MarketError::WrongResult { kind }),
        }
    }
}

/// One user's settlement in a market.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UserSettlement {
    /// The user.
    pub user_id: UserId,
    /// Gross P&L of their matched bets.
    pub pnl_minor: i64,
    /// Commission on it (0 unless the P&L is positive).
    pub commission_minor: i64,
}

impl UserSettlement {
    /// What the user's balance moves by.
    pub const fn net_minor(&self) -> i64 {
        self.pnl_minor - self.commission_minor
    }
}

/// A market's settlement, ready for the ledger: every user's P&L and commission, what the
/// house wins (negative: pays) and the commission collected. The amounts sum to zero:
/// `Σ net + house_pnl_minor + commission_total_minor = 0`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settlement {
    /// One entry per user with bets in the market, by user id.
    pub users: Vec<UserSettlement>,
    /// The house's P&L: the other side of bookmaker and fancy bets; 0 on exchange markets.
    pub house_pnl_minor: i64,
    /// The sum of the users' commission.
    pub commission_total_minor: i64,
}

impl Settlement {
    /// The entry of `user_id`, if they had bets.
    pub fn user(&self, user_id: UserId) -> Option<&UserSettlement> {
        self.users
            .binary_search_by_key(&user_id, |user| user.user_id)
            .ok()
            .map(|index| &self.users[index])
    }
}

/// Settles `market` with `result` from its matched bets, given with their users (both bets of
/// each exchange fill, see [`Fill::bets`](super::Fill::bets); each house bet once).
///
/// Refuses a result that does not fit the market, a bet on a selection outside it, and, on
/// exchange markets, bets whose P&Ls do not sum to zero (a fill with one side missing).
pub fn settle(
    market: &MarketSpec,
    result: &MarketResult,
    bets: &[(UserId, Bet)],
) -> Result<Settlement, MarketError> {
    let mut positions: BTreeMap<UserId, Position> = BTreeMap::new();
    for (user_id, bet) in bets {
        market.check_bet(bet)?;
        positions.entry(*user_id).or_default().add_matched(bet);
    }
    settle_positions(market, result, positions.iter().map(|(user, p)| (*user, p)))
}

/// [`settle`] from users' positions (each user once).
pub(crate) fn settle_positions<'a>(
    market: &MarketSpec,
    result: &MarketResult,
    positions: impl IntoIterator<Item = (UserId, &'a Position)>,
) -> Result<Settlement, MarketError> {
    result.check(market)?;
    let mut users = Vec::new();
    let mut pnl_sum: i128 = 0;
    let mut commission_sum: i128 = 0;
    for (user_id, position) in positions {
        let pnl = position.pnl_minor(result);
        let pnl_minor = i64::try_from(pnl).map_err(|_| MarketError::Overflow)?;
        let commission_minor = commission_minor(pnl_minor, market.commission_bp());
        pnl_sum += pnl;
        commission_sum += i128::from(commission_minor);
        users.push(UserSettlement { user_id, pnl_minor, commission_minor });
    }
    users.sort_unstable_by_key(|user| user.user_id);
    let house_pnl = if market.kind().is_house_banked() {
        -pnl_sum
    } else if pnl_sum != 0 {
        return Err(MarketError::UnbalancedExchange { sum_minor: pnl_sum });
    } else {
        0
    };
    let house_pnl_minor = i64::try_from(house_pnl).map_err(|_| MarketError::Overflow)?;
    let commission_total_minor =
        i64::try_from(commission_sum).map_err(|_| MarketError::Overflow)?;
    let net_sum: i128 = users.iter().map(|user| i128::from(user.net_minor())).sum();
    assert_eq!(
        net_sum + house_pnl + commission_sum,
        0,
        "a settlement moves money between accounts, it never makes or loses any"
    );
    Ok(Settlement { users, house_pnl_minor, commission_total_minor })
}

/// Commission on net market winnings: `pnl × commission_bp / 10_000` rounded half to even,
/// only when `pnl > 0`. With `commission_bp ≤ 10_000` it never exceeds the winnings.
fn commission_minor(pnl_minor: i64, commission_bp: u32) -> i64 {
    if pnl_minor <= 0 {
        return 0;
    }
    mul_div_round_half_even(pnl_minor, i64::from(commission_bp), 10_000)
        .expect("commission is at most the winnings")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exchange::{MarketKind, Side};
    use crate::odds::Price;

    const A: RunnerId = RunnerId(1);
    const B: RunnerId = RunnerId(2);
    const C: RunnerId = RunnerId(3);
    const ANN: UserId = UserId(1);
    const BOB: UserId = UserId(2);
    const CAT: UserId = UserId(3);

    fn exchange(runner: RunnerId, side: Side, at: &str, stake_minor: i64) -> Bet {
        Bet::exchange(runner, side, at.parse::<Price>().unwrap(), stake_minor).unwrap()
    }

    /// Both sides of a fill: `backer` backs, `layer` lays.
    fn fill(
        backer: UserId,
        layer: UserId,
        runner: RunnerId,
        at: &str,
        size: i64,
    ) -> [(UserId, Bet); 2] {
        [
            (backer, exchange(runner, Side::Back, at, size)),
            (layer, exchange(runner, Side::Lay, at, size)),
        ]
    }

    fn entries(settlement: &Settlement) -> Vec<(i64, i64, i64)> {
        settlement.users.iter().map(|u| (u.user_id.0, u.pnl_minor, u.commission_minor)).collect()
    }

    #[test]
    fn back_meets_lay_and_the_winner_is_paid_by_the_loser() {
        let market = MarketSpec::new(MarketKind::OneWinner, vec![A, B], 0).unwrap();
        let bets = fill(BOB, ANN, A, "2.50", 100_00);
        let won = settle(&market, &MarketResult::Winner(A), &bets).unwrap();
        assert_eq!(entries(&won), vec![(1, -150_00, 0), (2, 150_00, 0)]);
        let lost = settle(&market, &MarketResult::Winner(B), &bets).unwrap();
        assert_eq!(entries(&lost), vec![(1, 100_00, 0), (2, -100_00, 0)]);
        assert_eq!(lost.house_pnl_minor, 0);
    }

    #[test]
    fn commission_is_on_net_market_winnings_only() {
        // 5%. Bob backs A (wins 150) and lays B (wins 20): net +170, commission 8.50.
        // Ann lays A (−150); Cat backs B (−20). Losers pay no commission.
        let market = MarketSpec::new(MarketKind::OneWinner, vec![A, B, C], 500).unwrap();
        let mut bets = Vec::new();
        bets.extend(fill(BOB, ANN, A, "2.50", 100_00));
        bets.extend(fill(CAT, BOB, B, "4.00", 20_00));
        let settlement = settle(&market, &MarketResult::Winner(A), &bets).unwrap();
        assert_eq!(entries(&settlement), vec![(1, -150_00, 0), (2, 170_00, 8_50), (3, -20_00, 0)]);
        assert_eq!(settlement.commission_total_minor, 8_50);
        assert_eq!(settlement.house_pnl_minor, 0);
        // A user who wins one bet and loses another by more pays nothing.
        let settlement = settle(&market, &MarketResult::Winner(B), &bets).unwrap();
        assert_eq!(
            entries(&settlement),
            vec![(1, 100_00, 5_00), (2, -160_00, 0), (3, 60_00, 3_00)]
        );
    }

    #[test]
    fn commission_rounds_half_to_even() {
        assert_eq!(commission_minor(10, 500), 0); // 0.5 → 0
        assert_eq!(commission_minor(30, 500), 2); // 1.5 → 2
        assert_eq!(commission_minor(-100, 500), 0);
        assert_eq!(commission_minor(100, 10_000), 100);
    }

    #[test]
    fn void_pays_nothing() {
        let market = MarketSpec::new(MarketKind::OneWinner, vec![A, B], 500).unwrap();
        let settlement =
            settle(&market, &MarketResult::Void, &fill(BOB, ANN, A, "2.50", 100_00)).unwrap();
        assert_eq!(entries(&settlement), vec![(1, 0, 0), (2, 0, 0)]);
        assert_eq!((settlement.house_pnl_minor, settlement.commission_total_minor), (0, 0));
    }

    #[test]
    fn place_pays_every_placed_runner() {
        let market = MarketSpec::new(MarketKind::Place { winners: 2 }, vec![A, B, C], 0).unwrap();
        let mut bets = Vec::new();
        bets.extend(fill(BOB, ANN, A, "1.50", 10_00));
        bets.extend(fill(BOB, ANN, B, "2.00", 10_00));
        bets.extend(fill(ANN, BOB, C, "3.00", 10_00));
        let settlement = settle(&market, &MarketResult::Placed(vec![A, C]), &bets).unwrap();
        // Bob: +5 (A placed) −10 (B not) −20 (laid C, placed) = −25.
        assert_eq!(entries(&settlement), vec![(1, 25_00, 0), (2, -25_00, 0)]);
        for (bad, error) in [
            (vec![], MarketError::NoPlacedRunner),
            (vec![A, B, C], MarketError::TooManyPlaced { placed: 3, winners: 2 }),
            (vec![A, A], MarketError::DuplicatePlacedRunner(A)),
            (vec![RunnerId(9)], MarketError::UnknownRunner(RunnerId(9))),
        ] {
            assert_eq!(settle(&market, &MarketResult::Placed(bad), &bets), Err(error));
        }
    }

    #[test]
    fn fancy_is_settled_against_the_house() {
        let market = MarketSpec::new(MarketKind::Fancy, vec![], 0).unwrap();
        let bets = [
            (ANN, Bet::fancy(57, Side::YES, 100, 10_00).unwrap()),
            (BOB, Bet::fancy(57, Side::NO, 90, 20_00).unwrap()),
        ];
        // 57 reaches the line: Ann +10.00, Bob −18.00, the house +8.00.
        let settlement = settle(&market, &MarketResult::Fancy(57), &bets).unwrap();
        assert_eq!(entries(&settlement), vec![(1, 10_00, 0), (2, -18_00, 0)]);
        assert_eq!(settlement.house_pnl_minor, 8_00);
        // 56 does not: Ann −10.00, Bob +20.00, the house −10.00.
        let settlement = settle(&market, &MarketResult::Fancy(56), &bets).unwrap();
        assert_eq!(entries(&settlement), vec![(1, -10_00, 0), (2, 20_00, 0)]);
        assert_eq!(settlement.house_pnl_minor, -10_00);
    }

    #[test]
    fn each_bet_has_its_own_pnl_and_a_users_bets_sum_to_theirs() {
        let market = MarketSpec::new(MarketKind::Place { winners: 2 }, vec![A, B, C], 0).unwrap();
        let mut bets = fill(BOB, ANN, A, "3.00", 10_00).to_vec();
        bets.extend(fill(ANN, CAT, C, "5.00", 4_00));
        let result = MarketResult::Placed(vec![A, B]);
        // Bob backed A (placed) +20.00; Ann laid A −20.00 and backed C (unplaced) −4.00.
        let per_bet: Vec<i64> = bets.iter().map(|(_, bet)| result.bet_pnl_minor(bet)).collect();
        assert_eq!(per_bet, vec![20_00, -20_00, -4_00, 4_00]);
        let settlement = settle(&market, &result, &bets).unwrap();
        for user in &settlement.users {
            let sum: i64 = bets
                .iter()
                .filter(|(u, _)| *u == user.user_id)
                .map(|(_, bet)| result.bet_pnl_minor(bet))
                .sum();
            assert_eq!(sum, user.pnl_minor, "{:?}", user.user_id);
        }
        assert!(bets.iter().all(|(_, bet)| MarketResult::Void.bet_pnl_minor(bet) == 0));
        let fancy = Bet::fancy(57, Side::NO, 90, 20_00).unwrap();
        assert_eq!(MarketResult::Fancy(57).bet_pnl_minor(&fancy), -18_00);
        assert_eq!(MarketResult::Fancy(56).bet_pnl_minor(&fancy), 20_00);
    }

    #[test]
    fn refuses_what_does_not_fit() {
        let market = MarketSpec::new(MarketKind::OneWinner, vec![A, B], 0).unwrap();
        let bets = fill(BOB, ANN, A, "2.50", 100_00);
        assert_eq!(
            settle(&market, &MarketResult::Fancy(3), &bets),
            Err(MarketError::WrongResult { kind: MarketKind::OneWinner })
        );
        assert_eq!(
            settle(&market, &MarketResult::Winner(C), &bets),
            Err(MarketError::UnknownRunner(C))
        );
        // One side of a fill alone does not balance.
        assert_eq!(
            settle(&market, &MarketResult::Winner(A), &bets[..1]),
            Err(MarketError::UnbalancedExchange { sum_minor: 150_00 })
        );
        // A bet on a runner outside the market.
        let stray = [(ANN, exchange(C, Side::Back, "2.00", 1_00))];
        assert_eq!(
            settle(&market, &MarketResult::Void, &stray),
            Err(MarketError::UnknownRunner(C))
        );
    }
}
