//! Placing bets in batches: every placement waiting for the market when its task is free is
//! placed in one transaction (group commit), with a fixed handful of statements per batch
//! rather than several per bet:
//!
//! 1. lock the funds of the batch's users and read them (`lock_funds`), reserve the bet ids
//!    (`reserve_bet_ids`, an order's id is its bet's id) and look up the `client_ref`s
//!    already used;
//! 2. per bet, in memory: the checks, the funds check against the locked funds (the worst case
//!    of the whole order unmatched must fit the available balance and the operator's limit),
//!    matching, and the fills, matched sizes and exposures it changed, noted in a [`Batch`];
//! 3. write what the batch noted: its bets, fills and makers' matched sizes, every touched
//!    user's exposure in this market and the change to their account total; commit; answer.
//!
//! On SQLite the transaction is the one the batches of every market share
//! (`Store::begin_placement`, `backlay_store`'s `group_commit`): lent to one batch at a time,
//! committed once for all of them, so that bets spread over many markets still share their
//! commits; there step 3's rows are kept until the group's end and written with every other
//! batch's, one statement per table. A batch sees the batches before it in the group as if
//! they had committed, and hears that it committed only when the group did. On PostgreSQL
//! each batch has its own.
//!
//! If the store fails (in this batch, or at its group's COMMIT), nothing of the batch is kept:
//! the market is rebuilt from what was committed (and serves nothing until it is, `recovery`), and the batch is tried once more (a
//! PostgreSQL deadlock, or a `client_ref` raced in by another market's batch, passes the second
//! time) unless its COMMIT was in fact made; a second failure answers every bet of the batch
//! 503, as does a failure whose outcome the database cannot tell yet.
//!
//! Worked example: while the task commits one batch, three bets on one runner arrive: Ann
//! backs 100.00 at 2.00, Bob lays 100.00 at 2.00, Ann backs 50.00 at 3.00. Ann holds 120.00,
//! Bob enough. They are taken together as the next batch, in the order they came:
//!
//! ```text
//! lock funds of Ann, Bob; reserve 3 bet ids
//! Ann BACK 100.00 @ 2.00   rests             Ann's exposure 100.00 ≤ 120.00   ok
//! Bob LAY  100.00 @ 2.00   matches Ann's     fill 100.00 @ 2.00                ok
//! Ann BACK  50.00 @ 3.00   rests             Ann's exposure 150.00 > 120.00   refused, nothing noted
//! write 2 bets, 1 fill, 2 exposures, 2 account totals; commit; answer all three
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap};

use backlay_core::exchange::{
    Bet, BetSide, MarketKind, NewOrder, OrderId, RunnerId, Selection, Side, UserId,
};
use backlay_core::money::Money;
use backlay_core::safer::{self, Room};
use backlay_store::bets::{AccountFunds, BetRow, BetStatus, FillRow};
use backlay_store::notices::{NewNotice, NoticeKind};
use backlay_store::{BatchReads, Writer};

use super::{
    bet_of_order, capitalised, market_error, order_of_bet, suspended_during_delay, BetAnswer,
    MarketActor, PlaceBet, Placement, PlacementStatus, RateChanges, Reply,
};
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;
use backlay_kit::metrics;
use backlay_kit::refusal::Refusal;

/// Bet ids a market task reserves at a time (PostgreSQL: one statement per this many bets).
const BET_IDS_RESERVED_AHEAD: usize = 256;

/// A batch's answers, how many bets it placed, and the users it touched.
type BatchOutcome = (Vec<Result<BetAnswer, AppError>>, u64, BTreeSet<i64>);

impl MarketActor {
    /// Places a batch of bets in one transaction and answers each after the commit. Returns
    /// the users whose bets, positions or exposure the batch changed.
    pub(super) async fn place_batch(&mut self, batch: Vec<(Placement, Reply)>) -> BTreeSet<i64> {
        let (requests, replies): (Vec<Placement>, Vec<Reply>) = batch.into_iter().unzip();
        let outcome = match self.write_batch(&requests).await {
            Ok(outcome) => Ok(outcome),
            Err(failure) => self.after_failed_batch(&requests, failure, false).await,
        };
        match outcome {
            Ok((answers, placed, touched)) => {
                self.stats.record_commit(placed);
                let market_type = self.setup.market_type.as_str();
                for (reply, answer) in replies.into_iter().zip(answers) {
                    match &answer {
                        Ok(_) => metrics::bet_placed(market_type),
                        Err(AppError::Refused(refusal)) => {
                            metrics::bet_refused(refusal.reason(), market_type)
                        }
                        Err(_) => metrics::bet_refused("error", market_type),
                    }
                    let _ = reply.send(answer);
                }
                touched
            }
            Err(refusal) => {
                for reply in replies {
                    let _ = reply.send(Err(refusal()));
                }
                BTreeSet::new()
            }
        }
    }

