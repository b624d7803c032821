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
//! the batches that ask, one at a time, in the order they asked; each does its part (as a rule
//! in memory: below) and gives it back ([`Grouped::commit`]); when no batch is waiting (or [`MAX_GROUP`] have joined)
//! the committer commits and tells every batch of the group the outcome, and only then are the
//! batches' bets answered. The batches see each other's writes in order (one connection, one
//! transaction), exactly as if they had committed one after the other.
//!
//! A batch's writes are deferred to the group's end ([`Deferred`]): its bets, fills, makers'
//! matched sizes, exposures, account totals and the notices of makers matched
//! (`crate::notices`) are kept in memory when it gives the
//! transaction back, and the group writes those of all its batches in one statement per table
//! before its COMMIT. Spread over 1,000 markets a batch is about one bet, and each batch ran
//! five statements more for it (bench/RESULTS.md, tenth session). What a later batch reads
//! comes out as if the earlier ones had written: [`Writer::lock_funds`](crate::Writer::lock_funds)
//! adds their exposure changes to the accounts it reads, and a read that the deferred rows
//! could change (a repeated `client_ref`, a fill's price, the funds check of an update) has them
//! written first ([`Writer::write_earlier_batches`](crate::Writer::write_earlier_batches)).
//!
//! A batch's reads are made ahead for it too ([`ReadAhead`]): a batch says, as it asks to join,
//! whose funds it will lock and which `client_ref`s it will look up ([`BatchReads`]); when the
//! transaction is to be lent to a batch whose reads were not made yet, the committer takes in
//! every batch waiting and reads the funds and `client_ref`s of all of them in one statement
//! each, so a batch lent the transaction usually runs no statement at all. What was read ahead
//! is dropped as soon as anything is written to the transaction (a batch writing itself, the
//! earlier batches' rows written for a read): the batches after that read for themselves.
//!
//! A batch that fails part way gives the transaction back without its part
//! ([`Grouped::abandon`]): its deferred rows are dropped and the group goes on, unless it wrote
//! to the transaction itself (a statement other than the reads and the id reservation of
//! placement: see [`Writer::conn`](crate::Writer::conn)); then, as when a batch drops the
//! transaction or the group's own writes or COMMIT fail, the whole group rolls back: every
//! batch in it hears that its commit failed, and, as after any failed write, its market is
//! rebuilt from what is committed and the batch tried again (`backlay_engine`'s
//! `market_task/placement.rs`). Nothing is answered that is not committed. Ids a batch
//! reserved and gave up are a gap in the numbering.
//!
//! Not on PostgreSQL (yet): there the batches of different markets run side by side, each in a
//! transaction of its own on its own connection, deferring its rows to its own COMMIT and
//! writing them in one statement ([`Deferred::write`]: one round trip instead of one per table). A shared transaction whose batches still ran
//! their own statements put every batch's round trips in one line (measured over 1,000
//! markets: 395 bets/s); with reads ahead and rows deferred that cost is gone, but on
//! PostgreSQL a group also needs what SQLite's one writer gives for free: every batch's market
//! fenced in the group's transaction (a cluster node writes only the markets it still owns),
//! and the group's row locks taken in one sorted statement, so that two nodes' groups cannot
//! deadlock (bench/RESULTS.md, tenth session).

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use sqlx::AnyPool;
use tokio::sync::{mpsc, oneshot};

use crate::bets::exposure::{EXPOSURE_CHANGES, MARKET_EXPOSURES};
use crate::bets::place::{self, BETS, FILLS, MATCHES};
use crate::bets::{AccountFunds, BetRow, FillRow};
use crate::notices::{NewNotice, NOTICES};
use crate::{Engine, StoreError, StoreResult};

/// Most batches in one transaction: bounds how long the first of them waits for its answer.
pub const MAX_GROUP: usize = 128;
/// Batches waiting to join, at most (one per market task at a time, so this bounds nothing a
/// request can grow).
const WAITING: usize = 4_096;

