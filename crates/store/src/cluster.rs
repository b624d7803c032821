//! The cluster's shared state: which servers (nodes) are alive, and which node owns each market,
//! casino table and the leader's jobs (`migrations/*/0013_cluster.sql`).
//!
//! PostgreSQL only: a SQLite database has one server, which owns everything without asking.
//! Every time here is the database's clock (`clock_timestamp()`), so the nodes' own clocks may
//! disagree without changing who is alive.
//!
//! **Fencing.** A node takes a resource by bumping its row's token; the owner's every write
//! transaction first checks, with [`Writer::check_fence`], that the row still names it with the
//! token it took and that its own lease has not run out, and holds a share lock on the row until
//! it commits. A taker's update of the row waits for that lock, so it loads the resource only
//! after the old owner's last commit, and any later write of the old owner finds the token
//! changed and rolls back ([`StoreError::Fenced`]):
//!
//! ```text
//! A owns market:7 (token 4)   A: BEGIN; check_fence ✓ (share lock) … bets … COMMIT
//! A freezes; its lease ends   B: claim market:7 → waits for A's lock → token 5 → loads
//! A wakes                     A: BEGIN; check_fence ✗ → rollback, A drops the market
//! ```
//!
//! A frozen node could hold the share lock for as long as it is frozen: the writer connections
//! of a PostgreSQL store end a transaction left idle for [`IDLE_IN_TRANSACTION_MS`] (lib.rs),
//! which releases it.

use std::sync::Arc;

use sqlx::Row;

use crate::{Store, StoreError, StoreResult, Writer};

/// The database's clock in epoch milliseconds, in SQL.
const NOW_MS: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";

/// How long a writer's transaction may sit idle before PostgreSQL ends it (and its locks).
pub const IDLE_IN_TRANSACTION_MS: u64 = 5_000;

/// How long a claim waits for a row another node holds before giving up until its next turn.
const CLAIM_LOCK_TIMEOUT: &str = "500ms";

/// What an owner's writes are checked against: the resource, the owning node and the token it
/// took the resource with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    pub resource: String,
    pub node_id: Arc<str>,
    pub token: i64,
}

/// A resource's row: who owns it (if anyone), its token, and the last offer of it
/// ([`Store::offer`]): the node it was offered to, and in how many milliseconds the offer ends
/// (negative once it has, whether or not that node took it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ownership {
    pub resource: String,
    pub node_id: Option<String>,
    pub token: i64,
    pub offered_to: Option<String>,
    pub offer_ends_in_ms: Option<i64>,
}

/// A node whose lease has not run out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveNode {
    pub node_id: String,
    pub url: String,
}

/// The cluster as one read sees it.
#[derive(Clone, Debug, Default)]
pub struct ClusterView {
    pub nodes: Vec<LiveNode>,
    pub owners: Vec<Ownership>,
    /// Each live node's load as it last wrote it ([`Store::publish_load`]), by node id.
    pub loads: std::collections::HashMap<String, f64>,
}

impl ClusterView {
    /// The live node that owns `resource`, if one does.
    pub fn owner(&self, resource: &str) -> Option<&LiveNode> {
        let owner = self.owners.iter().find(|o| o.resource == resource)?.node_id.as_deref()?;
        self.nodes.iter().find(|n| n.node_id == owner)
    }

    /// The node `resource` was offered to, while the offer lasts (taken or not yet).
    pub fn offered_to(&self, resource: &str) -> Option<&str> {
        let row = self.owners.iter().find(|o| o.resource == resource)?;
        row.offer_ends_in_ms.filter(|ms| *ms > 0).and(row.offered_to.as_deref())
    }

    /// Whether any resource was offered ([`Store::offer`]) with an offer that lasts, or ended
    /// less than `ms` ago.
    pub fn offered_within(&self, ms: i64) -> bool {
        self.owners.iter().any(|o| o.offer_ends_in_ms.is_some_and(|ends_in| ends_in > -ms))
    }
}

impl Store {
    /// This store, with `fence` checked at the start of every write transaction
    /// ([`Store::begin_write`]): the store a resource's owner writes it through.
    pub fn fenced(&self, fence: Fence) -> Store {
        let mut store = self.clone();
        store.fence = Some(Arc::new(fence));
        store
    }

