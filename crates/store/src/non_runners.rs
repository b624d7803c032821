//! A runner withdrawn from its market (a non-runner), written in one transaction, by the rules of
//! `backlay_core::exchange::non_runner`:
//!
//! 1. the runner is marked `removed`: the market's set-up leaves it out of its runners from now
//!    on ([`MarketSetup::spec`](crate::markets::MarketSetup::spec)), so no bet can be placed on
//!    it, no result can name it, and no exposure counts it winning;
//! 2. unmatched bets are cancelled: the runner's own, and every other one of the market when
//!    its reduction factor reduces (≥ 2.5 %), since they were priced against a field that
//!    changed;
//! 3. its bets are void (status `void`, P&L 0) and its fills no longer count: the reading of a
//!    market's fills ([`FILLS_WITH_USERS`]) leaves out the fills of removed runners;
//! 4. the removal is recorded in `runner_removals` with the last fill it reduces, and each fill
//!    matched before it on the other runners has its backer's profit reduced (the price stays
//!    the price matched): from the price, by every removal after it, oldest first, so a second
//!    non-runner reduces again what the first left;
//! 5. each user's exposure in the market is computed again from the rows, as the engine will
//!    when it rebuilds the market ([`crate::positions`]), and stored ([`Writer::resync_market_exposures`]).
//!
//! Example: on a win market, Ann backs Alpha for 10.00 at 4.00 against Bob's lay, and Cara
//! backs Charlie for 5.00. Charlie is withdrawn with a reduction factor of 25 %: Cara's bet is
//! void and her 5.00 free again; Ann's bet now pays 4.00 × 0.75 = 3.00, so she stands to win
//! 20.00 instead of 30.00, and Bob's liability falls from 30.00 to 20.00.

use std::collections::{BTreeMap, BTreeSet};

use backlay_core::exchange::{reduced_backer_profit_minor, reduces, MarketKind, WHOLE_BP};
use sqlx::Row;

use crate::bets::{
    bets_from_rows, fills_from_rows, BetRow, FillRow, BET_COLUMNS_PUBLIC, FILLS_WITH_USERS,
};
use crate::markets::{fetch_market, RunnerStatus};
use crate::notices::{NewNotice, NoticeKind};
use crate::sql::{placeholders, ROWS_PER_STATEMENT};
use crate::{StoreError, StoreResult, Writer};

/// What a runner's removal did, for the audit log and the caller.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunnerRemoved {
    pub runner_id: i64,
    pub name: String,
    /// Basis points of a whole (1250 = 12.5 %).
    pub reduction_factor_bp: u32,
    /// Whether it reduced the others' matched prices (and cancelled every unmatched bet).
    pub reduced: bool,
    /// Unmatched bets cancelled, as (bet id, user id, size cancelled).
    pub cancelled: Vec<(i64, i64, i64)>,
    /// The runner's bets made void.
    pub voided_bets: u64,
    /// Fills on the other runners whose profit was reduced.
    pub reduced_fills: u64,
    /// Users whose exposure in the market moved, as (user id, before, after).
    pub exposures: Vec<(i64, i64, i64)>,
}

