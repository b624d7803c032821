//! The payment details a payee publishes to the clients below it (a UPI id and/or a bank
//! account; `backlay_office_store::payee` finds the nearest payee above a client). An agent or admin
//! sets its own; an admin also any agent's, so that an agent who cannot work the console is
//! still paid to the right place.

use backlay_office_store::payee::PayeeBank;
use backlay_store::users::{Role, User};
use backlay_store::StoreError;

use super::{Actor, OperatorContext};
use backlay_kit::clock::now_ms;
use backlay_kit::error::AppError;
use backlay_office_store::PayeeWrites;

/// What a payee shows its clients; at least one of the two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayeeDetails {
    pub upi_id: Option<String>,
    pub upi_name: Option<String>,
    pub bank: Option<PayeeBank>,
}

/// The account whose details the actor may set: its own; for an admin (or the console) any
/// agent or admin. An agent naming anyone else gets 404 outside its downline (as everywhere)
/// and 422 inside it.
async fn payee_account(
    ctx: &OperatorContext<'_>,
    writer: &mut backlay_store::Writer,
    user_id: i64,
) -> Result<User, AppError> {
    let may_name_others = match &ctx.actor {
        Actor::Console => true,
        Actor::User(actor) if actor.id == user_id => return Ok(actor.clone()),
        Actor::User(actor) if actor.role == Role::Admin => true,
        Actor::User(actor) => {
            if !writer.is_in_downline(actor.id, user_id).await? {
                return Err(super::not_in_downline());
            }
            false
        }
    };
    let user = match writer.user_by_id(user_id).await {
        Ok(user) => user,
        Err(StoreError::NotFound) => {
            return Err(AppError::NotFound(format!("There is no account {user_id}.")))
        }
        Err(other) => return Err(other.into()),
    };
    if !may_name_others {
        return Err(AppError::Unprocessable(format!(
            "Only an admin sets another account's payment details: ask {} to set their own.",
            user.user_name
        )));
    }
    if user.role == Role::Client {
        return Err(AppError::field(
            "user_id",
            format!(
                "{} is a client: only agents and admins publish payment details.",
                user.user_name
            ),
        ));
    }
    Ok(user)
}

/// Sets (replaces) `user_id`'s payment details, or with `None` removes them (its clients then
/// see the next ones up). Answers the account and whether it had details before. Audited.
pub async fn set_payment_details(
    ctx: &OperatorContext<'_>,
    user_id: i64,
    details: Option<&PayeeDetails>,
) -> Result<(User, bool), AppError> {
    let mut writer = ctx.store.begin_write().await?;
    let user = payee_account(ctx, &mut writer, user_id).await?;
    let had = writer.clear_payment_details(user.id).await?;
    let detail = match details {
        Some(details) => {
            writer
                .set_payment_details(
                    user.id,
                    details.upi_id.as_deref(),
                    details.upi_name.as_deref(),
                    details.bank.as_ref(),
                    now_ms(),
                )
                .await?;
            serde_json::json!({
                "user_name": user.user_name,
                "upi_id": details.upi_id,
                "bank_account": details.bank.as_ref().map(|bank| format!("{} {}", bank.ifsc, bank.account_number)),
            })
        }
        None => serde_json::json!({ "user_name": user.user_name, "removed": had }),
    };
    let action = if details.is_some() { "payment_details.set" } else { "payment_details.clear" };
    ctx.audit(&mut writer, action, format!("user:{}", user.id), detail).await?;
    writer.commit().await?;
    Ok((user, had))
}
