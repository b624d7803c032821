//! Deposit and withdraw requests (`payment_requests`): a user asks their parent for chips
//! against a bank transfer they made (deposit, with its UTR), or to be paid out to a bank
//! account (withdraw). The parent or an admin decides each request once.
//!
//! The money itself moves only when a request is approved, through the same parent ↔ user
//! transfer an operator makes by hand. Because that transfer commits on its own, a decision is
//! a small state machine whose every step is one conditional `UPDATE`, so two operators acting
//! at once cannot both win a step:
//!
//! ```text
//! pending ──claim──▶ processing ──transfer posted──▶ approved (transaction_id set)
//!    │                   │
//!    │                   └──transfer refused──▶ pending (released)
//!    └──reject──▶ rejected
//! ```
//!
//! Example: request 12 (withdraw 500.00) is pending. Two approvals arrive together; both run
//! `UPDATE … SET status = 'processing' WHERE id = 12 AND status = 'pending'`. SQLite's write
//! lock or PostgreSQL's row lock orders them: the first changes one row and goes on to the
//! transfer, the second changes none and is told the request is already being decided.

use std::future::Future;

use sqlx::any::AnyRow;
use sqlx::Row;

use backlay_store::repository::{is_unique_violation, named};
use backlay_store::{Store, StoreError, StoreResult, Writer};

backlay_core::named_enum! {
    /// What a request asks for.
    pub enum PaymentKind as "payment kind" {
        /// Parent → user, against a bank transfer the user made.
        Deposit = "deposit",
        /// User → parent, to be paid out to the user's bank account.
        Withdraw = "withdraw",
    }
}

backlay_core::named_enum! {
    /// Where a request is in its life (see the module docs).
    pub enum PaymentStatus as "payment status" {
        Pending = "pending",
        /// An approval has claimed the request and is moving the chips.
        Processing = "processing",
        Approved = "approved",
        Rejected = "rejected",
    }
}

/// The bank account a withdrawal is paid to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankAccount {
    pub account_holder: String,
    pub bank_name: String,
    pub account_number: String,
    pub ifsc: String,
}

/// A request's details by kind: a deposit's UTR, a withdrawal's bank account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PaymentDetails {
    Deposit { reference: String },
    Withdraw(BankAccount),
}

impl PaymentDetails {
    pub fn kind(&self) -> PaymentKind {
        match self {
            PaymentDetails::Deposit { .. } => PaymentKind::Deposit,
            PaymentDetails::Withdraw(_) => PaymentKind::Withdraw,
        }
    }
}

/// A stored request, with its user's name and parent for operator screens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaymentRequest {
    pub id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub parent_id: Option<i64>,
    pub amount_minor: i64,
    pub status: PaymentStatus,
    pub details: PaymentDetails,
    pub remark: String,
    pub decided_by_user_id: Option<i64>,
    pub transaction_id: Option<i64>,
    pub created_at_ms: i64,
    pub decided_at_ms: Option<i64>,
}

impl PaymentRequest {
    pub fn kind(&self) -> PaymentKind {
        self.details.kind()
    }
}

/// A user's requests that are still open (pending or being processed).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct OpenRequests {
    pub count: i64,
    /// The sum of the open withdrawals: chips the user has already asked to take out.
    pub withdraw_minor: i64,
}

const REQUEST_COLUMNS: &str =
    "r.id, r.user_id, u.user_name, u.parent_id, r.kind, r.amount_minor, r.status, \
     r.reference, r.account_holder, r.bank_name, r.account_number, r.ifsc, r.remark, \
     r.decided_by_user_id, r.transaction_id, r.created_at_ms, r.decided_at_ms";

fn request_from_row(row: &AnyRow) -> Result<PaymentRequest, sqlx::Error> {
    let kind: PaymentKind = named(row, "kind")?;
    let status: PaymentStatus = named(row, "status")?;
    // The table's CHECKs guarantee these columns are set for their kind.
    let text = |column: &str| -> Result<String, sqlx::Error> {
        Ok(row.try_get::<Option<String>, _>(column)?.unwrap_or_default())
    };
    let details = match kind {
        PaymentKind::Deposit => PaymentDetails::Deposit { reference: text("reference")? },
        PaymentKind::Withdraw => PaymentDetails::Withdraw(BankAccount {
            account_holder: text("account_holder")?,
            bank_name: text("bank_name")?,
            account_number: text("account_number")?,
            ifsc: text("ifsc")?,
        }),
    };
    Ok(PaymentRequest {
        id: row.try_get("id")?,
        user_id: row.try_get("user_id")?,
        user_name: row.try_get("user_name")?,
        parent_id: row.try_get("parent_id")?,
        amount_minor: row.try_get("amount_minor")?,
        status,
        details,
        remark: row.try_get("remark")?,
        decided_by_user_id: row.try_get("decided_by_user_id")?,
        transaction_id: row.try_get("transaction_id")?,
        created_at_ms: row.try_get("created_at_ms")?,
        decided_at_ms: row.try_get("decided_at_ms")?,
    })
}