type Tx = sqlx::Transaction<'static, sqlx::Any>;
/// What a batch asking to join is sent: the group's transaction, or why there is none.
type Reply = oneshot::Sender<StoreResult<Lent>>;
/// A batch asking to join: what it will read, and where its turn is sent.
type Request = (BatchReads, Reply);

/// What a placement batch will read once lent the transaction: the users whose funds it locks
/// and the `(user_id, client_ref)` keys it looks up (`Writer::lock_funds`,
/// `Writer::bets_by_client_refs`).
#[derive(Clone, Debug, Default)]
pub struct BatchReads {
    pub users: Vec<i64>,
    pub client_refs: Vec<(i64, String)>,
}

/// Funds and bets by `client_ref` read for several batches at once, inside the group's
/// transaction, as they stood then: valid while nothing is written to the transaction (the
/// deferred rows are counted on top by their readers).
#[derive(Debug, Default)]
pub(crate) struct ReadAhead {
    /// Users read (with an account or without: a user without one has no entry in `funds`).
    users: HashSet<i64>,
    funds: HashMap<i64, AccountFunds>,
    keys: HashSet<(i64, String)>,
    bets: HashMap<(i64, String), BetRow>,
}

impl ReadAhead {
    /// Reads, in one statement each, the funds and `client_ref`s of every batch in `reads`.
    async fn read<'a>(
        conn: &mut sqlx::AnyConnection,
        reads: impl Iterator<Item = &'a BatchReads>,
    ) -> StoreResult<ReadAhead> {
        let mut ahead = ReadAhead::default();
        for batch in reads {
            ahead.users.extend(batch.users.iter().copied());
            ahead.keys.extend(batch.client_refs.iter().cloned());
        }
        let users: Vec<i64> = ahead.users.iter().copied().collect();
        for account in place::read_funds(conn, Engine::Sqlite, &users, &[]).await? {
            ahead.funds.insert(account.user_id, account);
        }
        let keys: Vec<(i64, &str)> =
            ahead.keys.iter().map(|(user, key)| (*user, key.as_str())).collect();
        if !keys.is_empty() {
            for bet in place::read_bets_by_client_refs(conn, Engine::Sqlite, &keys).await? {
                if let Some(key) = bet.client_ref.clone() {
                    ahead.bets.insert((bet.user_id, key), bet);
                }
            }
        }
        Ok(ahead)
    }

    fn covers(&self, reads: &BatchReads) -> bool {
        reads.users.iter().all(|user| self.users.contains(user))
            && reads.client_refs.iter().all(|key| self.keys.contains(key))
    }

    /// The funds of `users` in user order, as `place::read_funds` answers, if all were read.
    pub(crate) fn funds_of(&self, users: &[i64]) -> Option<Vec<AccountFunds>> {
        let mut wanted = users.to_vec();
        wanted.sort_unstable();
        wanted.dedup();
        if !wanted.iter().all(|user| self.users.contains(user)) {
            return None;
        }
        Some(wanted.iter().filter_map(|user| self.funds.get(user).copied()).collect())
    }

    /// The bets placed with `keys`, if all were read.
    pub(crate) fn bets_of(&self, keys: &[(i64, &str)]) -> Option<Vec<BetRow>> {
        let mut found = Vec::new();
        for (user, key) in keys {
            let key = (*user, (*key).to_string());
            if !self.keys.contains(&key) {
                return None;
            }
            found.extend(self.bets.get(&key).cloned());
        }
        Some(found)
    }
}

/// The rows placement batches deferred to their group's end, in the order the batches gave
/// the transaction back (a later one's figures win where they meet).
#[derive(Debug, Default)]
pub(crate) struct Deferred {
    pub(crate) bets: Vec<BetRow>,
    /// Each fill with the time it was made.
    pub(crate) fills: Vec<(FillRow, i64)>,
    /// `(bet_id, matched_minor more, remaining_minor now)`, as `Writer::record_matches`.
    pub(crate) matches: Vec<(i64, i64, i64)>,
    /// Per user, the change to the account's total exposure.
    pub(crate) exposure_changes: BTreeMap<i64, i64>,
    /// Per `(user_id, market_id)`, the exposure there now.
    pub(crate) market_exposures: BTreeMap<(i64, i64), i64>,
    /// Notices of resting bets matched, each with the time it was made.
    pub(crate) notices: Vec<(NewNotice, i64)>,
}

