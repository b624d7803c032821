//! Deposit and withdraw requests: a user with a parent asks for chips against a bank transfer
//! they made (`payment/deposit`, with its UTR) or to be paid out (`payment/withdraw`, with a
//! bank account); their parent (agent) or an admin approves or rejects each request once
//! (`admin/payment/…`), and the user follows them in `report/paymentStatement`. Where to pay
//! and the saved bank account are in [`super::payee`].
//!
//! Deciding is an operator action ([`backlay_operator::approve_request`] explains approving,
//! [`backlay_operator::reject_request`]).
//!
//! Requests are only asked for while the site setting `payment_gateway` is 1. A user has at
//! most [`MAX_OPEN_REQUESTS`] open at a time, and may not ask to withdraw more than their
//! available balance less the withdrawals they have already asked for (approval checks the
//! ledger again, since the balance can change in between).

use super::operator_context;
use axum::extract::State;
use axum::response::Response;
use backlay_core::money::Money;
use backlay_core::named::one_of;
use backlay_office_store::payments::{
    BankAccount, PaymentDetails, PaymentFilter, PaymentKind, PaymentRequest, PaymentStatus,
};
use backlay_store::users::{Role, User};
use backlay_store::Store;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::export::{list_answer, Cell, CsvRow, Downloadable};
use backlay_kit::clock::{iso_utc, now_ms};
use backlay_kit::error::{ok_with, ApiResult, AppError, Envelope};
use backlay_kit::input::{text_field, AmountInput, ApiJson, Checks, FlexI64, Paged};
use backlay_office_store::{AuditWrites, PayeeWrites, PaymentReads, PaymentWrites};
use backlay_operator::session::{ClientIp, CurrentUser, Operator};
use backlay_operator::AppState;
use backlay_operator::{approve_request, reject_request};

/// Most requests one user may have waiting for a decision.
pub const MAX_OPEN_REQUESTS: i64 = 5;
/// A UTR is 12–22 characters; other references are shorter. 64 leaves room without inviting essays.
pub const REFERENCE_MAX_CHARS: usize = 64;
pub const BANK_TEXT_MAX_CHARS: usize = 64;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(deposit))
        .routes(routes!(withdraw))
        .routes(routes!(payment_statement))
        .routes(routes!(list))
        .routes(routes!(approve))
        .routes(routes!(reject))
}

// ---------------------------------------------------------------------------------------------
// Asking

#[derive(Deserialize, ToSchema)]
pub struct DepositRequest {
    /// More than 0, at most 2 decimals.
    #[serde(default)]
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub amount: Option<AmountInput>,
    /// The UTR / transaction reference of the bank transfer made (1–64 characters).
    #[serde(default)]
    pub reference: String,
}

#[derive(Deserialize, ToSchema)]
pub struct WithdrawRequest {
    /// More than 0, at most 2 decimals, at most the available balance.
    #[serde(default)]
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1_000_000_000_000.0, multiple_of = 0.01)]
    pub amount: Option<AmountInput>,
    #[serde(default)]
    pub account_holder: String,
    #[serde(default)]
    pub bank_name: String,
    /// 6 to 20 digits.
    #[serde(default)]
    pub account_number: String,
    /// 4 letters, 0, then 6 letters or digits, e.g. SBIN0001234.
    #[serde(default)]
    pub ifsc: String,
}

#[derive(Serialize, ToSchema)]
pub struct RequestCreated {
    pub request_id: i64,
    /// Always "pending".
    pub status: PaymentStatus,
}

#[utoipa::path(post, path = "/payment/deposit", tag = "user", request_body = DepositRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<RequestCreated>), (status = 400), (status = 401),
        (status = 409, description = "Too many open requests, or the reference was already sent"),
        (status = 422, description = "Payments are off, or the user has no parent")))]
async fn deposit(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<DepositRequest>,
) -> ApiResult<RequestCreated> {
    require_payments_open(&state.store, &authed.user).await?;
    let mut checks = Checks::default();
    let amount = positive_amount(&mut checks, body.amount);
    let reference =
        text_field(&mut checks, "reference", "Reference", &body.reference, REFERENCE_MAX_CHARS);
    checks.finish()?;
    let request_id = create_request(
        &state.store,
        &authed.user,
        ip.as_deref(),
        amount,
        PaymentDetails::Deposit { reference },
    )
    .await?;
    Ok(ok_with(
        format!(
            "Deposit request of {} sent. Your agent will credit it once the transfer is confirmed.",
            amount.rupees()
        ),
        RequestCreated { request_id, status: PaymentStatus::Pending },
    ))
}