impl Writer {
    /// Removes `runner_id` from `market_id` with its reduction factor (see the module docs):
    /// `None` when it was removed already. Refused when the market is settled, the runner is
    /// not its, or the market would be left with too few runners to stand (a two-runner market,
    /// a place market placing as many as would remain).
    pub async fn remove_runner(
        &mut self,
        market_id: i64,
        runner_id: i64,
        reduction_factor_bp: u32,
        now_ms: i64,
    ) -> StoreResult<Option<RunnerRemoved>> {
        if reduction_factor_bp > WHOLE_BP {
            return Err(StoreError::Conflict(format!(
                "a reduction factor is at most 100 %, not {}.{:02} %",
                reduction_factor_bp / 100,
                reduction_factor_bp % 100
            )));
        }
        let market = fetch_market(self.conn(), market_id).await?;
        if market.status.is_settled() {
            return Err(StoreError::Conflict(format!(
                "{} is settled: its runners cannot change",
                market.setup.name
            )));
        }
        let Some(runner) = market.setup.runners.iter().find(|r| r.runner_id == runner_id) else {
            return Err(StoreError::Conflict(format!(
                "{} has no runner {runner_id}",
                market.setup.name
            )));
        };
        if runner.status == RunnerStatus::Removed {
            return Ok(None);
        }
        let name = runner.name.clone();
        let mut after = market.setup.clone();
        for r in after.runners.iter_mut().filter(|r| r.runner_id == runner_id) {
            r.status = RunnerStatus::Removed;
        }
        let spec = after.spec().map_err(|e| {
            StoreError::Conflict(format!(
                "{name} cannot be withdrawn from {}: without it the market would not stand ({e})",
                market.setup.name
            ))
        })?;
        let kind = spec.kind();
        let reduced = reduces(reduction_factor_bp) && kind.has_order_book();

        let cancelled =
            self.cancel_unmatched(market_id, (!reduced).then_some(runner_id), now_ms).await?;
        sqlx::query("UPDATE runners SET status = 'removed' WHERE id = $1 AND market_id = $2")
            .bind(runner_id)
            .bind(market_id)
            .execute(self.conn())
            .await?;
        let voided = sqlx::query(
            "UPDATE bets SET status = 'void', pnl_minor = 0, closed_at_ms = $3 \
             WHERE market_id = $1 AND runner_id = $2 AND status IN ('open', 'matched', 'closed') \
             RETURNING id, user_id, matched_minor",
        )
        .bind(market_id)
        .bind(runner_id)
        .bind(now_ms)
        .fetch_all(self.conn())
        .await?;
        let voided_bets = voided.len() as u64;
        // The bettors are told: of their bets on the runner voided (those that matched
        // something), and of their unmatched bets cancelled (a voided bet's rest goes unsaid).
        let mut notices = Vec::new();
        for row in &voided {
            let matched_minor: i64 = row.try_get("matched_minor")?;
            if matched_minor > 0 {
                let (bet_id, user_id) = (row.try_get("id")?, row.try_get("user_id")?);
                notices.push(NewNotice::of_bet(
                    NoticeKind::Voided,
                    market_id,
                    bet_id,
                    user_id,
                    matched_minor,
                ));
            }
        }
        let told: BTreeSet<Option<i64>> = notices.iter().map(|n| n.bet_id).collect();
        for (bet_id, user_id, size) in &cancelled {
            if !told.contains(&Some(*bet_id)) {
                notices.push(NewNotice::of_bet(
                    NoticeKind::Cancelled,
                    market_id,
                    *bet_id,
                    *user_id,
                    *size,
                ));
            }
        }
        self.insert_notices(&notices, now_ms).await?;
        let last_fill_id: Option<i64> =
            sqlx::query_scalar("SELECT MAX(id) FROM fills WHERE market_id = $1")
                .bind(market_id)
                .fetch_one(self.conn())
                .await?;
        sqlx::query(
            "INSERT INTO runner_removals (market_id, runner_id, reduction_factor_bp, last_fill_id, removed_at_ms) \
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(market_id)
        .bind(runner_id)
        .bind(i64::from(reduction_factor_bp))
        .bind(last_fill_id)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        let reduced_fills = if reduced { self.reduce_fills(market_id, kind).await? } else { 0 };
        let exposures = self.resync_market_exposures(market_id, &spec).await?;
        // A reduction can raise a worst case (a back matched before it pays less; a lay matched
        // after it does not shrink): a client left short owes it, as after a correction.
        for (user, before, after) in &exposures {
            if after > before {
                sqlx::query(
                    "UPDATE ledger_accounts SET may_go_negative = 1 \
                     WHERE user_id = $1 AND balance_minor - exposure_minor < 0",
                )
                .bind(user)
                .execute(self.conn())
                .await?;
            }
        }
        Ok(Some(RunnerRemoved {
            runner_id,
            name,
            reduction_factor_bp,
            reduced,
            cancelled,
            voided_bets,
            reduced_fills,
            exposures,
        }))
    }

    /// Cancels the unmatched part of the market's live bets (of one runner's, when given);
    /// answers (bet id, user id, size cancelled).
    async fn cancel_unmatched(
        &mut self,
        market_id: i64,
        runner_id: Option<i64>,
        now_ms: i64,
    ) -> StoreResult<Vec<(i64, i64, i64)>> {
        let rows = sqlx::query(
            "SELECT id, user_id, remaining_minor FROM bets \
             WHERE market_id = $1 AND remaining_minor > 0 AND ($2 = 0 OR runner_id = $2) ORDER BY id",
        )
        .bind(market_id)
        .bind(runner_id.unwrap_or(0))
        .fetch_all(self.conn())
        .await?;
        let mut cancelled = Vec::with_capacity(rows.len());
        for row in &rows {
            let (bet_id, user_id, size): (i64, i64, i64) =
                (row.try_get("id")?, row.try_get("user_id")?, row.try_get("remaining_minor")?);
            self.record_unmatched_removal(bet_id, size, false, now_ms).await?;
            cancelled.push((bet_id, user_id, size));
        }
        Ok(cancelled)
    }

    /// Sets the backer's profit of every fill of the market on a runner still in it from its
    /// price and the removals matched after it (see the module docs); answers how many changed.
    async fn reduce_fills(&mut self, market_id: i64, kind: MarketKind) -> StoreResult<u64> {
        let removals = sqlx::query(
            "SELECT reduction_factor_bp, last_fill_id FROM runner_removals \
             WHERE market_id = $1 AND last_fill_id IS NOT NULL ORDER BY id",
        )
        .bind(market_id)
        .fetch_all(self.conn())
        .await?
        .iter()
        .map(|row| {
            let factor: i64 = row.try_get("reduction_factor_bp")?;
            Ok((u32::try_from(factor).unwrap_or(0), row.try_get::<i64, _>("last_fill_id")?))
        })
        .collect::<Result<Vec<(u32, i64)>, sqlx::Error>>()?;
        let fills = self.market_fills(market_id).await?;
        let mut changed: Vec<(i64, i64)> = Vec::new();
        for fill in &fills {
            let factors: Vec<u32> = removals
                .iter()
                .filter(|(_, last)| fill.fill_id <= *last)
                .map(|(factor, _)| *factor)
                .collect();
            let price = u32::try_from(fill.price).map_err(|_| {
                StoreError::Conflict(format!("fill {} has price {}", fill.fill_id, fill.price))
            })?;
            let profit = reduced_backer_profit_minor(kind, price, fill.size_minor, &factors);
            if profit != fill.backer_profit_minor {
                changed.push((fill.fill_id, profit));
            }
        }
        for chunk in changed.chunks(ROWS_PER_STATEMENT) {
            // A VALUES list names its columns column1, column2 on both engines.
            let sql = format!(
                "UPDATE fills SET backer_profit_minor = v.column2 FROM (VALUES {}) AS v \
                 WHERE fills.id = v.column1 AND fills.market_id = ${}",
                placeholders(self.engine, chunk.len(), 2),
                chunk.len() * 2 + 1
            );
            let mut query = sqlx::query(&sql);
            for (fill_id, profit) in chunk {
                query = query.bind(*fill_id).bind(*profit);
            }
            query.bind(market_id).execute(self.conn()).await?;
        }
        Ok(changed.len() as u64)
    }

    /// The market's fills that count (not a removed runner's) with the users on each side,
    /// oldest first, read in this transaction.
    pub(crate) async fn market_fills(&mut self, market_id: i64) -> StoreResult<Vec<FillRow>> {
        let rows = sqlx::query(&format!("{FILLS_WITH_USERS} WHERE f.market_id = $1 ORDER BY f.id"))
            .bind(market_id)
            .fetch_all(self.conn())
            .await?;
        fills_from_rows(&rows)
    }

    /// The market's bets, oldest first, read in this transaction.
    pub(crate) async fn market_bets(&mut self, market_id: i64) -> StoreResult<Vec<BetRow>> {
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS_PUBLIC} FROM bets WHERE market_id = $1 ORDER BY id"
        ))
        .bind(market_id)
        .fetch_all(self.conn())
        .await?;
        bets_from_rows(&rows)
    }

    /// Each user's exposure in the market computed again from its stored rows, as the engine
    /// computes it when it loads the market ([`crate::positions::worst_case_exposures`] with
    /// `spec`), and stored: the market's rows and the account totals, without the funds check
    /// (the bets were accepted when placed): the caller says who owes what that leaves them
    /// short of. Answers the users whose exposure moved, as (user id, before, after).
    pub async fn resync_market_exposures(
        &mut self,
        market_id: i64,
        spec: &backlay_core::exchange::MarketSpec,
    ) -> StoreResult<Vec<(i64, i64, i64)>> {
        let fills = self.market_fills(market_id).await?;
        let bets = self.market_bets(market_id).await?;
        let computed = crate::positions::worst_case_exposures(spec, &fills, &bets)
            .map_err(|e| StoreError::Conflict(e.to_string()))?;
        let stored: BTreeMap<i64, i64> = sqlx::query(
            "SELECT user_id, exposure_minor FROM market_exposures WHERE market_id = $1",
        )
        .bind(market_id)
        .fetch_all(self.conn())
        .await?
        .iter()
        .map(|row| Ok((row.try_get("user_id")?, row.try_get("exposure_minor")?)))
        .collect::<Result<_, sqlx::Error>>()?;
        let users: BTreeSet<i64> = stored.keys().chain(computed.keys()).copied().collect();
        let moved: Vec<(i64, i64, i64)> = users
            .into_iter()
            .map(|user| {
                let before = stored.get(&user).copied().unwrap_or(0);
                (user, before, computed.get(&user).copied().unwrap_or(0))
            })
            .filter(|(_, before, after)| before != after)
            .collect();
        let deltas: Vec<(i64, i64)> =
            moved.iter().map(|(user, before, after)| (*user, after - before)).collect();
        self.add_exposures(&deltas).await?;
        let rows: Vec<(i64, i64)> = moved.iter().map(|(user, _, after)| (*user, *after)).collect();
        self.store_market_exposures(market_id, &rows).await?;
        Ok(moved)
    }
}
