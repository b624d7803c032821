//! The audit log: who did what to whom, for every operator action and security event.
//!
//! Every entry says who acted (`actor_user_id`, `None` for the console and the system), what
//! (`action`, `area.verb`), to whom (`target`, e.g. `user:12`, read back with the account's
//! name: [`AuditListed::target_name`]), from where (`client_ip`) and, in `detail`, the rest:
//! the names beside the ids, before → after for a change, money in rupees (JSON numbers such
//! as `1250.5`, never paise).
//!
//! One kind of entry an outsider can cause without an account is bounded apart: log-ins with
//! a user name nobody has ([`Store::audit_unknown_login`]) are counted into one entry per
//! hour instead of one each.

use std::future::Future;

use sqlx::Row;

use backlay_store::repository::{like_escape, numbered};
use backlay_store::{Engine, Store, StoreResult, Writer};

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
    /// What the target names ([`TARGET_NAMES`]): the account, the market, the match, or the
    /// account that asked for a payment; `None` for other targets or one no longer there.
    pub target_name: Option<String>,
}

/// The targets read back with a name, and the read of the names (`id`, `name`) of a list of
/// their ids (fixed SQL, the list's placeholders appended).
const TARGET_NAMES: [(&str, &str); 4] = [
    ("user", "SELECT id, user_name AS name FROM users WHERE id IN"),
    ("market", "SELECT id, name FROM markets WHERE id IN"),
    ("match", "SELECT id, name FROM matches WHERE id IN"),
    (
        "payment_request",
        "SELECT r.id, u.user_name AS name FROM payment_requests r JOIN users u ON u.id = r.user_id WHERE r.id IN",
    ),
];

/// The action of the hourly count of log-ins with unknown user names.
pub const UNKNOWN_LOGIN_ACTION: &str = "user.login_unknown";
/// One entry counts the unknown-name log-ins of this long.
pub const UNKNOWN_LOGIN_WINDOW_MS: i64 = 3_600_000;
/// Distinct names (and addresses) an hour's entry lists; past them it only counts.
pub const UNKNOWN_LOGIN_SAMPLES_MAX: usize = 20;
/// Longest name an hour's entry keeps of each, in characters.
const UNKNOWN_LOGIN_NAME_CHARS_MAX: usize = 64;

// Every filter is always bound, switched off by a value no entry has (-1 for an id, '' for an
// action), so one statement serves both engines without building SQL per filter. An area
// matches by LIKE with `_` and `%` escaped, since area names hold underscores (`world_casino`).
const AUDIT_WHERE: &str = "WHERE ($1 = -1 OR l.actor_user_id = $1) \
     AND ($2 = '' OR l.action = $2 OR l.action LIKE $3 ESCAPE '\\') \
     AND l.created_at_ms >= $4 AND l.created_at_ms <= $5";