    /// Places a cash out's legs in one batch, all or none (`cash_out.rs`): their answers and
    /// the users the batch touched, or the refusal of the leg that could not be placed.
    pub(super) async fn place_all_or_none(
        &mut self,
        legs: Vec<Placement>,
    ) -> Result<(Vec<BetAnswer>, BTreeSet<i64>), AppError> {
        let outcome = match self.write_batch_as(&legs, true).await {
            Ok(outcome) => Ok(outcome),
            Err(failure) => self.after_failed_batch(&legs, failure, true).await,
        };
        let (answers, placed, touched) = outcome.map_err(|refusal| refusal())?;
        self.stats.record_commit(placed);
        let answers = answers.into_iter().collect::<Result<Vec<_>, _>>()?;
        for _ in &answers {
            metrics::bet_placed(self.setup.market_type.as_str());
        }
        Ok((answers, touched))
    }

    /// After a batch's write failed, memory holds its matching, which is not (or not known to
    /// be) stored: the market is rebuilt from the database at once if it can be (else before
    /// anything else is served, `recovery`). Rebuilt, the batch's fate is known: committed
    /// after all (its COMMIT's answer was lost), its answers stand; not committed (a deadlock,
    /// a `client_ref` raced in by another market's batch), it is tried once more. Otherwise
    /// every bet of the batch hears the refusal returned: nothing is acknowledged that is not
    /// committed.
    async fn after_failed_batch(
        &mut self,
        requests: &[Placement],
        failure: BatchFailure,
        all_or_none: bool,
    ) -> Result<BatchOutcome, fn() -> AppError> {
        let cause = failure.error.cause_for_log();
        let _ = self.write_failed(failure.error);
        if self.lost {
            // Another server owns the market now: nothing was written, and the bets go there.
            return Err(super::moved);
        }
        tracing::warn!(
            market_id = self.setup.market_id,
            bets = requests.len(),
            "placing a batch of bets failed, rebuilding the market to try once more: {cause}"
        );
        let unknown = |unconfirmed: &Option<Unconfirmed>| match unconfirmed {
            Some(unconfirmed) if unconfirmed.first_bet_id.is_some() => {
                unconfirmed_bet as fn() -> AppError
            }
            _ => not_placed,
        };
        if self.reload().await.is_err() {
            return Err(unknown(&failure.unconfirmed));
        }
        if let Some(unconfirmed) = failure.unconfirmed {
            match unconfirmed.was_committed(&self.store).await {
                Ok(true) => return Ok(unconfirmed.outcome),
                Ok(false) => {}
                Err(_) => return Err(unconfirmed_bet),
            }
        }
        match self.write_batch_as(requests, all_or_none).await {
            Ok(outcome) => Ok(outcome),
            Err(second) => {
                let cause = second.error.cause_for_log();
                let _ = self.write_failed(second.error);
                if self.lost {
                    return Err(super::moved);
                }
                tracing::error!(
                    market_id = self.setup.market_id,
                    bets = requests.len(),
                    "placing a batch of bets failed a second time: {cause}"
                );
                Err(unknown(&second.unconfirmed))
            }
        }
    }

    /// One attempt at a batch: its answers, how many bets were placed and whom they touched.
    async fn write_batch(
        &mut self,
        placements: &[Placement],
    ) -> Result<BatchOutcome, BatchFailure> {
        self.write_batch_as(placements, false).await
    }

    /// [`Self::write_batch`], or, `all_or_none`, nothing at all when any bet is refused: the
    /// batch is abandoned and the market rebuilt from what is stored (the refused bet's
    /// batch-mates may have matched in memory already). The answers are then the refusal
    /// alone.
    async fn write_batch_as(
        &mut self,
        placements: &[Placement],
        all_or_none: bool,
    ) -> Result<BatchOutcome, BatchFailure> {
        let failed = |error| BatchFailure { error, unconfirmed: None };
        // What step 1 reads, told to the store too so that a group of batches (SQLite) can
        // read it for all of them at once.
        let reads = BatchReads {
            users: placements.iter().map(|p| p.bet.user_id).collect(),
            client_refs: placements
                .iter()
                .filter_map(|p| Some((p.bet.user_id, p.bet.client_ref.clone()?)))
                .collect(),
        };
        let mut writer = self.store.begin_placement(&reads).await.map_err(|e| failed(e.into()))?;
        let (batch, mut answers, placed) =
            match self.prepare_batch(&mut writer, placements, &reads).await {
                Ok(prepared) => prepared,
                Err(error) => {
                    // Only this batch's part of its group's transaction is undone.
                    writer.abandon().await;
                    return Err(failed(error));
                }
            };
        if let Some(at) = answers.iter().position(Result::is_err).filter(|_| all_or_none) {
            let refused = answers.swap_remove(at);
            writer.abandon().await;
            self.reload().await.map_err(failed)?;
            return Ok((vec![refused], 0, BTreeSet::new()));
        }
        let first_bet_id = batch.bets.first().map(|bet| bet.bet_id);
        let outcome = (answers, placed, batch.touched);
        let committing = std::time::Instant::now();
        match self.commit(writer).await {
            Ok(()) => {
                metrics::batch_committed(committing.elapsed(), placed);
                self.stored_exposure.extend(batch.counted);
                for (runner, price, size_minor) in batch.traded {
                    self.traded.record(runner, price, size_minor);
                }
                Ok(outcome)
            }
            Err(error) => Err(BatchFailure {
                error,
                unconfirmed: Some(Unconfirmed { outcome, first_bet_id }),
            }),
        }
    }