#[utoipa::path(post, path = "/payment/withdraw", tag = "user", request_body = WithdrawRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<RequestCreated>), (status = 400), (status = 401),
        (status = 409, description = "Too many open requests"),
        (status = 422, description = "Payments are off, the user has no parent, or more than the available balance")))]
async fn withdraw(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    ClientIp(ip): ClientIp,
    ApiJson(body): ApiJson<WithdrawRequest>,
) -> ApiResult<RequestCreated> {
    require_payments_open(&state.store, &authed.user).await?;
    let mut checks = Checks::default();
    let amount = positive_amount(&mut checks, body.amount);
    let account = bank_account(
        &mut checks,
        ("account_holder", &body.account_holder),
        &body.bank_name,
        &body.account_number,
        &body.ifsc,
    );
    checks.finish()?;
    let request_id = create_request(
        &state.store,
        &authed.user,
        ip.as_deref(),
        amount,
        PaymentDetails::Withdraw(account),
    )
    .await?;
    Ok(ok_with(
        format!(
            "Withdraw request of {} sent. Your agent will pay it out once approved.",
            amount.rupees()
        ),
        RequestCreated { request_id, status: PaymentStatus::Pending },
    ))
}

/// 422 unless the site takes payment requests and the user has a parent to send them to: a
/// refusal of this request, shown to the user, never a 403 (which ends the client's session).
async fn require_payments_open(store: &Store, user: &User) -> Result<(), AppError> {
    let settings = backlay_kit::settings::load(store).await?;
    if settings.get("payment_gateway").map(String::as_str) != Some("1") {
        return Err(AppError::Unprocessable(
            "Deposits and withdrawals are turned off on this site.".into(),
        ));
    }
    if user.parent_id.is_none() {
        return Err(AppError::Unprocessable(
            "Deposits and withdrawals go through your agent, and this account has none.".into(),
        ));
    }
    Ok(())
}

fn positive_amount(checks: &mut Checks, amount: Option<AmountInput>) -> Money {
    match amount {
        None => checks.fail("amount", "Amount is required."),
        Some(AmountInput(amount)) if !amount.is_positive() => {
            checks.fail("amount", "Amount must be more than 0.")
        }
        Some(AmountInput(amount)) => return amount,
    }
    Money::ZERO
}

/// A bank account from a form, each field checked: the holder's name (under `holder.0`, the
/// form's name for it), the bank's name, the account number and the IFSC.
pub fn bank_account(
    checks: &mut Checks,
    holder: (&str, &str),
    bank_name: &str,
    number: &str,
    code: &str,
) -> BankAccount {
    BankAccount {
        account_holder: text_field(
            checks,
            holder.0,
            "Account holder",
            holder.1,
            BANK_TEXT_MAX_CHARS,
        ),
        bank_name: text_field(checks, "bank_name", "Bank name", bank_name, BANK_TEXT_MAX_CHARS),
        account_number: account_number(checks, number),
        ifsc: ifsc(checks, code),
    }
}

fn account_number(checks: &mut Checks, text: &str) -> String {
    let number = text.trim();
    if !(6..=20).contains(&number.len()) || !number.bytes().all(|b| b.is_ascii_digit()) {
        checks.fail("account_number", "Account number must be 6 to 20 digits.");
    }
    number.to_string()
}

/// An Indian Financial System Code: 4 letters (the bank), a 0, 6 letters or digits (the branch).
fn ifsc(checks: &mut Checks, text: &str) -> String {
    let code = text.trim().to_ascii_uppercase();
    let bytes = code.as_bytes();
    let valid = bytes.len() == 11
        && bytes[..4].iter().all(u8::is_ascii_alphabetic)
        && bytes[4] == b'0'
        && bytes[5..].iter().all(u8::is_ascii_alphanumeric);
    if !valid {
        checks.fail("ifsc", "Enter a valid IFSC code, e.g. SBIN0001234.");
    }
    code
}

