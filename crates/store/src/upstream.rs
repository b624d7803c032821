//! Links from what an upstream feed calls a match, market or runner to the row it made here
//! (`upstream_links`). A link is written in the transaction that makes its row
//! ([`Writer::link_upstream`]), so a feed that restarts joins what it made instead of making it
//! twice.

use sqlx::Row;

use crate::{is_unique_violation, Store, StoreError, StoreResult, Writer};

/// What a link names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpstreamKind {
    Match,
    Market,
    Runner,
}

impl UpstreamKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            UpstreamKind::Match => "match",
            UpstreamKind::Market => "market",
            UpstreamKind::Runner => "runner",
        }
    }
}

impl Store {
    /// The local id an upstream reference was linked to, if any.
    pub async fn upstream_link(
        &self,
        kind: UpstreamKind,
        upstream_ref: &str,
    ) -> StoreResult<Option<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT local_id FROM upstream_links WHERE kind = $1 AND upstream_ref = $2",
        )
        .bind(kind.as_str())
        .bind(upstream_ref)
        .fetch_optional(self.pool())
        .await?)
    }

    /// Every link of a kind whose reference starts with `prefix` (a market's runners:
    /// `"1.197931750:"`), by reference.
    pub async fn upstream_links_under(
        &self,
        kind: UpstreamKind,
        prefix: &str,
    ) -> StoreResult<Vec<(String, i64)>> {
        let rows = sqlx::query(
            "SELECT upstream_ref, local_id FROM upstream_links \
             WHERE kind = $1 AND substr(upstream_ref, 1, length($2)) = $2 ORDER BY upstream_ref",
        )
        .bind(kind.as_str())
        .bind(prefix)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("upstream_ref")?, row.try_get("local_id")?)))
            .collect()
    }
}

impl Writer {
    /// Links an upstream reference to a row made in this transaction. A reference already
    /// linked is a conflict ([`crate::StoreError::Conflict`]): two feeds raced to make it.
    pub async fn link_upstream(
        &mut self,
        kind: UpstreamKind,
        upstream_ref: &str,
        local_id: i64,
    ) -> StoreResult<()> {
        let inserted = sqlx::query(
            "INSERT INTO upstream_links (kind, upstream_ref, local_id) VALUES ($1, $2, $3)",
        )
        .bind(kind.as_str())
        .bind(upstream_ref)
        .bind(local_id)
        .execute(self.conn())
        .await;
        match inserted {
            Ok(_) => Ok(()),
            Err(err) if is_unique_violation(&err) => Err(StoreError::Conflict(format!(
                "the upstream {} {upstream_ref} is already linked",
                kind.as_str()
            ))),
            Err(err) => Err(err.into()),
        }
    }
}
