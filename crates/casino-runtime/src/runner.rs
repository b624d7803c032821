//! The round runner: one task per game, playing rounds back to back for as long as the server
//! runs (see the [module docs](super) for the steps).
//!
//! A game switched off (`casino_games.is_active`, from the console or `backlay admin casino
//! table`) opens no new round: its task finishes the round it has (which settles as any other,
//! its bets paid by the rules), then asks every [`SWITCHED_OFF_POLL_MS`] whether the game is on
//! again, so switching it back on needs no restart.
//!
//! Each pass reads the game's oldest unfinished round from the database and takes its next
//! step, so a task that starts after a restart resumes whatever was left: a round still
//! betting waits for its close time, a closed one is dealt, a dealt one is settled once its
//! cards have all been shown (`backlay_casino::dealing`). A step
//! that fails (the database is away) is logged and retried after a second; since every step
//! is a conditional write, retrying is always safe.
//!
//! Each step that happened (a round opened, closed, dealt, settled) is published on
//! [`RoundEvents`] after its transaction committed, so a listener that refetches the table on
//! the news reads the new phase. A step another caller took first is not news from this runner.

use std::sync::Arc;
use std::time::Duration;

use backlay_casino::dealing::Pace;
use backlay_casino_store::casino::{CasinoGame, CasinoRound, RoundPhase};
use backlay_store::Store;
use tokio::task::JoinHandle;

use backlay_casino_store::CasinoReads;
use backlay_engine::cluster::Tables;
use backlay_kit::clock::now_ms;
use backlay_live::round_events::{RoundEvents, RoundNews};
use backlay_store::StoreResult;
use futures::future::BoxFuture;

/// How the runner paces rounds.
#[derive(Clone, Debug)]
pub struct RunnerSettings {
    /// How long a round takes bets.
    pub betting_window_ms: i64,
    /// How long a settled result stays on the table before the next round opens.
    pub result_pause_ms: i64,
    /// How fast a closed round is dealt before it settles.
    pub deal_pace: Pace,
    /// Only these games (client or rules codes); empty: every active game.
    pub only_games: Vec<String>,
}

/// The running tasks; dropping it stops them (a step cut short rolls back, and the next start
/// resumes the round).
pub struct CasinoRunner {
    tasks: Vec<JoinHandle<()>>,
}

impl CasinoRunner {
    /// How many games are running.
    pub fn games(&self) -> usize {
        self.tasks.len()
    }
}

impl Drop for CasinoRunner {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

/// Pause after a step that failed.
const RETRY_AFTER_MS: u64 = 1_000;

/// How often a switched-off game's task asks whether it is on again.
pub const SWITCHED_OFF_POLL_MS: u64 = 1_000;

/// Starts one task per game (or per game of `only_games`), switched on or off, publishing each
/// step on `events`.
pub async fn start(
    store: Store,
    settings: RunnerSettings,
    events: Arc<RoundEvents>,
) -> anyhow::Result<CasinoRunner> {
    check_settings(&settings)?;
    let tasks = games_to_run(&store, &settings)
        .await?
        .into_iter()
        .map(|game| run_table(store.clone(), game, settings.clone(), events.clone()))
        .collect();
    Ok(CasinoRunner { tasks })
}

/// Refuses settings no round could run with.
pub fn check_settings(settings: &RunnerSettings) -> anyhow::Result<()> {
    anyhow::ensure!(
        settings.betting_window_ms > 0,
        "the casino betting window must be longer than 0 ms"
    );
    anyhow::ensure!(settings.result_pause_ms >= 0, "the casino result pause cannot be negative");
    anyhow::ensure!(
        settings.deal_pace.step_ms > 0 && settings.deal_pace.max_ms > 0,
        "the casino's dealing pace must be longer than 0 ms"
    );
    Ok(())
}

/// The games a runner with `settings` plays: every game, or those `only_games` names.
pub async fn games_to_run(
    store: &Store,
    settings: &RunnerSettings,
) -> backlay_store::StoreResult<Vec<CasinoGame>> {
    Ok(store
        .casino_games(false, None)
        .await?
        .into_iter()
        .filter(|g| {
            settings.only_games.is_empty()
                || settings.only_games.iter().any(|c| *c == g.game_code || *c == g.kind)
        })
        .collect())
}

/// Starts one table's task (on a server of a cluster, with the store fenced by the table's
/// ownership: `backlay_engine::cluster`). It runs until aborted.
pub fn run_table(
    store: Store,
    game: CasinoGame,
    settings: RunnerSettings,
    events: Arc<RoundEvents>,
) -> JoinHandle<()> {
    tokio::spawn(async move { run_game(store, game, settings, events).await })
}

/// This server's tables as the cluster runs them ([`Tables`]): each node plays the rounds of the
/// tables it holds.
pub struct TableRunner {
    pub settings: RunnerSettings,
    pub events: Arc<RoundEvents>,
}

impl Tables for TableRunner {
    fn games<'a>(&'a self, store: &'a Store) -> BoxFuture<'a, StoreResult<Vec<CasinoGame>>> {
        Box::pin(games_to_run(store, &self.settings))
    }

