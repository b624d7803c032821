//! A race card's facts about a runner: its draw (a horse's stall, a greyhound's trap), its
//! jockey and its trainer, as the feed's catalogue or an operator gives them. Each is optional
//! and stays absent until someone gives it: the race card shows what exists, never a guess.
//! One row per runner (a win and a place market of one race have runners of their own, and each
//! gets its card).

use sqlx::Row;

use crate::{Store, StoreResult, Writer};

/// The most characters of a jockey's or trainer's name kept.
pub const CARD_NAME_MAX_CHARS: usize = 64;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunnerCard {
    pub runner_id: i64,
    /// The stall (horses) or trap (greyhounds), 1 to 99.
    pub draw: Option<i64>,
    pub jockey: Option<String>,
    pub trainer: Option<String>,
}

impl RunnerCard {
    /// Nothing is known of the runner.
    pub fn is_empty(&self) -> bool {
        self.draw.is_none() && self.jockey.is_none() && self.trainer.is_none()
    }
}

impl Store {
    /// The cards of every runner of a match's markets that has one, by runner id.
    pub async fn runner_cards_of_match(&self, match_id: i64) -> StoreResult<Vec<RunnerCard>> {
        let rows = sqlx::query(
            "SELECT c.runner_id, c.draw, c.jockey, c.trainer FROM runner_cards c \
             JOIN runners r ON r.id = c.runner_id JOIN markets m ON m.id = r.market_id \
             WHERE m.match_id = $1 ORDER BY c.runner_id",
        )
        .bind(match_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(RunnerCard {
                    runner_id: row.try_get("runner_id")?,
                    draw: row.try_get("draw")?,
                    jockey: row.try_get("jockey")?,
                    trainer: row.try_get("trainer")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

impl Writer {
    /// Sets a runner's card as given, replacing what it said before; a card saying nothing
    /// removes it.
    pub async fn set_runner_card(&mut self, card: &RunnerCard, now_ms: i64) -> StoreResult<()> {
        if card.is_empty() {
            sqlx::query("DELETE FROM runner_cards WHERE runner_id = $1")
                .bind(card.runner_id)
                .execute(self.conn())
                .await?;
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO runner_cards (runner_id, draw, jockey, trainer, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (runner_id) DO UPDATE SET draw = excluded.draw, jockey = excluded.jockey, \
             trainer = excluded.trainer, updated_at_ms = excluded.updated_at_ms",
        )
        .bind(card.runner_id)
        .bind(card.draw)
        .bind(card.jockey.as_deref())
        .bind(card.trainer.as_deref())
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }
}
