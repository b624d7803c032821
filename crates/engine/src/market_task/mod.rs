//! One market's task: its in-memory [`Market`] (books, positions) and the stored copy kept in
//! step with it. See the module docs of `engine` for the order of a placement.
//!
//! The task takes its commands one at a time ([`MarketActor::run`]), so the market has one
//! writer and matching needs no locks. Its jobs, each in a file of its own:
//!
//! - `types`: what goes in and out (a placement and its answer, prices, results, the view);
//! - `placement`: placing bets in batches, one transaction each (group commit);
//! - `delay`: the in-play bet delay, kept inside the task;
//! - `cash_out`: working out and placing the bets that close a bettor's position;
//! - `calls`: every command but a placement, in one place: its wire form, its answer, how the
//!   task runs it and the engine's method that sends it;
//! - `commands`: the operator's commands (status, in play, rates and lines) and cancels;
//! - `ladder`: a runner's full ladder, and what traded on each runner;
//! - `settle`: settling or voiding once, checked against the stored bets;
//! - `rebuild`: loading the market from what was committed, at start and after a failed
//!   write;
//! - `recovery`: after a failed write, serving nothing from memory until it is rebuilt.
//!
//! ```text
//! commands ──▶ run: Place ─(in play: delay queue)─▶ placement batch ─▶ commit ─▶ answers
//!                   SetStatus / SetRates / Cancel ─▶ commands ─▶ write ─▶ publish the change
//!                   Settle / Void ─▶ settle ─▶ ledger ─▶ answer_as_closed from then on
//! ```

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use backlay_core::exchange::{
    Market, MarketError, MarketKind, MarketStatus, OrderId, RunnerId, UserId,
};
use backlay_core::money::Money;
use backlay_store::markets::{MarketSetup, RunnerStatus};
use backlay_store::{Store, Writer};
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

pub(crate) mod calls;
mod cash_out;
mod commands;
mod delay;
mod ladder;
mod placement;
mod rebuild;
pub use rebuild::stored_matched_bets;
mod recovery;
mod settle;
mod types;

pub use cash_out::{
    CashOutBet, CashOutLeg, CashOutOrder, CashOutPlan, CashOutQuote, CashOutRunner, CashedOut,
    PlannedLeg, MAX_TOLERANCE_TICKS,
};
pub use ladder::{no_ladder, LadderLevel, RunnerLadder};
pub use placement::average_price;
pub(crate) use types::Placement;
pub use types::{
    ActedBy, BetAnswer, CancelAnswer, CrossingCancelled, MarketView, PlaceBet, PlacementStatus,
    RateChanges, RatesUpdate, ResultInput, RunnerView, SettlementPreview, StakeLimits,
};

use super::{Command, EngineStats, MarketChange};
use backlay_kit::actor::OperatorContext;
use backlay_kit::error::AppError;
use backlay_kit::refusal::Refusal;
use calls::{Answer, Call};
use delay::DelayedBets;

/// Best prices a market's view holds per side: the web app shows 3 (`market_book`), the bot
/// API up to 10 (Betfair's deepest ladder, `betfair`).
pub const VIEW_DEPTH: usize = 10;

pub(crate) struct MarketActor {
    store: Store,
    /// What the operator set up and posts. The status is the exchange market's own.
    setup: MarketSetup,
    match_name: String,
    in_play: bool,
    market: Market,
    /// Each user's exposure here as stored in `market_exposures`.
    stored_exposure: HashMap<i64, i64>,
    /// What traded on each runner, as committed (`ladder`).
    traded: ladder::Traded,
    /// Suspensions (and results) sent to this market, counted as they arrive.
    suspensions: Arc<Suspensions>,
    /// Bet ids reserved in the database and not given out yet, oldest first.
    spare_bet_ids: VecDeque<i64>,
    stats: Arc<EngineStats>,
    changes: broadcast::Sender<MarketChange>,
    /// A write found that this server no longer owns the market (another node of the cluster
    /// took it over): the task ends, and whatever it still holds hears "moving".
    lost: bool,
    /// A write failed: memory may differ from the database, and nothing is served from it
    /// until it is rebuilt (`recovery`).
    unverified: bool,
    /// The PostgreSQL transaction whose COMMIT failed, whose fate the rebuild waits for; 0 for
    /// none (PostgreSQL's transaction ids start at 3). Atomic only so that `&self` may set it.
    failed_commit: AtomicI64,
    /// On a cluster: how long the task may stay unverified before it gives the market up (the
    /// node's lease). `None` on a server on its own, which keeps trying.
    give_up_after: Option<Duration>,
}

