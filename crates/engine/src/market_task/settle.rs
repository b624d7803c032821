//! Settling or voiding a market once: the positions in memory give each user's P&L and the
//! ledger posting, checked against the P&Ls of the stored bets before anything is written.

use std::collections::{BTreeMap, BTreeSet};

use backlay_core::exchange::{MarketResult, MarketStatus, RunnerId, Settlement};
use backlay_core::money::Money;
use backlay_store::bets::BetStatus;
use backlay_store::ledger::{NewTransaction, Posting, SystemAccount, TransactionKind};
use backlay_store::notices::{NewNotice, NoticeKind};
use backlay_store::partnership::{HouseSplit, Part};

use super::rebuild::stored_matched_bets;
use super::{market_closed, market_error, ActedBy, MarketActor, ResultInput, SettlementPreview};
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;

/// The exchange's result for what the operator declared, with the winning runners (the
/// winner, or the placed runners first placed first) and the run total as stored on the market.
fn market_result(input: &ResultInput) -> Result<(MarketResult, Vec<i64>, Option<i64>), AppError> {
    Ok(match input {
        ResultInput::Winner(id) => (MarketResult::Winner(RunnerId(*id)), vec![*id], None),
        ResultInput::Placed(ids) => {
            (MarketResult::Placed(ids.iter().copied().map(RunnerId).collect()), ids.clone(), None)
        }
        ResultInput::Fancy(value) => {
            let runs = u32::try_from(*value)
                .map_err(|_| AppError::field("result", "A fancy result is a whole number ≥ 0."))?;
            (MarketResult::Fancy(runs), Vec::new(), Some(*value))
        }
        ResultInput::Void => (MarketResult::Void, Vec::new(), None),
    })
}

impl MarketActor {
    /// What [`MarketActor::settle`] would post for `input`, from the same bets and the same
    /// settlement, writing nothing.
    pub(super) async fn preview(&self, input: ResultInput) -> Result<SettlementPreview, AppError> {
        let (result, _, _) = market_result(&input)?;
        let bet_pnls = self.bet_pnls(&result).await?;
        let settlement = self.market.settlement(&result).map_err(market_error)?;
        check_bet_pnls(self.setup.market_id, &bet_pnls, &settlement)?;
        Ok(SettlementPreview { settlement, bets: bet_pnls.len() })
    }