    /// Steps 1–3 of the module docs but the commit, in `writer`'s transaction: what it holds
    /// and the answers. `reads` are the placements' users and `client_ref`s.
    async fn prepare_batch(
        &mut self,
        writer: &mut Writer,
        placements: &[Placement],
        reads: &BatchReads,
    ) -> Result<(Batch, Vec<Result<BetAnswer, AppError>>, u64), AppError> {
        let requests: Vec<&PlaceBet> = placements.iter().map(|p| &p.bet).collect();
        let makers = if writer.locks_rows() { self.makers_met(&requests) } else { Vec::new() };
        let funds = writer
            .lock_funds(&reads.users, &makers)
            .await?
            .into_iter()
            .map(|f| (f.user_id, Funds::new(f)))
            .collect();
        let ids = self.take_bet_ids(writer, requests.len()).await?;
        let keys: Vec<(i64, &str)> =
            reads.client_refs.iter().map(|(user, key)| (*user, key.as_str())).collect();
        let used_refs =
            if keys.is_empty() { Vec::new() } else { writer.bets_by_client_refs(&keys).await? };
        let mut batch = Batch {
            funds,
            used_refs: used_refs
                .into_iter()
                .filter_map(|bet| Some(((bet.user_id, bet.client_ref.clone()?), bet)))
                .collect(),
            ..Batch::default()
        };
        let mut answers = Vec::with_capacity(requests.len());
        let mut placed = 0;
        for (placement, bet_id) in placements.iter().zip(ids) {
            match self.place_one(writer, &mut batch, placement, bet_id).await {
                Ok(answer) => {
                    placed += 1;
                    answers.push(Ok(answer));
                }
                Err(PlaceError::Refused(err)) => answers.push(Err(err)),
                Err(PlaceError::Broken(err)) => return Err(err),
            }
        }
        self.write_noted(writer, &mut batch).await?;
        Ok((batch, answers, placed))
    }

    /// Every user whose resting order the batch's orders may meet, from the book as it stands:
    /// per runner and side, the batch's orders taken together (the most generous price, the
    /// sizes summed), so the makers its later orders reach behind its earlier ones are in too.
    /// Orders the batch itself rests are its own users'. Locked with the batch's users, all at
    /// once ([`backlay_store::Writer::lock_funds`]), where the database locks rows
    /// (PostgreSQL).
    fn makers_met(&self, requests: &[&PlaceBet]) -> Vec<i64> {
        let mut reach: BTreeMap<(RunnerId, Side), (backlay_core::odds::Price, i64)> =
            BTreeMap::new();
        for request in requests {
            let side = request.side.side();
            let Ok(PlannedBet::Order { runner, order }) =
                self.plan(request, side, request.stake.minor())
            else {
                continue; // refused, or house-banked: nobody's order is met
            };
            let entry = reach.entry((runner, side)).or_insert((order.price, 0));
            // A BACK at p meets LAYs at p or more: the lowest BACK reaches furthest; a LAY the
            // reverse.
            let further = match side {
                Side::Back => order.price < entry.0,
                Side::Lay => order.price > entry.0,
            };
            if further {
                entry.0 = order.price;
            }
            entry.1 = entry.1.saturating_add(order.size_minor);
        }
        let mut makers: Vec<i64> = reach
            .into_iter()
            .filter_map(|((runner, side), (price, size))| {
                Some(self.market.book(runner)?.makers_met(side, price, size))
            })
            .flatten()
            .map(|user| user.0)
            .collect();
        makers.sort_unstable();
        makers.dedup();
        makers
    }

    /// Ids for `count` new bets, from the ids this task reserved ahead; reserves more, in the
    /// batch's transaction, when they run out. A failed batch rebuilds the task, which forgets
    /// the spare ids along with the rolled-back reservation.
    async fn take_bet_ids(
        &mut self,
        writer: &mut Writer,
        count: usize,
    ) -> Result<Vec<i64>, AppError> {
        if self.spare_bet_ids.len() < count {
            self.spare_bet_ids
                .extend(writer.reserve_bet_ids(count.max(BET_IDS_RESERVED_AHEAD)).await?);
        }
        Ok(self.spare_bet_ids.drain(..count).collect())
    }