    /// Adds a node with a lease of `lease_ms`.
    pub async fn join_cluster(
        &self,
        node_id: &str,
        url: &str,
        started_at_ms: i64,
        lease_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(&format!(
            "INSERT INTO cluster_nodes (node_id, url, started_at_ms, expires_at_ms) \
             VALUES ($1, $2, $3, {NOW_MS} + $4)"
        ))
        .bind(node_id)
        .bind(url)
        .bind(started_at_ms)
        .bind(lease_ms)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Extends a node's lease by `lease_ms` from now, if it has not run out; `false` when it
    /// had (the node is dead to the others, and must join again under a new id).
    pub async fn renew_lease(&self, node_id: &str, lease_ms: i64) -> StoreResult<bool> {
        let renewed = renew_lease_query(node_id, lease_ms).execute(&self.writers).await?;
        Ok(renewed.rows_affected() == 1)
    }

    /// [`Store::renew_lease`] on a connection of its own, opened for it and closed after: a
    /// renewal that failed may have drawn a pooled connection the database had cut, and the
    /// pool's other idle connections may be dead the same way.
    pub async fn renew_lease_on_new_connection(
        &self,
        node_id: &str,
        lease_ms: i64,
    ) -> StoreResult<bool> {
        use sqlx::Connection;
        let options = self.writers.connect_options();
        let mut conn = sqlx::AnyConnection::connect_with(&options).await?;
        let renewed = renew_lease_query(node_id, lease_ms).execute(&mut conn).await;
        let _ = conn.close().await;
        Ok(renewed?.rows_affected() == 1)
    }

    /// A node leaving (shutting down): it gives up what it owns and its lease, so the others take
    /// over at once rather than when the lease would have run out. Rows of dead nodes long gone
    /// are removed on the way.
    pub async fn leave_cluster(&self, node_id: &str) -> StoreResult<()> {
        let mut w = self.writers.begin().await?;
        sqlx::query("UPDATE cluster_owners SET node_id = NULL WHERE node_id = $1")
            .bind(node_id)
            .execute(&mut *w)
            .await?;
        sqlx::query(&format!(
            "DELETE FROM cluster_nodes WHERE node_id = $1 OR expires_at_ms < {NOW_MS} - 3600000"
        ))
        .bind(node_id)
        .execute(&mut *w)
        .await?;
        w.commit().await?;
        Ok(())
    }

    /// The live nodes and every ownership row.
    pub async fn cluster_view(&self) -> StoreResult<ClusterView> {
        let rows = sqlx::query(&format!(
            "SELECT node_id, url, load FROM cluster_nodes WHERE expires_at_ms > {NOW_MS} ORDER BY node_id"
        ))
        .fetch_all(self.pool())
        .await?;
        let mut nodes = Vec::with_capacity(rows.len());
        let mut loads = std::collections::HashMap::with_capacity(rows.len());
        for row in &rows {
            let node = LiveNode { node_id: row.try_get(0)?, url: row.try_get(1)? };
            loads.insert(node.node_id.clone(), row.try_get::<f64, _>(2)?);
            nodes.push(node);
        }
        let owners = sqlx::query(&format!(
            "SELECT resource, node_id, token, offered_to, offered_until_ms - {NOW_MS} \
             FROM cluster_owners"
        ))
        .fetch_all(self.pool())
        .await?
        .iter()
        .map(|row| {
            Ok(Ownership {
                resource: row.try_get(0)?,
                node_id: row.try_get(1)?,
                token: row.try_get(2)?,
                offered_to: row.try_get(3)?,
                offer_ends_in_ms: row.try_get(4)?,
            })
        })
        .collect::<Result<_, sqlx::Error>>()?;
        Ok(ClusterView { nodes, owners, loads })
    }

    /// The live node that owns `resource` now, if any.
    pub async fn owner_of(&self, resource: &str) -> StoreResult<Option<LiveNode>> {
        let row = sqlx::query(&format!(
            "SELECT n.node_id, n.url FROM cluster_owners o JOIN cluster_nodes n ON n.node_id = o.node_id \
             WHERE o.resource = $1 AND n.expires_at_ms > {NOW_MS}"
        ))
        .bind(resource)
        .fetch_optional(self.pool())
        .await?;
        Ok(match row {
            Some(row) => Some(LiveNode { node_id: row.try_get(0)?, url: row.try_get(1)? }),
            None => None,
        })
    }

    /// Takes `resource` for `node_id` if nobody alive owns it and the node's own lease holds;
    /// the new token when taken. Waits at most [`CLAIM_LOCK_TIMEOUT`] for an owner's write in
    /// flight (then it is not taken, this time).
    pub async fn claim(&self, resource: &str, node_id: &str) -> StoreResult<Option<i64>> {
        let mut w = self.writers.begin().await?;
        sqlx::query(&format!("SET LOCAL lock_timeout = '{CLAIM_LOCK_TIMEOUT}'"))
            .execute(&mut *w)
            .await?;
        let taken = sqlx::query_scalar::<_, i64>(&format!(
            "INSERT INTO cluster_owners (resource, node_id, token) \
             SELECT $1, $2, 1 WHERE EXISTS \
               (SELECT 1 FROM cluster_nodes WHERE node_id = $2 AND expires_at_ms > {NOW_MS}) \
             ON CONFLICT (resource) DO UPDATE \
               SET node_id = EXCLUDED.node_id, token = cluster_owners.token + 1 \
             WHERE (cluster_owners.node_id IS NULL OR NOT EXISTS \
               (SELECT 1 FROM cluster_nodes n WHERE n.node_id = cluster_owners.node_id \
                AND n.expires_at_ms > {NOW_MS})) \
               AND (cluster_owners.offered_to IS NULL OR cluster_owners.offered_to = EXCLUDED.node_id \
                 OR cluster_owners.offered_until_ms <= {NOW_MS}) \
             RETURNING token"
        ))
        .bind(resource)
        .bind(node_id)
        .fetch_optional(&mut *w)
        .await;
        match taken {
            Ok(token) => {
                w.commit().await?;
                Ok(token)
            }
            // 55P03: the lock wait timed out behind an owner's transaction.
            Err(sqlx::Error::Database(db)) if db.code().as_deref() == Some("55P03") => Ok(None),
            Err(other) => Err(other.into()),
        }
    }

    /// Gives `resource` up, if `fence` still holds it (for another node to take).
    pub async fn release(&self, fence: &Fence) -> StoreResult<()> {
        sqlx::query(
            "UPDATE cluster_owners SET node_id = NULL \
             WHERE resource = $1 AND node_id = $2 AND token = $3",
        )
        .bind(&fence.resource)
        .bind(&*fence.node_id)
        .bind(fence.token)
        .execute(&self.writers)
        .await?;
        Ok(())
    }

    /// Gives `resource` up, if `fence` still holds it, for node `to` alone to take within
    /// `for_ms` (anyone after): how a busy node hands a market to a quieter one. The offer stays
    /// on the row once taken, for the nodes to see that markets just moved by load
    /// ([`ClusterView::offered_within`]).
    pub async fn offer(&self, fence: &Fence, to: &str, for_ms: i64) -> StoreResult<()> {
        sqlx::query(&format!(
            "UPDATE cluster_owners SET node_id = NULL, offered_to = $4, \
               offered_until_ms = {NOW_MS} + $5 \
             WHERE resource = $1 AND node_id = $2 AND token = $3"
        ))
        .bind(&fence.resource)
        .bind(&*fence.node_id)
        .bind(fence.token)
        .bind(to)
        .bind(for_ms)
        .execute(&self.writers)
        .await?;
        Ok(())
    }

    /// Writes this node's load (calls per second to its markets) for the others to see.
    pub async fn publish_load(&self, node_id: &str, load: f64) -> StoreResult<()> {
        sqlx::query("UPDATE cluster_nodes SET load = $2 WHERE node_id = $1")
            .bind(node_id)
            .bind(load)
            .execute(&self.writers)
            .await?;
        Ok(())
    }

    /// Forgets a resource that no longer exists (a settled market).
    pub async fn forget_resource(&self, resource: &str) -> StoreResult<()> {
        sqlx::query("DELETE FROM cluster_owners WHERE resource = $1")
            .bind(resource)
            .execute(&self.writers)
            .await?;
        Ok(())
    }

    /// The ids of the markets that still take commands (neither resulted nor void).
    pub async fn live_market_ids(&self) -> StoreResult<Vec<i64>> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM markets WHERE status NOT IN ('closed', 'void') ORDER BY id",
        )
        .fetch_all(self.pool())
        .await?)
    }
}

