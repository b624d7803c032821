//! One market's task: its in-memory [`Market`] (books, positions) and the stored copy kept in
//! step with it. See the module docs of `engine` for the order of a placement.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use backlay_core::exchange::{
    Bet, BetSide, Market, MarketError, MarketKind, MarketResult, MarketSpec, MarketStatus,
    NewOrder, OrderId, Persistence, RestingOrder, RunnerId, Settlement, Side, UserId,
};
use backlay_core::money::Money;
use backlay_core::odds::Price;
use backlay_store::bets::{BetRow, BetStatus};
use backlay_store::ledger::{NewTransaction, Posting, SystemAccount};
use backlay_store::markets::MarketSetup;
use backlay_store::{Store, Writer};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

mod placement;

use super::{Command, EngineStats, MarketChange};
use crate::clock::now_ms;
use crate::error::AppError;

/// A placement as the API parsed it; the task checks it against the market.
#[derive(Clone, Debug)]
pub struct PlaceBet {
    pub user_id: i64,
    pub market_id: i64,
    pub selection_id: Option<i64>,
    /// As the bettor named it; the market checks the name fits it (yes/no on a fancy).
    pub side: BetSide,
    /// The price exactly as sent: odds ("2.50") on exchange markets, the rate ("45") on
    /// bookmaker and fancy markets.
    pub price_text: String,
    pub line: Option<i64>,
    pub stake: Money,
    pub persistence: Persistence,
    pub client_ref: Option<String>,
    /// Fingerprint of the request body, to tell a repeat from a different bet with the same
    /// `client_ref`.
    pub request_hash: String,
}

/// A bet on its way through the market's task.
#[derive(Clone, Debug)]
pub(crate) struct Placement {
    pub bet: PlaceBet,
    /// The market's [`Suspensions`] count when the bet arrived.
    suspensions_at_arrival: u64,
    /// The bet waited out the in-play bet delay: it is placed only if no suspension or result
    /// arrived since it did.
    waited: bool,
}

impl Placement {
    pub(crate) fn arriving(bet: PlaceBet, suspensions_at_arrival: u64) -> Placement {
        Placement { bet, suspensions_at_arrival, waited: false }
    }
}

