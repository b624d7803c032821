//! The audit log: who did what to whom, for every operator action and security event.

use sqlx::Row;

use crate::{Store, StoreResult, Writer};

#[derive(Clone, Debug)]
pub struct AuditEntry {
    pub id: i64,
    pub actor_user_id: Option<i64>,
    pub action: String,
    pub target: String,
    /// JSON text.
    pub detail: String,
    pub client_ip: Option<String>,
    pub created_at_ms: i64,
}

/// An entry to write; `actor_user_id` is `None` for the operator console and the system.
#[derive(Clone, Debug)]
pub struct NewAuditEntry<'a> {
    pub actor_user_id: Option<i64>,
    pub action: &'a str,
    pub target: String,
    pub detail: serde_json::Value,
    pub client_ip: Option<&'a str>,
}

impl Store {
    /// The latest entries, newest first.
    pub async fn audit_entries(
        &self,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<AuditEntry>, i64)> {
        let rows = sqlx::query(
            "SELECT id, actor_user_id, action, target, detail, client_ip, created_at_ms FROM audit_log \
             ORDER BY id DESC LIMIT $1 OFFSET $2",
        )
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM audit_log").fetch_one(self.pool()).await?;
        let entries = rows
            .iter()
            .map(|row| {
                Ok(AuditEntry {
                    id: row.try_get("id")?,
                    actor_user_id: row.try_get("actor_user_id")?,
                    action: row.try_get("action")?,
                    target: row.try_get("target")?,
                    detail: row.try_get("detail")?,
                    client_ip: row.try_get("client_ip")?,
                    created_at_ms: row.try_get("created_at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        Ok((entries, total))
    }

    /// Writes one entry outside any other transaction (security events such as a refused log-in).
    pub async fn audit(&self, entry: NewAuditEntry<'_>, now_ms: i64) -> StoreResult<()> {
        let mut writer = self.begin_write().await?;
        writer.audit(entry, now_ms).await?;
        writer.commit().await
    }
}

impl Writer {
    /// Writes one entry in the caller's transaction, so the action and its record land together.
    pub async fn audit(&mut self, entry: NewAuditEntry<'_>, now_ms: i64) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO audit_log (actor_user_id, action, target, detail, client_ip, created_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(entry.actor_user_id)
        .bind(entry.action)
        .bind(entry.target)
        .bind(entry.detail.to_string())
        .bind(entry.client_ip)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }
}
