//! The in-house casino's games, rounds and bets (`casino_games`, `casino_rounds`,
//! `casino_bets`). The rules live in `backlay_casino`; this module only stores what a round
//! did and moves its money through the [`ledger`](backlay_store::ledger).
//!
//! A round's row follows its phase, each step one conditional `UPDATE` so that two callers
//! can never both take it:
//!
//! ```text
//! betting ──close (now ≥ close_at)──▶ closed ──reveal──▶ dealt ──settle──▶ settled
//! ```
//!
//! Money: a bet is `user −stake, house +stake` in the same transaction as its row; settling is
//! one transaction per round, `house −Σpayout, each winner +payout`. Example: a 100.00 bet on
//! Player A at 1.98 that wins is `user −100.00` when placed and `user +198.00` when the round
//! settles; the house keeps −98.00.
//!
//! Why a bet bumps `casino_rounds.bet_count`: that `UPDATE … WHERE phase = 'betting' AND
//! close_at_ms > now` takes the round's row lock, so on PostgreSQL a bet and the close are
//! ordered (the loser re-evaluates the condition after the winner commits) and no bet can land
//! in a round that has closed; on SQLite the single write lock orders them anyway. Settling
//! takes the same row first (`phase = 'dealt' → 'settled'`), so a round is paid exactly once
//! however many callers ask at once.

use std::collections::BTreeMap;
use std::future::Future;

use sqlx::any::AnyRow;
use sqlx::Row;

use backlay_store::ledger::{NewTransaction, Posting, SystemAccount, TransactionKind};
use backlay_store::partnership::{HouseSplit, Part};
use backlay_store::repository::{flag, is_foreign_key_violation, named};
use backlay_store::{Store, StoreError, StoreResult, Writer};

/// A game of the sidebar's list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CasinoGame {
    /// The API's `match_id`.
    pub id: i64,
    /// The client's code (`teen20`, `dt6` …).
    pub game_code: String,
    /// `backlay_casino::games::GameKind::code()` (`teen20`, `dt1day` …).
    pub kind: String,
    /// The sidebar's label.
    pub name: String,
    pub title: String,
    pub series_id: String,
    pub is_active: bool,
    pub display_order: i64,
    /// The uploaded image (`uploaded_images.name`) the operator shows instead of the game's
    /// built-in art; `None` shows the art.
    pub image_name: Option<String>,
}

backlay_core::named_enum! {
    /// Where a round is (see the module docs).
    #[derive(PartialOrd, Ord)]
    pub enum RoundPhase as "round phase" {
        Betting = "betting",
        Closed = "closed",
        Dealt = "dealt",
        Settled = "settled",
    }
}

impl RoundPhase {
    /// True once the deal, the result and the seed may be shown.
    pub fn is_public(self) -> bool {
        self >= RoundPhase::Dealt
    }
}

/// A stored round. `secret_seed_hex` must not leave the server before the round is dealt:
/// use [`CasinoRound::revealed_seed_hex`] for anything shown (`Debug` does).
#[derive(Clone, PartialEq, Eq)]
pub struct CasinoRound {
    pub id: i64,
    pub round_id: String,
    pub game_id: i64,
    /// The game's `kind` (see [`CasinoGame::kind`]).
    pub kind: String,
    pub commitment: String,
    pub secret_seed_hex: String,
    pub phase: RoundPhase,
    pub opened_at_ms: i64,
    pub close_at_ms: i64,
    pub bet_count: i64,
    pub staked_minor: i64,
    pub deal_json: Option<String>,
    pub result_json: Option<String>,
    pub winner: Option<String>,
    pub dealt_at_ms: Option<i64>,
    pub paid_minor: Option<i64>,
    pub settled_at_ms: Option<i64>,
}

