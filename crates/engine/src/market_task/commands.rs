//! The operator's commands on a running market and a user's cancel: status, in play, posted
//! rates and lines, and the lapses they cause, each written in step with memory.

use std::collections::{BTreeSet, HashMap};

use backlay_core::exchange::{BetSide, MarketKind, MarketStatus, Persistence, RestingOrder};
use backlay_core::money::Money;

use serde_json::json;

use super::{
    bet_of_order, market_closed, market_error, not_a_status_to_set, order_of_bet, ActedBy,
    CancelAnswer, CrossingCancelled, MarketActor, RatesUpdate, StakeLimits,
};
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;
use backlay_kit::refusal::Refusal;
use backlay_store::non_runners::RunnerRemoved;
use backlay_store::notices::{NewNotice, NoticeKind};

/// A status an operator set, for the stored row, and what the audit log says of it.
struct StatusChange<'a> {
    after: MarketStatus,
    by: Option<&'a ActedBy>,
    action: &'static str,
    detail: serde_json::Value,
}

/// How orders taken out of a book are recorded on their bets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Removal {
    /// At a suspension or the off (LAPSE orders).
    Lapsed,
    /// By their owner.
    Cancelled,
    /// By the exchange: the operator resolving a crossed book. Their owners are told.
    CancelledByExchange,
}

impl Removal {
    /// What the owners of the orders removed are told, if anything (not of their own cancels).
    fn notice(self) -> Option<NoticeKind> {
        match self {
            Removal::Lapsed => Some(NoticeKind::Lapsed),
            Removal::Cancelled => None,
            Removal::CancelledByExchange => Some(NoticeKind::Cancelled),
        }
    }
}

impl MarketActor {
    pub(super) async fn cancel(
        &mut self,
        user_id: i64,
        bet_id: i64,
        size: Option<Money>,
    ) -> Result<CancelAnswer, AppError> {
        let not_found =
            || AppError::NotFound(format!("You have no unmatched bet {bet_id} in this market."));
        if self.kind().is_house_banked() {
            return Err(AppError::Conflict(
                "Bookmaker and fancy bets are matched at once and cannot be cancelled.".into(),
            ));
        }
        if let Some(size) = size {
            if !size.is_positive() {
                return Err(AppError::field("size", "The size to cancel must be more than 0."));
            }
        }
        let order_id = order_of_bet(bet_id);
        // In its book, or held apart from a crossed stored book (`rebuild`): the bettor sees
        // it among their unmatched bets either way.
        let resting = self.market.unmatched_order(order_id).ok_or_else(not_found)?;
        if resting.user_id.0 != user_id {
            return Err(not_found());
        }
        let cancelled = self
            .market
            .cancel(resting.runner, order_id, size.map(Money::minor))
            .map_err(market_error)?;
        let remaining = resting.remaining_minor - cancelled;
        let removed = RestingOrder { remaining_minor: cancelled, ..resting };
        self.store_removals(&[removed], Removal::Cancelled, None).await?;
        Ok(CancelAnswer {
            bet_id,
            cancelled: Money::from_minor(cancelled),
            remaining: Money::from_minor(remaining),
        })
    }

    /// The operator's way out of a crossed stored book (`rebuild`): cancels every order held
    /// apart, the younger of each crossing pair, returning its exposure to its user; stores
    /// the market as suspended; audits what was cancelled. One transaction. The market stays
    /// suspended: reopening it is the operator's next decision.
    pub(super) async fn resolve_crossed(
        &mut self,
        by: &ActedBy,
    ) -> Result<Vec<CrossingCancelled>, AppError> {
        let held: Vec<RestingOrder> = self.market.crossing_orders().to_vec();
        if held.is_empty() {
            return Err(AppError::Conflict(
                "This market's book is not crossed: there is nothing to resolve.".into(),
            ));
        }
        let before = self.market.status();
        for order in &held {
            self.market.cancel_crossing_order(order.order_id).map_err(market_error)?;
        }
        let kind = self.kind();
        let cancelled: Vec<CrossingCancelled> = held
            .iter()
            .map(|order| CrossingCancelled {
                bet_id: bet_of_order(order.order_id),
                user_id: order.user_id.0,
                selection_id: order.runner.0,
                side: BetSide::on(kind, order.side),
                price: order.price.hundredths(),
                cancelled: Money::from_minor(order.remaining_minor),
            })
            .collect();
        let detail = json!({
            "before": before,
            "after": MarketStatus::Suspended,
            "cancelled": cancelled.iter().map(|c| json!({
                "bet_id": c.bet_id,
                "user_id": c.user_id,
                "selection_id": c.selection_id,
                "side": c.side,
                "price": f64::from(c.price) / 100.0,
                "size": c.cancelled,
            })).collect::<Vec<_>>(),
        });
        let change = StatusChange {
            after: MarketStatus::Suspended,
            by: Some(by),
            action: "market.resolve_crossed",
            detail,
        };
        self.store_removals(&held, Removal::CancelledByExchange, Some(change)).await?;
        tracing::warn!(
            market_id = self.setup.market_id,
            bets = ?cancelled.iter().map(|c| c.bet_id).collect::<Vec<_>>(),
            "the crossed book is resolved: the held orders are cancelled; the market stays suspended"
        );
        Ok(cancelled)
    }