/// Stores a pending request after the limits: open requests, and for a withdrawal the funds;
/// audited with it.
async fn create_request(
    store: &Store,
    user: &User,
    ip: Option<&str>,
    amount: Money,
    details: PaymentDetails,
) -> Result<i64, AppError> {
    let mut writer = store.begin_write().await?;
    // Locking the user's account first makes the count and the funds check hold until commit:
    // two requests sent at once are checked one after the other.
    let funds = writer.lock_funds_of_user(user.id).await?;
    let open = writer.open_payment_requests(user.id).await?;
    if open.count >= MAX_OPEN_REQUESTS {
        return Err(AppError::Conflict(format!(
            "You already have {} requests waiting for a decision, the most at a time. Wait until your agent has decided one.",
            open.count
        )));
    }
    if details.kind() == PaymentKind::Deposit {
        backlay_operator::safer::check_deposit(
            &mut writer,
            user.id,
            amount.minor(),
            false,
            now_ms(),
        )
        .await?;
    }
    if details.kind() == PaymentKind::Withdraw {
        let available = Money::from_minor(funds.available_minor());
        let requested = Money::from_minor(open.withdraw_minor).rupees();
        let withdrawable =
            Money::from_minor((funds.available_minor() - open.withdraw_minor).max(0));
        if amount > withdrawable {
            let (available, withdrawable) = (available.rupees(), withdrawable.rupees());
            return Err(AppError::Unprocessable(if open.withdraw_minor == 0 {
                format!("You can withdraw at most {available}, your available balance.")
            } else {
                format!("You can withdraw at most {withdrawable}: {available} available, less {requested} in withdrawals already requested.")
            }));
        }
    }
    let now = now_ms();
    let request_id = writer.insert_payment_request(user.id, amount.minor(), &details, now).await?;
    // The account a withdrawal is paid to is offered again next time (payment/bankAccount).
    if let PaymentDetails::Withdraw(account) = &details {
        writer.save_bank_account(user.id, account, now).await?;
    }
    let mut detail = serde_json::json!({
        "user_id": user.id,
        "user_name": user.user_name,
        "type": details.kind().as_str(),
        "amount": amount,
    });
    if let PaymentDetails::Deposit { reference } = &details {
        detail["reference"] = reference.as_str().into();
    }
    writer
        .audit(
            backlay_office_store::audit::NewAuditEntry {
                actor_user_id: Some(user.id),
                action: "payment.request",
                target: format!("payment_request:{request_id}"),
                detail,
                client_ip: ip,
            },
            now,
        )
        .await?;
    writer.commit().await?;
    Ok(request_id)
}

// ---------------------------------------------------------------------------------------------
// The user's statement

#[derive(Serialize, ToSchema)]
pub struct PaymentStatementRow {
    pub request_id: i64,
    /// deposit or withdraw.
    #[serde(rename = "type")]
    pub kind: PaymentKind,
    #[schema(value_type = f64)]
    pub amount: Money,
    /// pending, approved or rejected.
    pub status: PaymentStatus,
    /// A deposit's UTR; for a withdrawal, where it is paid (the account number shortened).
    pub reference: String,
    /// The agent's note on the decision.
    pub remark: String,
    pub date: String,
    #[schema(required = true)]
    pub decided_at: Option<String>,
}

impl From<&PaymentRequest> for PaymentStatementRow {
    fn from(request: &PaymentRequest) -> PaymentStatementRow {
        // Being processed is an internal step of approving: to the user it is still pending.
        let status = match request.status {
            PaymentStatus::Processing => PaymentStatus::Pending,
            other => other,
        };
        let reference = match &request.details {
            PaymentDetails::Deposit { reference } => reference.clone(),
            PaymentDetails::Withdraw(account) => {
                let digits = account.account_number.len();
                let last_four = &account.account_number[digits.saturating_sub(4)..];
                format!(
                    "{}, {} a/c ending {last_four} ({})",
                    account.account_holder, account.bank_name, account.ifsc
                )
            }
        };
        PaymentStatementRow {
            request_id: request.id,
            kind: request.kind(),
            amount: Money::from_minor(request.amount_minor),
            status,
            reference,
            remark: request.remark.clone(),
            date: iso_utc(request.created_at_ms),
            decided_at: request.decided_at_ms.map(iso_utc),
        }
    }
}

/// The caller's own deposit and withdraw requests, newest first.
/// A bettor's payment statement takes no filters of its own: `page`, `limit` and `format`.
#[derive(Clone, Debug, Default, Deserialize, ToSchema)]
pub struct PaymentStatementRequest {}

#[utoipa::path(post, path = "/report/paymentStatement", tag = "user", request_body = Downloadable<PaymentStatementRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<PaymentStatementRow>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 401)))]
async fn payment_statement(
    State(state): State<AppState>,
    CurrentUser(authed): CurrentUser,
    Downloadable { page, format, .. }: Downloadable<PaymentStatementRequest>,
) -> Result<Response, AppError> {
    let user_id = authed.user.id;
    list_answer(format.parse()?, page, "payments", move |page| {
        let state = state.clone();
        async move {
            let (page, limit, offset) = page.resolve()?;
            let filter = PaymentFilter { user_id: Some(user_id), ..PaymentFilter::default() };
            let (requests, total) = state.store.payment_requests(filter, offset, limit).await?;
            let rows = requests.iter().map(PaymentStatementRow::from).collect();
            Ok(Paged { rows, total, page, limit })
        }
    })
    .await
}