impl std::fmt::Debug for CasinoRound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CasinoRound")
            .field("id", &self.id)
            .field("round_id", &self.round_id)
            .field("game_id", &self.game_id)
            .field("kind", &self.kind)
            .field("commitment", &self.commitment)
            .field("revealed_seed_hex", &self.revealed_seed_hex())
            .field("phase", &self.phase)
            .field("opened_at_ms", &self.opened_at_ms)
            .field("close_at_ms", &self.close_at_ms)
            .field("bet_count", &self.bet_count)
            .field("staked_minor", &self.staked_minor)
            .field("deal_json", &self.deal_json)
            .field("result_json", &self.result_json)
            .field("winner", &self.winner)
            .field("dealt_at_ms", &self.dealt_at_ms)
            .field("paid_minor", &self.paid_minor)
            .field("settled_at_ms", &self.settled_at_ms)
            .finish()
    }
}

impl CasinoRound {
    /// The seed, once the round is dealt; `None` before.
    pub fn revealed_seed_hex(&self) -> Option<&str> {
        self.phase.is_public().then_some(self.secret_seed_hex.as_str())
    }
}

backlay_core::named_enum! {
    /// What a settled bet came to.
    pub enum CasinoBetStatus as "casino bet status" {
        Open = "open",
        Won = "won",
        Lost = "lost",
        /// The stake came back.
        Push = "push",
        /// Half the stake came back.
        HalfLost = "half_lost",
    }
}

/// A stored bet with its round and game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CasinoBet {
    pub id: i64,
    pub user_id: i64,
    /// The round's row id.
    pub round_pk: i64,
    /// The round's public id.
    pub round_id: String,
    pub game_id: i64,
    pub game_code: String,
    pub game_title: String,
    pub market_code: String,
    pub market_name: String,
    pub odds_hundredths: i64,
    pub stake_minor: i64,
    pub payout_minor: Option<i64>,
    pub status: CasinoBetStatus,
    pub created_at_ms: i64,
    pub settled_at_ms: Option<i64>,
}

/// A round to open. `Debug` leaves the seed out: the round has not been dealt.
#[derive(Clone)]
pub struct NewRound<'a> {
    pub game_id: i64,
    pub round_id: &'a str,
    pub commitment: &'a str,
    pub secret_seed_hex: &'a str,
    pub opened_at_ms: i64,
    pub close_at_ms: i64,
}

impl std::fmt::Debug for NewRound<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewRound")
            .field("game_id", &self.game_id)
            .field("round_id", &self.round_id)
            .field("commitment", &self.commitment)
            .field("opened_at_ms", &self.opened_at_ms)
            .field("close_at_ms", &self.close_at_ms)
            .finish_non_exhaustive()
    }
}

/// A bet the rules accepted, to store and pay for.
#[derive(Clone, Debug)]
pub struct NewCasinoBet<'a> {
    pub user_id: i64,
    pub round_pk: i64,
    pub market_code: &'a str,
    pub market_name: &'a str,
    pub odds_hundredths: i64,
    pub stake_minor: i64,
    /// The statement line of the stake's debit.
    pub description: String,
    /// The ledger transaction's remark (the round id).
    pub remark: String,
}

/// What settling a round did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettledRound {
    pub bets: i64,
    pub paid_minor: i64,
    /// The payout transaction (`None` when nobody was owed anything).
    pub transaction_id: Option<i64>,
}

/// Most rows a result list or bet list reads at once.
pub const MAX_CASINO_ROWS: i64 = 100;

const GAME_COLUMNS: &str =
    "id, game_code, kind, name, title, series_id, is_active, display_order, image_name";

fn game_from_row(row: &AnyRow) -> Result<CasinoGame, sqlx::Error> {
    Ok(CasinoGame {
        id: row.try_get("id")?,
        game_code: row.try_get("game_code")?,
        kind: row.try_get("kind")?,
        name: row.try_get("name")?,
        title: row.try_get("title")?,
        series_id: row.try_get("series_id")?,
        is_active: row.try_get::<i64, _>("is_active")? == 1,
        display_order: row.try_get("display_order")?,
        image_name: row.try_get("image_name")?,
    })
}

const ROUND_COLUMNS: &str = "r.id, r.round_id, r.game_id, g.kind, r.commitment, r.seed_hex, r.phase, r.opened_at_ms, \
     r.close_at_ms, r.bet_count, r.staked_minor, r.deal_json, r.result_json, r.winner, r.dealt_at_ms, r.paid_minor, \
     r.settled_at_ms";