    /// Places one bet of the batch in memory. `Refused` leaves the batch and the market as they
    /// were; `Broken` means the store failed and the batch must be abandoned.
    async fn place_one(
        &mut self,
        writer: &mut Writer,
        batch: &mut Batch,
        placement: &Placement,
        bet_id: i64,
    ) -> Result<BetAnswer, PlaceError> {
        use PlaceError::{Broken, Refused};
        let request = &placement.bet;
        let kind = self.kind();
        self.check_open().map_err(Refused)?;
        // No past-posting: a bet that waited out the delay is placed only if no suspension or
        // result arrived while it waited, even if the market reopened since.
        if placement.waited && placement.suspensions_at_arrival != self.suspensions.count() {
            return Err(Refused(suspended_during_delay()));
        }
        // A `client_ref` already used: the same request gets the first answer, a different one 409.
        if let Some(client_ref) = &request.client_ref {
            let key = (request.user_id, client_ref.clone());
            if let Some((request_hash, answer)) = batch.placed_refs.get(&key) {
                return repeat_of(request, request_hash, client_ref).map(|()| BetAnswer {
                    message: REPEAT_MESSAGE.into(),
                    repeated: true,
                    ..answer.clone()
                });
            }
            if let Some(stored) = batch.used_refs.get(&key) {
                repeat_of(request, stored.request_hash.as_deref().unwrap_or(""), client_ref)?;
                return self.answer_for_stored(writer, stored).await.map_err(Broken);
            }
        }
        let stake_minor = request.stake.minor();
        // The feed's house mirrors an upstream's levels however small: the stake limits are
        // the bettors' (`PlaceBet::house_liquidity`). A cash out's leg is whatever closes the
        // position (its maximum is checked when the cash out is worked out, `cash_out.rs`).
        let unlimited = request.house_liquidity || request.cash_out.is_some();
        if stake_minor < self.setup.min_stake_minor && !unlimited {
            return Err(Refused(AppError::Refused(Refusal::StakeBelowMinimum {
                min_minor: self.setup.min_stake_minor,
            })));
        }
        if stake_minor > self.setup.max_stake_minor && !unlimited {
            return Err(Refused(AppError::Refused(Refusal::StakeAboveMaximum {
                max_minor: self.setup.max_stake_minor,
            })));
        }
        if !request.side.fits(kind) {
            return Err(Refused(AppError::field(
                "side",
                format!(
                    "On this market side is {} or {}.",
                    BetSide::on(kind, Side::Back),
                    BetSide::on(kind, Side::Lay)
                ),
            )));
        }
        let side = request.side.side();
        let planned = self.plan(request, side, stake_minor).map_err(Refused)?;

        // The funds check: the user's exposure here goes to the worst case of the whole order
        // unmatched (matching can only lower it; the batch stores the figure the book ends with).
        // A cash out's leg counts the exposure the whole cash out ends with.
        let user = request.user_id;
        let reserve_minor = match (&planned, request.cash_out) {
            (_, Some(leg)) => Ok(leg.exposure_after_minor),
            (PlannedBet::Order { runner, order }, None) => {
                self.market.exposure_with_order_minor(*runner, order)
            }
            (PlannedBet::House(bet, _), None) => {
                self.market.exposure_with_bet_minor(UserId(user), bet)
            }
        }
        .map_err(|e| Refused(market_error(e)))?;
        let counted = batch.counted(user, &self.stored_exposure);
        // The feed's house stops quoting a market at its cap there (an order that lowers its
        // exposure still goes).
        if let Some(cap_minor) = request.house_max_exposure_minor {
            if reserve_minor > cap_minor && reserve_minor > counted {
                return Err(Refused(AppError::Refused(Refusal::ExposureLimit {
                    limit_minor: cap_minor,
                    this_bet: true,
                })));
            }
        }
        // An account without funds refuses this bet, not the session (a 403 would log the
        // client app out): 422.
        let funds = batch
            .funds
            .get_mut(&user)
            .ok_or_else(|| Refused(AppError::Unprocessable("This account cannot bet.".into())))?;
        if !unlimited {
            funds.allows_stake(stake_minor).map_err(Refused)?;
        }
        funds.reserve(reserve_minor - counted).map_err(Refused)?;
        batch.counted.insert(user, reserve_minor);
        batch.touched.insert(user);

        let (house_rate, runner_id, price) = match &planned {
            PlannedBet::Order { runner, order } => {
                (None, Some(runner.0), i64::from(order.price.hundredths()))
            }
            PlannedBet::House(bet, rate) => (
                Some(*rate),
                match bet.selection() {
                    Selection::Runner(r) => Some(r.0),
                    Selection::FancyLine(_) => None,
                },
                *rate,
            ),
        };
        // Unmatched as placed: `write_noted` gives it what the batch matched before storing it.
        batch.bets.push(BetRow {
            bet_id,
            user_id: user,
            market_id: self.setup.market_id,
            runner_id,
            side: request.side,
            price,
            // The line struck (the one posted, which may have moved from the one quoted when
            // the bettor accepts rate changes): what memory settles is what is stored.
            line: match &planned {
                PlannedBet::House(bet, _) if kind == MarketKind::Fancy => match bet.selection() {
                    Selection::FancyLine(line) => Some(i64::from(line)),
                    Selection::Runner(_) => None,
                },
                _ => None,
            },
            stake_minor,
            matched_minor: 0,
            remaining_minor: stake_minor,
            cancelled_minor: 0,
            lapsed_minor: 0,
            persistence: request.persistence,
            status: BetStatus::live(0, stake_minor),
            pnl_minor: None,
            client_ref: request.client_ref.clone(),
            request_hash: Some(request.request_hash.clone()),
            created_at_ms: now_ms(),
            refs: request.refs.clone(),
        });
        let (matched_minor, price_size_sum) =
            self.apply_placement(planned, user, bet_id, batch).map_err(Broken)?;
        if request.cash_out.is_some() && matched_minor < stake_minor {
            // Worked out to match whole: the book is not as the cash out saw it. The batch is
            // placed all or none (`place_all_or_none`), so this undoes every leg.
            return Err(Refused(AppError::Refused(Refusal::CashOutPricesMoved)));
        }
        let status = PlacementStatus::of(matched_minor, stake_minor);
        let message = match status {
            PlacementStatus::Matched => "Bet matched.".to_string(),
            PlacementStatus::PartiallyMatched => format!(
                "Bet partly matched: {} matched, the rest waits in the book.",
                Money::from_minor(matched_minor)
            ),
            PlacementStatus::Unmatched => "Bet placed, waiting to be matched.".to_string(),
        };
        let answer = BetAnswer {
            bet_id,
            status,
            size_matched: Money::from_minor(matched_minor),
            avg_price_matched: average_price(matched_minor, price_size_sum, house_rate),
            message,
            repeated: false,
        };
        if let Some(client_ref) = &request.client_ref {
            batch
                .placed_refs
                .insert((user, client_ref.clone()), (request.request_hash.clone(), answer.clone()));
        }
        Ok(answer)
    }

