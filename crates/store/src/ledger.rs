//! The double-entry ledger: every movement of money is one transaction of two or more entries
//! that sum to zero, across user accounts and the system accounts (`issuance`, `house`,
//! `commission`, `provider_games`).
//!
//! Example: the agent (account 7, balance 5,000.00) deposits 1,000.00 into a client (account 9):
//!
//! ```text
//! transaction 41 'deposit'   account 7  -100000  balance_after 400000
//!                            account 9  +100000  balance_after 100000
//!                                       -------
//!                                             0
//! ```
//!
//! `ledger_accounts.balance_minor` is the running sum of the account's entries, updated in the
//! same transaction as the entries are written. That makes the funds check one conditional
//! `UPDATE … WHERE balance_minor - exposure_minor + amount >= 0`: atomic on both engines, so two
//! transfers at once can never take an account below zero. [`Store::ledger_check`] verifies that
//! every balance equals the sum of its entries and that every transaction sums to zero, and
//! (with [`crate::exposure_check`]) that the exposure reserved is what the stored bets put at
//! risk.
//! Entries are append-only; a correction is a reversing transaction.

use sqlx::Row;

use crate::exposure_check::{self, CrossedBook, ExposureMismatch};
use crate::{named, Store, StoreError, StoreResult, Writer};

/// The system accounts created by the first migration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SystemAccount {
    /// Source of all chips: its balance is minus the chips in circulation.
    Issuance,
    /// Counterparty of bookmaker, fancy and casino bets.
    House,
    /// Collects commission on exchange winnings.
    Commission,
    /// The game providers' side of every seamless-wallet posting (migration 0006): a debit
    /// moves the stake here from the player, a credit or rollback moves money back.
    ProviderGames,
}

impl SystemAccount {
    pub fn code(self) -> &'static str {
        match self {
            SystemAccount::Issuance => "issuance",
            SystemAccount::House => "house",
            SystemAccount::Commission => "commission",
            SystemAccount::ProviderGames => "provider_games",
        }
    }
}

/// A user's account beside its own chips, opened on first use, which may go negative: an
/// agent's share of the house's results ([`crate::partnership`]) and the cash a user settled
/// with its parent and children ([`crate::cash`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SideAccount {
    Share,
    Cash,
}

impl SideAccount {
    /// The account's code (`share:7`) and the column naming its user.
    fn code_and_column(self, user_id: i64) -> (String, &'static str) {
        match self {
            SideAccount::Share => (format!("share:{user_id}"), "share_of_user_id"),
            SideAccount::Cash => (format!("cash:{user_id}"), "cash_of_user_id"),
        }
    }
}

backlay_core::named_enum! {
    /// What a ledger transaction is: stored by this name in `ledger_transactions.kind`, and
    /// shown by it in statements and reports.
    pub enum TransactionKind as "transaction kind" {
        /// Chips issued to an admin from `issuance`.
        Mint = "mint",
        /// Chips from a parent to its child.
        Deposit = "deposit",
        /// Chips from a child back to its parent.
        Withdraw = "withdraw",
        /// A market's result: winnings and losses, commission, the agents' shares.
        Settlement = "settlement",
        /// A voided market's settlement.
        Void = "void",
        /// A settlement or void reversed ([`crate::correction`]).
        ResultCorrected = "result_corrected",
        /// An in-house casino round's stakes and payouts.
        Casino = "casino",
        /// A provider's game through the seamless wallet (`backlay_casino_store::wallet`).
        LiveCasino = "live_casino",
        /// Cash settled between a parent and a child ([`crate::cash`]); no chips move.
        CashSettlement = "cash_settlement",
    }
}

/// One leg of a transaction: `amount_minor` is added to the account (negative = debit).
#[derive(Clone, Debug)]
pub struct Posting {
    pub account_id: i64,
    pub amount_minor: i64,
    /// What the account holder reads in their statement for this line.
    pub description: String,
}