/// Which requests an operator screen lists.
#[derive(Copy, Clone, Debug, Default)]
pub struct PaymentFilter {
    pub status: Option<PaymentStatus>,
    /// Only requests of this parent's children (an agent sees only their own clients').
    pub parent_id: Option<i64>,
    /// Only this user's requests.
    pub user_id: Option<i64>,
}

/// The payment requests' reads on the [`Store`]: a trait, because `Store` is backlay-store's
/// type and only that crate can add methods of its own to it.
pub trait PaymentReads {
    fn payment_request(
        &self,
        request_id: i64,
    ) -> impl Future<Output = StoreResult<PaymentRequest>> + Send;
    fn payment_requests(
        &self,
        filter: PaymentFilter,
        offset: i64,
        limit: i64,
    ) -> impl Future<Output = StoreResult<(Vec<PaymentRequest>, i64)>> + Send;
}

impl PaymentReads for Store {
    async fn payment_request(&self, request_id: i64) -> StoreResult<PaymentRequest> {
        let row = sqlx::query(&format!(
            "SELECT {REQUEST_COLUMNS} FROM payment_requests r JOIN users u ON u.id = r.user_id WHERE r.id = $1"
        ))
        .bind(request_id)
        .fetch_optional(self.pool())
        .await?
        .ok_or(StoreError::NotFound)?;
        Ok(request_from_row(&row)?)
    }

    /// Requests matching `filter`, newest first, and how many match in all.
    async fn payment_requests(
        &self,
        filter: PaymentFilter,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<PaymentRequest>, i64)> {
        // Absent filters are bound as '' and -1 (not NULL): PostgreSQL cannot infer the type of
        // a parameter that is only compared with NULL, and one statement serves both engines.
        let filter_sql = "FROM payment_requests r JOIN users u ON u.id = r.user_id \
             WHERE ($1 = '' OR r.status = $1) AND ($2 < 0 OR u.parent_id = $2) AND ($3 < 0 OR r.user_id = $3)";
        let status = filter.status.map_or("", PaymentStatus::as_str);
        let parent_id = filter.parent_id.unwrap_or(-1);
        let user_id = filter.user_id.unwrap_or(-1);
        let rows = sqlx::query(&format!(
            "SELECT {REQUEST_COLUMNS} {filter_sql} ORDER BY r.id DESC LIMIT $4 OFFSET $5"
        ))
        .bind(status)
        .bind(parent_id)
        .bind(user_id)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) {filter_sql}"))
            .bind(status)
            .bind(parent_id)
            .bind(user_id)
            .fetch_one(self.pool())
            .await?;
        let requests = rows.iter().map(request_from_row).collect::<Result<_, sqlx::Error>>()?;
        Ok((requests, total))
    }
}