    /// What the bet is on this market: an exchange order at a ladder price, or a house bet at
    /// the rate (and line) posted now.
    fn plan(
        &self,
        request: &PlaceBet,
        side: Side,
        stake_minor: i64,
    ) -> Result<PlannedBet, AppError> {
        match self.kind() {
            MarketKind::OneWinner | MarketKind::Place { .. } => {
                let runner = RunnerId(self.runner_row(request.selection_id)?.runner_id);
                let price = request
                    .price
                    .ladder_price()
                    .map_err(|e| AppError::field("price", capitalised(&e.to_string())))?;
                let order =
                    NewOrder::new(OrderId(0), UserId(request.user_id), side, price, stake_minor)
                        .with_persistence(request.persistence);
                Ok(PlannedBet::Order { runner, order })
            }
            MarketKind::Bookmaker => {
                let runner = self.runner_row(request.selection_id)?;
                let rate = request.price.whole().ok_or_else(|| {
                    AppError::field("price", "The rate is a whole number such as 45.")
                })?;
                let posted = if side == Side::Back { runner.back_rate } else { runner.lay_rate };
                let rate = match posted {
                    None => {
                        return Err(AppError::Conflict(format!(
                            "{} is not offered on {} now.",
                            request.side, runner.name
                        )))
                    }
                    Some(posted) if posted == rate => rate,
                    // A back's higher rate wins more; a lay's lower one risks less.
                    Some(posted)
                        if accepts(
                            request.accept_rate_changes,
                            if side == Side::Back { posted > rate } else { posted < rate },
                        ) =>
                    {
                        posted
                    }
                    Some(posted) => {
                        return Err(AppError::Conflict(format!(
                            "Odds changed: the {} rate on {} is now {posted}.",
                            request.side, runner.name
                        )))
                    }
                };
                let bet = Bet::bookmaker(
                    RunnerId(runner.runner_id),
                    side,
                    u32::try_from(rate).unwrap_or(0),
                    stake_minor,
                )
                .map_err(|e| AppError::field("price", capitalised(&e.to_string())))?;
                Ok(PlannedBet::House(bet, rate))
            }
            MarketKind::Fancy => {
                let rate = request.price.whole().ok_or_else(|| {
                    AppError::field("price", "The rate is a whole number such as 100.")
                })?;
                let line = request
                    .line
                    .ok_or_else(|| AppError::field("line", "A fancy bet needs the line."))?;
                let (posted_line, posted_rate) = if side == Side::Back {
                    (self.setup.line_yes, self.setup.rate_yes)
                } else {
                    (self.setup.line_no, self.setup.rate_no)
                };
                let (Some(posted_line), Some(posted_rate)) = (posted_line, posted_rate) else {
                    return Err(AppError::Conflict("This fancy has no line posted now.".into()));
                };
                // Yes wins at or above its line: a lower line, or a higher rate (paid on a win),
                // is better. No wins below its line and pays its rate on a loss: a higher line,
                // or a lower rate, is better.
                let better = if side == Side::Back {
                    posted_line <= line && posted_rate >= rate
                } else {
                    posted_line >= line && posted_rate <= rate
                };
                let moved = posted_line != line || posted_rate != rate;
                if moved && !accepts(request.accept_rate_changes, better) {
                    return Err(AppError::Conflict(format!(
                        "Odds changed: {} is now {posted_line} at {posted_rate}.",
                        request.side.as_str().to_uppercase()
                    )));
                }
                let (line, rate) = (posted_line, posted_rate);
                let bet = Bet::fancy(
                    u32::try_from(line).unwrap_or(0),
                    side,
                    u32::try_from(rate).unwrap_or(0),
                    stake_minor,
                )
                .map_err(|e| AppError::field("price", capitalised(&e.to_string())))?;
                Ok(PlannedBet::House(bet, rate))
            }
        }
    }