/// A transaction to post: its postings must sum to zero.
#[derive(Clone, Debug)]
pub struct NewTransaction {
    pub kind: TransactionKind,
    pub actor_user_id: Option<i64>,
    pub remark: String,
    /// The market a settlement or void settles (its statement lines open that market's bets).
    pub market_id: Option<i64>,
    pub postings: Vec<Posting>,
}

/// Whether a debit may take an account that may not go negative below zero.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Overdraft {
    /// The funds check: a transfer, a withdrawal, a stake.
    Refused,
    /// The money is owed whatever the account holds ([`Writer::post_owed`]).
    Owed,
}

/// A user's money as the ledger holds it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Funds {
    pub balance_minor: i64,
    pub exposure_minor: i64,
}

/// A user's funds, as [`Funds`] reads them from `ledger_accounts`.
const FUNDS_OF_USER: &str =
    "SELECT balance_minor, exposure_minor FROM ledger_accounts WHERE user_id = $1";

impl Funds {
    /// From a row with `balance_minor` and `exposure_minor`; no row is an unknown account.
    fn from_row(row: Option<sqlx::any::AnyRow>) -> StoreResult<Funds> {
        let row = row.ok_or(StoreError::NotFound)?;
        Ok(Funds {
            balance_minor: row.try_get("balance_minor")?,
            exposure_minor: row.try_get("exposure_minor")?,
        })
    }

    /// What the user may still bet or withdraw.
    pub fn available_minor(&self) -> i64 {
        self.balance_minor - self.exposure_minor
    }
}

/// A posted transaction: its id and each touched account's balance right after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posted {
    pub transaction_id: i64,
    /// (account id, balance after this transaction), in account id order.
    pub balances_after: Vec<(i64, i64)>,
}

impl Posted {
    /// The balance this transaction left on `account_id`.
    pub fn balance_after(&self, account_id: i64) -> Option<i64> {
        self.balances_after.iter().find(|(id, _)| *id == account_id).map(|(_, balance)| *balance)
    }
}

/// What [`Store::ledger_check`] found; `is_sound()` when nothing is wrong.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LedgerCheck {
    pub accounts: i64,
    pub entries: i64,
    /// Sum of every entry ever written: must be 0.
    pub total_minor: i64,
    /// Accounts whose stored balance differs from the sum of their entries: (id, balance, sum).
    pub mismatched_accounts: Vec<(i64, i64, i64)>,
    /// Transactions whose entries do not sum to zero.
    pub unbalanced_transactions: Vec<i64>,
    /// Accounts that may not go negative but whose available funds are below zero (a client a
    /// result's correction took below zero may: `store::correction`).
    pub overdrawn_accounts: Vec<i64>,
    /// Users' accounts whose exposure differs from the sum of their exposures per market:
    /// (account id, stored exposure, sum over markets).
    pub exposure_mismatches: Vec<(i64, i64, i64)>,
    /// Agents' share accounts whose balance differs from the sum of their partnership splits:
    /// (agent's user id, balance, sum of splits).
    pub share_mismatches: Vec<(i64, i64, i64)>,
    /// Users' cash accounts whose balance differs from their cash settlements
    /// ([`crate::cash`]): (user id, balance, net of settlements).
    pub cash_mismatches: Vec<(i64, i64, i64)>,
    /// Users whose exposure reserved in a live market is not the worst case of their stored
    /// fills and live bets there, as the engine computes it ([`exposure_check`]).
    pub reserved_exposure_mismatches: Vec<ExposureMismatch>,
    /// Runners of live exchange markets where a resting back is at or below a resting lay.
    pub crossed_books: Vec<CrossedBook>,
}

impl LedgerCheck {
    pub fn is_sound(&self) -> bool {
        self.total_minor == 0
            && self.mismatched_accounts.is_empty()
            && self.unbalanced_transactions.is_empty()
            && self.overdrawn_accounts.is_empty()
            && self.exposure_mismatches.is_empty()
            && self.share_mismatches.is_empty()
            && self.cash_mismatches.is_empty()
            && self.reserved_exposure_mismatches.is_empty()
            && self.crossed_books.is_empty()
    }
}

