//! A market's stored rows read as the exchange's bets: the matched bets of its fills (an
//! exchange market) or of its house bets (bookmaker, fancy), and the unmatched part of each
//! live order. The engine rebuilds a market from these, settlement checks each bet's P&L
//! against them, the console's market analysis sums them, and the ledger check recomputes
//! every user's worst case from them ([`worst_case_exposures`]): one reading of the rows, so
//! the check holds the database to exactly what the engine would make of it.
//!
//! Example: on match odds (runners 1 and 2) ann lays 100.00 on runner 1 at 2.50; bob backs
//! 60.00 of it. Stored: one fill and ann's bet with 40.00 remaining.
//!
//! ```text
//! fill  runner 1  back bob / lay ann  2.50  60.00  → bob: back 60.00 @ 2.50 (matched)
//!                                                    ann: lay  60.00 @ 2.50 (matched)
//! bet   ann  lay runner 1  2.50  remaining 40.00   → ann: lay  40.00 @ 2.50 (unmatched)
//!
//! ann   runner 1 wins: −90.00 − 60.00 = −150.00   runner 2 wins: +60.00   worst case 150.00
//! bob   runner 1 wins: +90.00                      runner 2 wins: −60.00   worst case  60.00
//! ```
//!
//! An unmatched order counts only where it would lose (ann's 40.00 would win 40.00 if runner 2
//! wins, which cannot be relied on): see `backlay_core::exchange::exposure`.

use std::collections::BTreeMap;

use backlay_core::exchange::{
    Bet, MarketKind, MarketSpec, NewOrder, OrderId, Position, RunnerId, Side, UserId,
};
use backlay_core::odds::Price;

use crate::bets::{BetRow, FillRow};

/// A stored fill or bet that is not a valid bet of its market (a price off the ladder, a rate
/// or size out of range, a runner the market does not have): the engine cannot rebuild the
/// market from it, so neither can anyone recompute its exposure. Only a bug or a hand-edited
/// database stores one; the message names the row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidStoredBet(String);

/// A stored integer that must fit a `u32` (a price, a rate, a line).
fn small(value: i64, what: impl FnOnce() -> String) -> Result<u32, InvalidStoredBet> {
    u32::try_from(value).map_err(|_| InvalidStoredBet(format!("{} is {value}", what())))
}

impl FillRow {
    /// Both sides of the fill as matched exchange bets at its price and stored backer's profit
    /// (less than the price pays once a non-runner reduced it, `crate::non_runners`): (bet id,
    /// user, bet), the back first.
    pub fn matched_bets(&self) -> Result<[(i64, UserId, Bet); 2], InvalidStoredBet> {
        let hundredths = small(self.price, || format!("the price of fill {}", self.fill_id))?;
        let price = Price::from_hundredths(hundredths).map_err(|e| {
            InvalidStoredBet(format!("fill {} has price {}: {e}", self.fill_id, self.price))
        })?;
        let bet = |side| {
            let (runner, size, profit) =
                (RunnerId(self.runner_id), self.size_minor, self.backer_profit_minor);
            Bet::exchange_reduced(runner, side, price, size, profit)
                .map_err(|e| InvalidStoredBet(format!("fill {}: {e}", self.fill_id)))
        };
        Ok([
            (self.back_bet_id, UserId(self.back_user_id), bet(Side::Back)?),
            (self.lay_bet_id, UserId(self.lay_user_id), bet(Side::Lay)?),
        ])
    }
}

impl BetRow {
    /// The matched part of a house bet (bookmaker or fancy, `kind`) at its rate.
    pub fn house_matched_bet(&self, kind: MarketKind) -> Result<Bet, InvalidStoredBet> {
        let side = self.side.side();
        let rate = small(self.price, || format!("the rate of bet {}", self.bet_id))?;
        let made = match kind {
            MarketKind::Fancy => {
                let line = self.line.ok_or_else(|| {
                    InvalidStoredBet(format!("fancy bet {} has no line", self.bet_id))
                })?;
                let line = small(line, || format!("the line of bet {}", self.bet_id))?;
                Bet::fancy(line, side, rate, self.matched_minor)
            }
            _ => Bet::bookmaker(RunnerId(self.runner()?), side, rate, self.matched_minor),
        };
        made.map_err(|e| InvalidStoredBet(format!("stored bet {} is invalid: {e}", self.bet_id)))
    }

    /// The unmatched part of an exchange order as it rests in its runner's book (the order's
    /// id is the bet's), which is how the engine puts it back at start; `None` when nothing of
    /// it rests.
    pub fn resting_order(&self) -> Result<Option<(RunnerId, NewOrder)>, InvalidStoredBet> {
        if self.remaining_minor == 0 {
            return Ok(None);
        }
        let hundredths = small(self.price, || format!("the price of bet {}", self.bet_id))?;
        let price = Price::from_hundredths(hundredths)
            .map_err(|e| InvalidStoredBet(format!("bet {}: {e}", self.bet_id)))?;
        let order_id = u64::try_from(self.bet_id)
            .map_err(|_| InvalidStoredBet(format!("bet id {} is not positive", self.bet_id)))?;
        let order = NewOrder::new(
            OrderId(order_id),
            UserId(self.user_id),
            self.side.side(),
            price,
            self.remaining_minor,
        )
        .with_persistence(self.persistence);
        Ok(Some((RunnerId(self.runner()?), order)))
    }