    /// Matches (or books) the bet in memory and notes what that changed in the batch.
    /// Returns the matched size and Σ price × size of the fills.
    fn apply_placement(
        &mut self,
        planned: PlannedBet,
        user: i64,
        bet_id: i64,
        batch: &mut Batch,
    ) -> Result<(i64, i128), AppError> {
        match planned {
            PlannedBet::Order { runner, mut order } => {
                order.order_id = order_of_bet(bet_id);
                let outcome = self.market.place_order(runner, &order).map_err(market_error)?;
                let mut price_size_sum: i128 = 0;
                for fill in &outcome.fills {
                    batch.fills.push(FillRow {
                        fill_id: 0,
                        market_id: self.setup.market_id,
                        runner_id: runner.0,
                        back_bet_id: bet_of_order(fill.back_order()),
                        back_user_id: fill.back_user().0,
                        lay_bet_id: bet_of_order(fill.lay_order()),
                        lay_user_id: fill.lay_user().0,
                        price: i64::from(fill.price.hundredths()),
                        size_minor: fill.size_minor,
                        backer_profit_minor: fill.backer_profit_minor,
                    });
                    batch.traded.push((runner.0, fill.price, fill.size_minor));
                    batch.record_match(
                        bet_of_order(fill.maker),
                        fill.size_minor,
                        fill.maker_remaining_minor,
                    );
                    batch.makers.insert(bet_of_order(fill.maker), fill.maker_user.0);
                    batch.touched.insert(fill.maker_user.0);
                    price_size_sum +=
                        i128::from(fill.price.hundredths()) * i128::from(fill.size_minor);
                }
                let matched = outcome.matched_minor();
                if matched > 0 {
                    batch.record_match(bet_id, matched, outcome.resting_minor);
                }
                Ok((matched, price_size_sum))
            }
            PlannedBet::House(bet, rate) => {
                self.market.place_house_bet(UserId(user), &bet).map_err(market_error)?;
                batch.record_match(bet_id, bet.stake_minor(), 0);
                Ok((bet.stake_minor(), i128::from(rate) * i128::from(bet.stake_minor())))
            }
        }
    }

    /// Writes what the batch noted: its bets (with what they matched), the fills, the makers'
    /// matched sizes, and each touched user's exposure here and in their account's total.
    ///
    /// The book written is the book matched: memory was rebuilt from the database after any
    /// failed write (`recovery`), so it held what is stored when the batch began, and the batch
    /// writes exactly what matching changed. Matching never leaves a book crossed; that is
    /// asserted here, where it would otherwise be stored.
    async fn write_noted(&self, writer: &mut Writer, batch: &mut Batch) -> Result<(), AppError> {
        if self.market.is_crossed() {
            return Err(AppError::Internal(anyhow::anyhow!(
                "market {}: matching left a book crossed; the batch is not written",
                self.setup.market_id
            )));
        }
        for bet in &mut batch.bets {
            if let Some((matched_minor, remaining_minor)) = batch.matches.remove(&bet.bet_id) {
                bet.matched_minor = matched_minor;
                bet.remaining_minor = remaining_minor;
                bet.status = BetStatus::live(matched_minor, remaining_minor);
            }
        }
        writer.insert_bets(&batch.bets).await?;
        writer.insert_fills(&batch.fills, now_ms()).await?;
        let makers: Vec<(i64, i64, i64)> = batch
            .matches
            .iter()
            .map(|(bet, (matched, remaining))| (*bet, *matched, *remaining))
            .collect();
        writer.record_matches(&makers).await?;
        // Each resting bet placed before this batch and matched in it: its bettor is told.
        let notices: Vec<NewNotice> = makers
            .iter()
            .filter_map(|(bet_id, matched_minor, remaining_minor)| {
                let kind = if *remaining_minor == 0 {
                    NoticeKind::Matched
                } else {
                    NoticeKind::PartiallyMatched
                };
                let user_id = *batch.makers.get(bet_id)?;
                Some(NewNotice::of_bet(
                    kind,
                    self.setup.market_id,
                    *bet_id,
                    user_id,
                    *matched_minor,
                ))
            })
            .collect();
        writer.insert_notices(&notices, now_ms()).await?;

        let mut account_deltas: BTreeMap<i64, i64> =
            batch.funds.values().map(|f| (f.user_id, f.reserved_minor)).collect();
        let mut exposures = Vec::with_capacity(batch.touched.len());
        for user in &batch.touched {
            let counted = batch.counted(*user, &self.stored_exposure);
            let now = self.market.exposure_minor(UserId(*user));
            let delta = now - counted;
            match batch.funds.get_mut(user) {
                Some(funds) => {
                    funds.reserve(delta).map_err(|e| {
                        AppError::Internal(anyhow::anyhow!(
                            "matching raised exposure of user {user}: {e}"
                        ))
                    })?;
                    *account_deltas.entry(*user).or_default() += delta;
                }
                // A maker whose funds this batch did not lock: matching only lowers exposure,
                // and were it ever to raise it the conditional update still checks the funds.
                None if delta > 0 => writer.change_exposure(*user, delta).await?,
                None => *account_deltas.entry(*user).or_default() += delta,
            }
            exposures.push((*user, now));
            batch.counted.insert(*user, now);
        }
        let account_deltas: Vec<(i64, i64)> =
            account_deltas.into_iter().filter(|(_, delta)| *delta != 0).collect();
        writer.add_exposures(&account_deltas).await?;
        writer.store_market_exposures(self.setup.market_id, &exposures).await?;
        Ok(())
    }

