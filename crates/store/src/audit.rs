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

/// Which entries to read. [`AuditFilter::default`] reads every entry.
#[derive(Clone, Debug)]
pub struct AuditFilter {
    /// Only what this user did.
    pub actor_user_id: Option<i64>,
    /// An action (`chips.transfer`), or a whole area of them (`chips`: every `chips.…`).
    pub action: Option<String>,
    /// Written at or after this time.
    pub from_ms: i64,
    /// Written at or before this time.
    pub to_ms: i64,
}

impl Default for AuditFilter {
    fn default() -> AuditFilter {
        AuditFilter { actor_user_id: None, action: None, from_ms: 0, to_ms: i64::MAX }
    }
}

/// An entry as the log shows it: the acting user's name beside its id.
#[derive(Clone, Debug)]
pub struct AuditListed {
    pub entry: AuditEntry,
    /// `None` for the operator console and the system, or a user no longer there.
    pub actor_name: Option<String>,
}

// Every filter is always bound, switched off by a value no entry has (-1 for an id, '' for an
// action), so one statement serves both engines without building SQL per filter. An area
// matches by LIKE with `_` and `%` escaped, since area names hold underscores (`world_casino`).
const AUDIT_WHERE: &str = "WHERE ($1 = -1 OR l.actor_user_id = $1) \
     AND ($2 = '' OR l.action = $2 OR l.action LIKE $3 ESCAPE '\\') \
     AND l.created_at_ms >= $4 AND l.created_at_ms <= $5";

impl Store {
    /// The entries `filter` picks, newest first, with how many it picks in all.
    pub async fn audit_entries(
        &self,
        filter: &AuditFilter,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<AuditListed>, i64)> {
        let actor = filter.actor_user_id.unwrap_or(-1);
        let action = filter.action.as_deref().map(str::trim).unwrap_or_default();
        let area = format!("{}.%", crate::like_escape(action));
        let sql = format!(
            "SELECT l.id, l.actor_user_id, l.action, l.target, l.detail, l.client_ip, l.created_at_ms, \
             u.user_name AS actor_name FROM audit_log l LEFT JOIN users u ON u.id = l.actor_user_id \
             {AUDIT_WHERE} ORDER BY l.id DESC LIMIT $6 OFFSET $7"
        );
        let rows = sqlx::query(&sql)
            .bind(actor)
            .bind(action)
            .bind(&area)
            .bind(filter.from_ms)
            .bind(filter.to_ms)
            .bind(limit)
            .bind(offset)
            .fetch_all(self.pool())
            .await?;
        let total: i64 =
            sqlx::query_scalar(&format!("SELECT COUNT(*) FROM audit_log l {AUDIT_WHERE}"))
                .bind(actor)
                .bind(action)
                .bind(&area)
                .bind(filter.from_ms)
                .bind(filter.to_ms)
                .fetch_one(self.pool())
                .await?;
        let entries = rows
            .iter()
            .map(|row| {
                Ok(AuditListed {
                    entry: AuditEntry {
                        id: row.try_get("id")?,
                        actor_user_id: row.try_get("actor_user_id")?,
                        action: row.try_get("action")?,
                        target: row.try_get("target")?,
                        detail: row.try_get("detail")?,
                        client_ip: row.try_get("client_ip")?,
                        created_at_ms: row.try_get("created_at_ms")?,
                    },
                    actor_name: row.try_get("actor_name")?,
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