impl Writer {
    /// Checks that `fence` still holds (see the module docs), keeping the row share-locked
    /// until this transaction ends; [`StoreError::Fenced`] when it does not. Notes the
    /// transaction's id on the way (the share lock gives it one anyway), so that an owner whose
    /// COMMIT failed can learn whether it was made ([`Store::is_transaction_in_progress`]).
    pub(crate) async fn check_fence(&mut self, fence: &Fence) -> StoreResult<()> {
        let held: Option<i64> = sqlx::query_scalar(&format!(
            "SELECT CAST(CAST(pg_current_xact_id() AS TEXT) AS BIGINT) FROM cluster_owners o \
             WHERE o.resource = $1 AND o.node_id = $2 AND o.token = $3 AND EXISTS \
               (SELECT 1 FROM cluster_nodes n WHERE n.node_id = $2 AND n.expires_at_ms > {NOW_MS}) \
             FOR SHARE"
        ))
        .bind(&fence.resource)
        .bind(&*fence.node_id)
        .bind(fence.token)
        .fetch_optional(self.conn())
        .await?;
        match held {
            Some(xact_id) => {
                self.xact_id = Some(xact_id);
                Ok(())
            }
            None => Err(StoreError::Fenced { resource: fence.resource.clone() }),
        }
    }
}