    /// The unmatched part of an exchange order, as the bet it would be if matched at its own
    /// price; `None` when nothing of it rests.
    pub fn unmatched_bet(&self) -> Result<Option<Bet>, InvalidStoredBet> {
        let Some((runner, order)) = self.resting_order()? else { return Ok(None) };
        Bet::exchange(runner, order.side, order.price, order.size_minor)
            .map(Some)
            .map_err(|e| InvalidStoredBet(format!("bet {}: {e}", self.bet_id)))
    }

    fn runner(&self) -> Result<i64, InvalidStoredBet> {
        self.runner_id.ok_or_else(|| InvalidStoredBet(format!("bet {} has no runner", self.bet_id)))
    }
}

/// Every matched bet of a market with its bet id and user, from what was committed: both sides
/// of each fill of an exchange market (a bet matched in several fills appears once per fill),
/// the matched part of each live bet of a house-banked one (`kind`).
pub fn matched_bets(
    kind: MarketKind,
    fills: &[FillRow],
    bets: &[BetRow],
) -> Result<Vec<(i64, UserId, Bet)>, InvalidStoredBet> {
    let mut matched = Vec::with_capacity(fills.len() * 2);
    for fill in fills {
        matched.extend(fill.matched_bets()?);
    }
    if kind.is_house_banked() {
        for bet in bets.iter().filter(|bet| bet.matched_minor > 0 && bet.status.is_live()) {
            matched.push((bet.bet_id, UserId(bet.user_id), bet.house_matched_bet(kind)?));
        }
    }
    Ok(matched)
}

/// Each user's exposure in the market `spec` from its stored `fills` and `bets`, as the engine
/// computes it when it rebuilds the market: the matched bets of [`matched_bets`], and on an
/// exchange market the unmatched part of each live order. By user id; a user whose bets
/// cannot lose has 0, a user without a live bet or fill is absent.
pub fn worst_case_exposures(
    spec: &MarketSpec,
    fills: &[FillRow],
    bets: &[BetRow],
) -> Result<BTreeMap<i64, i64>, InvalidStoredBet> {
    let kind = spec.kind();
    let on_market = |bet_id: i64, bet: &Bet| {
        spec.check_bet(bet).map_err(|e| InvalidStoredBet(format!("bet {bet_id}: {e}")))
    };
    let mut positions: BTreeMap<i64, Position> = BTreeMap::new();
    for (bet_id, user, bet) in matched_bets(kind, fills, bets)? {
        on_market(bet_id, &bet)?;
        positions.entry(user.0).or_default().add_matched(&bet);
    }
    // House-banked bets are taken whole or refused: none rests unmatched.
    if kind.has_order_book() {
        for row in bets.iter().filter(|bet| bet.status.is_live()) {
            if let Some(bet) = row.unmatched_bet()? {
                on_market(row.bet_id, &bet)?;
                positions.entry(row.user_id).or_default().add_unmatched(&bet);
            }
        }
    }
    Ok(positions
        .into_iter()
        .map(|(user, position)| (user, position.exposure_minor(spec)))
        .collect())
}

#[cfg(test)]
mod tests {
    use backlay_core::exchange::{BetSide, Persistence};

    use super::*;
    use crate::bets::{BetStatus, BotRefs};

    const ANN: i64 = 7;
    const BOB: i64 = 8;

    fn bet(bet_id: i64, user_id: i64, runner: Option<i64>, side: BetSide, price: i64) -> BetRow {
        BetRow {
            bet_id,
            user_id,
            market_id: 1,
            runner_id: runner,
            side,
            price,
            line: None,
            stake_minor: 0,
            matched_minor: 0,
            remaining_minor: 0,
            cancelled_minor: 0,
            lapsed_minor: 0,
            persistence: Persistence::Lapse,
            status: BetStatus::Closed,
            pnl_minor: None,
            client_ref: None,
            request_hash: None,
            created_at_ms: 0,
            refs: BotRefs::default(),
        }
    }

    /// A bet with `matched` and `remaining` of its stake, and the status they imply.
    fn sized(mut row: BetRow, matched: i64, remaining: i64) -> BetRow {
        row.stake_minor = matched + remaining;
        row.matched_minor = matched;
        row.remaining_minor = remaining;
        row.status = BetStatus::live(matched, remaining);
        row
    }

