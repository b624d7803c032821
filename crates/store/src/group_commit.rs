//! Placement batches of many markets committed in one SQLite transaction (group commit across
//! markets), through [`Store::begin_placement`](crate::Store::begin_placement).
//!
//! Why: a market's task already places the bets that wait for it in one transaction
//! (`backlay_engine`'s group commit), but with bets spread over many markets each market's
//! batch is one or two bets. SQLite has one writer, which commits one transaction at a time
//! and waits for the WAL to reach the disk each time (synchronous=FULL): over 1,000 markets a
//! transaction per batch gave 821 bets/s at 1.00 bets a commit, against 6,806 on one market
//! (bench/RESULTS.md).
//!
//! How: one task, the committer, opens a transaction when a batch asks for one and lends it to
//! the batches that ask, one at a time, in the order they asked; each runs its statements and
//! gives it back ([`Grouped::commit`]); when no batch is waiting (or [`MAX_GROUP`] have joined)
//! the committer commits and tells every batch of the group the outcome, and only then are the
//! batches' bets answered. The batches see each other's writes in order (one connection, one
//! transaction), exactly as if they had committed one after the other.
//!
//! Each batch runs inside a savepoint of its own. A batch that fails part way gives the
//! transaction back abandoned ([`Grouped::abandon`], through `Writer::abandon`): rolled back to
//! its savepoint, so its failure is its own and the group goes on. If even that fails (or the
//! batch drops the transaction) the whole group rolls back: every batch in it hears that its
//! commit failed, and, as after any failed write, its market is rebuilt from what is committed
//! and the batch tried again (`backlay_engine`'s `market_task/placement.rs`). Nothing is
//! answered that is not committed.
//!
//! Not on PostgreSQL: there the batches of different markets run side by side on their own
//! connections and its WAL flush takes every commit waiting at once, while one shared
//! transaction would put every batch's round trips to the database in one line (measured over
//! 1,000 markets: 395 bets/s). A cluster's markets are fenced, too, each write checking its
//! node still owns its market.

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use crate::{StoreError, StoreResult};

/// Most batches in one transaction: bounds how long the first of them waits for its answer.
pub const MAX_GROUP: usize = 128;
/// Batches waiting to join, at most (one per market task at a time, so this bounds nothing a
/// request can grow).
const WAITING: usize = 4_096;

type Tx = sqlx::Transaction<'static, sqlx::Any>;
/// The savepoint each lent batch runs in: opened as it is lent, released as it is given back,
/// rolled back to when it is abandoned.
const SAVEPOINT: &str = "SAVEPOINT placement_batch";
const RELEASE: &str = "RELEASE SAVEPOINT placement_batch";
const ROLLBACK_TO: &str = "ROLLBACK TO SAVEPOINT placement_batch";
/// What a batch asking to join is sent: the group's transaction, or why there is none.
type Reply = oneshot::Sender<StoreResult<Lent>>;

/// The group's transaction, lent to one batch.
pub(crate) struct Lent {
    pub(crate) tx: Tx,
    pub(crate) grouped: Grouped,
}

/// How a batch holding the group's transaction gives it back and hears the group's outcome.
#[derive(Debug)]
pub(crate) struct Grouped {
    /// The transaction back, and whether the batch is in it (false: abandoned).
    give_back: oneshot::Sender<(Tx, bool)>,
    outcome: oneshot::Receiver<Result<(), String>>,
}

