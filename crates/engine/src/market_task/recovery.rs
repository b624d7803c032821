//! After a failed write, a market serves nothing from memory until memory is rebuilt from what
//! the database holds.
//!
//! Every change of a market is made in memory first (matching, a cancel, a lapse) and then
//! written in one transaction; if the write fails, memory holds what the database does not. The
//! task used to reload at once and, when that reload failed too (the same cut connection had
//! killed the pool's other connections), log it and go on serving from the memory it could not
//! check: the next batches matched against orders that were never stored and missed ones that
//! were, and committed a crossed book and exposures that did not match the bets. Now:
//!
//! 1. A failed write ([`MarketActor::write_failed`]) marks the market unverified; its caller
//!    hears a refusal as it was, or a 503 for the failure itself. Nothing that was not
//!    committed is acknowledged.
//! 2. Before the task takes its next command ([`MarketActor::recover`]) it learns the fate of a
//!    COMMIT whose answer was lost (on PostgreSQL it may still be applied after the client saw
//!    the error: the task waits until the transaction is no longer in progress), then rebuilds
//!    the market from the database ([`MarketActor::reload`]).
//! 3. Until both succeed, every command for the market, and every bet in its bet delay, is
//!    answered 503 with Retry-After ([`unavailable`]), and the task tries again with back-off
//!    (50 ms doubling to 2 s): a WARN at the first failure (often a pooled connection the same
//!    cut killed, and the next attempt works), an ERROR once it has lasted 2 s.
//! 4. On a cluster, a task that cannot reload within the node's lease gives the market up
//!    ([`Recovery::GaveUp`]): its commands hear "moving", the ownership loop releases the
//!    market, and whichever node takes it next loads it from the database as a restart does.
//!
//! A placement batch whose write failed learns its fate at once when it can (step 2 inline,
//! then "is its first bet stored?"), so that a deadlock or a COMMIT that was in fact made is
//! answered as before; see `placement.rs`.

use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::delay::DelayedBets;
use super::{MarketActor, UNCONFIRMED_CHANGE};
use crate::Command;
use backlay_kit::error::AppError;

/// The first pause between attempts to reload, doubled after each failure up to
/// [`RELOAD_PAUSE_MAX`].
const RELOAD_PAUSE_FIRST: Duration = Duration::from_millis(50);
const RELOAD_PAUSE_MAX: Duration = Duration::from_secs(2);
/// How long a task waits for a transaction whose COMMIT failed to finish before it tries again
/// later: PostgreSQL ends a transaction left idle sooner than that (`IDLE_IN_TRANSACTION_MS`).
const FATE_WAIT: Duration = Duration::from_secs(6);
/// While a market stays unverified, a WARN every this many failed attempts; an ERROR once it
/// has taken no commands for [`REPORT_AFTER`].
const WARN_EVERY_ATTEMPTS: u32 = 20;
const REPORT_AFTER: Duration = Duration::from_secs(2);

/// What the caller of a market hears while the market is being checked against the database.
pub(crate) fn unavailable() -> AppError {
    AppError::unavailable(
        "This market is being checked against the exchange's database after a failed write and \
         takes no bets or changes for a moment. Nothing was done; try again shortly.",
    )
}

/// How a recovery ended.
#[allow(clippy::large_enum_variant)] // returned once per recovery and taken apart at once
pub(super) enum Recovery {
    /// Memory is what the database holds again; the command held back meanwhile, if the first
    /// attempt succeeded (else it was answered 503).
    Verified(Option<Command>),
    /// On a cluster: no reload within the lease. The market is given up.
    GaveUp,
    /// The engine let the market go meanwhile.
    Closed,
}

impl MarketActor {
    /// Notes a failed write (see the module docs) and answers what its caller hears: a refusal
    /// as it was (the write found the market closed …), "moving" when another node took the
    /// market over, and for the failure itself a 503 that says the change may or may not have
    /// been made (its COMMIT's fate is learned only later).
    pub(super) fn write_failed(&mut self, err: AppError) -> AppError {
        if matches!(err, AppError::Moved(_)) {
            self.lost = true;
            return err;
        }
        self.unverified = true;
        match err {
            AppError::Internal(_) | AppError::Unavailable { .. } => {
                tracing::warn!(
                    market_id = self.setup.market_id,
                    "a write failed: {}",
                    err.cause_for_log()
                );
                AppError::unavailable(UNCONFIRMED_CHANGE)
            }
            refusal => refusal,
        }
    }