impl Deferred {
    pub(crate) fn is_empty(&self) -> bool {
        self.bets.is_empty()
            && self.fills.is_empty()
            && self.matches.is_empty()
            && self.exposure_changes.is_empty()
            && self.market_exposures.is_empty()
            && self.notices.is_empty()
    }

    /// Adds a later batch's rows after these.
    fn append(&mut self, later: Deferred) {
        self.bets.extend(later.bets);
        self.fills.extend(later.fills);
        self.matches.extend(later.matches);
        for (user, change) in later.exposure_changes {
            *self.exposure_changes.entry(user).or_default() += change;
        }
        self.market_exposures.extend(later.market_exposures);
        self.notices.extend(later.notices);
    }

    /// Whether one of these bets was placed with one of `keys` (`(user_id, client_ref)`).
    pub(crate) fn holds_client_ref(&self, keys: &[(i64, &str)]) -> bool {
        self.bets.iter().any(|bet| {
            bet.client_ref.as_deref().is_some_and(|own| {
                keys.iter().any(|(user, key)| *user == bet.user_id && *key == own)
            })
        })
    }

    /// Writes every row in the order the rows need: bets before the fills and matches that name
    /// them. On PostgreSQL in one statement (one round trip) while its values stay under
    /// [`ONE_STATEMENT_VALUES`], else one statement per table (per 100 rows). Leaves `self`
    /// empty.
    pub(crate) async fn write(
        &mut self,
        conn: &mut sqlx::AnyConnection,
        engine: Engine,
    ) -> StoreResult<()> {
        let Deferred { bets, fills, matches, exposure_changes, market_exposures, notices } =
            std::mem::take(self);
        // One row per bet: its matched sizes summed, its unmatched part the latest.
        let mut per_bet: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
        for (bet_id, matched_more, remaining) in matches {
            let entry = per_bet.entry(bet_id).or_insert((0, remaining));
            entry.0 += matched_more;
            entry.1 = remaining;
        }
        let matches: Vec<(i64, i64, i64)> = per_bet
            .into_iter()
            .map(|(bet, (matched, remaining))| (bet, matched, remaining))
            .collect();
        let changes: Vec<(i64, i64)> =
            exposure_changes.into_iter().filter(|(_, change)| *change != 0).collect();
        let exposures: Vec<(i64, i64, i64)> = market_exposures
            .into_iter()
            .map(|((user, market), exposure)| (user, market, exposure))
            .collect();
        let values = BETS.columns * bets.len()
            + FILLS.columns * fills.len()
            + MATCHES.columns * matches.len()
            + EXPOSURE_CHANGES.columns * changes.len()
            + MARKET_EXPOSURES.columns * exposures.len()
            + NOTICES.columns * notices.len();
        if engine == Engine::Postgres && values <= ONE_STATEMENT_VALUES {
            let rows = Rows { bets, fills, matches, changes, exposures, notices };
            return write_in_one_statement(conn, &rows).await;
        }
        BETS.write(conn, engine, &bets).await?;
        FILLS.write(conn, engine, &fills).await?;
        MATCHES.write(conn, engine, &matches).await?;
        EXPOSURE_CHANGES.write(conn, engine, &changes).await?;
        MARKET_EXPOSURES.write(conn, engine, &exposures).await?;
        NOTICES.write(conn, engine, &notices).await
    }
}

/// A group's rows as they are written: one row per bet matched, exposure changes that are not
/// zero.
struct Rows {
    bets: Vec<BetRow>,
    fills: Vec<(FillRow, i64)>,
    matches: Vec<(i64, i64, i64)>,
    changes: Vec<(i64, i64)>,
    exposures: Vec<(i64, i64, i64)>,
    notices: Vec<(NewNotice, i64)>,
}

/// Most values bound in [`write_in_one_statement`]: PostgreSQL takes up to 65,535 in one
/// statement; a batch of 256 bets with its fills and exposures binds about 10,000.
const ONE_STATEMENT_VALUES: usize = 30_000;