    /// Changes an unmatched bet's persistence in the book and in the store (the bot API's
    /// updateOrders). Answers false when it already had it.
    pub(super) async fn set_persistence(
        &mut self,
        user_id: i64,
        bet_id: i64,
        persistence: Persistence,
    ) -> Result<bool, AppError> {
        let not_found =
            || AppError::NotFound(format!("You have no unmatched bet {bet_id} in this market."));
        let order_id = order_of_bet(bet_id);
        let (runner, resting) = self
            .market
            .spec()
            .runners()
            .iter()
            .find_map(|r| self.market.book(*r).and_then(|b| b.order(order_id)).map(|o| (*r, o)))
            .ok_or_else(not_found)?;
        if resting.user_id.0 != user_id {
            return Err(not_found());
        }
        if resting.persistence == persistence {
            return Ok(false);
        }
        let result: Result<(), AppError> = async {
            let mut writer = self.store.begin_write().await?;
            if !writer.set_bet_persistence(bet_id, persistence).await? {
                return Err(AppError::Internal(anyhow::anyhow!(
                    "bet {bet_id} rests in the book but has nothing unmatched stored"
                )));
            }
            self.commit(writer).await?;
            Ok(())
        }
        .await;
        match result {
            Ok(()) => {
                self.market.set_persistence(runner, order_id, persistence).map_err(market_error)?;
                Ok(true)
            }
            Err(err) => Err(self.write_failed(err)),
        }
    }

    /// Sets the status; answers the users whose LAPSE orders lapsed.
    pub(super) async fn set_status(
        &mut self,
        status: MarketStatus,
        by: Option<&ActedBy>,
    ) -> Result<BTreeSet<i64>, AppError> {
        let before = self.market.status();
        let lapsed = match status {
            MarketStatus::Open => {
                self.market.reopen().map_err(market_error)?;
                Vec::new()
            }
            // Counted by `Engine::set_status` when the command arrived.
            MarketStatus::Suspended => self.market.suspend().map_err(market_error)?,
            MarketStatus::BallRunning => {
                self.market.suspend_ball_running().map_err(market_error)?
            }
            MarketStatus::Closed | MarketStatus::Void => {
                return Err(not_a_status_to_set(status.as_str()))
            }
        };
        let detail = json!({ "before": before, "after": status });
        let change = StatusChange { after: status, by, action: "market.status", detail };
        self.store_removals(&lapsed, Removal::Lapsed, Some(change)).await
    }

    /// The match went in play (or back): at the off every unmatched LAPSE order lapses and
    /// the market's bet delay starts to apply. Answers the users whose LAPSE orders lapsed.
    pub(super) async fn set_in_play(&mut self, in_play: bool) -> Result<BTreeSet<i64>, AppError> {
        if in_play == self.in_play {
            return Ok(BTreeSet::new());
        }
        let lapsed = if in_play { self.market.lapse_orders() } else { Vec::new() };
        let lapsed_users = self.store_removals(&lapsed, Removal::Lapsed, None).await?;
        self.in_play = in_play;
        Ok(lapsed_users)
    }