    /// The answer for a bet already stored (a repeated `client_ref`).
    async fn answer_for_stored(
        &self,
        writer: &mut Writer,
        bet: &BetRow,
    ) -> Result<BetAnswer, AppError> {
        let status = PlacementStatus::of(bet.matched_minor, bet.stake_minor);
        let house_rate = self.kind().is_house_banked().then_some(bet.price);
        let price_size_sum = if house_rate.is_some() {
            i128::from(bet.price) * i128::from(bet.matched_minor)
        } else {
            writer.matched_price_size_sum(bet.bet_id).await?
        };
        Ok(BetAnswer {
            bet_id: bet.bet_id,
            status,
            size_matched: Money::from_minor(bet.matched_minor),
            avg_price_matched: average_price(bet.matched_minor, price_size_sum, house_rate),
            message: REPEAT_MESSAGE.into(),
            repeated: true,
        })
    }
}

/// What a repeated request hears.
const REPEAT_MESSAGE: &str = "This bet was already placed with the same client_ref.";

/// A batch's write that failed: why, and, when it was its COMMIT that failed, what it would
/// have answered had it been made.
struct BatchFailure {
    error: AppError,
    unconfirmed: Option<Unconfirmed>,
}

/// A batch whose COMMIT failed: made or not, only the database can tell.
struct Unconfirmed {
    outcome: BatchOutcome,
    /// The first bet it placed (a batch's bets are stored together or not at all); `None` when
    /// it placed none and its answers stand either way.
    first_bet_id: Option<i64>,
}

impl Unconfirmed {
    /// Whether the batch was committed, asked once the fate of its transaction is settled.
    async fn was_committed(&self, store: &backlay_store::Store) -> Result<bool, AppError> {
        match self.first_bet_id {
            Some(bet_id) => Ok(store.is_bet_stored(bet_id).await?),
            None => Ok(true),
        }
    }
}

/// What each bet of a batch hears when its write failed before the commit, or failed twice.
/// Whether a bettor who accepts `changes` takes a moved rate that is `better` for them or not.
fn accepts(changes: RateChanges, better: bool) -> bool {
    match changes {
        RateChanges::Exact => false,
        RateChanges::Better => better,
        RateChanges::Any => true,
    }
}

fn not_placed() -> AppError {
    AppError::unavailable(
        "Your bet was not placed: the exchange could not write it to its database. Try again in \
         a moment.",
    )
}

/// What each bet of a batch hears when its COMMIT failed and the database cannot tell yet
/// whether it was made.
fn unconfirmed_bet() -> AppError {
    AppError::unavailable(
        "The exchange could not confirm your bet with its database. Check your open bets before \
         you place it again (sent again with the same client_ref, a bet is never placed twice).",
    )
}

/// `Ok` when `request` repeats the request stored with `request_hash`; a 409 otherwise.
fn repeat_of(request: &PlaceBet, request_hash: &str, client_ref: &str) -> Result<(), PlaceError> {
    if request_hash == request.request_hash {
        Ok(())
    } else {
        Err(PlaceError::Refused(AppError::Conflict(format!(
            "client_ref {client_ref} was already used for a different bet."
        ))))
    }
}

/// One user's funds as locked by the batch, and how much exposure the batch has added so far.
struct Funds {
    user_id: i64,
    /// Balance minus exposure (over every market) when the batch started, less what the batch
    /// reserved since.
    available_minor: i64,
    exposure_minor: i64,
    max_exposure_minor: Option<i64>,
    is_bet_locked: bool,
    max_stake_minor: Option<i64>,
    /// The bettor's own stake limit or the operator's tree-wide one, the lower.
    own_stake_limit_minor: Option<i64>,
    /// With a loss limit: the most the account's exposure may reach (`safer::loss_cap`), and
    /// the limit that binds, for a refusal's facts (what is left is the cap less the exposure).
    loss_cap: Option<(i64, Room)>,
    reserved_minor: i64,
}

impl Funds {
    fn new(account: AccountFunds) -> Funds {
        Funds {
            user_id: account.user_id,
            available_minor: account.balance_minor - account.exposure_minor,
            exposure_minor: account.exposure_minor,
            max_exposure_minor: account.max_exposure_minor,
            is_bet_locked: account.is_bet_locked,
            max_stake_minor: account.max_stake_minor,
            own_stake_limit_minor: account.own_stake_limit_minor,
            loss_cap: safer::loss_cap(
                &account.loss_limits,
                account.play_net_minor,
                account.exposure_minor,
            ),
            reserved_minor: 0,
        }
    }

    /// The parent's terms on the account (bet-lock, stake cap).
    fn allows_stake(&self, stake_minor: i64) -> Result<(), AppError> {
        backlay_kit::actor::check_stake_allowed(
            self.is_bet_locked,
            self.max_stake_minor,
            stake_minor,
        )?;
        backlay_kit::actor::check_own_stake_limit(self.own_stake_limit_minor, stake_minor)
    }