impl Store {
    /// Balance and exposure of the user of a live session (not revoked, not expired, user not
    /// locked), in one query: what the header polls. `None` when there is no such session.
    pub async fn funds_of_session(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<Funds>> {
        let row = sqlx::query(
            "SELECT a.balance_minor, a.exposure_minor FROM sessions s JOIN users u ON u.id = s.user_id \
             JOIN ledger_accounts a ON a.user_id = u.id \
             WHERE s.token_hash = $1 AND s.revoked_at_ms IS NULL AND s.expires_at_ms > $2 AND u.is_locked = 0 AND u.locked_by_user_id IS NULL",
        )
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(self.pool())
        .await?;
        row.map(|row| Funds::from_row(Some(row))).transpose()
    }

    /// A user's balance and exposure.
    pub async fn funds_of_user(&self, user_id: i64) -> StoreResult<Funds> {
        Funds::from_row(sqlx::query(FUNDS_OF_USER).bind(user_id).fetch_optional(self.pool()).await?)
    }

    /// Balance of a system account.
    pub async fn system_balance(&self, account: SystemAccount) -> StoreResult<i64> {
        Ok(sqlx::query_scalar("SELECT balance_minor FROM ledger_accounts WHERE code = $1")
            .bind(account.code())
            .fetch_one(self.pool())
            .await?)
    }

    /// Checks the ledger's invariants over the whole database, every figure read from one
    /// snapshot ([`Store::begin_snapshot`]): on a running server a transfer committed between
    /// two of the reads would otherwise show as a fault.
    pub async fn ledger_check(&self) -> StoreResult<LedgerCheck> {
        let mut snapshot = self.begin_snapshot().await?;
        let conn = &mut *snapshot;
        let accounts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ledger_accounts")
            .fetch_one(&mut *conn)
            .await?;
        let entries: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM ledger_entries").fetch_one(&mut *conn).await?;
        // SUM over BIGINT is NUMERIC on PostgreSQL: cast back so both engines answer an integer.
        let total_minor: i64 = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(amount_minor), 0) AS BIGINT) FROM ledger_entries",
        )
        .fetch_one(&mut *conn)
        .await?;
        let mismatched_accounts = sqlx::query(
            "SELECT a.id, a.balance_minor, CAST(COALESCE(SUM(e.amount_minor), 0) AS BIGINT) AS entries_sum \
             FROM ledger_accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id \
             GROUP BY a.id, a.balance_minor \
             HAVING a.balance_minor <> CAST(COALESCE(SUM(e.amount_minor), 0) AS BIGINT)",
        )
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| Ok((row.try_get("id")?, row.try_get("balance_minor")?, row.try_get("entries_sum")?)))
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let unbalanced_transactions = sqlx::query_scalar(
            "SELECT transaction_id FROM ledger_entries GROUP BY transaction_id HAVING SUM(amount_minor) <> 0",
        )
        .fetch_all(&mut *conn)
        .await?;
        let overdrawn_accounts = sqlx::query_scalar(
            "SELECT id FROM ledger_accounts WHERE may_go_negative = 0 AND balance_minor - exposure_minor < 0",
        )
        .fetch_all(&mut *conn)
        .await?;
        // The funds check reads an account's exposure; settlement releases it per market. The
        // two are written in the same transactions and must always agree.
        let exposure_mismatches = sqlx::query(
            "SELECT a.id, a.exposure_minor, CAST(COALESCE(SUM(m.exposure_minor), 0) AS BIGINT) AS markets_sum \
             FROM ledger_accounts a LEFT JOIN market_exposures m ON m.user_id = a.user_id \
             WHERE a.user_id IS NOT NULL GROUP BY a.id, a.exposure_minor \
             HAVING a.exposure_minor <> CAST(COALESCE(SUM(m.exposure_minor), 0) AS BIGINT)",
        )
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| Ok((row.try_get("id")?, row.try_get("exposure_minor")?, row.try_get("markets_sum")?)))
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        // An agent's share account moves only by its parts of settlements, each recorded in
        // partnership_splits beside the posting.
        let share_mismatches = sqlx::query(
            "SELECT share_of_user_id, balance_minor, splits_sum FROM ( \
               SELECT a.share_of_user_id, a.balance_minor, \
               CAST(COALESCE((SELECT SUM(p.amount_minor) FROM partnership_splits p WHERE p.user_id = a.share_of_user_id), 0) AS BIGINT) AS splits_sum \
               FROM ledger_accounts a WHERE a.share_of_user_id IS NOT NULL) shares \
             WHERE balance_minor <> splits_sum",
        )
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| Ok((row.try_get("share_of_user_id")?, row.try_get("balance_minor")?, row.try_get("splits_sum")?)))
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        // A cash account moves only by cash settlements: received as a parent, paid as a child.
        let cash_mismatches = sqlx::query(
            "SELECT cash_of_user_id, balance_minor, settled_sum FROM ( \
               SELECT a.cash_of_user_id, a.balance_minor, \
               CAST(COALESCE((SELECT SUM(c.amount_minor) FROM cash_settlements c WHERE c.parent_user_id = a.cash_of_user_id), 0) \
                  - COALESCE((SELECT SUM(c.amount_minor) FROM cash_settlements c WHERE c.child_user_id = a.cash_of_user_id), 0) AS BIGINT) AS settled_sum \
               FROM ledger_accounts a WHERE a.cash_of_user_id IS NOT NULL) cash \
             WHERE balance_minor <> settled_sum",
        )
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| Ok((row.try_get("cash_of_user_id")?, row.try_get("balance_minor")?, row.try_get("settled_sum")?)))
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        // Each market's exposures against the bets they stand for: what the sum above cannot
        // see, a row that agrees with the total but not with the bets.
        let reserved_exposure_mismatches =
            exposure_check::reserved_exposure_mismatches(&mut *conn).await?;
        let crossed_books = exposure_check::crossed_books(&mut *conn).await?;
        snapshot.commit().await?;
        Ok(LedgerCheck {
            accounts,
            entries,
            total_minor,
            mismatched_accounts,
            unbalanced_transactions,
            overdrawn_accounts,
            exposure_mismatches,
            share_mismatches,
            cash_mismatches,
            reserved_exposure_mismatches,
            crossed_books,
        })
    }
}