fn round_from_row(row: &AnyRow) -> Result<CasinoRound, sqlx::Error> {
    let phase = named(row, "phase")?;
    Ok(CasinoRound {
        id: row.try_get("id")?,
        round_id: row.try_get("round_id")?,
        game_id: row.try_get("game_id")?,
        kind: row.try_get("kind")?,
        commitment: row.try_get("commitment")?,
        secret_seed_hex: row.try_get("seed_hex")?,
        phase,
        opened_at_ms: row.try_get("opened_at_ms")?,
        close_at_ms: row.try_get("close_at_ms")?,
        bet_count: row.try_get("bet_count")?,
        staked_minor: row.try_get("staked_minor")?,
        deal_json: row.try_get("deal_json")?,
        result_json: row.try_get("result_json")?,
        winner: row.try_get("winner")?,
        dealt_at_ms: row.try_get("dealt_at_ms")?,
        paid_minor: row.try_get("paid_minor")?,
        settled_at_ms: row.try_get("settled_at_ms")?,
    })
}

const BET_COLUMNS: &str = "b.id, b.user_id, b.round_id AS round_pk, r.round_id, r.game_id, g.game_code, g.title, \
     b.market_code, b.market_name, b.odds_hundredths, b.stake_minor, b.payout_minor, b.status, b.created_at_ms, \
     b.settled_at_ms";

const BET_FROM: &str = "FROM casino_bets b JOIN casino_rounds r ON r.id = b.round_id JOIN casino_games g ON g.id = r.game_id";

fn bet_from_row(row: &AnyRow) -> Result<CasinoBet, sqlx::Error> {
    let status = named(row, "status")?;
    Ok(CasinoBet {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        round_pk: row.try_get("round_pk")?,
        round_id: row.try_get("round_id")?,
        game_id: row.try_get("game_id")?,
        game_code: row.try_get("game_code")?,
        game_title: row.try_get("title")?,
        market_code: row.try_get("market_code")?,
        market_name: row.try_get("market_name")?,
        odds_hundredths: row.try_get("odds_hundredths")?,
        stake_minor: row.try_get("stake_minor")?,
        payout_minor: row.try_get("payout_minor")?,
        status,
        created_at_ms: row.try_get("created_at_ms")?,
        settled_at_ms: row.try_get("settled_at_ms")?,
    })
}

/// The casino's reads on the [`Store`]: a trait, because `Store` is backlay-store's type and
/// only that crate can add methods of its own to it.
pub trait CasinoReads {
    fn casino_games(
        &self,
        active_only: bool,
        series_id: Option<&str>,
    ) -> impl Future<Output = StoreResult<Vec<CasinoGame>>> + Send;
    fn casino_game(&self, id: i64) -> impl Future<Output = StoreResult<CasinoGame>> + Send;
    fn casino_game_by_code(
        &self,
        code: &str,
    ) -> impl Future<Output = StoreResult<CasinoGame>> + Send;
    fn casino_round(&self, round_id: &str)
        -> impl Future<Output = StoreResult<CasinoRound>> + Send;
    fn latest_casino_round(
        &self,
        game_id: i64,
    ) -> impl Future<Output = StoreResult<Option<CasinoRound>>> + Send;
    fn unfinished_casino_rounds(
        &self,
        game_id: i64,
    ) -> impl Future<Output = StoreResult<Vec<CasinoRound>>> + Send;
    fn casino_results(
        &self,
        game_id: i64,
        from_ms: i64,
        to_ms: i64,
        offset: i64,
        limit: i64,
    ) -> impl Future<Output = StoreResult<(Vec<CasinoRound>, i64)>> + Send;
    fn casino_bets_in_round(
        &self,
        user_id: i64,
        round_pk: i64,
    ) -> impl Future<Output = StoreResult<Vec<CasinoBet>>> + Send;
    fn open_casino_bets(
        &self,
        user_id: i64,
        offset: i64,
        limit: i64,
    ) -> impl Future<Output = StoreResult<(Vec<CasinoBet>, i64)>> + Send;
}

