//! Settling cash with the downline: recording that a child paid its parent what the collection
//! report says it owes (or the parent paid the child what it is owed). The accounting is in
//! `backlay_store::cash` (each user's `cash:<id>` account, a real double entry, no chips move).
//!
//! The rules, decided for issue 28:
//! - A settlement is between a parent and its **direct** child, recorded by the parent: an agent
//!   with its own clients and agents, an admin with the accounts right under it. A master does
//!   not settle with its agent's clients (the agent does), so each pair's report and settlements
//!   stay between the two who hand over the cash. An account outside the caller's downline gets
//!   404 as everywhere; one deeper in it gets a 400 naming who settles with it.
//! - `received`: the child paid the parent; `paid`: the parent paid the child.
//! - The amount is more than 0 with at most 2 decimals; the remark at most
//!   [`CASH_REMARK_MAX_CHARS`] characters.
//! - No overpayment, and no correction beyond what was settled: over all time, the net cash
//!   settled between the two (positive: the parent received) stays between 0 and what the
//!   collection report says the child owes (`collect`, either sign). Receiving 700 of 1,000
//!   owed leaves 300 to receive; receiving 1,000.01 is refused ("at most ₹1,000.00"). A mistake
//!   is corrected by a settlement the other way, up to what was settled: after receiving 700, the
//!   parent may "pay" back up to 700. What is owed comes from settled bets only, so cash beyond
//!   it can only be a typing mistake or something the site does not know of. When results move
//!   `collect` below what was already settled (the child won some back), only settlements
//!   toward the range are taken, so the parent can pay the difference.
//! - One transaction: the ledger posting, the `cash_settlements` row and the audit entry commit
//!   together or not at all.

use backlay_core::money::Money;
use backlay_store::cash::NewCashSettlement;
use backlay_store::ledger::{NewTransaction, Posting, TransactionKind};
use backlay_store::users::{Role, User};
use backlay_store::StoreError;

use super::{Actor, OperatorContext};
use backlay_kit::clock::now_ms;
use backlay_kit::error::{AppError, OrNotFound};

/// Longest remark on a cash settlement, in characters.
pub const CASH_REMARK_MAX_CHARS: usize = 200;

backlay_core::named_enum! {
    /// Which way cash went between the parent (the caller) and its child.
    pub enum CashDirection as "direction" {
        /// The child paid the parent.
        Received = "received",
        /// The parent paid the child.
        Paid = "paid",
    }
}

/// A recorded settlement and what is owed after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CashSettlement {
    pub settlement_id: i64,
    pub transaction_id: i64,
    pub parent_id: i64,
    pub child: User,
    /// What the child owed the parent before (negative: the parent owed the child).
    pub owed_before: Money,
    /// And after.
    pub owed_after: Money,
}