/// A batch's rows written on PostgreSQL as one statement of data-modifying `WITH` parts, one
/// part per table that has rows: one round trip instead of one per table. Each part sees the database
/// as it was before the statement (PostgreSQL runs them on one snapshot), which these rows
/// allow: the matches are of bets stored before (a bet placed in the same batch is inserted
/// with what it matched), and no row is written twice. The foreign keys are checked at the
/// statement's end, the fills' bets inserted by then.
async fn write_in_one_statement(conn: &mut sqlx::AnyConnection, rows: &Rows) -> StoreResult<()> {
    let Rows { bets, fills, matches, changes, exposures, notices } = rows;
    let mut next = 1;
    let parts: Vec<String> = [
        (!bets.is_empty()).then(|| BETS.part(bets.len(), &mut next)),
        (!fills.is_empty()).then(|| FILLS.part(fills.len(), &mut next)),
        (!matches.is_empty()).then(|| MATCHES.part(matches.len(), &mut next)),
        (!changes.is_empty()).then(|| EXPOSURE_CHANGES.part(changes.len(), &mut next)),
        (!exposures.is_empty()).then(|| MARKET_EXPOSURES.part(exposures.len(), &mut next)),
        (!notices.is_empty()).then(|| NOTICES.part(notices.len(), &mut next)),
    ]
    .into_iter()
    .flatten()
    .enumerate()
    .map(|(i, part)| format!("w{i} AS ({part})"))
    .collect();
    if parts.is_empty() {
        return Ok(());
    }
    let sql = format!("WITH {} SELECT 1", parts.join(", "));
    // Bound in the order the parts numbered their placeholders.
    let query = BETS.bind_all(sqlx::query(&sql), bets);
    let query = FILLS.bind_all(query, fills);
    let query = MATCHES.bind_all(query, matches);
    let query = EXPOSURE_CHANGES.bind_all(query, changes);
    let query = MARKET_EXPOSURES.bind_all(query, exposures);
    NOTICES.bind_all(query, notices).execute(&mut *conn).await?;
    Ok(())
}

/// The group's transaction, lent to one batch, with the rows the batches before it deferred
/// and what was read ahead for it, if anything.
pub(crate) struct Lent {
    pub(crate) tx: Tx,
    pub(crate) earlier: Deferred,
    pub(crate) read_ahead: Option<ReadAhead>,
    pub(crate) grouped: Grouped,
}

/// What a batch gives back: the transaction, every batch's deferred rows so far, what was read
/// ahead if it still holds, and whether this batch is in the rows (false: abandoned).
type GivenBack = (Tx, Deferred, Option<ReadAhead>, bool);

/// How a batch holding the group's transaction gives it back and hears the group's outcome.
#[derive(Debug)]
pub(crate) struct Grouped {
    give_back: oneshot::Sender<GivenBack>,
    outcome: oneshot::Receiver<Result<(), String>>,
}

impl Grouped {
    /// Gives the transaction back with this batch's rows after the earlier batches', and waits
    /// for the group's COMMIT.
    pub(crate) async fn commit(
        self,
        tx: Tx,
        mut earlier: Deferred,
        own: Deferred,
        read_ahead: Option<ReadAhead>,
    ) -> StoreResult<()> {
        earlier.append(own);
        self.give_back.send((tx, earlier, read_ahead, true)).map_err(|_| gone())?;
        match self.outcome.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(cause)) => Err(StoreError::Database(sqlx::Error::Protocol(format!(
                "the placement group's transaction was not committed: {cause}"
            )))),
            Err(_) => Err(gone()),
        }
    }

    /// Gives the transaction back without this batch's deferred rows: the group goes on. A
    /// batch that wrote to the transaction itself (`wrote`) cannot be taken out of it: the
    /// transaction is dropped, and the group rolls back.
    pub(crate) fn abandon(
        self,
        tx: Tx,
        earlier: Deferred,
        read_ahead: Option<ReadAhead>,
        wrote: bool,
    ) {
        if !wrote {
            let _ = self.give_back.send((tx, earlier, read_ahead, false));
        }
    }
}