impl CasinoReads for Store {
    /// The games in display order: every game, or only the active ones of one series.
    async fn casino_games(
        &self,
        active_only: bool,
        series_id: Option<&str>,
    ) -> StoreResult<Vec<CasinoGame>> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM casino_games WHERE ($1 = 0 OR is_active = 1) AND ($2 = '' OR series_id = $2) \
             ORDER BY display_order, id"
        ))
        .bind(i64::from(active_only))
        .bind(series_id.unwrap_or(""))
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(game_from_row).collect::<Result<_, _>>()?)
    }

    /// The game with this `match_id`.
    async fn casino_game(&self, id: i64) -> StoreResult<CasinoGame> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM casino_games WHERE id = $1"))
            .bind(id)
            .fetch_optional(self.pool())
            .await?
            .ok_or(StoreError::NotFound)?;
        Ok(game_from_row(&row)?)
    }

    /// The game whose client code or rules code is `code`.
    async fn casino_game_by_code(&self, code: &str) -> StoreResult<CasinoGame> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM casino_games WHERE game_code = $1 OR kind = $1 ORDER BY id LIMIT 1"
        ))
        .bind(code)
        .fetch_optional(self.pool())
        .await?
        .ok_or(StoreError::NotFound)?;
        Ok(game_from_row(&row)?)
    }

    /// A round by its public id.
    async fn casino_round(&self, round_id: &str) -> StoreResult<CasinoRound> {
        let row = sqlx::query(&format!(
            "SELECT {ROUND_COLUMNS} FROM casino_rounds r JOIN casino_games g ON g.id = r.game_id WHERE r.round_id = $1"
        ))
        .bind(round_id)
        .fetch_optional(self.pool())
        .await?
        .ok_or(StoreError::NotFound)?;
        Ok(round_from_row(&row)?)
    }

    /// The game's newest round, whatever its phase.
    async fn latest_casino_round(&self, game_id: i64) -> StoreResult<Option<CasinoRound>> {
        let row = sqlx::query(&format!(
            "SELECT {ROUND_COLUMNS} FROM casino_rounds r JOIN casino_games g ON g.id = r.game_id \
             WHERE r.game_id = $1 ORDER BY r.id DESC LIMIT 1"
        ))
        .bind(game_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(round_from_row).transpose()?)
    }

    /// The game's rounds not yet settled, oldest first (what a restarted runner resumes).
    async fn unfinished_casino_rounds(&self, game_id: i64) -> StoreResult<Vec<CasinoRound>> {
        let rows = sqlx::query(&format!(
            "SELECT {ROUND_COLUMNS} FROM casino_rounds r JOIN casino_games g ON g.id = r.game_id \
             WHERE r.game_id = $1 AND r.phase <> 'settled' ORDER BY r.id"
        ))
        .bind(game_id)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(round_from_row).collect::<Result<_, _>>()?)
    }

    /// Settled rounds of a game settled between two times (inclusive), newest first, and how
    /// many there are.
    async fn casino_results(
        &self,
        game_id: i64,
        from_ms: i64,
        to_ms: i64,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<CasinoRound>, i64)> {
        let limit = limit.clamp(1, MAX_CASINO_ROWS);
        let filter = "FROM casino_rounds r JOIN casino_games g ON g.id = r.game_id \
             WHERE r.game_id = $1 AND r.phase = 'settled' AND r.settled_at_ms >= $2 AND r.settled_at_ms <= $3";
        let rows = sqlx::query(&format!(
            "SELECT {ROUND_COLUMNS} {filter} ORDER BY r.id DESC LIMIT $4 OFFSET $5"
        ))
        .bind(game_id)
        .bind(from_ms)
        .bind(to_ms)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {filter}"))
            .bind(game_id)
            .bind(from_ms)
            .bind(to_ms)
            .fetch_one(self.pool())
            .await?;
        Ok((rows.iter().map(round_from_row).collect::<Result<_, _>>()?, total))
    }

    /// A user's bets in one round, oldest first.
    async fn casino_bets_in_round(
        &self,
        user_id: i64,
        round_pk: i64,
    ) -> StoreResult<Vec<CasinoBet>> {
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} {BET_FROM} WHERE b.round_id = $1 AND b.user_id = $2 ORDER BY b.id LIMIT $3"
        ))
        .bind(round_pk)
        .bind(user_id)
        .bind(MAX_CASINO_ROWS)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(bet_from_row).collect::<Result<_, _>>()?)
    }

    /// A user's casino bets still waiting for their round, newest first, and how many.
    async fn open_casino_bets(
        &self,
        user_id: i64,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<CasinoBet>, i64)> {
        let limit = limit.clamp(1, MAX_CASINO_ROWS);
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} {BET_FROM} WHERE b.user_id = $1 AND b.status = 'open' ORDER BY b.id DESC LIMIT $2 OFFSET $3"
        ))
        .bind(user_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM casino_bets WHERE user_id = $1 AND status = 'open'",
        )
        .bind(user_id)
        .fetch_one(self.pool())
        .await?;
        Ok((rows.iter().map(bet_from_row).collect::<Result<_, _>>()?, total))
    }
}