    /// Stores orders taken out of the books in memory (and the market's new status, if any,
    /// audited) with their users' lower exposure, in one transaction. Answers the users whose
    /// orders went; on a failure the market is rebuilt from what is stored before it serves
    /// again (`recovery`).
    async fn store_removals(
        &mut self,
        removed: &[RestingOrder],
        how: Removal,
        status: Option<StatusChange<'_>>,
    ) -> Result<BTreeSet<i64>, AppError> {
        let result: Result<HashMap<i64, i64>, AppError> = async {
            let mut writer = self.store.begin_write().await?;
            if let Some(change) = status {
                if !writer.set_market_status(self.setup.market_id, change.after).await? {
                    return Err(market_closed());
                }
                self.audit(&mut writer, change.by, change.action, change.detail).await?;
            }
            let mut touched = BTreeSet::new();
            let mut notices = Vec::new();
            let removed_at_ms = now_ms();
            for order in removed {
                let bet_id = bet_of_order(order.order_id);
                let lapsed = how == Removal::Lapsed;
                writer
                    .record_unmatched_removal(bet_id, order.remaining_minor, lapsed, removed_at_ms)
                    .await?;
                touched.insert(order.user_id.0);
                if let Some(kind) = how.notice() {
                    notices.push(NewNotice::of_bet(
                        kind,
                        self.setup.market_id,
                        bet_id,
                        order.user_id.0,
                        order.remaining_minor,
                    ));
                }
            }
            writer.insert_notices(&notices, now_ms()).await?;
            let mut pending = HashMap::new();
            self.sync_exposures(&mut writer, &touched, &mut pending).await?;
            self.commit(writer).await?;
            Ok(pending)
        }
        .await;
        match result {
            Ok(pending) => {
                let users = pending.keys().copied().collect();
                self.stored_exposure.extend(pending);
                Ok(users)
            }
            Err(err) => Err(self.write_failed(err)),
        }
    }

    /// Stores new posted prices with their audit entry, in one transaction.
    async fn write_rates(&self, rates: &RatesUpdate, by: Option<&ActedBy>) -> Result<(), AppError> {
        let mut writer = self.store.begin_write().await?;
        let detail = match (rates, self.kind()) {
            (RatesUpdate::Bookmaker(runners), MarketKind::Bookmaker) => {
                let mut before = Vec::with_capacity(runners.len());
                let mut after = Vec::with_capacity(runners.len());
                for (runner_id, back, lay) in runners {
                    let Some(runner) =
                        self.setup.runners.iter().find(|r| r.runner_id == *runner_id)
                    else {
                        return Err(AppError::Refused(Refusal::UnknownRunner {
                            runner_id: *runner_id,
                        }));
                    };
                    writer.set_runner_rates(*runner_id, *back, *lay).await?;
                    before.push(json!({ "selection_id": runner_id, "back": runner.back_rate, "lay": runner.lay_rate }));
                    after.push(json!({ "selection_id": runner_id, "back": back, "lay": lay }));
                }
                json!({ "before": before, "after": after })
            }
            (RatesUpdate::Fancy { line_no, rate_no, line_yes, rate_yes }, MarketKind::Fancy) => {
                writer
                    .set_fancy_rates(self.setup.market_id, *line_no, *rate_no, *line_yes, *rate_yes)
                    .await?;
                let setup = &self.setup;
                json!({
                    "before": { "line_no": setup.line_no, "rate_no": setup.rate_no, "line_yes": setup.line_yes, "rate_yes": setup.rate_yes },
                    "after": { "line_no": line_no, "rate_no": rate_no, "line_yes": line_yes, "rate_yes": rate_yes },
                })
            }
            _ => {
                return Err(AppError::Conflict("Those rates do not fit this market's type.".into()))
            }
        };
        self.audit(&mut writer, by, "market.rates", detail).await?;
        self.commit(writer).await?;
        Ok(())
    }

    /// Posts bookmaker rates or a fancy's lines, stored first.
    pub(super) async fn set_rates(
        &mut self,
        rates: RatesUpdate,
        by: Option<&ActedBy>,
    ) -> Result<(), AppError> {
        let written = self.write_rates(&rates, by).await;
        written.map_err(|err| self.write_failed(err))?;
        match rates {
            RatesUpdate::Bookmaker(runners) => {
                for (runner_id, back, lay) in runners {
                    if let Some(runner) =
                        self.setup.runners.iter_mut().find(|r| r.runner_id == runner_id)
                    {
                        runner.back_rate = back;
                        runner.lay_rate = lay;
                    }
                }
            }
            RatesUpdate::Fancy { line_no, rate_no, line_yes, rate_yes } => {
                self.setup.line_no = Some(line_no);
                self.setup.rate_no = Some(rate_no);
                self.setup.line_yes = Some(line_yes);
                self.setup.rate_yes = Some(rate_yes);
            }
        }
        Ok(())
    }