/// The committer's address; its task ends when the last [`Committer`] is dropped.
#[derive(Clone, Debug)]
pub(crate) struct Committer {
    requests: mpsc::Sender<Request>,
    counts: Arc<GroupCounts>,
}

/// Groups committed since the start, and the batches in them: their ratio is how many
/// markets' batches share a COMMIT (`backlay_placement_group_batches_total`).
#[derive(Debug, Default)]
struct GroupCounts {
    groups: AtomicU64,
    batches: AtomicU64,
}

impl Committer {
    /// Starts the committer on the pool of write connections.
    pub(crate) fn start(writers: AnyPool) -> Committer {
        let (requests, waiting) = mpsc::channel(WAITING);
        let counts = Arc::new(GroupCounts::default());
        tokio::spawn(run(writers, waiting, Arc::clone(&counts)));
        Committer { requests, counts }
    }

    /// `(groups, batches)` committed since the start.
    pub(crate) fn counts(&self) -> (u64, u64) {
        (self.counts.groups.load(Ordering::Relaxed), self.counts.batches.load(Ordering::Relaxed))
    }

    /// The group's transaction, once it is this batch's turn, with `reads` made ahead if they
    /// could be.
    pub(crate) async fn join(&self, reads: BatchReads) -> StoreResult<Lent> {
        let (reply, lent) = oneshot::channel();
        self.requests.send((reads, reply)).await.map_err(|_| gone())?;
        lent.await.map_err(|_| gone())?
    }
}

fn gone() -> StoreError {
    StoreError::Database(sqlx::Error::WorkerCrashed)
}