/// The casino's writes in a [`Writer`]'s transaction: a trait, because `Writer` is
/// backlay-store's type and only that crate can add methods of its own to it.
pub trait CasinoWrites {
    fn set_casino_game_active(
        &mut self,
        game_id: i64,
        active: bool,
    ) -> impl Future<Output = StoreResult<()>> + Send;
    fn set_casino_game_image(
        &mut self,
        game_id: i64,
        image_name: Option<&str>,
    ) -> impl Future<Output = StoreResult<()>> + Send;
    fn insert_casino_round(
        &mut self,
        round: &NewRound<'_>,
    ) -> impl Future<Output = StoreResult<i64>> + Send;
    fn close_casino_round(
        &mut self,
        round_pk: i64,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn reveal_casino_round(
        &mut self,
        round_pk: i64,
        deal_json: &str,
        result_json: &str,
        winner: &str,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn place_casino_bet(
        &mut self,
        bet: &NewCasinoBet<'_>,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<(i64, i64)>> + Send;
    fn settle_casino_round(
        &mut self,
        round_pk: i64,
        remark: &str,
        now_ms: i64,
        judge: impl Fn(&CasinoBet) -> (CasinoBetStatus, i64) + Send,
        describe: impl Fn(&CasinoBet) -> String + Send,
    ) -> impl Future<Output = StoreResult<Option<SettledRound>>> + Send;
}

impl CasinoWrites for Writer {
    /// Switches a game on or off; `NotFound` when no game has `game_id`. Off, its rounds stop
    /// opening and bets on it are refused; a round already open still settles.
    async fn set_casino_game_active(&mut self, game_id: i64, active: bool) -> StoreResult<()> {
        let updated = sqlx::query("UPDATE casino_games SET is_active = $2 WHERE id = $1")
            .bind(game_id)
            .bind(flag(active))
            .execute(self.conn())
            .await?;
        if updated.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Shows the uploaded image `image_name` on the game's tile instead of its art, or the art
    /// again with `None`. `NotFound` when no game has `game_id` or no uploaded image has that
    /// name (the foreign key refuses it, so a name can never point at nothing).
    async fn set_casino_game_image(
        &mut self,
        game_id: i64,
        image_name: Option<&str>,
    ) -> StoreResult<()> {
        let updated = sqlx::query("UPDATE casino_games SET image_name = $2 WHERE id = $1")
            .bind(game_id)
            .bind(image_name)
            .execute(self.conn())
            .await;
        match updated {
            Ok(done) if done.rows_affected() == 0 => Err(StoreError::NotFound),
            Ok(_) => Ok(()),
            Err(err) if is_foreign_key_violation(&err) => Err(StoreError::NotFound),
            Err(err) => Err(err.into()),
        }
    }

    /// Stores a new round in its betting phase; returns its row id.
    async fn insert_casino_round(&mut self, round: &NewRound<'_>) -> StoreResult<i64> {
        assert!(round.close_at_ms > round.opened_at_ms, "a round closes after it opens");
        Ok(sqlx::query_scalar(
            "INSERT INTO casino_rounds (round_id, game_id, commitment, seed_hex, opened_at_ms, close_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(round.round_id)
        .bind(round.game_id)
        .bind(round.commitment)
        .bind(round.secret_seed_hex)
        .bind(round.opened_at_ms)
        .bind(round.close_at_ms)
        .fetch_one(self.conn())
        .await?)
    }

    /// betting → closed, only at or after its close time. False when it was not betting or
    /// it is too early.
    async fn close_casino_round(&mut self, round_pk: i64, now_ms: i64) -> StoreResult<bool> {
        let result = sqlx::query(
            "UPDATE casino_rounds SET phase = 'closed' WHERE id = $1 AND phase = 'betting' AND close_at_ms <= $2",
        )
        .bind(round_pk)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// closed → dealt, with the deal and result made public. False when it was not closed.
    async fn reveal_casino_round(
        &mut self,
        round_pk: i64,
        deal_json: &str,
        result_json: &str,
        winner: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let result = sqlx::query(
            "UPDATE casino_rounds SET phase = 'dealt', deal_json = $2, result_json = $3, winner = $4, dealt_at_ms = $5 \
             WHERE id = $1 AND phase = 'closed'",
        )
        .bind(round_pk)
        .bind(deal_json)
        .bind(result_json)
        .bind(winner)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(result.rows_affected() == 1)
    }

    /// Places a bet: claims a place in the round while it is betting and `now_ms` is before
    /// its close, debits the stake into the house (refused with the available amount when the
    /// user cannot cover it), and stores the bet. Returns the bet id and the user's balance
    /// after. Drop the writer on error: nothing is written.
    async fn place_casino_bet(
        &mut self,
        bet: &NewCasinoBet<'_>,
        now_ms: i64,
    ) -> StoreResult<(i64, i64)> {
        assert!(bet.stake_minor > 0, "a stake is positive");
        let claimed = sqlx::query(
            "UPDATE casino_rounds SET bet_count = bet_count + 1, staked_minor = staked_minor + $2 \
             WHERE id = $1 AND phase = 'betting' AND close_at_ms > $3",
        )
        .bind(bet.round_pk)
        .bind(bet.stake_minor)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        if claimed.rows_affected() != 1 {
            return Err(StoreError::Conflict("betting on this round has closed".into()));
        }
        let user_account = self.account_of_user(bet.user_id).await?;
        let house = self.system_account(SystemAccount::House).await?;
        let posted = self
            .post(
                NewTransaction {
                    kind: TransactionKind::Casino,
                    actor_user_id: Some(bet.user_id),
                    remark: bet.remark.clone(),
                    market_id: None,
                    postings: vec![
                        Posting {
                            account_id: user_account,
                            amount_minor: -bet.stake_minor,
                            description: bet.description.clone(),
                        },
                        Posting {
                            account_id: house,
                            amount_minor: bet.stake_minor,
                            description: bet.description.clone(),
                        },
                    ],
                },
                now_ms,
            )
            .await?;
        let bet_id: i64 = sqlx::query_scalar(
            "INSERT INTO casino_bets (user_id, round_id, market_code, market_name, odds_hundredths, stake_minor, \
             transaction_id, created_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        )
        .bind(bet.user_id)
        .bind(bet.round_pk)
        .bind(bet.market_code)
        .bind(bet.market_name)
        .bind(bet.odds_hundredths)
        .bind(bet.stake_minor)
        .bind(posted.transaction_id)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?;
        let balance_after =
            posted.balance_after(user_account).expect("the bettor's account was posted");
        Ok((bet_id, balance_after))
    }

    /// Settles a dealt round exactly once: marks it settled (a round not in `dealt` answers
    /// `None`, so a second or concurrent call changes nothing), judges every bet with `judge`
    /// (status and what the bettor gets back, stake included), and pays the winners from the
    /// house in one ledger transaction. `describe` writes a winner's statement line.
    async fn settle_casino_round(
        &mut self,
        round_pk: i64,
        remark: &str,
        now_ms: i64,
        judge: impl Fn(&CasinoBet) -> (CasinoBetStatus, i64) + Send,
        describe: impl Fn(&CasinoBet) -> String + Send,
    ) -> StoreResult<Option<SettledRound>> {
        let claimed = sqlx::query(
            "UPDATE casino_rounds SET phase = 'settled', settled_at_ms = $2 WHERE id = $1 AND phase = 'dealt'",
        )
        .bind(round_pk)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        if claimed.rows_affected() != 1 {
            return Ok(None);
        }
        let rows = sqlx::query(&format!(
            "SELECT {BET_COLUMNS} {BET_FROM} WHERE b.round_id = $1 ORDER BY b.id"
        ))
        .bind(round_pk)
        .fetch_all(self.conn())
        .await?;
        let bets = rows.iter().map(bet_from_row).collect::<Result<Vec<_>, _>>()?;
        let house = self.system_account(SystemAccount::House).await?;
        let mut postings = Vec::new();
        let mut paid_minor: i64 = 0;
        let mut judged = Vec::with_capacity(bets.len());
        for bet in &bets {
            assert_eq!(bet.status, CasinoBetStatus::Open, "a bet of an unsettled round is open");
            let (status, payout_minor) = judge(bet);
            assert!(
                status != CasinoBetStatus::Open && payout_minor >= 0,
                "a judged bet is settled"
            );
            if payout_minor > 0 {
                let account_id = self.account_of_user(bet.user_id).await?;
                postings.push(Posting {
                    account_id,
                    amount_minor: payout_minor,
                    description: describe(bet),
                });
                paid_minor = paid_minor.checked_add(payout_minor).expect("payouts fit in i64");
            }
            judged.push((bet.id, status, payout_minor));
        }
        // The house's result with each player (stakes kept less payouts) shared up its agents:
        // the stakes are in `house` since the bets, so the agents' parts move out of it.
        let mut per_player: BTreeMap<i64, i64> = BTreeMap::new();
        for (bet, (_, _, payout_minor)) in bets.iter().zip(&judged) {
            *per_player.entry(bet.user_id).or_default() += bet.stake_minor - payout_minor;
        }
        let mut split = HouseSplit::default();
        for (user_id, house_result_minor) in per_player {
            self.split_house_result(&mut split, user_id, house_result_minor, Part::House).await?;
        }
        postings.extend(
            split.postings(Part::House, &format!("Casino round {remark}: partnership share")),
        );
        let house_minor = -paid_minor - split.agents_total_minor(Part::House);
        let transaction_id = if !postings.is_empty() {
            if house_minor != 0 {
                postings.push(Posting {
                    account_id: house,
                    amount_minor: house_minor,
                    description: format!("Casino payouts: round {remark}"),
                });
            }
            let posted = self
                .post(
                    NewTransaction {
                        kind: TransactionKind::Casino,
                        actor_user_id: None,
                        remark: remark.to_owned(),
                        market_id: None,
                        postings,
                    },
                    now_ms,
                )
                .await?;
            Some(posted.transaction_id)
        } else {
            None
        };
        self.record_splits(transaction_id, None, &split, now_ms).await?;
        for (bet_id, status, payout_minor) in judged {
            sqlx::query(
                "UPDATE casino_bets SET status = $2, payout_minor = $3, settled_at_ms = $4 WHERE id = $1 AND status = 'open'",
            )
            .bind(bet_id)
            .bind(status.as_str())
            .bind(payout_minor)
            .bind(now_ms)
            .execute(self.conn())
            .await?;
        }
        sqlx::query("UPDATE casino_rounds SET paid_minor = $2, transaction_id = $3 WHERE id = $1")
            .bind(round_pk)
            .bind(paid_minor)
            .bind(transaction_id)
            .execute(self.conn())
            .await?;
        Ok(Some(SettledRound { bets: bets.len() as i64, paid_minor, transaction_id }))
    }
}
