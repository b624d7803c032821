//! The in-house casino on the server: rounds of the sixteen games of `backlay_casino`, played
//! continuously, stored, and settled through the ledger against the house.
//!
//! A round's steps are the functions below, each one conditional write (so a step taken twice,
//! or by two callers at once, happens once), and [`runner`] plays them in a loop, one task per
//! game:
//!
//! ```text
//! open_round ──(betting window: bets via bets::place_bet)──▶ close_round ──▶ reveal_round ──(dealing)──▶ settle_round ──(result held)──▶ open_round …
//!  seed from the OS, commitment published              at close_at     deal + seed public  cards shown   winners paid once
//! ```
//!
//! Nothing about a round lives only in memory: the seed is stored (secretly) when the round
//! opens and every step rebuilds the pure [`Round`] from the row (`Round::resume`), so a
//! restarted server carries on where it stopped — a closed round is dealt and settled, an open
//! one keeps taking bets until its close time.
//!
//! The runner publishes each step it took on [`RoundEvents`] (public news only: which round,
//! which phase), which the live stream passes on to the table pages (`GET stream?casino=…`).
//!
//! Example: Teen Patti T20 opens `teen20-1795356000000` with commitment `9f2c…`, closing 30 s
//! later. A bet of 100.00 on Player A at 1.98 moves `user −100.00, house +100.00`. At the close
//! the deal is revealed and its six cards are shown one by one (A, B, A, B, A, B, 1.2 s apart);
//! a moment after the last, Player A wins, so settling posts `house −198.00, user +198.00`, and
//! the result stays on the table for 10 s before the next round opens.
//! Anyone can check the round with `backlay casino verify --round teen20-1795356000000`.

pub mod art;
pub mod bets;
pub mod provider;
pub mod runner;
pub mod wallet;

use backlay_casino::dealing::{Dealing, Pace};
use backlay_casino::fair::ServerSeed;
use backlay_casino::games::GameKind;
use backlay_casino::market::{payout, Market, Odds, Verdict};
use backlay_casino::round::{Phase, Round};
use backlay_casino_store::casino::{
    CasinoBetStatus, CasinoGame, CasinoRound, NewRound, RoundPhase, SettledRound,
};
use backlay_core::money::Money;
use backlay_store::Store;
use rand::RngCore;

use backlay_casino_store::{CasinoReads, CasinoWrites};
pub use backlay_live::round_events::{RoundEvent, RoundEvents};
pub use runner::{start, CasinoRunner, RunnerSettings, TableRunner};

/// Smallest casino stake: 1.00.
pub const MIN_STAKE_MINOR: i64 = 1_00;
/// Largest casino stake on one bet: 1,00,000.00.
pub const MAX_STAKE_MINOR: i64 = 100_000_00;

/// The rules of a stored game.
pub fn game_kind(kind_code: &str) -> anyhow::Result<GameKind> {
    GameKind::from_code(kind_code)
        .ok_or_else(|| anyhow::anyhow!("casino game kind {kind_code:?} has no rules"))
}

/// A fresh 32-byte secret from the operating system's random source.
pub fn new_seed() -> ServerSeed {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    ServerSeed::from_bytes(bytes)
}

/// The pure round a stored one is, in its stored phase (the deal recomputed from the seed).
pub fn rebuild(round: &CasinoRound) -> anyhow::Result<Round> {
    let game = game_kind(&round.kind)?;
    let seed = ServerSeed::from_hex(&round.secret_seed_hex)
        .map_err(|e| anyhow::anyhow!("round {} has a bad stored seed: {e}", round.round_id))?;
    let phase = match round.phase {
        RoundPhase::Betting => Phase::Betting,
        RoundPhase::Closed => Phase::Closed,
        RoundPhase::Dealt => Phase::Dealt,
        RoundPhase::Settled => Phase::Settled,
    };
    let rebuilt = Round::resume(game, &round.round_id, seed, round.close_at_ms, phase);
    anyhow::ensure!(
        rebuilt.commitment() == round.commitment,
        "round {}: the stored seed does not match its commitment",
        round.round_id
    );
    Ok(rebuilt)
}

/// The deal of a dealt (or settled) round as shown card by card; `None` before the deal.
pub fn dealing(round: &Round, pace: Pace) -> Option<Dealing> {
    Some(Dealing::new(round.game(), round.deal()?, round.outcome()?, pace))
}

/// When a dealt round's last card has been shown and it may settle (server time, ms).
pub fn dealing_ends_at_ms(round: &CasinoRound, pace: Pace) -> anyhow::Result<i64> {
    let dealt_at_ms = round
        .dealt_at_ms
        .ok_or_else(|| anyhow::anyhow!("round {} is dealt without a deal time", round.round_id))?;
    let duration_ms = dealing(&rebuild(round)?, pace).map_or(0, |d| d.duration_ms());
    Ok(dealt_at_ms + duration_ms)
}