    /// Adds `delta_minor` to the user's exposure if the available balance covers an increase
    /// and the total stays within their limit; a refusal changes nothing.
    fn reserve(&mut self, delta_minor: i64) -> Result<(), AppError> {
        if delta_minor > 0 {
            if self.available_minor < delta_minor {
                return Err(AppError::Refused(Refusal::InsufficientFunds {
                    needed_minor: Some(delta_minor),
                    available_minor: self.available_minor,
                }));
            }
            if let Some(limit_minor) = self.max_exposure_minor {
                if self.exposure_minor + delta_minor > limit_minor {
                    return Err(AppError::Refused(Refusal::ExposureLimit {
                        limit_minor,
                        this_bet: true,
                    }));
                }
            }
            // The bettor's own loss limit: the worst case of every open bet, with what was
            // lost in the period, stays within it.
            backlay_kit::actor::check_loss_limit(self.loss_cap, self.exposure_minor, delta_minor)?;
        }
        self.available_minor -= delta_minor;
        self.exposure_minor += delta_minor;
        self.reserved_minor += delta_minor;
        Ok(())
    }
}

/// What a batch has done in memory and will write before it commits.
#[derive(Default)]
struct Batch {
    /// The funds of the batch's users, locked.
    funds: HashMap<i64, Funds>,
    /// Bets stored before this batch under a `client_ref` one of its requests uses.
    used_refs: HashMap<(i64, String), BetRow>,
    /// This batch's answers by `client_ref`, with the request's fingerprint.
    placed_refs: HashMap<(i64, String), (String, BetAnswer)>,
    /// Each user's exposure in this market as counted in their account's total now, where the
    /// batch changed it.
    counted: HashMap<i64, i64>,
    /// The bets it placed, as they will be stored.
    bets: Vec<BetRow>,
    fills: Vec<FillRow>,
    /// Each fill's runner, price and size, counted as traded once the batch commits.
    traded: Vec<(i64, backlay_core::odds::Price, i64)>,
    /// Per bet: the size matched in this batch, and what is left unmatched now.
    matches: BTreeMap<i64, (i64, i64)>,
    /// Users whose exposure in this market may have changed.
    touched: BTreeSet<i64>,
    /// The bettor of each resting bet a fill of this batch matched.
    makers: HashMap<i64, i64>,
}

impl Batch {
    fn counted(&self, user: i64, stored: &HashMap<i64, i64>) -> i64 {
        self.counted.get(&user).or_else(|| stored.get(&user)).copied().unwrap_or(0)
    }

    fn record_match(&mut self, bet_id: i64, matched_minor: i64, remaining_minor: i64) {
        let entry = self.matches.entry(bet_id).or_insert((0, remaining_minor));
        entry.0 += matched_minor;
        entry.1 = remaining_minor;
    }
}

/// Why one placement of a batch failed.
enum PlaceError {
    /// The bet is refused for its own reasons; the batch carries on.
    Refused(AppError),
    /// The store failed: the batch is abandoned and the market rebuilt.
    Broken(AppError),
}

/// The bet as planned before it is stored: an exchange order, or a house bet at its rate.
enum PlannedBet {
    Order { runner: RunnerId, order: NewOrder },
    House(Bet, i64),
}

impl PlacementStatus {
    pub fn of(matched_minor: i64, stake_minor: i64) -> PlacementStatus {
        if matched_minor == stake_minor {
            PlacementStatus::Matched
        } else if matched_minor > 0 {
            PlacementStatus::PartiallyMatched
        } else {
            PlacementStatus::Unmatched
        }
    }
}

/// A bet's average matched price as the API shows it: none until something matched; the
/// rate itself on a house-banked market (taken whole at one rate); else Σ price × size / Σ size
/// over its fills, in decimal odds rounded to hundredths (2.00 × 60 and 2.10 × 40 give 2.04).
pub fn average_price(
    matched_minor: i64,
    price_size_sum: i128,
    house_rate: Option<i64>,
) -> Option<f64> {
    if matched_minor == 0 {
        return None;
    }
    match house_rate {
        Some(rate) => Some(rate as f64),
        // Σ price × size / Σ size, in hundredths, shown to 2 decimals.
        None => Some((price_size_sum as f64 / matched_minor as f64).round() / 100.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_average_price_weighs_each_fill_by_its_size() {
        assert_eq!(average_price(0, 0, None), None);
        assert_eq!(average_price(0, 0, Some(45)), None);
        // 2.00 × 60.00 and 2.10 × 40.00: (12,000 + 8,400) / 100 hundredths = 2.04.
        assert_eq!(average_price(100_00, 200 * 60_00 + 210 * 40_00, None), Some(2.04));
        // 3.80 × 10.00 alone.
        assert_eq!(average_price(10_00, 380 * 10_00, None), Some(3.8));
        assert_eq!(average_price(10_00, 0, Some(242)), Some(242.0));
    }

    #[test]
    fn a_placement_status_says_how_much_matched() {
        assert_eq!(PlacementStatus::of(10_00, 10_00), PlacementStatus::Matched);
        assert_eq!(PlacementStatus::of(4_00, 10_00), PlacementStatus::PartiallyMatched);
        assert_eq!(PlacementStatus::of(0, 10_00), PlacementStatus::Unmatched);
        assert_eq!(PlacementStatus::NAMES, ["matched", "partially_matched", "unmatched"]);
        assert!("partly_matched".parse::<PlacementStatus>().is_err());
    }
}