impl Store {
    /// Whether the transaction `xact_id` ([`Writer::xact_id`]) may still commit: its backend
    /// has not finished it. A COMMIT whose answer was lost (the connection cut) may still be
    /// applied after the client saw the error; a reader that wants to see its outcome waits
    /// until this is false. Transactions too old for PostgreSQL to remember count as finished.
    pub async fn is_transaction_in_progress(&self, xact_id: i64) -> StoreResult<bool> {
        let status: Option<String> =
            sqlx::query_scalar("SELECT pg_xact_status(CAST(CAST($1 AS TEXT) AS xid8))")
                .bind(xact_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(status.as_deref() == Some("in progress"))
    }
}

/// The renewal of a node's lease: see [`Store::renew_lease`].
fn renew_lease_query(
    node_id: &str,
    lease_ms: i64,
) -> sqlx::query::Query<'_, sqlx::Any, sqlx::any::AnyArguments<'_>> {
    sqlx::query(&RENEW_LEASE_SQL).bind(node_id).bind(lease_ms)
}

static RENEW_LEASE_SQL: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!(
        "UPDATE cluster_nodes SET expires_at_ms = {NOW_MS} + $2 \
         WHERE node_id = $1 AND expires_at_ms > {NOW_MS}"
    )
});

/// The advisory lock servers starting on one PostgreSQL take in turn (`Store::start_lock`).
const START_LOCK_KEY: i64 = 0x0062_6163_6b6c_6179; // "backlay" in ASCII

/// Held while a server starts (migrated, seeding an empty database): see [`Store::start_lock`].
pub struct StartLock {
    conn: sqlx::pool::PoolConnection<sqlx::Any>,
}

impl Store {
    /// On PostgreSQL, waits until no other server is starting on this database and holds the
    /// start until [`StartLock::release`], so that servers started together seed an empty
    /// database once. `None` on SQLite, where only one server runs.
    pub async fn start_lock(&self) -> StoreResult<Option<StartLock>> {
        if self.engine() != crate::Engine::Postgres {
            return Ok(None);
        }
        let mut conn = self.pool().acquire().await?;
        sqlx::query("SELECT 1 FROM (SELECT pg_advisory_lock($1)) AS locked")
            .bind(START_LOCK_KEY)
            .execute(&mut *conn)
            .await?;
        Ok(Some(StartLock { conn }))
    }
}

impl StartLock {
    pub async fn release(mut self) -> StoreResult<()> {
        sqlx::query("SELECT 1 FROM (SELECT pg_advisory_unlock($1)) AS unlocked")
            .bind(START_LOCK_KEY)
            .execute(&mut *self.conn)
            .await?;
        Ok(())
    }
}