async fn run(writers: AnyPool, mut waiting: mpsc::Receiver<Request>, counts: Arc<GroupCounts>) {
    // Batches taken in by one group and not lent to (the group was full or rolled back): the
    // next group starts with them, in the order they asked.
    let mut carried: VecDeque<Request> = VecDeque::new();
    loop {
        let first = match carried.pop_front() {
            Some(first) => first,
            None => match waiting.recv().await {
                Some(first) => first,
                None => return,
            },
        };
        // The write lock at once, as every write transaction on SQLite takes it.
        let mut tx = match writers.begin_with("BEGIN IMMEDIATE").await {
            Ok(tx) => Some(tx),
            Err(err) => {
                let _ = first.1.send(Err(err.into()));
                continue;
            }
        };
        let mut queue = std::mem::take(&mut carried);
        queue.push_front(first);
        let mut deferred = Deferred::default();
        let mut read_ahead: Option<ReadAhead> = None;
        let mut joined: Vec<oneshot::Sender<Result<(), String>>> = Vec::new();
        // Lends the transaction to each batch waiting, while it is whole and the group not full.
        while joined.len() < MAX_GROUP {
            if queue.is_empty() {
                match waiting.try_recv() {
                    Ok(request) => queue.push_back(request),
                    Err(_) => break,
                }
            }
            let Some(mut lend) = tx.take() else { break };
            let Some((reads, reply)) = queue.pop_front() else { unreachable!("queue filled") };
            if !read_ahead.as_ref().is_some_and(|ahead| ahead.covers(&reads)) {
                // Every batch waiting now, read for at once. A failed read is left to the
                // batch, which reads for itself and hears the error as its own.
                while joined.len() + queue.len() + 1 < MAX_GROUP {
                    match waiting.try_recv() {
                        Ok(request) => queue.push_back(request),
                        Err(_) => break,
                    }
                }
                let all = std::iter::once(&reads).chain(queue.iter().map(|(reads, _)| reads));
                read_ahead = ReadAhead::read(&mut lend, all).await.ok();
            }
            let (give_back, back) = oneshot::channel();
            let (tell, outcome) = oneshot::channel();
            let lent = Lent {
                tx: lend,
                earlier: std::mem::take(&mut deferred),
                read_ahead: read_ahead.take(),
                grouped: Grouped { give_back, outcome },
            };
            match reply.send(Ok(lent)) {
                // The batch stopped waiting: the transaction comes back untouched.
                Err(Ok(unused)) => {
                    tx = Some(unused.tx);
                    deferred = unused.earlier;
                    read_ahead = unused.read_ahead;
                }
                Err(Err(_)) => unreachable!("a Lent was sent"),
                // If the batch dropped the transaction part way, it is rolled back, group and
                // all (`tx` stays `None`, and the batches still waiting open the next).
                Ok(()) => {
                    if let Ok((returned, rows, ahead, in_it)) = back.await {
                        tx = Some(returned);
                        deferred = rows;
                        read_ahead = ahead;
                        if in_it {
                            joined.push(tell);
                        }
                    }
                }
            }
        }
        carried = queue;
        let outcome = match tx {
            Some(tx) if joined.is_empty() => {
                drop(tx); // nothing of any batch in it: rolled back
                continue;
            }
            Some(mut tx) => match deferred.write(&mut tx, Engine::Sqlite).await {
                Ok(()) => tx.commit().await.map_err(|err| err.to_string()),
                Err(err) => Err(format!("writing the group's rows failed: {err}")),
            },
            None => Err("a batch in the same transaction failed part way".to_string()),
        };
        if outcome.is_ok() {
            counts.groups.fetch_add(1, Ordering::Relaxed);
            counts.batches.fetch_add(joined.len() as u64, Ordering::Relaxed);
        }
        for tell in joined {
            let _ = tell.send(outcome.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::users::{NewUser, Role};
    use crate::Store;

    /// A migrated store with a table `t` for raw writes and one client, whose id is answered.
    async fn store() -> (tempfile::TempDir, Store, i64) {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("group.db").display());
        let store = Store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        let mut writer = store.begin_write().await.unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER NOT NULL)").execute(writer.conn()).await.unwrap();
        let name = "grouped".parse().unwrap();
        let user = NewUser {
            user_name: &name,
            password_hash: "-",
            role: Role::Client,
            parent_id: None,
            is_change_password: false,
            dial_code: None,
            mobile: None,
            partnership_bp: 0,
        };
        let user_id = writer.insert_user(&user, 0).await.unwrap();
        writer.commit().await.unwrap();
        (dir, store, user_id)
    }

    async fn committed_rows(store: &Store) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(store.pool()).await.unwrap()
    }

    async fn committed_exposure(store: &Store, user_id: i64) -> i64 {
        sqlx::query_scalar("SELECT exposure_minor FROM ledger_accounts WHERE user_id = $1")
            .bind(user_id)
            .fetch_one(store.pool())
            .await
            .unwrap()
    }

    /// A write to the transaction itself, which a batch cannot take back alone.
    async fn insert(writer: &mut crate::Writer, x: i64) {
        sqlx::query("INSERT INTO t (x) VALUES ($1)").bind(x).execute(writer.conn()).await.unwrap();
    }

    /// The exposure `lock_funds` reads for the user in this batch.
    async fn exposure_seen(writer: &mut crate::Writer, user_id: i64) -> i64 {
        writer.lock_funds(&[user_id], &[]).await.unwrap()[0].exposure_minor
    }

    /// What the second batch does with the transaction.
    enum Part {
        /// Inserts a row into `t` itself.
        Writes,
        /// Defers a change of +200 to the user's exposure.
        Defers,
    }

    /// How the second batch ends.
    enum Ending {
        Commit,
        Abandon,
        /// Dropped part way, as a batch whose task stopped.
        Drop,
    }

    /// What the second batch saw (rows of `t`, the user's exposure) and its commit's outcome.
    type Seen = ((i64, i64), crate::StoreResult<()>);

    /// A second batch, B, asking for the transaction while A holds it (it waits 100 ms for B
    /// to ask): B notes what it sees, does its part and ends as told.
    async fn second_batch(
        store: &Store,
        user_id: i64,
        part: Part,
        ending: Ending,
    ) -> tokio::task::JoinHandle<Seen> {
        let store = store.clone();
        let b = tokio::spawn(async move {
            let mut b = store.begin_placement(&Default::default()).await.unwrap();
            let rows: i64 =
                sqlx::query_scalar("SELECT COUNT(*) FROM t").fetch_one(b.reading()).await.unwrap();
            let exposure = exposure_seen(&mut b, user_id).await;
            match part {
                Part::Writes => insert(&mut b, 2).await,
                Part::Defers => b.add_exposures(&[(user_id, 200)]).await.unwrap(),
            }
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
            ((rows, exposure), outcome)
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        b
    }

    /// B, waiting while A holds the group's transaction, is lent it next: it sees A's row
    /// (which nobody else sees yet), and both are committed by one COMMIT.
    #[tokio::test]
    async fn a_batch_waiting_joins_the_open_transaction_and_sees_the_one_before() {
        let (_dir, store, user_id) = store().await;
        let mut a = store.begin_placement(&Default::default()).await.unwrap();
        insert(&mut a, 1).await;
        let b = second_batch(&store, user_id, Part::Writes, Ending::Commit).await;
        assert_eq!(committed_rows(&store).await, 0, "nothing committed while A holds it");
        a.commit().await.unwrap();
        let ((seen, _), committed) = b.await.unwrap();
        committed.unwrap();
        assert_eq!(seen, 1, "B saw A's row in the same transaction");
        assert_eq!(committed_rows(&store).await, 2);
    }

    /// A's exposure change is deferred: not in the database while the group is open, yet B's
    /// funds check counts it; the group writes A's and B's together before its COMMIT.
    #[tokio::test]
    async fn deferred_rows_count_for_the_later_batches_and_are_written_at_the_groups_end() {
        let (_dir, store, user_id) = store().await;
        let mut a = store.begin_placement(&Default::default()).await.unwrap();
        a.add_exposures(&[(user_id, 500)]).await.unwrap();
        assert_eq!(exposure_seen(&mut a, user_id).await, 0, "a batch's own change is its own");
        let b = second_batch(&store, user_id, Part::Defers, Ending::Commit).await;
        a.commit().await.unwrap();
        let ((_, seen), committed) = b.await.unwrap();
        committed.unwrap();
        assert_eq!(seen, 500, "B's funds check counted A's change");
        assert_eq!(committed_exposure(&store, user_id).await, 700, "both written, once each");
    }

    /// B and C ask to join while A holds the transaction: when B's turn comes their funds are
    /// read for both at once, and B locks its funds from that read with A's deferred change on
    /// top. B then writes to the account itself: what was read ahead is dropped, and C's funds
    /// are read again, B's write in them.
    #[tokio::test]
    async fn funds_read_ahead_for_the_batches_waiting_are_read_again_after_a_write() {
        let (_dir, store, user_id) = store().await;
        let reads = || crate::BatchReads { users: vec![user_id], client_refs: Vec::new() };
        let mut a = store.begin_placement(&reads()).await.unwrap();
        a.add_exposures(&[(user_id, 500)]).await.unwrap();
        let batch = |writes: i64| {
            let (store, reads) = (store.clone(), reads());
            tokio::spawn(async move {
                let mut writer = store.begin_placement(&reads).await.unwrap();
                let read_ahead = writer.read_ahead_funds(&[user_id]).is_some();
                let seen = exposure_seen(&mut writer, user_id).await;
                if writes > 0 {
                    sqlx::query(
                        "UPDATE ledger_accounts SET exposure_minor = exposure_minor + $1 WHERE user_id = $2",
                    )
                    .bind(writes)
                    .bind(user_id)
                    .execute(writer.conn())
                    .await
                    .unwrap();
                }
                writer.commit().await.unwrap();
                (read_ahead, seen)
            })
        };
        let b = batch(300);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let c = batch(0);
        tokio::time::sleep(Duration::from_millis(50)).await;
        a.commit().await.unwrap();
        let (b_read_ahead, b_seen) = b.await.unwrap();
        let (_, c_seen) = c.await.unwrap();
        assert!(b_read_ahead, "B's funds were read ahead");
        assert_eq!(b_seen, 500, "B counted A's deferred change");
        assert_eq!(c_seen, 800, "C saw B's write and A's change");
        assert_eq!(committed_exposure(&store, user_id).await, 800);
    }

    /// A batch that abandons its part, having only deferred rows (as a placement batch does),
    /// is left out alone: the batch before it in the group is committed.
    #[tokio::test]
    async fn a_batch_abandoning_its_deferred_part_leaves_the_rest_of_its_group_to_commit() {
        let (_dir, store, user_id) = store().await;
        let mut a = store.begin_placement(&Default::default()).await.unwrap();
        insert(&mut a, 1).await;
        a.add_exposures(&[(user_id, 500)]).await.unwrap();
        let b = second_batch(&store, user_id, Part::Defers, Ending::Abandon).await;
        a.commit().await.unwrap();
        b.await.unwrap().1.unwrap();
        assert_eq!(committed_rows(&store).await, 1, "A's row");
        assert_eq!(committed_exposure(&store, user_id).await, 500, "A's change, not B's");
    }

    /// A batch that wrote to the transaction itself cannot be taken out of it: abandoning
    /// rolls back the group, and the batch before it hears its commit failed.
    #[tokio::test]
    async fn a_batch_that_wrote_and_abandons_rolls_back_its_group() {
        let (_dir, store, user_id) = store().await;
        let mut a = store.begin_placement(&Default::default()).await.unwrap();
        insert(&mut a, 1).await;
        let b = second_batch(&store, user_id, Part::Writes, Ending::Abandon).await;
        let a_outcome = a.commit().await;
        b.await.unwrap().1.unwrap();
        assert!(a_outcome.is_err(), "A's bets are not acknowledged: {a_outcome:?}");
        assert_eq!(committed_rows(&store).await, 0, "the whole group rolled back");
    }

    /// A's deferred rows cannot be written (an exposure below zero): when B has them written
    /// for a read and that fails, B gives up, and the group rolls back rather than commit
    /// without A's rows: A hears its commit failed.
    #[tokio::test]
    async fn earlier_rows_that_fail_to_be_written_roll_back_the_group() {
        let (_dir, store, user_id) = store().await;
        let mut a = store.begin_placement(&Default::default()).await.unwrap();
        insert(&mut a, 1).await;
        a.add_exposures(&[(user_id, -100)]).await.unwrap();
        let b = {
            let store = store.clone();
            tokio::spawn(async move {
                let mut b = store.begin_placement(&Default::default()).await.unwrap();
                let written = b.write_earlier_batches().await;
                b.abandon().await;
                written
            })
        };
        tokio::time::sleep(Duration::from_millis(100)).await;
        let a_outcome = a.commit().await;
        assert!(b.await.unwrap().is_err(), "the CHECK refused A's rows");
        assert!(a_outcome.is_err(), "A is not answered as committed: {a_outcome:?}");
        assert_eq!(committed_rows(&store).await, 0, "the whole group rolled back");
        assert_eq!(committed_exposure(&store, user_id).await, 0);
    }

    /// A batch that drops the transaction part way rolls back the group: the batch before it
    /// hears its commit failed, nothing of either is stored (A's deferred change neither), and
    /// the next group commits.
    #[tokio::test]
    async fn a_batch_failing_part_way_rolls_back_its_group_and_tells_every_batch() {
        let (_dir, store, user_id) = store().await;
        let mut a = store.begin_placement(&Default::default()).await.unwrap();
        insert(&mut a, 1).await;
        a.add_exposures(&[(user_id, 500)]).await.unwrap();
        let b = second_batch(&store, user_id, Part::Defers, Ending::Drop).await;
        let a_outcome = a.commit().await;
        b.await.unwrap().1.unwrap();
        assert!(a_outcome.is_err(), "A's bets are not acknowledged: {a_outcome:?}");
        assert_eq!(committed_rows(&store).await, 0, "the whole group rolled back");
        assert_eq!(committed_exposure(&store, user_id).await, 0);

        let mut c = store.begin_placement(&Default::default()).await.unwrap();
        insert(&mut c, 3).await;
        c.commit().await.unwrap();
        assert_eq!(committed_rows(&store).await, 1, "the next group commits");
    }
}