impl Writer {
    /// Opens the ledger account of a new user (called by `insert_user`).
    pub(crate) async fn open_user_account(
        &mut self,
        user_id: i64,
        now_ms: i64,
    ) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "INSERT INTO ledger_accounts (code, kind, user_id, created_at_ms) VALUES ($1, 'user', $2, $3) RETURNING id",
        )
        .bind(format!("user:{user_id}"))
        .bind(user_id)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?)
    }

    pub async fn account_of_user(&mut self, user_id: i64) -> StoreResult<i64> {
        sqlx::query_scalar("SELECT id FROM ledger_accounts WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(self.conn())
            .await?
            .ok_or(StoreError::NotFound)
    }

    /// A user's balance and exposure as this transaction sees them.
    pub async fn funds_of_user(&mut self, user_id: i64) -> StoreResult<Funds> {
        Funds::from_row(sqlx::query(FUNDS_OF_USER).bind(user_id).fetch_optional(self.conn()).await?)
    }

    /// The user's funds, read with a write lock on their ledger account held until this
    /// transaction ends. On PostgreSQL the no-op `UPDATE` takes the row lock, so two requests of
    /// one user (or a request and a transfer) are checked one after the other; on SQLite the
    /// transaction already holds the database's write lock.
    pub async fn lock_funds_of_user(&mut self, user_id: i64) -> StoreResult<Funds> {
        let row = sqlx::query(
            "UPDATE ledger_accounts SET balance_minor = balance_minor WHERE user_id = $1 \
             RETURNING balance_minor, exposure_minor",
        )
        .bind(user_id)
        .fetch_optional(self.conn())
        .await?;
        Funds::from_row(row)
    }

    pub async fn system_account(&mut self, account: SystemAccount) -> StoreResult<i64> {
        Ok(sqlx::query_scalar("SELECT id FROM ledger_accounts WHERE code = $1")
            .bind(account.code())
            .fetch_one(self.conn())
            .await?)
    }

    /// Posts a balanced transaction and returns its id and the balances it left. A debit that would take an account that
    /// may not go negative below its exposure fails with `InsufficientFunds` (naming what is
    /// available) and the caller's transaction must be dropped: nothing is written.
    pub async fn post(&mut self, transaction: NewTransaction, now_ms: i64) -> StoreResult<Posted> {
        self.post_with(transaction, now_ms, Overdraft::Refused).await
    }

    /// The user's `side` account ([`SideAccount`]), opened on first use.
    pub async fn side_account_of(&mut self, side: SideAccount, user_id: i64) -> StoreResult<i64> {
        let (code, column) = side.code_and_column(user_id);
        sqlx::query(&format!(
            "INSERT INTO ledger_accounts (code, kind, {column}, may_go_negative, created_at_ms) \
             VALUES ($1, 'house', $2, 1, 0) ON CONFLICT (code) DO NOTHING"
        ))
        .bind(&code)
        .bind(user_id)
        .execute(self.conn())
        .await?;
        Ok(sqlx::query_scalar("SELECT id FROM ledger_accounts WHERE code = $1")
            .bind(&code)
            .fetch_one(self.conn())
            .await?)
    }

    /// Posts a balanced transaction whose debits are owed whatever the account holds: a
    /// market's settlement (a loss comes out of exposure reserved when the bet was placed, so it
    /// is never refused there) and a result's correction (winnings taken back from a client who
    /// already spent them: the account goes below zero and collection recovers it). A user's
    /// account only goes below zero once a correction allowed it (`store::correction`).
    pub async fn post_owed(
        &mut self,
        transaction: NewTransaction,
        now_ms: i64,
    ) -> StoreResult<Posted> {
        self.post_with(transaction, now_ms, Overdraft::Owed).await
    }

    async fn post_with(
        &mut self,
        transaction: NewTransaction,
        now_ms: i64,
        overdraft: Overdraft,
    ) -> StoreResult<Posted> {
        let NewTransaction { kind, actor_user_id, remark, market_id, mut postings } = transaction;
        assert!(postings.len() >= 2, "a ledger transaction needs at least two postings");
        assert!(postings.iter().all(|p| p.amount_minor != 0), "a posting of zero is meaningless");
        let sum: i128 = postings.iter().map(|p| i128::from(p.amount_minor)).sum();
        assert_eq!(sum, 0, "ledger transaction {kind} does not balance: {postings:?}");

        let transaction_id: i64 = sqlx::query_scalar(
            "INSERT INTO ledger_transactions (kind, actor_user_id, remark, market_id, created_at_ms) VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(kind.as_str())
        .bind(actor_user_id)
        .bind(&remark)
        .bind(market_id)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await?;

        // Touch accounts in id order so that two transactions over the same accounts take their
        // row locks in the same order (no deadlock on PostgreSQL).
        postings.sort_by_key(|p| p.account_id);
        let mut balances_after = Vec::with_capacity(postings.len());
        for posting in &postings {
            let balance_after: Option<i64> = sqlx::query_scalar(
                "UPDATE ledger_accounts SET balance_minor = balance_minor + $1 \
                 WHERE id = $2 AND ((may_go_negative = 1 AND user_id IS NULL) OR $3 = 1 OR $1 >= 0 OR balance_minor - exposure_minor + $1 >= 0) \
                 RETURNING balance_minor",
            )
            .bind(posting.amount_minor)
            .bind(posting.account_id)
            .bind(i64::from(overdraft == Overdraft::Owed))
            .fetch_optional(self.conn())
            .await?;
            let Some(balance_after) = balance_after else {
                let available_minor: i64 = sqlx::query_scalar(
                    "SELECT balance_minor - exposure_minor FROM ledger_accounts WHERE id = $1",
                )
                .bind(posting.account_id)
                .fetch_optional(self.conn())
                .await?
                .ok_or(StoreError::NotFound)?;
                return Err(StoreError::InsufficientFunds { available_minor });
            };
            sqlx::query(
                "INSERT INTO ledger_entries (transaction_id, account_id, amount_minor, balance_after_minor, description, created_at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(transaction_id)
            .bind(posting.account_id)
            .bind(posting.amount_minor)
            .bind(balance_after)
            .bind(&posting.description)
            .bind(now_ms)
            .execute(self.conn())
            .await?;
            balances_after.push((posting.account_id, balance_after));
        }
        Ok(Posted { transaction_id, balances_after })
    }
}

/// One line of a user's account statement: a ledger entry of theirs with its transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatementLine {
    pub entry_id: i64,
    pub kind: TransactionKind,
    pub amount_minor: i64,
    pub balance_after_minor: i64,
    pub description: String,
    pub remark: String,
    /// The market this line settled or voided (see [`NewTransaction::market_id`]).
    pub market_id: Option<i64>,
    pub created_at_ms: i64,
    /// A line of the user's cash account (a cash settlement): `balance_after_minor` is then the
    /// net cash settled, not chips.
    pub is_cash: bool,
}

impl Store {
    /// A user's ledger entries between two times (inclusive, epoch ms), newest first, of the
    /// transaction kinds listed (none listed: every kind).
    /// With `with_cash`, the entries of the user's cash account ([`crate::cash`]) too: the
    /// settlements of cash with its parent and children, each line saying which book it is in.
    #[allow(clippy::too_many_arguments)] // one statement read, each argument a filter of it
    pub async fn statement(
        &self,
        user_id: i64,
        from_ms: i64,
        to_ms: i64,
        kinds: &[TransactionKind],
        with_cash: bool,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<StatementLine>, i64)> {
        // The kind filter is one text parameter ("deposit,withdraw"; empty: every kind) so both
        // engines take the same statement.
        let kinds = kinds.iter().map(|kind| kind.as_str()).collect::<Vec<_>>().join(",");
        let filter = "FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id \
             JOIN ledger_accounts a ON a.id = e.account_id \
             WHERE (a.user_id = $1 OR ($5 = 1 AND a.cash_of_user_id = $1)) \
             AND e.created_at_ms >= $2 AND e.created_at_ms <= $3 \
             AND ($4 = '' OR (',' || $4 || ',') LIKE ('%,' || t.kind || ',%'))";
        let with_cash = i64::from(with_cash);
        let rows = sqlx::query(&format!(
            "SELECT e.id, t.kind, e.amount_minor, e.balance_after_minor, e.description, t.remark, t.market_id, e.created_at_ms, \
             a.cash_of_user_id {filter} ORDER BY e.id DESC LIMIT $6 OFFSET $7"
        ))
        .bind(user_id)
        .bind(from_ms)
        .bind(to_ms)
        .bind(&kinds)
        .bind(with_cash)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {filter}"))
            .bind(user_id)
            .bind(from_ms)
            .bind(to_ms)
            .bind(&kinds)
            .bind(with_cash)
            .fetch_one(self.pool())
            .await?;
        let lines = rows
            .iter()
            .map(|row| {
                Ok(StatementLine {
                    entry_id: row.try_get("id")?,
                    kind: named(row, "kind")?,
                    amount_minor: row.try_get("amount_minor")?,
                    balance_after_minor: row.try_get("balance_after_minor")?,
                    description: row.try_get("description")?,
                    remark: row.try_get("remark")?,
                    market_id: row.try_get("market_id")?,
                    created_at_ms: row.try_get("created_at_ms")?,
                    is_cash: row.try_get::<Option<i64>, _>("cash_of_user_id")?.is_some(),
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        Ok((lines, total))
    }
}