impl Grouped {
    /// Gives the transaction back with this batch's statements in it, and waits for the
    /// group's COMMIT.
    pub(crate) async fn commit(self, mut tx: Tx) -> StoreResult<()> {
        // On failure the transaction is dropped here: the group rolls back.
        sqlx::query(RELEASE).execute(&mut *tx).await?;
        self.give_back.send((tx, true)).map_err(|_| gone())?;
        match self.outcome.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(cause)) => Err(StoreError::Database(sqlx::Error::Protocol(format!(
                "the placement group's transaction was not committed: {cause}"
            )))),
            Err(_) => Err(gone()),
        }
    }

    /// Gives the transaction back without this batch: rolled back to the batch's savepoint, the
    /// group goes on. If that fails, the transaction is dropped, and the group rolls back.
    pub(crate) async fn abandon(self, mut tx: Tx) {
        if sqlx::query(ROLLBACK_TO).execute(&mut *tx).await.is_ok()
            && sqlx::query(RELEASE).execute(&mut *tx).await.is_ok()
        {
            let _ = self.give_back.send((tx, false));
        }
    }
}

/// The committer's address; its task ends when the last [`Committer`] is dropped.
#[derive(Clone, Debug)]
pub(crate) struct Committer {
    requests: mpsc::Sender<Reply>,
}

impl Committer {
    /// Starts the committer on the pool of write connections.
    pub(crate) fn start(writers: AnyPool) -> Committer {
        let (requests, waiting) = mpsc::channel(WAITING);
        tokio::spawn(run(writers, waiting));
        Committer { requests }
    }

    /// The group's transaction, once it is this batch's turn.
    pub(crate) async fn join(&self) -> StoreResult<Lent> {
        let (reply, lent) = oneshot::channel();
        self.requests.send(reply).await.map_err(|_| gone())?;
        lent.await.map_err(|_| gone())?
    }
}

fn gone() -> StoreError {
    StoreError::Database(sqlx::Error::WorkerCrashed)
}