impl CsvRow for PaymentStatementRow {
    const HEADER: &'static [&'static str] =
        &["date", "request_id", "kind", "amount", "status", "reference", "remark", "decided_at"];

    fn cells(&self) -> Vec<Cell> {
        vec![
            Cell::Figure(self.date.clone()),
            Cell::int(self.request_id),
            Cell::text(self.kind.as_str()),
            Cell::money(self.amount),
            Cell::text(self.status.as_str()),
            Cell::text(&self.reference),
            Cell::text(&self.remark),
            Cell::Figure(self.decided_at.clone().unwrap_or_default()),
        ]
    }
}

// ---------------------------------------------------------------------------------------------
// Operators: listing and deciding

#[derive(Deserialize, ToSchema, Default)]
pub struct ListPaymentsRequest {
    /// pending, processing, approved or rejected; absent: all.
    #[serde(default)]
    #[schema(pattern = "^(pending|processing|approved|rejected)$")]
    pub status: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct PaymentRequestRow {
    pub request_id: i64,
    pub user_id: i64,
    pub user_name: String,
    /// deposit or withdraw.
    #[serde(rename = "type")]
    pub kind: PaymentKind,
    #[schema(value_type = f64)]
    pub amount: Money,
    /// pending, processing (an approval is moving the chips), approved or rejected.
    pub status: PaymentStatus,
    /// Deposit: the UTR to look for in the bank statement.
    #[schema(required = true)]
    pub reference: Option<String>,
    /// Withdraw: where to pay.
    #[schema(required = true)]
    pub account_holder: Option<String>,
    #[schema(required = true)]
    pub bank_name: Option<String>,
    #[schema(required = true)]
    pub account_number: Option<String>,
    #[schema(required = true)]
    pub ifsc: Option<String>,
    pub remark: String,
    pub date: String,
    #[schema(required = true)]
    pub decided_at: Option<String>,
    #[schema(required = true)]
    pub decided_by: Option<i64>,
    /// The ledger transaction an approval posted.
    #[schema(required = true)]
    pub transaction_id: Option<i64>,
}

impl From<PaymentRequest> for PaymentRequestRow {
    fn from(request: PaymentRequest) -> PaymentRequestRow {
        let kind = request.kind();
        let (reference, account) = match request.details {
            PaymentDetails::Deposit { reference } => (Some(reference), None),
            PaymentDetails::Withdraw(account) => (None, Some(account)),
        };
        let (account_holder, bank_name, account_number, ifsc) = match account {
            Some(a) => {
                (Some(a.account_holder), Some(a.bank_name), Some(a.account_number), Some(a.ifsc))
            }
            None => (None, None, None, None),
        };
        PaymentRequestRow {
            request_id: request.id,
            user_id: request.user_id,
            user_name: request.user_name,
            kind,
            amount: Money::from_minor(request.amount_minor),
            status: request.status,
            reference,
            account_holder,
            bank_name,
            account_number,
            ifsc,
            remark: request.remark,
            date: iso_utc(request.created_at_ms),
            decided_at: request.decided_at_ms.map(iso_utc),
            decided_by: request.decided_by_user_id,
            transaction_id: request.transaction_id,
        }
    }
}

/// Payment requests, newest first: an admin sees all, an agent those of their own clients.
#[utoipa::path(post, path = "/admin/payment/list", tag = "admin", request_body = Downloadable<ListPaymentsRequest>, security(("bearer" = [])),
    responses((status = 200, content((Envelope<Paged<PaymentRequestRow>> = "application/json"), (String = "text/csv"))), (status = 400), (status = 401), (status = 403)))]
async fn list(
    State(state): State<AppState>,
    Operator(authed): Operator,
    Downloadable { request: body, page, format }: Downloadable<ListPaymentsRequest>,
) -> Result<Response, AppError> {
    let status = match body.status.as_deref().map(str::trim).unwrap_or("") {
        "" | "all" => None,
        text => Some(text.parse::<PaymentStatus>().map_err(|_| {
            AppError::field(
                "status",
                format!("{text} is not a status: use {}.", one_of(PaymentStatus::NAMES)),
            )
        })?),
    };
    let parent_id = match authed.user.role {
        Role::Admin => None,
        _ => Some(authed.user.id),
    };
    list_answer(format.parse()?, page, "payment-requests", move |page| {
        let state = state.clone();
        async move {
            let (page, limit, offset) = page.resolve()?;
            let filter = PaymentFilter { status, parent_id, user_id: None };
            let (requests, total) = state.store.payment_requests(filter, offset, limit).await?;
            let rows = requests.into_iter().map(PaymentRequestRow::from).collect();
            Ok(Paged { rows, total, page, limit })
        }
    })
    .await
}