    pub(super) async fn settle(
        &mut self,
        input: ResultInput,
        by: Option<&ActedBy>,
    ) -> Result<String, AppError> {
        let (result, winners, result_value) = market_result(&input)?;
        // Each bet's own P&L, from what is stored (this task is the market's only writer).
        let bet_pnls = self.bet_pnls(&result).await?;
        let before = self.market.status();
        let settled = self.market.settle(&result).map_err(market_error)?;
        // Closed or void, as the exchange market now says.
        let status = self.market.status();
        let void = status == MarketStatus::Void;
        let outcome: Result<String, AppError> = async {
            // One time for the result, its postings and its bets, so that Bet History's
            // settled time is the statement line's.
            let settled_at_ms = now_ms();
            let mut writer = self.store.begin_write().await?;
            if !writer
                .record_market_result(
                    self.setup.market_id,
                    status,
                    &winners,
                    result_value,
                    settled_at_ms,
                )
                .await?
            {
                return Err(market_closed());
            }
            // Exposure first: what a loser pays comes out of what was reserved for it.
            for (user, stored) in &self.stored_exposure {
                writer.set_exposure(*user, self.setup.market_id, *stored, 0).await?;
            }
            let label = format!("{} / {}", self.match_name, self.setup.name);
            let house_banked = self.kind().is_house_banked();
            let mut postings = Vec::new();
            // The house's result with each client, shared up its agents (store::partnership).
            let mut split = HouseSplit::default();
            for user in &settled.settlement.users {
                let net = user.net_minor();
                if net != 0 {
                    let account_id = writer.account_of_user(user.user_id.0).await?;
                    let description = if user.commission_minor > 0 {
                        format!(
                            "{label}: won {} (commission {})",
                            Money::from_minor(user.pnl_minor),
                            Money::from_minor(user.commission_minor)
                        )
                    } else if net > 0 {
                        format!("{label}: won")
                    } else {
                        format!("{label}: lost")
                    };
                    postings.push(Posting { account_id, amount_minor: net, description });
                }
                if house_banked {
                    writer
                        .split_house_result(&mut split, user.user_id.0, -user.pnl_minor, Part::House)
                        .await?;
                }
                writer
                    .split_house_result(&mut split, user.user_id.0, user.commission_minor, Part::Commission)
                    .await?;
            }
            // The split per client must add up to the settlement's own figures.
            let settlement = &settled.settlement;
            for (part, total) in [
                (Part::House, settlement.house_pnl_minor),
                (Part::Commission, settlement.commission_total_minor),
            ] {
                if split.total_minor(part) != total {
                    return Err(AppError::Internal(anyhow::anyhow!(
                        "market {}: the {part:?} result split per client is {}, the settlement's {total}",
                        self.setup.market_id,
                        split.total_minor(part)
                    )));
                }
            }
            postings.extend(split.postings(Part::House, &format!("{label}: partnership share")));
            postings.extend(split.postings(Part::Commission, &format!("{label}: commission share")));
            let house_minor = settlement.house_pnl_minor - split.agents_total_minor(Part::House);
            if house_minor != 0 {
                let house = writer.system_account(SystemAccount::House).await?;
                postings.push(Posting {
                    account_id: house,
                    amount_minor: house_minor,
                    description: label.clone(),
                });
            }
            let commission_minor =
                settlement.commission_total_minor - split.agents_total_minor(Part::Commission);
            if commission_minor != 0 {
                let commission = writer.system_account(SystemAccount::Commission).await?;
                postings.push(Posting {
                    account_id: commission,
                    amount_minor: commission_minor,
                    description: format!("{label}: commission"),
                });
            }
            if !postings.is_empty() {
                // A loss comes out of exposure reserved when the bet was placed, so the funds
                // check cannot refuse it, except for a client a correction took below zero,
                // who owes the loss all the same (`store::correction`).
                let posted = writer
                    .post_owed(
                        NewTransaction {
                            kind: if void { TransactionKind::Void } else { TransactionKind::Settlement },
                            actor_user_id: None,
                            remark: label.clone(),
                            market_id: Some(self.setup.market_id),
                            postings,
                        },
                        settled_at_ms,
                    )
                    .await?;
                writer
                    .record_splits(Some(posted.transaction_id), Some(self.setup.market_id), &split, settled_at_ms)
                    .await?;
            }
            check_bet_pnls(self.setup.market_id, &bet_pnls, &settled.settlement)?;
            let cancelled = writer
                .close_market_bets(
                    self.setup.market_id,
                    if void { BetStatus::Void } else { BetStatus::Settled },
                    settled_at_ms,
                )
                .await?;
            let notices = self.settlement_notices(settlement, void, &bet_pnls, &cancelled);
            writer.insert_notices(&notices, now_ms()).await?;
            let pnls: Vec<(i64, i64)> =
                bet_pnls.iter().map(|(bet_id, _, pnl)| (*bet_id, *pnl)).collect();
            writer.set_bet_pnls(self.setup.market_id, &pnls).await?;
            let detail = serde_json::json!({
                "before": before,
                "after": status,
                "winner_selection_id": winners.first(),
                "placed_selection_ids": match &input {
                    ResultInput::Placed(ids) => Some(ids),
                    _ => None,
                },
                "result": result_value,
                "bets": bet_pnls.len(),
                "clients": settlement.users.len(),
                "house_pnl": Money::from_minor(settlement.house_pnl_minor),
                "commission": Money::from_minor(settlement.commission_total_minor),
            });
            let action = if void { "market.void" } else { "market.result" };
            self.audit(&mut writer, by, action, detail).await?;
            self.commit(writer).await?;
            Ok(if void {
                format!("{label} is void: every bet is off.")
            } else {
                format!("{label} is settled.")
            })
        }
        .await;
        outcome.map_err(|err| self.write_failed(err))
    }