/// The payment requests' writes in a [`Writer`]'s transaction: a trait, because `Writer` is
/// backlay-store's type and only that crate can add methods of its own to it.
pub trait PaymentWrites {
    fn open_payment_requests(
        &mut self,
        user_id: i64,
    ) -> impl Future<Output = StoreResult<OpenRequests>> + Send;
    fn insert_payment_request(
        &mut self,
        user_id: i64,
        amount_minor: i64,
        details: &PaymentDetails,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<i64>> + Send;
    fn claim_payment_request(
        &mut self,
        request_id: i64,
        decided_by_user_id: Option<i64>,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn approve_payment_request(
        &mut self,
        request_id: i64,
        transaction_id: i64,
        remark: &str,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn release_payment_request(
        &mut self,
        request_id: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn reject_payment_request(
        &mut self,
        request_id: i64,
        decided_by_user_id: Option<i64>,
        remark: &str,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
}

impl PaymentWrites for Writer {
    /// How many requests of the user are open, and how much the open withdrawals add up to.
    async fn open_payment_requests(&mut self, user_id: i64) -> StoreResult<OpenRequests> {
        // SUM over BIGINT is NUMERIC on PostgreSQL: cast back so both engines answer an integer.
        let row = sqlx::query(
            "SELECT COUNT(*) AS open_count, \
             CAST(COALESCE(SUM(CASE WHEN kind = 'withdraw' THEN amount_minor ELSE 0 END), 0) AS BIGINT) AS withdraw_minor \
             FROM payment_requests WHERE user_id = $1 AND status IN ('pending', 'processing')",
        )
        .bind(user_id)
        .fetch_one(self.conn())
        .await?;
        Ok(OpenRequests {
            count: row.try_get("open_count")?,
            withdraw_minor: row.try_get("withdraw_minor")?,
        })
    }

    /// Stores a new pending request and returns its id. A deposit whose reference is already
    /// on a pending or approved deposit is a `Conflict` (the unique index decides, so two
    /// identical requests at once cannot both get in).
    async fn insert_payment_request(
        &mut self,
        user_id: i64,
        amount_minor: i64,
        details: &PaymentDetails,
        now_ms: i64,
    ) -> StoreResult<i64> {
        assert!(amount_minor > 0, "a payment request is for a positive amount");
        let (reference, account) = match details {
            PaymentDetails::Deposit { reference } => (Some(reference.as_str()), None),
            PaymentDetails::Withdraw(account) => (None, Some(account)),
        };
        let inserted = sqlx::query_scalar(
            "INSERT INTO payment_requests \
             (user_id, kind, amount_minor, status, reference, account_holder, bank_name, account_number, ifsc, created_at_ms) \
             VALUES ($1, $2, $3, 'pending', $4, $5, $6, $7, $8, $9) RETURNING id",
        )
        .bind(user_id)
        .bind(details.kind().as_str())
        .bind(amount_minor)
        .bind(reference)
        .bind(account.map(|a| a.account_holder.as_str()))
        .bind(account.map(|a| a.bank_name.as_str()))
        .bind(account.map(|a| a.account_number.as_str()))
        .bind(account.map(|a| a.ifsc.as_str()))
        .bind(now_ms)
        .fetch_one(self.conn())
        .await;
        match inserted {
            Ok(id) => Ok(id),
            Err(err) if is_unique_violation(&err) => Err(StoreError::Conflict(
                "a deposit request with this reference has already been sent".into(),
            )),
            Err(err) => Err(err.into()),
        }
    }

    /// Claims a pending request for an approval: pending → processing. False when it was not
    /// pending (already decided, or another approval holds it).
    async fn claim_payment_request(
        &mut self,
        request_id: i64,
        decided_by_user_id: Option<i64>,
    ) -> StoreResult<bool> {
        let changed = sqlx::query(
            "UPDATE payment_requests SET status = 'processing', decided_by_user_id = $2 \
             WHERE id = $1 AND status = 'pending'",
        )
        .bind(request_id)
        .bind(decided_by_user_id)
        .execute(self.conn())
        .await?
        .rows_affected();
        Ok(changed == 1)
    }

    /// Marks a claimed request approved with the transfer it caused: processing → approved.
    async fn approve_payment_request(
        &mut self,
        request_id: i64,
        transaction_id: i64,
        remark: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let changed = sqlx::query(
            "UPDATE payment_requests SET status = 'approved', transaction_id = $2, remark = $3, decided_at_ms = $4 \
             WHERE id = $1 AND status = 'processing'",
        )
        .bind(request_id)
        .bind(transaction_id)
        .bind(remark)
        .bind(now_ms)
        .execute(self.conn())
        .await?
        .rows_affected();
        Ok(changed == 1)
    }

    /// Gives a claimed request back when its transfer was refused: processing → pending.
    async fn release_payment_request(&mut self, request_id: i64) -> StoreResult<bool> {
        let changed = sqlx::query(
            "UPDATE payment_requests SET status = 'pending', decided_by_user_id = NULL \
             WHERE id = $1 AND status = 'processing'",
        )
        .bind(request_id)
        .execute(self.conn())
        .await?
        .rows_affected();
        Ok(changed == 1)
    }

    /// Rejects a pending request: pending → rejected. False when it was not pending.
    async fn reject_payment_request(
        &mut self,
        request_id: i64,
        decided_by_user_id: Option<i64>,
        remark: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let changed = sqlx::query(
            "UPDATE payment_requests SET status = 'rejected', decided_by_user_id = $2, remark = $3, decided_at_ms = $4 \
             WHERE id = $1 AND status = 'pending'",
        )
        .bind(request_id)
        .bind(decided_by_user_id)
        .bind(remark)
        .bind(now_ms)
        .execute(self.conn())
        .await?
        .rows_affected();
        Ok(changed == 1)
    }
}
