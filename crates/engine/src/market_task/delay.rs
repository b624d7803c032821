//! The in-play bet delay, kept inside the market's task: bets waiting it out, earliest due
//! first, each placed only if no suspension or result arrived while it waited.

use std::collections::VecDeque;

use tokio::time::Instant;

use super::{Placement, Reply, MAX_BETS_PER_COMMIT};
use backlay_kit::error::AppError;

/// Bets waiting out the in-play bet delay inside a market's task, earliest due first.
#[derive(Default)]
pub(super) struct DelayedBets {
    waiting: VecDeque<(Instant, Placement, Reply)>,
}

impl DelayedBets {
    pub(super) fn len(&self) -> usize {
        self.waiting.len()
    }

    pub(super) fn push(&mut self, due: Instant, placement: Placement, reply: Reply) {
        // The delay can differ between bets (the operator may change it), so keep the order.
        let at = self.waiting.partition_point(|(other, _, _)| *other <= due);
        self.waiting.insert(at, (due, placement, reply));
    }

    pub(super) fn next_due(&self) -> Option<Instant> {
        self.waiting.front().map(|(due, _, _)| *due)
    }

    /// The bets due by `now`, at most a commit's worth, marked as having waited.
    pub(super) fn take_due(&mut self, now: Instant) -> Vec<(Placement, Reply)> {
        let due = self.waiting.partition_point(|(at, _, _)| *at <= now).min(MAX_BETS_PER_COMMIT);
        self.waiting
            .drain(..due)
            .map(|(_, mut placement, reply)| {
                placement.waited = true;
                (placement, reply)
            })
            .collect()
    }

    /// Answers, at once, every waiting bet that arrived before the latest suspension or result.
    pub(super) fn refuse_overtaken(
        &mut self,
        suspensions: u64,
        market_type: &'static str,
        refusal: impl Fn() -> AppError,
    ) {
        if self
            .waiting
            .iter()
            .all(|(_, placement, _)| placement.suspensions_at_arrival == suspensions)
        {
            return;
        }
        let (overtaken, still): (VecDeque<_>, VecDeque<_>) = self
            .waiting
            .drain(..)
            .partition(|(_, placement, _)| placement.suspensions_at_arrival != suspensions);
        self.waiting = still;
        for (_, _, reply) in overtaken {
            let refused = refusal();
            if let AppError::Refused(refusal) = &refused {
                backlay_kit::metrics::bet_refused(refusal.reason(), market_type);
            }
            let _ = reply.send(Err(refused));
        }
    }

    /// Answers every waiting bet with `refusal` (the market closed, or its task is ending).
    pub(super) fn refuse_all(&mut self, refusal: impl Fn() -> AppError) {
        for (_, _, reply) in self.waiting.drain(..) {
            let _ = reply.send(Err(refusal()));
        }
    }
}