    fn fill(back: &BetRow, lay: &BetRow, price: i64, size_minor: i64) -> FillRow {
        FillRow {
            fill_id: 1,
            market_id: 1,
            runner_id: back.runner_id.unwrap(),
            back_bet_id: back.bet_id,
            back_user_id: back.user_id,
            lay_bet_id: lay.bet_id,
            lay_user_id: lay.user_id,
            price,
            size_minor,
            backer_profit_minor: size_minor * (price - 100) / 100,
        }
    }

    fn match_odds() -> MarketSpec {
        MarketSpec::new(MarketKind::OneWinner, vec![RunnerId(1), RunnerId(2)], 500).unwrap()
    }

    #[test]
    fn the_module_example_matched_fills_and_a_resting_remainder() {
        let lay = sized(bet(10, ANN, Some(1), BetSide::Lay, 250), 60_00, 40_00);
        let back = sized(bet(11, BOB, Some(1), BetSide::Back, 250), 60_00, 0);
        let fills = [fill(&back, &lay, 250, 60_00)];
        let worst = worst_case_exposures(&match_odds(), &fills, &[lay.clone(), back]).unwrap();
        assert_eq!(worst, BTreeMap::from([(ANN, 150_00), (BOB, 60_00)]));

        // The remainder cancelled: only the matched part counts.
        let mut cancelled = lay;
        cancelled.remaining_minor = 0;
        cancelled.cancelled_minor = 40_00;
        let worst = worst_case_exposures(&match_odds(), &fills, &[cancelled]).unwrap();
        assert_eq!(worst[&ANN], 90_00);
    }

    #[test]
    fn a_bet_no_longer_live_rests_nothing_and_a_fill_counts_at_its_own_price() {
        // Ann's back at 3.00 matched at 2.00 (the resting lay's price): her profit is at 2.00.
        let back = sized(bet(10, ANN, Some(1), BetSide::Back, 300), 10_00, 0);
        let lay = sized(bet(11, BOB, Some(1), BetSide::Lay, 200), 10_00, 0);
        let mut stale = sized(bet(12, BOB, Some(2), BetSide::Lay, 500), 0, 20_00);
        stale.status = BetStatus::Void;
        let fills = [fill(&back, &lay, 200, 10_00)];
        let worst = worst_case_exposures(&match_odds(), &fills, &[back, lay, stale]).unwrap();
        assert_eq!(worst, BTreeMap::from([(ANN, 10_00), (BOB, 10_00)]));
    }

    #[test]
    fn house_bets_count_their_matched_part_and_never_rest() {
        let bookmaker =
            MarketSpec::new(MarketKind::Bookmaker, vec![RunnerId(1), RunnerId(2)], 0).unwrap();
        // A khai (lay) of 100.00 at rate 45 risks 45.00; a back of 20.00 at 180 risks 20.00.
        let lay = sized(bet(1, ANN, Some(1), BetSide::Lay, 45), 100_00, 0);
        let back = sized(bet(2, BOB, Some(2), BetSide::Back, 180), 20_00, 0);
        let mut void = sized(bet(3, BOB, Some(1), BetSide::Back, 45), 50_00, 0);
        void.status = BetStatus::Void;
        let worst = worst_case_exposures(&bookmaker, &[], &[lay, back, void]).unwrap();
        assert_eq!(worst, BTreeMap::from([(ANN, 45_00), (BOB, 20_00)]));

        let fancy = MarketSpec::new(MarketKind::Fancy, vec![], 0).unwrap();
        let mut yes = sized(bet(4, ANN, None, BetSide::Yes, 100), 50_00, 0);
        yes.line = Some(40);
        let mut no = sized(bet(5, ANN, None, BetSide::No, 90), 100_00, 0);
        no.line = Some(45);
        // The exposure module's worked example: 40.00 at risk from 45 runs up.
        let worst = worst_case_exposures(&fancy, &[], &[yes, no]).unwrap();
        assert_eq!(worst, BTreeMap::from([(ANN, 40_00)]));
    }

    #[test]
    fn a_row_the_engine_could_not_rebuild_is_named() {
        let off_ladder = sized(bet(21, ANN, Some(1), BetSide::Back, 201), 0, 5_00);
        let error = worst_case_exposures(&match_odds(), &[], &[off_ladder]).unwrap_err();
        assert!(error.to_string().contains("bet 21"), "{error}");
        let elsewhere = sized(bet(22, ANN, Some(9), BetSide::Back, 200), 0, 5_00);
        let error = worst_case_exposures(&match_odds(), &[], &[elsewhere]).unwrap_err();
        assert!(error.to_string().contains("bet 22"), "{error}");
        let mut lineless = sized(bet(23, ANN, None, BetSide::Yes, 100), 5_00, 0);
        lineless.line = None;
        let fancy = MarketSpec::new(MarketKind::Fancy, vec![], 0).unwrap();
        let error = worst_case_exposures(&fancy, &[], &[lineless]).unwrap_err();
        assert_eq!(error.to_string(), "fancy bet 23 has no line");
    }
}