    /// What the market's bettors are told of its settlement or void: each bettor with matched
    /// bets (`bet_pnls` as (bet id, user id, P&L)) their result once; a bettor whose bets here
    /// never matched, each of them cancelled (`cancelled` as (bet id, user id, size), the
    /// unmatched parts the settlement closed).
    fn settlement_notices(
        &self,
        settlement: &Settlement,
        void: bool,
        bet_pnls: &[(i64, i64, i64)],
        cancelled: &[(i64, i64, i64)],
    ) -> Vec<NewNotice> {
        let market_id = self.setup.market_id;
        let matched: BTreeSet<i64> = bet_pnls.iter().map(|(_, user_id, _)| *user_id).collect();
        let mut notices: Vec<NewNotice> = settlement
            .users
            .iter()
            .filter(|user| matched.contains(&user.user_id.0))
            .map(|user| NewNotice {
                user_id: user.user_id.0,
                kind: if void { NoticeKind::Voided } else { NoticeKind::Settled },
                market_id,
                bet_id: None,
                amount_minor: user.pnl_minor,
                commission_minor: user.commission_minor,
            })
            .collect();
        for (bet_id, user_id, size) in cancelled {
            if !matched.contains(user_id) {
                notices.push(NewNotice::of_bet(
                    NoticeKind::Cancelled,
                    market_id,
                    *bet_id,
                    *user_id,
                    *size,
                ));
            }
        }
        notices
    }

    /// Every matched bet's P&L under `result` as (bet id, user id, P&L), from what is stored
    /// (exchange markets: a bet's P&L is the sum over its fills).
    async fn bet_pnls(&self, result: &MarketResult) -> Result<Vec<(i64, i64, i64)>, AppError> {
        let mut pnls: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
        for (bet_id, user, bet) in
            stored_matched_bets(&self.store, self.kind(), self.setup.market_id).await?
        {
            pnls.entry(bet_id).or_insert((user.0, 0)).1 += result.bet_pnl_minor(&bet);
        }
        Ok(pnls.into_iter().map(|(bet_id, (user_id, pnl))| (bet_id, user_id, pnl)).collect())
    }
}

/// The bets' P&Ls must add up, per user, to the settlement posted to the ledger: the two are
/// computed apart (from the stored bets, and from the positions in memory), so a difference is
/// a bug, and the settlement is refused rather than stored with bets that disagree with it.
fn check_bet_pnls(
    market_id: i64,
    bet_pnls: &[(i64, i64, i64)],
    settlement: &Settlement,
) -> Result<(), AppError> {
    let mut per_user: BTreeMap<i64, i64> = BTreeMap::new();
    for (_, user_id, pnl) in bet_pnls {
        *per_user.entry(*user_id).or_default() += pnl;
    }
    for user in &settlement.users {
        let of_bets = per_user.remove(&user.user_id.0).unwrap_or(0);
        if of_bets != user.pnl_minor {
            return Err(AppError::Internal(anyhow::anyhow!(
                "market {market_id}: user {}'s bets add up to {of_bets} but the settlement says {}",
                user.user_id.0,
                user.pnl_minor
            )));
        }
    }
    if let Some((user_id, pnl)) = per_user.into_iter().find(|(_, pnl)| *pnl != 0) {
        return Err(AppError::Internal(anyhow::anyhow!(
            "market {market_id}: user {user_id}'s bets add up to {pnl} with no settlement"
        )));
    }
    Ok(())
}