/// The audit log on the [`Store`]: its pages, and entries written each in a transaction of
/// its own (so not `AuditReads`). A trait, because `Store` is backlay-store's type and only
/// that crate can add methods of its own to it.
pub trait AuditLog {
    fn audit_entries(
        &self,
        filter: &AuditFilter,
        offset: i64,
        limit: i64,
    ) -> impl Future<Output = StoreResult<(Vec<AuditListed>, i64)>> + Send;
    fn audit_unknown_login(
        &self,
        user_name: &str,
        client_ip: Option<&str>,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<()>> + Send;
    fn audit(
        &self,
        entry: NewAuditEntry<'_>,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<()>> + Send;
}

impl AuditLog for Store {
    /// The entries `filter` picks, newest first, with how many it picks in all.
    async fn audit_entries(
        &self,
        filter: &AuditFilter,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<AuditListed>, i64)> {
        let actor = filter.actor_user_id.unwrap_or(-1);
        let action = filter.action.as_deref().map(str::trim).unwrap_or_default();
        let area = format!("{}.%", like_escape(action));
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
        let mut entries = rows
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
                    target_name: None,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        name_targets(self, &mut entries).await?;
        Ok((entries, total))
    }

    /// Records a log-in with a user name nobody has. An attacker can send as many names as the
    /// log-in throttle lets through, from as many addresses as they hold, so these are not one
    /// entry each: the hour's one entry counts them (`attempts`) and lists the first
    /// [`UNKNOWN_LOGIN_SAMPLES_MAX`] distinct names and addresses. The table grows by at most
    /// one such entry an hour, each of bounded size. (Two first attempts of an hour at once may
    /// each start one: a second entry that hour, no more than the writers at that moment.)
    async fn audit_unknown_login(
        &self,
        user_name: &str,
        client_ip: Option<&str>,
        now_ms: i64,
    ) -> StoreResult<()> {
        let window_start_ms = now_ms - now_ms.rem_euclid(UNKNOWN_LOGIN_WINDOW_MS);
        let name: String = user_name.chars().take(UNKNOWN_LOGIN_NAME_CHARS_MAX).collect();
        let mut writer = self.begin_write().await?;
        // PostgreSQL: the hour's entry held until commit, so two attempts at once count two
        // (SQLite's one writer already orders them).
        let lock = if self.engine() == Engine::Postgres { " FOR UPDATE" } else { "" };
        let current: Option<(i64, String)> = sqlx::query_as(&format!(
            "SELECT id, detail FROM audit_log WHERE action = $1 AND created_at_ms >= $2 \
             ORDER BY id DESC LIMIT 1{lock}"
        ))
        .bind(UNKNOWN_LOGIN_ACTION)
        .bind(window_start_ms)
        .fetch_optional(writer.conn())
        .await?;
        let add = |list: &mut Vec<serde_json::Value>, value: &str| {
            if list.len() < UNKNOWN_LOGIN_SAMPLES_MAX && !list.iter().any(|v| v == value) {
                list.push(value.into());
            }
        };
        match current {
            Some((id, detail)) => {
                let mut detail: serde_json::Value =
                    serde_json::from_str(&detail).unwrap_or_else(|_| serde_json::json!({}));
                let attempts = detail["attempts"].as_i64().unwrap_or(0) + 1;
                let mut names = detail["user_names"].as_array().cloned().unwrap_or_default();
                let mut ips = detail["client_ips"].as_array().cloned().unwrap_or_default();
                add(&mut names, &name);
                if let Some(ip) = client_ip {
                    add(&mut ips, ip);
                }
                detail = serde_json::json!({
                    "attempts": attempts, "user_names": names, "client_ips": ips,
                    "last_at_ms": now_ms,
                });
                sqlx::query("UPDATE audit_log SET detail = $1 WHERE id = $2")
                    .bind(detail.to_string())
                    .bind(id)
                    .execute(writer.conn())
                    .await?;
            }
            None => {
                writer
                    .audit(
                        NewAuditEntry {
                            actor_user_id: None,
                            action: UNKNOWN_LOGIN_ACTION,
                            target: "login".into(),
                            detail: serde_json::json!({
                                "attempts": 1, "user_names": [name],
                                "client_ips": client_ip.into_iter().collect::<Vec<_>>(),
                                "last_at_ms": now_ms,
                            }),
                            client_ip,
                        },
                        now_ms,
                    )
                    .await?;
            }
        }
        writer.commit().await
    }

    /// Writes one entry outside any other transaction (security events such as a refused log-in).
    async fn audit(&self, entry: NewAuditEntry<'_>, now_ms: i64) -> StoreResult<()> {
        let mut writer = self.begin_write().await?;
        writer.audit(entry, now_ms).await?;
        writer.commit().await
    }
}

/// Fills in what the page's targets name ([`TARGET_NAMES`]), one read per kind of target
/// on the page (a page is bounded, so is each list).
async fn name_targets(store: &Store, entries: &mut [AuditListed]) -> StoreResult<()> {
    for (prefix, select) in TARGET_NAMES {
        let target_id = |entry: &AuditListed| {
            let id = entry.entry.target.strip_prefix(prefix)?.strip_prefix(':')?;
            id.parse::<i64>().ok()
        };
        let mut ids: Vec<i64> = entries.iter().filter_map(target_id).collect();
        ids.sort_unstable();
        ids.dedup();
        if ids.is_empty() {
            continue;
        }
        let sql = format!("{select} ({})", numbered(ids.len()));
        let mut query = sqlx::query(&sql);
        for id in &ids {
            query = query.bind(*id);
        }
        let names: std::collections::HashMap<i64, String> = query
            .fetch_all(store.pool())
            .await?
            .iter()
            .map(|row| Ok((row.try_get("id")?, row.try_get("name")?)))
            .collect::<Result<_, sqlx::Error>>()?;
        for entry in entries.iter_mut() {
            if let Some(name) = target_id(entry).and_then(|id| names.get(&id)) {
                entry.target_name = Some(name.clone());
            }
        }
    }
    Ok(())
}

/// An audit entry written in a [`Writer`]'s transaction, beside the action it records: a
/// trait, because `Writer` is backlay-store's type and only that crate can add methods of its
/// own to it.
pub trait AuditWrites {
    fn audit(
        &mut self,
        entry: NewAuditEntry<'_>,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<()>> + Send;
}

impl AuditWrites for Writer {
    /// Writes one entry in the caller's transaction, so the action and its record land together.
    async fn audit(&mut self, entry: NewAuditEntry<'_>, now_ms: i64) -> StoreResult<()> {
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
