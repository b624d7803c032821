//! Site-wide settings (`global_settings`): a key → text table. Which keys exist, their defaults
//! and how each is validated is the server's business; here they are only stored.

use std::collections::BTreeMap;

use sqlx::Row;

use crate::{Store, StoreResult, Writer};

impl Store {
    pub async fn settings(&self) -> StoreResult<BTreeMap<String, String>> {
        let rows =
            sqlx::query("SELECT key, value FROM global_settings").fetch_all(self.pool()).await?;
        rows.iter()
            .map(|row| Ok((row.try_get("key")?, row.try_get("value")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

impl Writer {
    pub async fn set_setting(&mut self, key: &str, value: &str, now_ms: i64) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO global_settings (key, value, updated_at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at_ms = excluded.updated_at_ms",
        )
        .bind(key)
        .bind(value)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }
}