impl CsvRow for PaymentRequestRow {
    const HEADER: &'static [&'static str] = &[
        "date",
        "request_id",
        "user_id",
        "user_name",
        "kind",
        "amount",
        "status",
        "reference",
        "account_holder",
        "bank_name",
        "account_number",
        "ifsc",
        "remark",
        "decided_at",
        "transaction_id",
    ];

    fn cells(&self) -> Vec<Cell> {
        let text = |value: &Option<String>| Cell::text(value.clone().unwrap_or_default());
        vec![
            Cell::Figure(self.date.clone()),
            Cell::int(self.request_id),
            Cell::int(self.user_id),
            Cell::text(&self.user_name),
            Cell::text(self.kind.as_str()),
            Cell::money(self.amount),
            Cell::text(self.status.as_str()),
            text(&self.reference),
            text(&self.account_holder),
            text(&self.bank_name),
            text(&self.account_number),
            text(&self.ifsc),
            Cell::text(&self.remark),
            Cell::Figure(self.decided_at.clone().unwrap_or_default()),
            Cell::opt_int(self.transaction_id),
        ]
    }
}

#[derive(Deserialize, ToSchema)]
pub struct ApproveRequest {
    #[schema(value_type = i64)]
    pub request_id: FlexI64,
    /// A note for the user (at most 200 characters).
    #[serde(default)]
    pub remark: String,
}

#[derive(Deserialize, ToSchema)]
pub struct RejectRequest {
    #[schema(value_type = i64)]
    pub request_id: FlexI64,
    /// Why, for the user (1–200 characters).
    #[serde(default)]
    pub remark: String,
}

#[derive(Serialize, ToSchema)]
pub struct ApprovedData {
    pub request_id: i64,
    /// Always "approved".
    pub status: PaymentStatus,
    pub transaction_id: i64,
    #[schema(value_type = f64)]
    pub user_balance: Money,
    #[schema(value_type = f64)]
    pub parent_balance: Money,
}

#[derive(Serialize, ToSchema)]
pub struct RejectedData {
    pub request_id: i64,
    /// Always "rejected".
    pub status: PaymentStatus,
}

#[utoipa::path(post, path = "/admin/payment/approve", tag = "admin", request_body = ApproveRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<ApprovedData>), (status = 400), (status = 401),
        (status = 403, description = "Not the user's parent nor an admin"), (status = 404),
        (status = 409, description = "Already decided, or being decided"),
        (status = 422, description = "Whoever pays has not the funds")))]
async fn approve(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<ApproveRequest>,
) -> ApiResult<ApprovedData> {
    let ctx = operator_context(&state, operator, ip);
    let (request, outcome) = approve_request(&ctx, body.request_id.0, &body.remark).await?;
    let what = match request.kind() {
        PaymentKind::Deposit => "Deposit",
        PaymentKind::Withdraw => "Withdrawal",
    };
    Ok(ok_with(
        format!(
            "{what} of {} for {} approved.",
            Money::from_minor(request.amount_minor),
            request.user_name
        ),
        ApprovedData {
            request_id: request.id,
            status: PaymentStatus::Approved,
            transaction_id: outcome.transaction_id,
            user_balance: outcome.user_balance,
            parent_balance: outcome.parent_balance,
        },
    ))
}

#[utoipa::path(post, path = "/admin/payment/reject", tag = "admin", request_body = RejectRequest, security(("bearer" = [])),
    responses((status = 200, body = Envelope<RejectedData>), (status = 400), (status = 401),
        (status = 403, description = "Not the user's parent nor an admin"), (status = 404),
        (status = 409, description = "Already decided, or being decided")))]
async fn reject(
    State(state): State<AppState>,
    operator: Operator,
    ip: ClientIp,
    ApiJson(body): ApiJson<RejectRequest>,
) -> ApiResult<RejectedData> {
    let ctx = operator_context(&state, operator, ip);
    let request = reject_request(&ctx, body.request_id.0, &body.remark).await?;
    Ok(ok_with(
        format!("Request #{} of {} rejected.", request.id, request.user_name),
        RejectedData { request_id: request.id, status: PaymentStatus::Rejected },
    ))
}
