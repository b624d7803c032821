//! Rebuilding a market at start (and after a failed write) from what was committed: its
//! stored bets, fills as matched bets, unmatched orders back into their books oldest first.
//!
//! A stored book is never crossed (`placement.rs` asserts it where a batch is written). One
//! that is all the same (written by an older version after a failed write) still loads: each
//! order that would match a resting one is held apart, counted in its user's exposure, and the
//! market loads suspended with an ERROR in the log, until an operator cancels the held orders
//! (`admin/market/resolveCrossed`, `MarketActor::resolve_crossed`). A market that no server
//! can load would take no bets and could not be settled.

use std::collections::VecDeque;
use std::time::Duration;

use backlay_core::exchange::{Bet, BookError, Market, MarketError, MarketKind, UserId};
use backlay_store::bets::{BetRow, FillRow};
use backlay_store::Store;
use std::sync::Arc;
use tokio::sync::broadcast;

use super::{bet_of_order, market_error, MarketActor, Suspensions};
use crate::{EngineStats, MarketChange};
use backlay_kit::error::AppError;

/// Every matched bet of a market with its bet id and user, from what was committed: both sides
/// of each fill of an exchange market (a bet matched in several fills appears once per fill),
/// the matched part of each live bet of a house-banked one. The market is rebuilt from these,
/// the settlement checks each bet's P&L against them, and the console's market analysis sums
/// them over a downline. The reading itself is the store's, shared with the ledger check.
pub(crate) fn matched_bets(
    kind: MarketKind,
    fills: &[FillRow],
    bets: &[BetRow],
) -> Result<Vec<(i64, UserId, Bet)>, AppError> {
    backlay_store::positions::matched_bets(kind, fills, bets)
        .map_err(|e| AppError::Internal(e.into()))
}

/// [`matched_bets`] of a stored market, reading only what its kind is matched from: the fills
/// of an exchange market, the bets of a house-banked one.
pub async fn stored_matched_bets(
    store: &Store,
    kind: MarketKind,
    market_id: i64,
) -> Result<Vec<(i64, UserId, Bet)>, AppError> {
    if kind.is_house_banked() {
        matched_bets(kind, &[], &store.bets_of_market(market_id).await?)
    } else {
        matched_bets(kind, &store.fills_of_market(market_id).await?, &[])
    }
}

impl MarketActor {
    pub(crate) async fn load(
        store: Store,
        market_id: i64,
        stats: Arc<EngineStats>,
        changes: broadcast::Sender<MarketChange>,
        suspensions: Arc<Suspensions>,
        give_up_after: Option<Duration>,
    ) -> Result<MarketActor, AppError> {
        let row = store.market(market_id).await?;
        let setup = row.setup;
        let kind = setup.kind();
        let spec = setup.spec().map_err(market_error)?;
        let mut market = Market::new(spec);
        // Nothing lapses here: lapses were stored when they happened.
        market.restore_status(row.status);
        let internal = |e: MarketError| {
            AppError::Internal(anyhow::anyhow!("rebuilding market {market_id}: {e}"))
        };
        let fills = store.fills_of_market(market_id).await?;
        let bets = store.bets_of_market(market_id).await?;
        for (_, user, bet) in matched_bets(kind, &fills, &bets)? {
            market.restore_matched(user, &bet).map_err(internal)?;
        }
        // House-banked bets are taken whole or refused: none waits in a book.
        let orders = if kind.is_house_banked() { &[][..] } else { &bets[..] };
        for bet in orders {
            let resting = bet.resting_order().map_err(|e| AppError::Internal(e.into()))?;
            let Some((runner, order)) = resting else { continue };
            match market.restore_order(runner, &order) {
                Err(MarketError::Book(BookError::WouldCross(_))) => {
                    market.hold_crossing_order(runner, &order).map_err(internal)?
                }
                restored => restored.map_err(internal)?,
            }
        }
        if !market.crossing_orders().is_empty() {
            let held: Vec<i64> =
                market.crossing_orders().iter().map(|o| bet_of_order(o.order_id)).collect();
            tracing::error!(
                market_id,
                bets = ?held,
                "the stored book of this market is crossed: the younger order of each crossing \
                 pair is held out of the book and the market is suspended until an operator \
                 cancels them (admin/market/resolveCrossed, or `backlay admin market \
                 resolve-crossed`)"
            );
        }
        let traded = super::ladder::Traded::of_fills(&fills)?;
        let stored_exposure = store.exposures_of_market(market_id).await?.into_iter().collect();
        let the_match = store.match_by_id(setup.match_id).await?;
        Ok(MarketActor {
            store,
            match_name: the_match.name,
            in_play: the_match.in_play,
            setup,
            market,
            stored_exposure,
            traded,
            suspensions,
            spare_bet_ids: VecDeque::new(),
            stats,
            changes,
            lost: false,
            unverified: false,
            failed_commit: std::sync::atomic::AtomicI64::new(0),
            give_up_after,
        })
    }

    /// Rebuilds the market from what is stored, once the fate of a COMMIT that failed is
    /// settled (`recovery`). On an error the market stays unverified.
    pub(super) async fn reload(&mut self) -> Result<(), AppError> {
        self.settle_failed_commit().await?;
        let fresh = MarketActor::load(
            self.store.clone(),
            self.setup.market_id,
            self.stats.clone(),
            self.changes.clone(),
            self.suspensions.clone(),
            self.give_up_after,
        )
        .await?;
        *self = fresh;
        // A reload may have lost track of a suspension: count one, so bets in their delay are
        // refused rather than placed on a market we are unsure of.
        self.suspensions.count_one();
        Ok(())
    }
}