/// How many suspensions and results were sent to a market since its task started, counted
/// by the sender when the command arrives (before it waits in the task's queue), and once
/// more whenever the task reloads from the database. A bet that waited out its bet delay is
/// placed only if the count is still the one it arrived with.
#[derive(Debug, Default)]
pub struct Suspensions(AtomicU64);

impl Suspensions {
    pub fn count(&self) -> u64 {
        self.0.load(Ordering::Acquire)
    }

    pub fn count_one(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }
}

/// Most placements committed in one transaction.
const MAX_BETS_PER_COMMIT: usize = 256;

/// Most bets one market holds in their bet delay; beyond it a bet is refused as "busy".
const MAX_DELAYED_BETS: usize = 4096;

/// What the caller of a change hears when its write failed and it may or may not have been
/// made.
pub(crate) const UNCONFIRMED_CHANGE: &str = "The exchange could not confirm this change with \
    its database: it may not have been made. Check, then try again in a moment.";

/// 409 "This market is closed.": what every command sent to a settled or void market hears.
pub fn market_closed() -> AppError {
    AppError::Refused(Refusal::MarketClosed)
}

/// Where each placement's answer goes.
pub(crate) type Reply = tokio::sync::oneshot::Sender<Result<BetAnswer, AppError>>;

fn suspended_during_delay() -> AppError {
    AppError::Refused(Refusal::SuspendedDuringDelay)
}

/// Why a market's task ends while commands may still wait in its queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// The market was resulted or voided.
    Settled,
    /// Another server took the market over, or this one gave it up.
    Moved,
}

/// What a command hears from a task that is ending because the market moved to another server
/// (or this one stops): nothing was done, and the engine sends it to the next owner.
fn moved() -> AppError {
    AppError::Moved(backlay_kit::error::MOVED.into())
}

/// The 409 a bet hears on a market that is not open.
fn not_open(status: MarketStatus) -> AppError {
    match status {
        MarketStatus::Open => {
            AppError::Internal(anyhow::anyhow!("an open market was taken for a closed one"))
        }
        MarketStatus::Closed | MarketStatus::Void => market_closed(),
        MarketStatus::BallRunning | MarketStatus::Suspended => {
            AppError::Refused(Refusal::MarketNotOpen { status })
        }
    }
}

/// 400 for a status an operator cannot set: unknown, or one only a result sets.
pub fn not_a_status_to_set(text: &str) -> AppError {
    AppError::field(
        "status",
        format!("{text} is not a status to set: use open, suspended or ball_running (results close a market)."),
    )
}

fn market_error(err: MarketError) -> AppError {
    match err {
        MarketError::NotOpen { status } => not_open(status),
        MarketError::AlreadySettled { .. } => market_closed(),
        crossed @ MarketError::Crossed { .. } => {
            AppError::Conflict(capitalised(&crossed.to_string()))
        }
        other => AppError::invalid(capitalised(&other.to_string())),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => {
            first.to_uppercase().collect::<String>()
                + chars.as_str()
                + if text.ends_with('.') { "" } else { "." }
        }
        None => String::new(),
    }
}