/// Records cash received from (or paid to) `user_id`, a direct child of the caller.
pub async fn settle_cash(
    ctx: &OperatorContext<'_>,
    user_id: i64,
    amount: Money,
    direction: CashDirection,
    remark: &str,
) -> Result<CashSettlement, AppError> {
    if !amount.is_positive() {
        return Err(AppError::field("amount", "Amount must be more than 0."));
    }
    let remark = remark.trim();
    if remark.chars().count() > CASH_REMARK_MAX_CHARS {
        return Err(AppError::field(
            "remark",
            format!("Remark must be at most {CASH_REMARK_MAX_CHARS} characters."),
        ));
    }
    let mut writer = ctx.store.begin_write().await?;
    let child = match writer.user_by_id(user_id).await {
        Err(StoreError::NotFound) if !ctx.is_admin() => return Err(super::not_in_downline()),
        found => found.or_not_found(|| format!("There is no user with id {user_id}."))?,
    };
    ctx.require_manages(&mut writer, &child).await?;
    let parent_id = match &ctx.actor {
        Actor::Console => child.parent_id,
        Actor::User(caller) => Some(caller.id).filter(|id| child.parent_id == Some(*id)),
    };
    let Some(parent_id) = parent_id else {
        let settles_with = match child.parent_id {
            Some(id) => writer.user_by_id(id).await?.user_name.to_string(),
            None => "no one".to_owned(),
        };
        return Err(AppError::field(
            "user_id",
            format!(
                "{} is not directly under you: cash is settled between an account and its own parent ({settles_with}).",
                child.user_name
            ),
        ));
    };
    let parent = writer.user_by_id(parent_id).await?;
    let (parent_account, child_account) = writer.lock_cash_accounts(parent.id, child.id).await?;
    let owed = writer.cash_owed_by_child(parent.id, parent.role == Role::Admin, child.id).await?;
    // Positive: the parent received cash, which lowers what the child owes by as much.
    let received_minor = match direction {
        CashDirection::Received => amount.minor(),
        CashDirection::Paid => -amount.minor(),
    };
    // Net settled stays within [0, collect] (either sign), or moves toward it.
    let (low, high) = (owed.collect_minor.min(0), owed.collect_minor.max(0));
    let most_minor = match direction {
        CashDirection::Received => high - owed.settled_minor,
        CashDirection::Paid => owed.settled_minor - low,
    };
    if amount.minor() > most_minor {
        let owed_now = owed_text(&child, Money::from_minor(owed.owed_minor()));
        let message = match (direction, most_minor > 0) {
            (CashDirection::Received, false) => {
                format!("There is no cash to receive from {} now: {owed_now}.", child.user_name)
            }
            (CashDirection::Paid, false) => {
                format!("There is no cash to pay {} now: {owed_now}.", child.user_name)
            }
            (_, true) => format!(
                "{} is more than can be settled: {owed_now}. Settle at most {}.",
                amount.rupees(),
                Money::from_minor(most_minor).rupees()
            ),
        };
        return Err(AppError::field("amount", message));
    }
    // What the refusal above keeps: the net settled ends within what the report says is owed
    // (or nearer to it than it was).
    let settled_after_minor = owed.settled_minor + received_minor;
    assert!(
        (low.min(owed.settled_minor)..=high.max(owed.settled_minor)).contains(&settled_after_minor),
        "cash settled {settled_after_minor} outside 0..{} for user {}",
        owed.collect_minor,
        child.id
    );
    let owed_minor = owed.owed_minor();
    let owed = Money::from_minor(owed_minor);
    let with_remark = |text: String| {
        if remark.is_empty() {
            text
        } else {
            format!("{text}: {remark}")
        }
    };
    let (parent_text, child_text) = match direction {
        CashDirection::Received => (
            format!("Cash received from {}", child.user_name),
            format!("Cash paid to {}", parent.user_name),
        ),
        CashDirection::Paid => (
            format!("Cash paid to {}", child.user_name),
            format!("Cash received from {}", parent.user_name),
        ),
    };
    let now = now_ms();
    let posted = writer
        .post(
            NewTransaction {
                kind: TransactionKind::CashSettlement,
                actor_user_id: ctx.actor_user_id(),
                remark: remark.to_owned(),
                market_id: None,
                postings: vec![
                    Posting {
                        account_id: parent_account,
                        amount_minor: received_minor,
                        description: with_remark(parent_text),
                    },
                    Posting {
                        account_id: child_account,
                        amount_minor: -received_minor,
                        description: with_remark(child_text),
                    },
                ],
            },
            now,
        )
        .await?;
    let settlement_id = writer
        .record_cash_settlement(
            &NewCashSettlement {
                transaction_id: posted.transaction_id,
                parent_user_id: parent.id,
                child_user_id: child.id,
                amount_minor: received_minor,
                remark,
                actor_user_id: ctx.actor_user_id(),
            },
            now,
        )
        .await?;
    let owed_after = Money::from_minor(owed_minor - received_minor);
    ctx.audit(
        &mut writer,
        "cash.settle",
        format!("user:{} ({})", child.id, child.user_name),
        serde_json::json!({
            "direction": direction.as_str(),
            "amount": amount.rupees().to_string(),
            "parent": format!("{} ({})", parent.user_name, parent.id),
            "owed_before": owed.rupees().to_string(),
            "owed_after": owed_after.rupees().to_string(),
            "remark": remark,
            "transaction_id": posted.transaction_id,
        }),
    )
    .await?;
    writer.commit().await?;
    Ok(CashSettlement {
        settlement_id,
        transaction_id: posted.transaction_id,
        parent_id: parent.id,
        child,
        owed_before: owed,
        owed_after,
    })
}

/// "wc1 owes ₹300.00" or "you owe wc1 ₹300.00" or "nothing is owed".
fn owed_text(child: &User, owed: Money) -> String {
    match owed.minor() {
        0 => "nothing is owed either way".to_owned(),
        minor if minor > 0 => format!("{} owes you {}", child.user_name, owed.rupees()),
        _ => format!("you owe {} {}", child.user_name, owed.abs().rupees()),
    }
}
