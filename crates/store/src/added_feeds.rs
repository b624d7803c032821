//! Live feeds an admin added from the console (`added_feeds`): written with the audit row of
//! each step (added, paused, resumed, removed), read when the feeds start, so that a restart (or
//! a cluster's next leading node) runs the same feeds, paused if they were, and never one that
//! was removed.

use sqlx::Row;

use crate::{named, Store, StoreResult, Writer};

backlay_core::named_enum! {
    /// What the operator last made of an added feed.
    pub enum AddedFeedState as "added feed state" {
        Running = "running",
        Paused = "paused",
        Removed = "removed",
    }
}

/// A feed added from the console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddedFeed {
    pub id: i64,
    /// `betfair-stream:HOST:PORT`.
    pub source: String,
    /// The market filter's items.
    pub markets: Vec<String>,
    pub state: AddedFeedState,
}

impl Store {
    /// The added feeds not removed, oldest first.
    pub async fn added_feeds(&self) -> StoreResult<Vec<AddedFeed>> {
        let rows = sqlx::query(
            "SELECT id, source, markets, state FROM added_feeds WHERE state <> 'removed' ORDER BY id",
        )
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                let markets: String = row.try_get("markets")?;
                Ok(AddedFeed {
                    id: row.try_get("id")?,
                    source: row.try_get("source")?,
                    markets: markets.split(',').map(str::to_owned).collect(),
                    state: named(row, "state")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

impl Writer {
    /// Records a feed the admin `added_by` just added; answers its id.
    pub async fn add_feed(
        &mut self,
        source: &str,
        markets: &[String],
        added_by: i64,
        now_ms: i64,
    ) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "INSERT INTO added_feeds (source, markets, state, added_by, added_at_ms) \
             VALUES ($1, $2, 'running', $3, $4) RETURNING id",
        )
        .bind(source)
        .bind(markets.join(","))
        .bind(added_by)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?)
    }

    /// Records what the operator made of an added feed.
    pub async fn set_added_feed_state(
        &mut self,
        id: i64,
        state: AddedFeedState,
    ) -> StoreResult<()> {
        sqlx::query("UPDATE added_feeds SET state = $1 WHERE id = $2")
            .bind(state.as_str())
            .bind(id)
            .execute(self.conn())
            .await?;
        Ok(())
    }
}
