//! Deciding users' deposit and withdraw requests (`admin/payment/…`; the requests themselves
//! are asked for through `payment/deposit` and `payment/withdraw`).
//!
//! Approving runs the very transfer an operator makes by hand ([`transfer_in`]): a deposit
//! moves the chips parent → user, a withdrawal user → parent, with the ledger's funds check on
//! whoever pays. Claiming the request (guarded by its status), the transfer and the approval
//! commit in one transaction, so a request is approved exactly when its chips moved; a refused
//! transfer leaves it pending. Two approvals at once: one claims, the other gets 409, and the
//! chips move once.

use backlay_core::money::Money;
use backlay_office_store::audit::NewAuditEntry;
use backlay_office_store::payments::{PaymentKind, PaymentRequest, PaymentStatus};
use backlay_store::users::Role;

use super::{self as operator, Actor, OperatorContext, TransferDirection, TransferOutcome};
use backlay_kit::clock::now_ms;
use backlay_kit::error::{AppError, OrNotFound};
use backlay_office_store::{AuditLog, AuditWrites, PaymentReads, PaymentWrites};

/// The same bound as a transfer's remark.
pub const REMARK_MAX_CHARS: usize = 200;

fn remark_field(remark: &str, required: bool) -> Result<String, AppError> {
    let remark = remark.trim();
    if required && remark.is_empty() {
        return Err(AppError::field("remark", "Give the reason for rejecting in remark."));
    }
    if remark.chars().count() > REMARK_MAX_CHARS {
        return Err(AppError::field(
            "remark",
            format!("Remark must be at most {REMARK_MAX_CHARS} characters."),
        ));
    }
    Ok(remark.to_string())
}

/// Loads a request an actor may decide: the console, an admin, or the user's parent. An agent
/// gets the same 404 for another branch's request as for an id nobody has (as for accounts,
/// [`operator::not_in_downline`]): it learns nothing of another downline, not even that the
/// request is there.
async fn decidable_request(
    ctx: &OperatorContext<'_>,
    request_id: i64,
) -> Result<PaymentRequest, AppError> {
    let is_operator = matches!(&ctx.actor, Actor::Console)
        || matches!(&ctx.actor, Actor::User(user) if user.role == Role::Admin);
    let not_theirs = || AppError::NotFound("No such payment request from your clients.".into());
    let request = match ctx.store.payment_request(request_id).await {
        Err(backlay_store::StoreError::NotFound) if !is_operator => return Err(not_theirs()),
        found => found.or_not_found(|| format!("There is no payment request {request_id}."))?,
    };
    match &ctx.actor {
        _ if is_operator => Ok(request),
        Actor::User(user) if request.parent_id == Some(user.id) => Ok(request),
        _ => Err(not_theirs()),
    }
}

/// The 409 for a request that is not pending (any more).
fn not_pending(request_id: i64, status: PaymentStatus) -> AppError {
    AppError::Conflict(match status {
        PaymentStatus::Processing => {
            format!("Payment request #{request_id} is being approved right now.")
        }
        decided => format!("Payment request #{request_id} has already been {}.", decided.as_str()),
    })
}

/// Approves a pending request: claims it, runs the transfer, records the outcome.
pub async fn approve_request(
    ctx: &OperatorContext<'_>,
    request_id: i64,
    remark: &str,
) -> Result<(PaymentRequest, TransferOutcome), AppError> {
    let remark = remark_field(remark, false)?;
    let request = decidable_request(ctx, request_id).await?;
    if request.status != PaymentStatus::Pending {
        return Err(not_pending(request.id, request.status));
    }
    // Run the steps in their own task: if the caller goes away mid-way (axum drops the handler's
    // future when the connection closes), a claimed request is still taken to its end instead
    // of being left in 'processing'.
    let store = ctx.store.clone();
    let actor = ctx.actor.clone();
    let client_ip = ctx.client_ip.clone();
    tokio::spawn(async move {
        let ctx = OperatorContext { store: &store, actor, client_ip };
        claim_transfer_record(&ctx, request, remark).await
    })
    .await
    .map_err(|err| AppError::Internal(anyhow::anyhow!("the approval task failed: {err}")))?
}