impl MarketActor {
    pub(crate) async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        let mut delayed = DelayedBets::default();
        let mut next: Option<Command> = None;
        // The market as loaded, to whoever listens: nobody at start-up, but a market whose
        // result was just corrected (`operator::unsettle_market`) is live again for its
        // bettors, and one taken over from another node is shown as this node has it.
        self.publish(self.market.users().map(|u| u.0).collect());
        loop {
            if self.lost {
                tracing::info!(
                    market_id = self.setup.market_id,
                    "another server took this market over: its task here ends"
                );
                delayed.refuse_all(moved);
                self.answer_to_the_end(commands, End::Moved).await;
                return;
            }
            if self.unverified {
                match self.recover(&mut commands, &mut delayed, next.take()).await {
                    recovery::Recovery::Verified(held) => next = held,
                    recovery::Recovery::GaveUp => {
                        delayed.refuse_all(moved);
                        self.answer_to_the_end(commands, End::Moved).await;
                        return;
                    }
                    recovery::Recovery::Closed => {
                        delayed.refuse_all(moved);
                        return;
                    }
                }
                // The rebuild counted a suspension: bets in their delay are refused now.
                delayed.refuse_overtaken(
                    self.suspensions.count(),
                    self.setup.market_type.as_str(),
                    suspended_during_delay,
                );
            }
            let command = match next.take() {
                Some(command) => command,
                None => {
                    let next_due = delayed.next_due();
                    tokio::select! {
                        // Due bets first, so a busy queue cannot hold them past their delay;
                        // a suspension still queued is already in the count they are checked
                        // against.
                        biased;
                        () = tokio::time::sleep_until(next_due.unwrap_or_else(Instant::now)), if next_due.is_some() => {
                            let due = delayed.take_due(Instant::now());
                            let touched = self.place_batch(due).await;
                            self.publish(touched);
                            continue;
                        }
                        received = commands.recv() => match received {
                            Some(command) => command,
                            // The engine let the market go (it moves to another server, or
                            // this one stops): the bets still in their delay go with it.
                            None => {
                                delayed.refuse_all(moved);
                                return;
                            }
                        },
                    }
                }
            };
            match command {
                Command::Place(placement, reply) => {
                    // Group commit: every placement already waiting joins this transaction.
                    let mut batch = Vec::new();
                    self.admit(placement, reply, &mut batch, &mut delayed);
                    while batch.len() < MAX_BETS_PER_COMMIT {
                        match commands.try_recv() {
                            Ok(Command::Place(placement, reply)) => {
                                self.admit(placement, reply, &mut batch, &mut delayed)
                            }
                            Ok(other) => {
                                next = Some(other);
                                break;
                            }
                            Err(_) => break,
                        }
                    }
                    if !batch.is_empty() {
                        let touched = self.place_batch(batch).await;
                        self.publish(touched);
                    }
                }
                Command::Call(call, reply) => {
                    let answer = self.run_call(call).await;
                    let settled = matches!(answer, Ok(Answer::Settled { .. }));
                    let _ = reply.send(answer);
                    if settled {
                        delayed.refuse_all(market_closed);
                        self.answer_to_the_end(commands, End::Settled).await;
                        return;
                    }
                }
            }
            // A suspension (or a reload) overtook the bets in their delay: tell them now.
            delayed.refuse_overtaken(
                self.suspensions.count(),
                self.setup.market_type.as_str(),
                suspended_during_delay,
            );
        }
    }

    /// Takes a placement off the queue: on an in-play market with a bet delay it waits in the
    /// delay queue, if the market is open now; otherwise it joins the batch placed at once
    /// (which checks the status itself).
    fn admit(
        &self,
        placement: Placement,
        reply: Reply,
        batch: &mut Vec<(Placement, Reply)>,
        delayed: &mut DelayedBets,
    ) {
        // The feed's house is not delayed: it mirrors an upstream whose prices already move
        // with the game, and a delayed quote is a stale one for a bettor to pick off. The
        // bettors who take its prices wait out the delay as every bet does.
        let delayed_here = self.in_play && !placement.bet.house_liquidity;
        let delay_ms =
            if delayed_here { u64::try_from(self.setup.bet_delay_ms).unwrap_or(0) } else { 0 };
        if delay_ms == 0 {
            batch.push((placement, reply));
            return;
        }
        if let Err(refusal) = self.check_open() {
            let _ = reply.send(Err(refusal));
            return;
        }
        if delayed.len() >= MAX_DELAYED_BETS {
            let _ = reply
                .send(Err(AppError::Conflict("The market is busy. Try again in a moment.".into())));
            return;
        }
        delayed.push(Instant::now() + std::time::Duration::from_millis(delay_ms), placement, reply);
    }

    /// `Ok` while the market takes bets; the 409 a bet gets otherwise.
    fn check_open(&self) -> Result<(), AppError> {
        match self.market.status() {
            MarketStatus::Open => Ok(()),
            status => Err(not_open(status)),
        }
    }

    /// After the market's end here, every command still queued is refused: after the
    /// settlement with [`market_closed`] (a view still shows the market, and a settled market
    /// has nothing left to lapse); after the market moved to another server with [`moved`],
    /// which the engine takes as "send it to the new owner" (a view too). New commands are
    /// refused at the queue.
    async fn answer_to_the_end(&self, mut commands: mpsc::Receiver<Command>, end: End) {
        let (settled, refusal): (bool, fn() -> AppError) = match end {
            End::Settled => (true, market_closed),
            End::Moved => (false, moved),
        };
        commands.close();
        while let Some(command) = commands.recv().await {
            match command {
                Command::Call(Call::SetInPlay { .. }, reply) if settled => {
                    drop(reply.send(Ok(Answer::Done)))
                }
                Command::Call(Call::View { user_id }, reply) if settled => {
                    drop(reply.send(Ok(Answer::View { view: self.view(user_id) })))
                }
                other => other.refuse(refusal),
            }
        }
    }

    /// Tells the live stream this market changed, and for whom, with the public book as it
    /// is now (so the stream never waits in this task's queue). Nobody listening is fine.
    fn publish(&self, users: BTreeSet<i64>) {
        if self.changes.receiver_count() == 0 {
            return;
        }
        let users: Arc<[i64]> = users.into_iter().collect();
        let view = Arc::new(self.view(None));
        let _ = self.changes.send(MarketChange {
            match_id: self.setup.match_id,
            market_id: self.setup.market_id,
            users,
            view,
        });
    }

    /// Records an operator's change of this market in the change's own transaction, so the
    /// two land together or not at all; nothing when no operator acted.
    async fn audit(
        &self,
        writer: &mut Writer,
        by: Option<&ActedBy>,
        action: &str,
        detail: serde_json::Value,
    ) -> Result<(), AppError> {
        let Some(by) = by else { return Ok(()) };
        let ctx = OperatorContext {
            store: &self.store,
            actor: by.actor.clone(),
            client_ip: by.client_ip.clone(),
        };
        ctx.audit(writer, action, format!("market:{}", self.setup.market_id), detail).await
    }

    fn kind(&self) -> MarketKind {
        self.market.spec().kind()
    }

    fn runner_row(
        &self,
        selection_id: Option<i64>,
    ) -> Result<&backlay_store::markets::RunnerRow, AppError> {
        let selection_id = selection_id
            .ok_or_else(|| AppError::field("selection_id", "Choose a runner (selection_id)."))?;
        let runner = self
            .setup
            .runners
            .iter()
            .find(|r| r.runner_id == selection_id)
            .ok_or(AppError::Refused(Refusal::UnknownRunner { runner_id: selection_id }))?;
        if runner.status == RunnerStatus::Removed {
            return Err(AppError::Refused(Refusal::RunnerRemoved { runner_id: selection_id }));
        }
        Ok(runner)
    }

    /// Brings every listed user's stored exposure to what the market now says.
    async fn sync_exposures(
        &self,
        writer: &mut Writer,
        users: &BTreeSet<i64>,
        pending: &mut HashMap<i64, i64>,
    ) -> Result<(), AppError> {
        for user in users {
            let stored =
                pending.get(user).or_else(|| self.stored_exposure.get(user)).copied().unwrap_or(0);
            let now = self.market.exposure_minor(UserId(*user));
            writer.set_exposure(*user, self.setup.market_id, stored, now).await?;
            pending.insert(*user, now);
        }
        Ok(())
    }

    fn view(&self, user_id: Option<i64>) -> MarketView {
        let positions: HashMap<i64, i64> = user_id
            .map(|u| {
                self.market.runner_positions(UserId(u)).into_iter().map(|(r, p)| (r.0, p)).collect()
            })
            .unwrap_or_default();
        let runners = self
            .setup
            .runners
            .iter()
            .map(|runner| {
                let (back, lay) = match self.market.book(RunnerId(runner.runner_id)) {
                    Some(book) => (
                        book.available_to_back(VIEW_DEPTH)
                            .into_iter()
                            .map(|(p, s)| (p, Money::from_minor(s)))
                            .collect(),
                        book.available_to_lay(VIEW_DEPTH)
                            .into_iter()
                            .map(|(p, s)| (p, Money::from_minor(s)))
                            .collect(),
                    ),
                    None => (Vec::new(), Vec::new()),
                };
                RunnerView {
                    selection_id: runner.runner_id,
                    name: runner.name.clone(),
                    back,
                    lay,
                    position: Money::from_minor(
                        positions.get(&runner.runner_id).copied().unwrap_or(0),
                    ),
                }
            })
            .collect();
        let fancy_book = match (user_id, self.kind()) {
            (Some(u), MarketKind::Fancy) => self
                .market
                .fancy_book(UserId(u))
                .into_iter()
                .map(|row| (row.from, row.to, Money::from_minor(row.pnl_minor)))
                .collect(),
            _ => Vec::new(),
        };
        MarketView {
            setup: self.setup.clone(),
            status: self.market.status(),
            in_play: self.in_play,
            runners,
            fancy_book,
            total_matched: self.traded.total(),
        }
    }
}

/// An exchange order in the book is its stored bet: the order id is the bet id.
fn order_of_bet(bet_id: i64) -> OrderId {
    OrderId(u64::try_from(bet_id).expect("bet ids are positive"))
}

fn bet_of_order(order: OrderId) -> i64 {
    i64::try_from(order.0).expect("order ids come from bet ids")
}