async fn run(writers: AnyPool, mut waiting: mpsc::Receiver<Reply>) {
    while let Some(first) = waiting.recv().await {
        // The write lock at once, as every write transaction on SQLite takes it.
        let mut tx = match writers.begin_with("BEGIN IMMEDIATE").await {
            Ok(tx) => Some(tx),
            Err(err) => {
                let _ = first.send(Err(err.into()));
                continue;
            }
        };
        let mut joined: Vec<oneshot::Sender<Result<(), String>>> = Vec::new();
        let mut next = Some(first);
        // Lends the transaction to each batch waiting, while it is whole and the group not full.
        while let Some(reply) = next.take() {
            let Some(mut lend) = tx.take() else { break };
            if let Err(err) = sqlx::query(SAVEPOINT).execute(&mut *lend).await {
                // The transaction is unusable: the group rolls back, this batch hears why.
                let _ = reply.send(Err(err.into()));
                break;
            }
            let (give_back, back) = oneshot::channel();
            let (tell, outcome) = oneshot::channel();
            match reply.send(Ok(Lent { tx: lend, grouped: Grouped { give_back, outcome } })) {
                // The batch stopped waiting: the transaction comes back untouched.
                Err(Ok(unused)) => tx = Some(unused.tx),
                Err(Err(_)) => unreachable!("a Lent was sent"),
                Ok(()) => {
                    match back.await {
                        Ok((returned, true)) => {
                            tx = Some(returned);
                            joined.push(tell);
                        }
                        // Abandoned, rolled back to its savepoint: the group goes on without it.
                        Ok((returned, false)) => tx = Some(returned),
                        // The batch dropped the transaction part way: rolled back, group and
                        // all (`tx` stays `None`, and the batches still waiting open the next).
                        Err(_) => {}
                    }
                }
            }
            if tx.is_some() && joined.len() < MAX_GROUP {
                next = waiting.try_recv().ok();
            }
        }
        let outcome = match tx {
            Some(tx) if joined.is_empty() => {
                drop(tx); // nothing in it: rolled back
                continue;
            }
            Some(tx) => tx.commit().await.map_err(|err| err.to_string()),
            None => Err("a batch in the same transaction failed part way".to_string()),
        };
        for tell in joined {
            let _ = tell.send(outcome.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::Store;

    async fn store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("group.db").display());
        let store = Store::connect(&url).await.unwrap();
        let mut writer = store.begin_write().await.unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER NOT NULL)").execute(writer.conn()).await.unwrap();
        writer.commit().await.unwrap();
        (dir, store)
    }

    async fn committed_rows(store: &Store) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(store.pool()).await.unwrap()
    }

    async fn insert(writer: &mut crate::Writer, x: i64) {
        sqlx::query("INSERT INTO t (x) VALUES ($1)").bind(x).execute(writer.conn()).await.unwrap();
    }

    /// How the second batch ends.
    enum Ending {
        Commit,
        Abandon,
        /// Dropped part way, as a batch whose task stopped.
        Drop,
    }

    /// A second batch, B, asking for the transaction while A holds it (it waits 100 ms for B
    /// to ask): B counts the rows it sees, inserts 2 and ends as told; answers what B saw and
    /// its commit's outcome.
    async fn second_batch(
        store: &Store,
        ending: Ending,
    ) -> tokio::task::JoinHandle<(i64, crate::StoreResult<()>)> {
        let store = store.clone();
        let b = tokio::spawn(async move {
            let mut b = store.begin_placement().await.unwrap();
            let seen: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(b.conn()).await.unwrap();
            insert(&mut b, 2).await;
            let outcome = match ending {
                Ending::Commit => b.commit().await,
                Ending::Abandon => {
                    b.abandon().await;
                    Ok(())
                }
                Ending::Drop => {
                    drop(b);
                    Ok(())
                }
            };
            (seen, outcome)
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        b
    }

    /// B, waiting while A holds the group's transaction, is lent it next: it sees A's row
    /// (which nobody else sees yet), and both are committed by one COMMIT.
    #[tokio::test]
    async fn a_batch_waiting_joins_the_open_transaction_and_sees_the_one_before() {
        let (_dir, store) = store().await;
        let mut a = store.begin_placement().await.unwrap();
        insert(&mut a, 1).await;
        let b = second_batch(&store, Ending::Commit).await;
        assert_eq!(committed_rows(&store).await, 0, "nothing committed while A holds it");
        a.commit().await.unwrap();
        let (seen, committed) = b.await.unwrap();
        committed.unwrap();
        assert_eq!(seen, 1, "B saw A's row in the same transaction");
        assert_eq!(committed_rows(&store).await, 2);
    }

    /// A batch that fails part way and abandons its part (as the engine does) undoes only its
    /// own statements: the batch before it in the group is committed.
    #[tokio::test]
    async fn a_batch_abandoning_its_part_leaves_the_rest_of_its_group_to_commit() {
        let (_dir, store) = store().await;
        let mut a = store.begin_placement().await.unwrap();
        insert(&mut a, 1).await;
        let b = second_batch(&store, Ending::Abandon).await;
        a.commit().await.unwrap();
        b.await.unwrap().1.unwrap();
        let stored: Vec<i64> =
            sqlx::query_scalar("SELECT x FROM t").fetch_all(store.pool()).await.unwrap();
        assert_eq!(stored, vec![1], "A's row, not B's");
    }

    /// A batch that drops the transaction part way rolls back the group: the batch before it
    /// hears its commit failed, nothing of either is stored, and the next group commits.
    #[tokio::test]
    async fn a_batch_failing_part_way_rolls_back_its_group_and_tells_every_batch() {
        let (_dir, store) = store().await;
        let mut a = store.begin_placement().await.unwrap();
        insert(&mut a, 1).await;
        let b = second_batch(&store, Ending::Drop).await;
        let a_outcome = a.commit().await;
        b.await.unwrap().1.unwrap();
        assert!(a_outcome.is_err(), "A's bets are not acknowledged: {a_outcome:?}");
        assert_eq!(committed_rows(&store).await, 0, "the whole group rolled back");

        let mut c = store.begin_placement().await.unwrap();
        insert(&mut c, 3).await;
        c.commit().await.unwrap();
        assert_eq!(committed_rows(&store).await, 1, "the next group commits");
    }
}