async fn claim_transfer_record(
    ctx: &OperatorContext<'_>,
    request: PaymentRequest,
    remark: String,
) -> Result<(PaymentRequest, TransferOutcome), AppError> {
    let actor_id = ctx.actor_user_id();
    let audit = |action, detail| NewAuditEntry {
        actor_user_id: actor_id,
        action,
        target: format!("payment_request:{}", request.id),
        detail,
        client_ip: ctx.client_ip.as_deref(),
    };
    let direction = match request.kind() {
        PaymentKind::Deposit => TransferDirection::Deposit,
        PaymentKind::Withdraw => TransferDirection::Withdraw,
    };
    // Claim, transfer and record in one transaction: the request is approved exactly when its
    // chips moved, and two approvals at once cannot both claim it.
    let mut writer = ctx.store.begin_write().await?;
    if !writer.claim_payment_request(request.id, actor_id).await? {
        drop(writer);
        let now = ctx.store.payment_request(request.id).await?;
        return Err(not_pending(request.id, now.status));
    }
    // The transfer's remark names the request, so each ledger line can be traced back to it.
    let transferred = operator::transfer_in(
        ctx,
        &mut writer,
        request.user_id,
        Money::from_minor(request.amount_minor),
        direction,
        &format!("payment request #{}", request.id),
    )
    .await;
    let outcome = match transferred {
        Ok(outcome) => outcome,
        Err(refused) => {
            // Nothing of this approval stays: the request is pending again. The refusal (e.g.
            // the parent has not the funds) goes to the operator and the audit log.
            drop(writer);
            ctx.store
                .audit(
                    audit("payment.approve_failed", serde_json::json!({ "user_id": request.user_id, "user_name": request.user_name, "error": refused.to_string() })),
                    now_ms(),
                )
                .await?;
            return Err(refused);
        }
    };
    let recorded = writer
        .approve_payment_request(request.id, outcome.transaction_id, &remark, now_ms())
        .await?;
    assert!(recorded, "payment request {} was claimed in this transaction", request.id);
    writer
        .audit(
            audit(
                "payment.approve",
                serde_json::json!({
                    "user_id": request.user_id,
                    "user_name": request.user_name,
                    "type": request.kind().as_str(),
                    "amount": Money::from_minor(request.amount_minor),
                    "transaction_id": outcome.transaction_id,
                    "remark": remark,
                }),
            ),
            now_ms(),
        )
        .await?;
    writer.commit().await?;
    let request = ctx.store.payment_request(request.id).await?;
    Ok((request, outcome))
}

/// Rejects a pending request; no chips move.
pub async fn reject_request(
    ctx: &OperatorContext<'_>,
    request_id: i64,
    remark: &str,
) -> Result<PaymentRequest, AppError> {
    let remark = remark_field(remark, true)?;
    let request = decidable_request(ctx, request_id).await?;
    let actor_id = ctx.actor_user_id();
    let mut writer = ctx.store.begin_write().await?;
    if !writer.reject_payment_request(request.id, actor_id, &remark, now_ms()).await? {
        drop(writer);
        let now = ctx.store.payment_request(request.id).await?;
        return Err(not_pending(request.id, now.status));
    }
    writer
        .audit(
            NewAuditEntry {
                actor_user_id: actor_id,
                action: "payment.reject",
                target: format!("payment_request:{}", request.id),
                detail: serde_json::json!({
                    "user_id": request.user_id,
                    "user_name": request.user_name,
                    "type": request.kind().as_str(),
                    "amount": Money::from_minor(request.amount_minor),
                    "remark": remark,
                }),
                client_ip: ctx.client_ip.as_deref(),
            },
            now_ms(),
        )
        .await?;
    writer.commit().await?;
    Ok(ctx.store.payment_request(request.id).await?)
}