    /// Commits `writer`; if the COMMIT fails, notes the transaction whose fate the next reload
    /// must wait for. The caller passes the error to [`MarketActor::write_failed`].
    pub(super) async fn commit(&self, writer: backlay_store::Writer) -> Result<(), AppError> {
        let xact_id = writer.xact_id();
        writer.commit().await.map_err(|err| {
            self.failed_commit.store(xact_id.unwrap_or(0), Ordering::Release);
            AppError::from(err)
        })
    }

    /// Waits (bounded) until a transaction whose COMMIT failed is no longer in progress, so
    /// that a reload sees whatever it did. `Err` when that cannot be learned now.
    pub(super) async fn settle_failed_commit(&self) -> Result<(), AppError> {
        let xact_id = self.failed_commit.load(Ordering::Acquire);
        if xact_id == 0 {
            return Ok(());
        }
        let deadline = Instant::now() + FATE_WAIT;
        while self.store.is_transaction_in_progress(xact_id).await? {
            if Instant::now() >= deadline {
                return Err(AppError::Internal(anyhow::anyhow!(
                    "transaction {xact_id} whose COMMIT failed is still in progress"
                )));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.failed_commit.store(0, Ordering::Release);
        Ok(())
    }

    /// Rebuilds the market from the database (see the module docs), answering everything that
    /// arrives meanwhile with [`unavailable`]. `held` is a command already taken off the queue.
    pub(super) async fn recover(
        &mut self,
        commands: &mut mpsc::Receiver<Command>,
        delayed: &mut DelayedBets,
        mut held: Option<Command>,
    ) -> Recovery {
        let market_id = self.setup.market_id;
        let started = Instant::now();
        let mut pause = RELOAD_PAUSE_FIRST;
        let mut attempts: u32 = 0;
        let mut reported = false;
        loop {
            attempts += 1;
            match self.reload().await {
                Ok(()) => {
                    if attempts > 1 {
                        tracing::info!(
                            market_id,
                            attempts,
                            after_ms = started.elapsed().as_millis() as u64,
                            "the market is rebuilt from the database: taking commands again"
                        );
                    }
                    return Recovery::Verified(held);
                }
                Err(err) => {
                    if attempts == 1 {
                        // Often a pooled connection the same cut killed: the next attempt, on
                        // another, usually works.
                        tracing::warn!(
                            market_id,
                            "after a failed write the market cannot be rebuilt from the database \
                             yet; it takes no commands until it is: {}",
                            err.cause_for_log()
                        );
                        delayed.refuse_all(unavailable);
                        if let Some(command) = held.take() {
                            command.refuse(unavailable);
                        }
                    } else if !reported && started.elapsed() >= REPORT_AFTER {
                        reported = true;
                        tracing::error!(
                            market_id,
                            attempts,
                            "the market has taken no commands for {:?}: it cannot be rebuilt from \
                             the database: {}",
                            REPORT_AFTER,
                            err.cause_for_log()
                        );
                    } else if attempts % WARN_EVERY_ATTEMPTS == 0 {
                        tracing::warn!(
                            market_id,
                            attempts,
                            "still cannot rebuild the market: {}",
                            err.cause_for_log()
                        );
                    }
                }
            }
            if self.give_up_after.is_some_and(|limit| started.elapsed() >= limit) {
                tracing::error!(
                    market_id,
                    attempts,
                    "no reload of the market within the cluster lease: giving it up"
                );
                return Recovery::GaveUp;
            }
            let until = Instant::now() + pause;
            loop {
                tokio::select! {
                    () = tokio::time::sleep_until(until) => break,
                    received = commands.recv() => match received {
                        Some(command) => command.refuse(unavailable),
                        None => return Recovery::Closed,
                    },
                }
            }
            pause = (pause * 2).min(RELOAD_PAUSE_MAX);
        }
    }
}