    /// Sets the stake limits that placements are checked against, stored first.
    pub(super) async fn set_limits(
        &mut self,
        limits: StakeLimits,
        by: &ActedBy,
    ) -> Result<(), AppError> {
        let written = self.write_limits(&limits, by).await;
        written.map_err(|err| self.write_failed(err))?;
        self.setup.min_stake_minor = limits.min_stake_minor;
        self.setup.max_stake_minor = limits.max_stake_minor;
        Ok(())
    }

    /// Stores new stake limits with their audit entry, in one transaction.
    async fn write_limits(&self, limits: &StakeLimits, by: &ActedBy) -> Result<(), AppError> {
        let mut writer = self.store.begin_write().await?;
        if !writer
            .set_market_stake_limits(
                self.setup.market_id,
                limits.min_stake_minor,
                limits.max_stake_minor,
            )
            .await?
        {
            return Err(market_closed());
        }
        let money = |minor: i64| Money::from_minor(minor);
        let detail = json!({
            "before": { "min_stake": money(self.setup.min_stake_minor), "max_stake": money(self.setup.max_stake_minor) },
            "after": { "min_stake": money(limits.min_stake_minor), "max_stake": money(limits.max_stake_minor) },
        });
        self.audit(&mut writer, Some(by), "market.limits", detail).await?;
        self.commit(writer).await
    }

    /// Sets the in-play bet delay that placements wait, stored first.
    pub(super) async fn set_bet_delay(
        &mut self,
        bet_delay_ms: i64,
        by: Option<&ActedBy>,
    ) -> Result<(), AppError> {
        let written = async {
            let mut writer = self.store.begin_write().await?;
            if !writer.set_market_bet_delay(self.setup.market_id, bet_delay_ms).await? {
                return Err(market_closed());
            }
            let detail = json!({ "before": { "bet_delay_ms": self.setup.bet_delay_ms }, "after": { "bet_delay_ms": bet_delay_ms } });
            self.audit(&mut writer, by, "market.bet_delay", detail).await?;
            self.commit(writer).await
        }
        .await;
        written.map_err(|err| self.write_failed(err))?;
        self.setup.bet_delay_ms = bet_delay_ms;
        Ok(())
    }

    /// Withdraws a runner (see `backlay_store::non_runners`), written with its audit entry in
    /// one transaction, then the market rebuilt from what is stored, which is simpler to trust
    /// than changing every book, position and exposure in memory in step: every price matched
    /// before may have changed. Bets waiting out their delay were refused on the call's
    /// arrival (`Call::suspends_bets_in_delay`). `None` when it was withdrawn already.
    pub(super) async fn remove_runner(
        &mut self,
        runner_id: i64,
        reduction_factor_bp: u32,
        by: Option<&ActedBy>,
    ) -> Result<Option<RunnerRemoved>, AppError> {
        let written: Result<Option<RunnerRemoved>, AppError> = async {
            let mut writer = self.store.begin_write().await?;
            let Some(removed) = writer
                .remove_runner(self.setup.market_id, runner_id, reduction_factor_bp, now_ms())
                .await?
            else {
                return Ok(None);
            };
            let detail = json!({
                "selection_id": removed.runner_id,
                "name": removed.name,
                "reduction_factor": f64::from(removed.reduction_factor_bp) / 100.0,
                "prices_reduced": removed.reduced,
                "bets_void": removed.voided_bets,
                "unmatched_cancelled": removed.cancelled.len(),
                "fills_reduced": removed.reduced_fills,
                "exposures": removed.exposures.iter().map(|(user, before, after)| json!({
                    "user_id": user,
                    "before": Money::from_minor(*before),
                    "after": Money::from_minor(*after),
                })).collect::<Vec<_>>(),
            });
            self.audit(&mut writer, by, "market.runner_removed", detail).await?;
            self.commit(writer).await?;
            Ok(Some(removed))
        }
        .await;
        match written {
            Ok(Some(removed)) => {
                self.reload().await?;
                tracing::info!(
                    market_id = self.setup.market_id,
                    runner_id,
                    reduction_factor_bp,
                    fills_reduced = removed.reduced_fills,
                    "a runner is withdrawn: its bets are void"
                );
                Ok(Some(removed))
            }
            Ok(None) => Ok(None),
            Err(err) => Err(self.write_failed(err)),
        }
    }
}