backlay_core::named_enum! {
    /// How much of a bet matched when it was placed.
    pub enum PlacementStatus as "placement status" {
        /// All of it.
        Matched = "matched",
        /// Some of it; the rest waits in the book.
        PartiallyMatched = "partially_matched",
        /// None of it yet.
        Unmatched = "unmatched",
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct BetAnswer {
    pub bet_id: i64,
    pub status: PlacementStatus,
    pub size_matched: Money,
    /// Average matched price (odds, or the rate on house markets); `None` when nothing matched.
    pub avg_price_matched: Option<f64>,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CancelAnswer {
    pub bet_id: i64,
    pub cancelled: Money,
    pub remaining: Money,
}

/// New posted prices: bookmaker rates per runner, or a fancy market's lines and rates.
#[derive(Clone, Debug)]
pub enum RatesUpdate {
    Bookmaker(Vec<(i64, Option<i64>, Option<i64>)>),
    Fancy { line_no: i64, rate_no: i64, line_yes: i64, rate_yes: i64 },
}

/// What the operator declares.
#[derive(Clone, Debug)]
pub enum ResultInput {
    Winner(i64),
    Placed(Vec<i64>),
    Fancy(i64),
    Void,
}

/// A market as the match page shows it.
#[derive(Clone, Debug)]
pub struct MarketView {
    pub setup: MarketSetup,
    pub status: MarketStatus,
    pub in_play: bool,
    pub runners: Vec<RunnerView>,
    /// Fancy only: the caller's P&L per run range (from, to inclusive or open, pnl).
    pub fancy_book: Vec<(u32, Option<u32>, Money)>,
}

#[derive(Clone, Debug)]
pub struct RunnerView {
    pub selection_id: i64,
    pub name: String,
    /// Money available to back at each price, best (highest) first.
    pub back: Vec<(Price, Money)>,
    /// Money available to lay at each price, best (lowest) first.
    pub lay: Vec<(Price, Money)>,
    /// The caller's P&L if this runner wins.
    pub position: Money,
}

/// Best prices shown per side.
const BOOK_DEPTH: usize = 3;

pub(crate) struct MarketActor {
    store: Store,
    /// What the operator set up and posts. The status is the exchange market's own.
    setup: MarketSetup,
    match_name: String,
    in_play: bool,
    market: Market,
    /// Each user's exposure here as stored in `market_exposures`.
    stored_exposure: HashMap<i64, i64>,
    /// Suspensions (and results) sent to this market, counted as they arrive.
    suspensions: Arc<Suspensions>,
    /// Bet ids reserved in the database and not given out yet, oldest first.
    spare_bet_ids: VecDeque<i64>,
    stats: Arc<EngineStats>,
    changes: broadcast::Sender<MarketChange>,
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

/// What every command sent to a settled or void market hears.
pub(crate) const MARKET_CLOSED: &str = "This market is closed.";

/// 409 "This market is closed.": the market was resulted or voided.
pub(crate) fn market_closed() -> AppError {
    AppError::Conflict(MARKET_CLOSED.into())
}

/// Where each placement's answer goes.
pub(crate) type Reply = tokio::sync::oneshot::Sender<Result<BetAnswer, AppError>>;

/// Bets waiting out the in-play bet delay inside a market's task, earliest due first.
#[derive(Default)]
struct DelayedBets {
    waiting: VecDeque<(Instant, Placement, Reply)>,
}

impl DelayedBets {
    fn len(&self) -> usize {
        self.waiting.len()
    }

    fn push(&mut self, due: Instant, placement: Placement, reply: Reply) {
        // The delay can differ between bets (the operator may change it), so keep the order.
        let at = self.waiting.partition_point(|(other, _, _)| *other <= due);
        self.waiting.insert(at, (due, placement, reply));
    }

    fn next_due(&self) -> Option<Instant> {
        self.waiting.front().map(|(due, _, _)| *due)
    }

    /// The bets due by `now`, at most a commit's worth, marked as having waited.
    fn take_due(&mut self, now: Instant) -> Vec<(Placement, Reply)> {
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
    fn refuse_overtaken(&mut self, suspensions: u64, refusal: impl Fn() -> AppError) {
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
            let _ = reply.send(Err(refusal()));
        }
    }

    /// Answers every waiting bet with `refusal` (the market closed, or its task is ending).
    fn refuse_all(&mut self, refusal: impl Fn() -> AppError) {
        for (_, _, reply) in self.waiting.drain(..) {
            let _ = reply.send(Err(refusal()));
        }
    }
}

fn suspended_during_delay() -> AppError {
    AppError::Conflict(
        "The market was suspended during the bet delay, so the bet was not placed.".into(),
    )
}

/// The 409 a bet hears on a market that is not open.
fn not_open(status: MarketStatus) -> AppError {
    match status {
        MarketStatus::Open => {
            AppError::Internal(anyhow::anyhow!("an open market was taken for a closed one"))
        }
        MarketStatus::Closed | MarketStatus::Void => market_closed(),
        MarketStatus::BallRunning => AppError::Conflict(
            "This market is suspended (ball running) and takes no bets now.".into(),
        ),
        MarketStatus::Suspended => {
            AppError::Conflict(format!("This market is {status} and takes no bets now."))
        }
    }
}

/// 400 for a status an operator cannot set: unknown, or one only a result sets.
pub(crate) fn not_a_status_to_set(text: &str) -> AppError {
    AppError::field(
        "status",
        format!("{text} is not a status to set: use open, suspended or ball_running (results close a market)."),
    )
}

fn market_error(err: MarketError) -> AppError {
    match err {
        MarketError::NotOpen { status } => not_open(status),
        MarketError::AlreadySettled { .. } => market_closed(),
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

/// The stored matched bet of one side of a fill, or of a house bet.
fn matched_bet(kind: MarketKind, bet: &BetRow) -> Result<Bet, AppError> {
    let side = bet.side.side();
    let rate = u32::try_from(bet.price).unwrap_or(0);
    let made = match kind {
        MarketKind::Fancy => Bet::fancy(
            u32::try_from(bet.line.unwrap_or(0)).unwrap_or(0),
            side,
            rate,
            bet.matched_minor,
        ),
        _ => Bet::bookmaker(RunnerId(bet.runner_id.unwrap_or(0)), side, rate, bet.matched_minor),
    };
    made.map_err(|e| {
        AppError::Internal(anyhow::anyhow!("stored bet {} is invalid: {e}", bet.bet_id))
    })
}

impl MarketActor {
    pub(crate) async fn load(
        store: Store,
        market_id: i64,
        stats: Arc<EngineStats>,
        changes: broadcast::Sender<MarketChange>,
        suspensions: Arc<Suspensions>,
    ) -> Result<MarketActor, AppError> {
        let row = store.market(market_id).await?;
        let setup = row.setup;
        let kind = setup.market_type.kind(u32::try_from(setup.winners).unwrap_or(1));
        let runners = if kind == MarketKind::Fancy {
            Vec::new()
        } else {
            setup.runners.iter().map(|r| RunnerId(r.runner_id)).collect()
        };
        let spec = MarketSpec::new(kind, runners, u32::try_from(setup.commission_bp).unwrap_or(0))
            .map_err(market_error)?;
        let mut market = Market::new(spec);
        // Nothing lapses here: lapses were stored when they happened.
        market.restore_status(row.status);
        let internal = |e: MarketError| {
            AppError::Internal(anyhow::anyhow!("rebuilding market {market_id}: {e}"))
        };
        for fill in store.fills_of_market(market_id).await? {
            let price =
                Price::from_hundredths(u32::try_from(fill.price).unwrap_or(0)).map_err(|e| {
                    AppError::Internal(anyhow::anyhow!(
                        "fill {} has price {}: {e}",
                        fill.fill_id,
                        fill.price
                    ))
                })?;
            for (user, side) in [(fill.back_user_id, Side::Back), (fill.lay_user_id, Side::Lay)] {
                let bet = Bet::exchange(RunnerId(fill.runner_id), side, price, fill.size_minor)
                    .map_err(|e| {
                        AppError::Internal(anyhow::anyhow!("fill {}: {e}", fill.fill_id))
                    })?;
                market.restore_matched(UserId(user), &bet).map_err(internal)?;
            }
        }
        for bet in store.bets_of_market(market_id).await? {
            if kind.is_house_banked() {
                if bet.matched_minor > 0 && bet.status.is_live() {
                    market
                        .restore_matched(UserId(bet.user_id), &matched_bet(kind, &bet)?)
                        .map_err(internal)?;
                }
            } else if bet.remaining_minor > 0 {
                let price = Price::from_hundredths(u32::try_from(bet.price).unwrap_or(0))
                    .map_err(|e| AppError::Internal(anyhow::anyhow!("bet {}: {e}", bet.bet_id)))?;
                let order = NewOrder::new(
                    order_of_bet(bet.bet_id),
                    UserId(bet.user_id),
                    bet.side.side(),
                    price,
                    bet.remaining_minor,
                )
                .with_persistence(bet.persistence);
                market
                    .restore_order(RunnerId(bet.runner_id.unwrap_or(0)), &order)
                    .map_err(internal)?;
            }
        }
        let stored_exposure = store.exposures_of_market(market_id).await?.into_iter().collect();
        let the_match = store.match_by_id(setup.match_id).await?;
        Ok(MarketActor {
            store,
            match_name: the_match.name,
            in_play: the_match.in_play,
            setup,
            market,
            stored_exposure,
            suspensions,
            spare_bet_ids: VecDeque::new(),
            stats,
            changes,
        })
    }

    pub(crate) async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        let mut delayed = DelayedBets::default();
        let mut next: Option<Command> = None;
        loop {
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
                            None => {
                                delayed.refuse_all(market_closed);
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
                Command::Cancel { user_id, bet_id, size, reply } => {
                    let answer = self.cancel(user_id, bet_id, size).await;
                    if answer.is_ok() {
                        self.publish([user_id].into());
                    }
                    let _ = reply.send(answer);
                }
                Command::SetStatus { status, reply } => {
                    let answer = self.set_status(status).await;
                    if let Ok(lapsed) = &answer {
                        self.publish(lapsed.clone());
                    }
                    let _ = reply.send(answer.map(|_| ()));
                }
                Command::SetInPlay { in_play, reply } => {
                    let answer = self.set_in_play(in_play).await;
                    if let Ok(lapsed) = &answer {
                        self.publish(lapsed.clone());
                    }
                    let _ = reply.send(answer.map(|_| ()));
                }
                Command::SetRates(rates, reply) => {
                    let answer = self.set_rates(rates).await;
                    if answer.is_ok() {
                        self.publish(BTreeSet::new());
                    }
                    let _ = reply.send(answer);
                }
                Command::Settle { result, reply } => {
                    let users: BTreeSet<i64> = self.market.users().map(|u| u.0).collect();
                    let answer = self.settle(result).await;
                    let settled = answer.is_ok();
                    if settled {
                        self.publish(users);
                    }
                    let _ = reply.send(answer);
                    if settled {
                        delayed.refuse_all(market_closed);
                        self.answer_as_closed(commands).await;
                        return;
                    }
                }
                Command::View { user_id, reply } => {
                    let _ = reply.send(self.view(user_id));
                }
            }
            // A suspension (or a reload) overtook the bets in their delay: tell them now.
            delayed.refuse_overtaken(self.suspensions.count(), suspended_during_delay);
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
        let delay_ms =
            if self.in_play { u64::try_from(self.setup.bet_delay_ms).unwrap_or(0) } else { 0 };
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

    /// After the settlement: every command that raced the result into the queue hears that
    /// the market is closed (a view still shows it); new ones are refused at the queue.
    async fn answer_as_closed(&self, mut commands: mpsc::Receiver<Command>) {
        commands.close();
        while let Some(command) = commands.recv().await {
            match command {
                Command::Place(_, reply) => drop(reply.send(Err(market_closed()))),
                Command::Cancel { reply, .. } => drop(reply.send(Err(market_closed()))),
                Command::SetStatus { reply, .. } => drop(reply.send(Err(market_closed()))),
                Command::SetRates(_, reply) => drop(reply.send(Err(market_closed()))),
                // Nothing is left to lapse.
                Command::SetInPlay { reply, .. } => drop(reply.send(Ok(()))),
                Command::Settle { reply, .. } => drop(reply.send(Err(market_closed()))),
                Command::View { user_id, reply } => drop(reply.send(self.view(user_id))),
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

    /// After a failure part-way through a change, memory may be ahead of the database:
    /// start again from what is stored.
    async fn reload(&mut self) {
        let suspensions = self.suspensions.clone();
        match MarketActor::load(
            self.store.clone(),
            self.setup.market_id,
            self.stats.clone(),
            self.changes.clone(),
            suspensions,
        )
        .await
        {
            Ok(fresh) => {
                *self = fresh;
                // A reload may have lost track of a suspension: count one, so bets in their
                // delay are refused rather than placed on a market we are unsure of.
                self.suspensions.count_one();
            }
            Err(err) => {
                tracing::error!(market_id = self.setup.market_id, "reloading market failed: {err}")
            }
        }
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
        self.setup.runners.iter().find(|r| r.runner_id == selection_id).ok_or_else(|| {
            AppError::NotFound(format!("Runner {selection_id} is not in this market."))
        })
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

    async fn cancel(
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
        let cancelled =
            self.market.cancel(runner, order_id, size.map(Money::minor)).map_err(market_error)?;
        let remaining = resting.remaining_minor - cancelled;
        let result: Result<HashMap<i64, i64>, AppError> = async {
            let mut writer = self.store.begin_write().await?;
            writer.record_unmatched_removal(bet_id, cancelled, false).await?;
            let mut pending = HashMap::new();
            self.sync_exposures(&mut writer, &BTreeSet::from([user_id]), &mut pending).await?;
            writer.commit().await?;
            Ok(pending)
        }
        .await;
        match result {
            Ok(pending) => {
                self.stored_exposure.extend(pending);
                Ok(CancelAnswer {
                    bet_id,
                    cancelled: Money::from_minor(cancelled),
                    remaining: Money::from_minor(remaining),
                })
            }
            Err(err) => {
                self.reload().await;
                Err(err)
            }
        }
    }

    /// Sets the status; answers the users whose LAPSE orders lapsed.
    async fn set_status(&mut self, status: MarketStatus) -> Result<BTreeSet<i64>, AppError> {
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
        self.store_lapses(&lapsed, Some(status)).await
    }

    /// The match went in play (or back): at the off every unmatched LAPSE order lapses and
    /// the market's bet delay starts to apply. Answers the users whose LAPSE orders lapsed.
    async fn set_in_play(&mut self, in_play: bool) -> Result<BTreeSet<i64>, AppError> {
        if in_play == self.in_play {
            return Ok(BTreeSet::new());
        }
        let lapsed = if in_play { self.market.lapse_orders() } else { Vec::new() };
        let lapsed_users = self.store_lapses(&lapsed, None).await?;
        self.in_play = in_play;
        Ok(lapsed_users)
    }

    /// Stores orders lapsed in memory (and the market's new status, if any) with their users'
    /// lower exposure, in one transaction. Answers the users whose orders lapsed; on a failure
    /// the market is reloaded from what is stored.
    async fn store_lapses(
        &mut self,
        lapsed: &[RestingOrder],
        status: Option<MarketStatus>,
    ) -> Result<BTreeSet<i64>, AppError> {
        let result: Result<HashMap<i64, i64>, AppError> = async {
            let mut writer = self.store.begin_write().await?;
            if let Some(status) = status {
                if !writer.set_market_status(self.setup.market_id, status).await? {
                    return Err(market_closed());
                }
            }
            let mut touched = BTreeSet::new();
            for order in lapsed {
                writer
                    .record_unmatched_removal(
                        bet_of_order(order.order_id),
                        order.remaining_minor,
                        true,
                    )
                    .await?;
                touched.insert(order.user_id.0);
            }
            let mut pending = HashMap::new();
            self.sync_exposures(&mut writer, &touched, &mut pending).await?;
            writer.commit().await?;
            Ok(pending)
        }
        .await;
        match result {
            Ok(pending) => {
                let users = pending.keys().copied().collect();
                self.stored_exposure.extend(pending);
                Ok(users)
            }
            Err(err) => {
                self.reload().await;
                Err(err)
            }
        }
    }

    async fn set_rates(&mut self, rates: RatesUpdate) -> Result<(), AppError> {
        let mut writer = self.store.begin_write().await?;
        match (&rates, self.kind()) {
            (RatesUpdate::Bookmaker(runners), MarketKind::Bookmaker) => {
                for (runner_id, back, lay) in runners {
                    if !self.setup.runners.iter().any(|r| r.runner_id == *runner_id) {
                        return Err(AppError::NotFound(format!(
                            "Runner {runner_id} is not in this market."
                        )));
                    }
                    writer.set_runner_rates(*runner_id, *back, *lay).await?;
                }
            }
            (RatesUpdate::Fancy { line_no, rate_no, line_yes, rate_yes }, MarketKind::Fancy) => {
                writer
                    .set_fancy_rates(self.setup.market_id, *line_no, *rate_no, *line_yes, *rate_yes)
                    .await?;
            }
            _ => {
                return Err(AppError::Conflict("Those rates do not fit this market's type.".into()))
            }
        }
        writer.commit().await?;
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

    async fn settle(&mut self, input: ResultInput) -> Result<String, AppError> {
        let (result, result_runner_id, result_value) = match input {
            ResultInput::Winner(id) => (MarketResult::Winner(RunnerId(id)), Some(id), None),
            ResultInput::Placed(ids) => (
                MarketResult::Placed(ids.iter().copied().map(RunnerId).collect()),
                ids.first().copied(),
                None,
            ),
            ResultInput::Fancy(value) => {
                let runs = u32::try_from(value).map_err(|_| {
                    AppError::field("result", "A fancy result is a whole number ≥ 0.")
                })?;
                (MarketResult::Fancy(runs), None, Some(value))
            }
            ResultInput::Void => (MarketResult::Void, None, None),
        };
        // Each bet's own P&L, from what is stored (this task is the market's only writer).
        let bet_pnls = self.bet_pnls(&result).await?;
        let settled = self.market.settle(&result).map_err(market_error)?;
        // Closed or void, as the exchange market now says.
        let status = self.market.status();
        let void = status == MarketStatus::Void;
        let outcome: Result<String, AppError> = async {
            let mut writer = self.store.begin_write().await?;
            if !writer
                .record_market_result(
                    self.setup.market_id,
                    status,
                    result_runner_id,
                    result_value,
                    now_ms(),
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
            let mut postings = Vec::new();
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
            }
            if settled.settlement.house_pnl_minor != 0 {
                let house = writer.system_account(SystemAccount::House).await?;
                postings.push(Posting {
                    account_id: house,
                    amount_minor: settled.settlement.house_pnl_minor,
                    description: label.clone(),
                });
            }
            if settled.settlement.commission_total_minor != 0 {
                let commission = writer.system_account(SystemAccount::Commission).await?;
                postings.push(Posting {
                    account_id: commission,
                    amount_minor: settled.settlement.commission_total_minor,
                    description: format!("{label}: commission"),
                });
            }
            if !postings.is_empty() {
                writer
                    .post(
                        NewTransaction {
                            kind: if void { "void" } else { "settlement" },
                            actor_user_id: None,
                            remark: label.clone(),
                            postings,
                        },
                        now_ms(),
                    )
                    .await?;
            }
            check_bet_pnls(self.setup.market_id, &bet_pnls, &settled.settlement)?;
            writer
                .close_market_bets(
                    self.setup.market_id,
                    if void { BetStatus::Void } else { BetStatus::Settled },
                )
                .await?;
            let pnls: Vec<(i64, i64)> =
                bet_pnls.iter().map(|(bet_id, _, pnl)| (*bet_id, *pnl)).collect();
            writer.set_bet_pnls(self.setup.market_id, &pnls).await?;
            writer.commit().await?;
            Ok(if void {
                format!("{label} is void: every bet is off.")
            } else {
                format!("{label} is settled.")
            })
        }
        .await;
        if outcome.is_err() {
            self.reload().await;
        }
        outcome
    }

    /// Every matched bet's P&L under `result` as (bet id, user id, P&L), from the stored fills
    /// (exchange markets: a bet's P&L is the sum over its fills) or the stored house bets.
    async fn bet_pnls(&self, result: &MarketResult) -> Result<Vec<(i64, i64, i64)>, AppError> {
        let kind = self.kind();
        let mut pnls: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
        if kind.is_house_banked() {
            for bet in self.store.bets_of_market(self.setup.market_id).await? {
                if bet.matched_minor > 0 && bet.status.is_live() {
                    let pnl = result.bet_pnl_minor(&matched_bet(kind, &bet)?);
                    pnls.insert(bet.bet_id, (bet.user_id, pnl));
                }
            }
        } else {
            for fill in self.store.fills_of_market(self.setup.market_id).await? {
                let price = Price::from_hundredths(u32::try_from(fill.price).unwrap_or(0))
                    .map_err(|e| {
                        AppError::Internal(anyhow::anyhow!(
                            "fill {} has price {}: {e}",
                            fill.fill_id,
                            fill.price
                        ))
                    })?;
                for (bet_id, user_id, side) in [
                    (fill.back_bet_id, fill.back_user_id, Side::Back),
                    (fill.lay_bet_id, fill.lay_user_id, Side::Lay),
                ] {
                    let bet = Bet::exchange(RunnerId(fill.runner_id), side, price, fill.size_minor)
                        .map_err(|e| {
                            AppError::Internal(anyhow::anyhow!("fill {}: {e}", fill.fill_id))
                        })?;
                    pnls.entry(bet_id).or_insert((user_id, 0)).1 += result.bet_pnl_minor(&bet);
                }
            }
        }
        Ok(pnls.into_iter().map(|(bet_id, (user_id, pnl))| (bet_id, user_id, pnl)).collect())
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
                        book.available_to_back(BOOK_DEPTH)
                            .into_iter()
                            .map(|(p, s)| (p, Money::from_minor(s)))
                            .collect(),
                        book.available_to_lay(BOOK_DEPTH)
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
        }
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

/// An exchange order in the book is its stored bet: the order id is the bet id.
fn order_of_bet(bet_id: i64) -> OrderId {
    OrderId(u64::try_from(bet_id).expect("bet ids are positive"))
}

fn bet_of_order(order: OrderId) -> i64 {
    i64::try_from(order.0).expect("order ids come from bet ids")
}