/// Opens a new round of `game`: a fresh seed, its commitment, betting until
/// `now_ms + window_ms`.
pub async fn open_round(
    store: &Store,
    game: &CasinoGame,
    now_ms: i64,
    window_ms: i64,
) -> anyhow::Result<CasinoRound> {
    anyhow::ensure!(window_ms > 0, "a betting window must be longer than 0 ms");
    let kind = game_kind(&game.kind)?;
    let round_id = format!("{}-{now_ms}", kind.code());
    let seed = new_seed();
    let close_at_ms = now_ms + window_ms;
    let round = Round::open(kind, &round_id, seed, close_at_ms);
    let mut w = store.begin_write().await?;
    w.insert_casino_round(&NewRound {
        game_id: game.id,
        round_id: &round_id,
        commitment: round.commitment(),
        secret_seed_hex: &round.seed_for_storage().to_hex(),
        opened_at_ms: now_ms,
        close_at_ms,
    })
    .await?;
    w.commit().await?;
    Ok(store.casino_round(&round_id).await?)
}

/// Closes betting when the close time has come (server time). False when it was not betting
/// or it is too early.
pub async fn close_round(store: &Store, round: &CasinoRound, now_ms: i64) -> anyhow::Result<bool> {
    let mut w = store.begin_write().await?;
    let closed = w.close_casino_round(round.id, now_ms).await?;
    w.commit().await?;
    Ok(closed)
}

/// Deals a closed round: the deal, the result and the seed become public. False when it was
/// not closed.
pub async fn reveal_round(store: &Store, round: &CasinoRound, now_ms: i64) -> anyhow::Result<bool> {
    let mut pure = rebuild(&CasinoRound { phase: RoundPhase::Closed, ..round.clone() })?;
    let deal = serde_json::to_string(pure.reveal()?)?;
    let outcome = pure.outcome().expect("a dealt round has its result");
    let result = serde_json::to_string(outcome)?;
    let mut w = store.begin_write().await?;
    let revealed = w.reveal_casino_round(round.id, &deal, &result, &outcome.winner, now_ms).await?;
    w.commit().await?;
    Ok(revealed)
}

/// Settles a dealt round: every bet judged by the rules, every winner paid `payout` from the
/// house in one ledger transaction. Exactly once: `None` when the round is not dealt (already
/// settled, perhaps by a concurrent call, or not yet dealt).
pub async fn settle_round(
    store: &Store,
    round_id: &str,
    now_ms: i64,
) -> anyhow::Result<Option<SettledRound>> {
    let round = store.casino_round(round_id).await?;
    if round.phase != RoundPhase::Dealt {
        return Ok(None);
    }
    let mut pure = rebuild(&round)?;
    let outcome = pure.settle()?.clone();
    let title = game_kind(&round.kind)?.title();
    let judge = |bet: &backlay_casino_store::casino::CasinoBet| {
        let odds = u32::try_from(bet.odds_hundredths)
            .ok()
            .filter(|o| *o > 100 && *o <= Odds::MAX_HUNDREDTHS);
        let Some(odds) = odds else {
            // The table's CHECK and place_bet keep this from happening; a stored bet we cannot
            // price is refunded rather than settling the round wrong.
            return (CasinoBetStatus::Push, bet.stake_minor);
        };
        let market = Market::new(
            bet.market_code.clone(),
            bet.market_name.clone(),
            "",
            Odds::from_hundredths(odds),
        );
        let status = match outcome.verdict(&bet.market_code) {
            Verdict::Lost => CasinoBetStatus::Lost,
            Verdict::Won | Verdict::WonAt(_) => CasinoBetStatus::Won,
            Verdict::Push => CasinoBetStatus::Push,
            Verdict::HalfLost => CasinoBetStatus::HalfLost,
        };
        (status, payout(&market, bet.stake_minor, &outcome))
    };
    let describe = |bet: &backlay_casino_store::casino::CasinoBet| {
        format!(
            "Casino {}: {title} round {}, {} {} at {}.{:02}",
            match outcome.verdict(&bet.market_code) {
                Verdict::Push | Verdict::HalfLost => "return",
                _ => "win",
            },
            bet.round_id,
            bet.market_name,
            Money::from_minor(bet.stake_minor),
            bet.odds_hundredths / 100,
            bet.odds_hundredths % 100
        )
    };
    let mut w = store.begin_write().await?;
    let settled = w.settle_casino_round(round.id, &round.round_id, now_ms, judge, describe).await?;
    w.commit().await?;
    Ok(settled)
}