    fn run(&self, store: Store, game: CasinoGame) -> JoinHandle<()> {
        run_table(store, game, self.settings.clone(), self.events.clone())
    }
}

async fn run_game(
    store: Store,
    game: CasinoGame,
    settings: RunnerSettings,
    events: Arc<RoundEvents>,
) {
    tracing::info!(game = %game.game_code, "casino rounds running");
    loop {
        let wait_ms = match step(&store, &game, &settings, &events).await {
            Ok(wait_ms) => wait_ms,
            Err(err) => {
                tracing::warn!(game = %game.game_code, "casino round step failed, retrying: {err:#}");
                RETRY_AFTER_MS
            }
        };
        if wait_ms > 0 {
            tokio::time::sleep(Duration::from_millis(wait_ms)).await;
        }
    }
}

/// Takes the game's next step; answers how long to wait before the next one.
async fn step(
    store: &Store,
    game: &CasinoGame,
    settings: &RunnerSettings,
    events: &RoundEvents,
) -> anyhow::Result<u64> {
    let unfinished = store.unfinished_casino_rounds(game.id).await?;
    let publish = |round: &CasinoRound, phase| {
        events.publish(game.id, RoundNews::new(&game.game_code, round, phase));
    };
    let Some(round) = unfinished.into_iter().next() else {
        // Read afresh: the operator may have switched the game off or on since the last round.
        if !store.casino_game(game.id).await?.is_active {
            return Ok(SWITCHED_OFF_POLL_MS);
        }
        let round = super::open_round(store, game, now_ms(), settings.betting_window_ms).await?;
        tracing::debug!(round = %round.round_id, commitment = %round.commitment, "casino round open");
        publish(&round, RoundPhase::Betting);
        return Ok(0);
    };
    let now = now_ms();
    match round.phase {
        RoundPhase::Betting if now < round.close_at_ms => {
            // Wake just after the close: the close is decided by the server's clock, and a
            // timer may fire a little early.
            Ok(u64::try_from(round.close_at_ms - now).unwrap_or(0) + 1)
        }
        RoundPhase::Betting => {
            if super::close_round(store, &round, now).await? {
                publish(&round, RoundPhase::Closed);
            }
            Ok(0)
        }
        RoundPhase::Closed => {
            if super::reveal_round(store, &round, now).await? {
                publish(&round, RoundPhase::Dealt);
            }
            Ok(0)
        }
        RoundPhase::Dealt => {
            // The cards are shown one by one first; the round settles when the last is shown.
            let dealing_ends_ms = super::dealing_ends_at_ms(&round, settings.deal_pace)?;
            if now < dealing_ends_ms {
                return Ok(u64::try_from(dealing_ends_ms - now).unwrap_or(0) + 1);
            }
            if let Some(settled) = super::settle_round(store, &round.round_id, now).await? {
                backlay_kit::metrics::casino_round(&round.kind);
                tracing::debug!(round = %round.round_id, bets = settled.bets, paid_minor = settled.paid_minor, "casino round settled");
                publish(&round, RoundPhase::Settled);
            }
            Ok(u64::try_from(settings.result_pause_ms).unwrap_or(0))
        }
        RoundPhase::Settled => Ok(0),
    }
}
