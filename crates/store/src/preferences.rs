//! A bettor's betting preferences (issue 32, quick betting), kept on the server so they follow
//! the bettor to any device: one-click betting and its stake, and which moves of a bookmaker's
//! rate or a fancy's line they accept when placing (the engine's `RateChanges`, stored by its
//! name). A bettor who never set them has the defaults.

use sqlx::Row;

use crate::{Store, StoreResult};

/// What the bet slip does for this bettor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preferences {
    /// A click on a price places a bet at once (after a short undo), at `one_click_stake_minor`.
    pub one_click: bool,
    /// The stake one-click bets use; `None` until the bettor chose one.
    pub one_click_stake_minor: Option<i64>,
    /// `exact`, `better` or `any` (the engine's `RateChanges`).
    pub accept_rate_changes: String,
    /// How often the reality check reminds the bettor how long they have played (issue 33).
    pub reality_check_minutes: i64,
}

/// The reality check's interval for a bettor who chose none.
pub const DEFAULT_REALITY_CHECK_MINUTES: i64 = 60;

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            one_click: false,
            one_click_stake_minor: None,
            accept_rate_changes: "exact".into(),
            reality_check_minutes: DEFAULT_REALITY_CHECK_MINUTES,
        }
    }
}

impl Store {
    /// The bettor's preferences, or the defaults.
    pub async fn preferences(&self, user_id: i64) -> StoreResult<Preferences> {
        let row = sqlx::query(
            "SELECT one_click, one_click_stake_minor, accept_rate_changes, reality_check_minutes FROM user_preferences WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(Preferences::default()) };
        Ok(Preferences {
            one_click: row.try_get::<i64, _>("one_click")? == 1,
            one_click_stake_minor: row.try_get("one_click_stake_minor")?,
            accept_rate_changes: row.try_get("accept_rate_changes")?,
            reality_check_minutes: row.try_get("reality_check_minutes")?,
        })
    }

    /// Stores the bettor's preferences whole (the caller checked them).
    pub async fn set_preferences(
        &self,
        user_id: i64,
        preferences: &Preferences,
        now_ms: i64,
    ) -> StoreResult<()> {
        let mut writer = self.begin_write().await?;
        sqlx::query(
            "INSERT INTO user_preferences (user_id, one_click, one_click_stake_minor, accept_rate_changes, reality_check_minutes, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO UPDATE SET one_click = excluded.one_click, \
             one_click_stake_minor = excluded.one_click_stake_minor, \
             accept_rate_changes = excluded.accept_rate_changes, reality_check_minutes = excluded.reality_check_minutes, \
             updated_at_ms = excluded.updated_at_ms",
        )
        .bind(user_id)
        .bind(i64::from(preferences.one_click))
        .bind(preferences.one_click_stake_minor)
        .bind(&preferences.accept_rate_changes)
        .bind(preferences.reality_check_minutes)
        .bind(now_ms)
        .execute(writer.conn())
        .await?;
        writer.commit().await?;
        Ok(())
    }
}
