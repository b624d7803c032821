//! Where money goes in and out, as the two sides see it: the payment details an agent or the
//! operator publishes to its clients (`payment_details`: a UPI id and/or a bank account, shown
//! on the deposit page), and the bank account a bettor was last paid to
//! (`saved_bank_accounts`, offered again on the withdraw form).
//!
//! A client pays whoever is nearest above it and has set details: its parent, else the parent's
//! parent, up to the operator. Example: operator `admin` set a UPI id, agent `agent` set none;
//! `demo` (parent `agent`) is shown the operator's UPI id. Once `agent` sets its own, `demo`
//! sees the agent's.

use std::future::Future;

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::payments::BankAccount;
use backlay_store::{Store, StoreResult, Writer};

/// The bank account half of a payee's details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PayeeBank {
    pub account_name: String,
    pub account_number: String,
    pub ifsc: String,
    pub bank_name: String,
}

/// What a payee shows its clients; at least one of the two is set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaymentDetails {
    /// The payee these details belong to.
    pub user_id: i64,
    pub user_name: String,
    pub upi_id: Option<String>,
    /// The name a UPI app shows beside the id.
    pub upi_name: Option<String>,
    pub bank: Option<PayeeBank>,
    pub updated_at_ms: i64,
}

/// Longest chain of parents walked looking for details; the tree is far shallower.
const MAX_ANCESTORS: usize = 16;

fn details_from_row(row: &AnyRow) -> Result<PaymentDetails, sqlx::Error> {
    let account_number: Option<String> = row.try_get("account_number")?;
    let text = |column: &str| -> Result<String, sqlx::Error> {
        Ok(row.try_get::<Option<String>, _>(column)?.unwrap_or_default())
    };
    let bank = match account_number {
        Some(account_number) => Some(PayeeBank {
            account_name: text("account_name")?,
            account_number,
            ifsc: text("ifsc")?,
            bank_name: text("bank_name")?,
        }),
        None => None,
    };
    Ok(PaymentDetails {
        user_id: row.try_get("user_id")?,
        user_name: row.try_get("user_name")?,
        upi_id: row.try_get("upi_id")?,
        upi_name: row.try_get("upi_name")?,
        bank,
        updated_at_ms: row.try_get("updated_at_ms")?,
    })
}

const DETAILS_SELECT: &str =
    "SELECT d.user_id, u.user_name, d.upi_id, d.upi_name, d.account_name, \
     d.account_number, d.ifsc, d.bank_name, d.updated_at_ms \
     FROM payment_details d JOIN users u ON u.id = d.user_id";

/// The payment details' reads on the [`Store`]: a trait, because `Store` is backlay-store's
/// type and only that crate can add methods of its own to it.
pub trait PayeeReads {
    fn own_payment_details(
        &self,
        user_id: i64,
    ) -> impl Future<Output = StoreResult<Option<PaymentDetails>>> + Send;
    fn payment_details_for(
        &self,
        user_id: i64,
    ) -> impl Future<Output = StoreResult<Option<PaymentDetails>>> + Send;
    fn saved_bank_account(
        &self,
        user_id: i64,
    ) -> impl Future<Output = StoreResult<Option<BankAccount>>> + Send;
}

impl PayeeReads for Store {
    /// The details this user (an agent or an admin) set for its own clients, if any.
    async fn own_payment_details(&self, user_id: i64) -> StoreResult<Option<PaymentDetails>> {
        let row = sqlx::query(&format!("{DETAILS_SELECT} WHERE d.user_id = $1"))
            .bind(user_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(details_from_row).transpose()?)
    }

    /// The details a client pays to: the nearest ancestor's that set any, else the first
    /// operator's (lowest id) that did; `None` when nobody above has set any.
    async fn payment_details_for(&self, user_id: i64) -> StoreResult<Option<PaymentDetails>> {
        let mut next = self.user_by_id(user_id).await?.parent_id;
        for _ in 0..MAX_ANCESTORS {
            let Some(ancestor) = next else { break };
            if let Some(details) = self.own_payment_details(ancestor).await? {
                return Ok(Some(details));
            }
            next = self.user_by_id(ancestor).await?.parent_id;
        }
        let row = sqlx::query(&format!(
            "{DETAILS_SELECT} WHERE u.role = 'admin' ORDER BY d.user_id LIMIT 1"
        ))
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(details_from_row).transpose()?)
    }

    /// The bank account the user saved (with a withdrawal, or on its own).
    async fn saved_bank_account(&self, user_id: i64) -> StoreResult<Option<BankAccount>> {
        let row = sqlx::query(
            "SELECT account_holder, bank_name, account_number, ifsc FROM saved_bank_accounts WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(BankAccount {
            account_holder: row.try_get("account_holder")?,
            bank_name: row.try_get("bank_name")?,
            account_number: row.try_get("account_number")?,
            ifsc: row.try_get("ifsc")?,
        }))
    }
}

/// The payment details' writes in a [`Writer`]'s transaction: a trait, because `Writer` is
/// backlay-store's type and only that crate can add methods of its own to it.
pub trait PayeeWrites {
    fn set_payment_details(
        &mut self,
        user_id: i64,
        upi_id: Option<&str>,
        upi_name: Option<&str>,
        bank: Option<&PayeeBank>,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<()>> + Send;
    fn clear_payment_details(
        &mut self,
        user_id: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn save_bank_account(
        &mut self,
        user_id: i64,
        account: &BankAccount,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<()>> + Send;
}

impl PayeeWrites for Writer {
    /// Sets (replaces) the details `user_id` shows its clients. At least one of UPI and bank.
    async fn set_payment_details(
        &mut self,
        user_id: i64,
        upi_id: Option<&str>,
        upi_name: Option<&str>,
        bank: Option<&PayeeBank>,
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO payment_details (user_id, upi_id, upi_name, account_name, account_number, ifsc, bank_name, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (user_id) DO UPDATE SET upi_id = excluded.upi_id, upi_name = excluded.upi_name, \
             account_name = excluded.account_name, account_number = excluded.account_number, \
             ifsc = excluded.ifsc, bank_name = excluded.bank_name, updated_at_ms = excluded.updated_at_ms",
        )
        .bind(user_id)
        .bind(upi_id)
        .bind(upi_name)
        .bind(bank.map(|b| b.account_name.as_str()))
        .bind(bank.map(|b| b.account_number.as_str()))
        .bind(bank.map(|b| b.ifsc.as_str()))
        .bind(bank.map(|b| b.bank_name.as_str()))
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }

    /// Removes the details `user_id` set; its clients then see the next ancestor's. Whether
    /// there were any.
    async fn clear_payment_details(&mut self, user_id: i64) -> StoreResult<bool> {
        let deleted = sqlx::query("DELETE FROM payment_details WHERE user_id = $1")
            .bind(user_id)
            .execute(self.conn())
            .await?
            .rows_affected();
        Ok(deleted > 0)
    }

    /// Remembers the bank account the user wants to be paid to, replacing the one before.
    async fn save_bank_account(
        &mut self,
        user_id: i64,
        account: &BankAccount,
        now_ms: i64,
    ) -> StoreResult<()> {
        sqlx::query(
            "INSERT INTO saved_bank_accounts (user_id, account_holder, bank_name, account_number, ifsc, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (user_id) DO UPDATE SET account_holder = excluded.account_holder, \
             bank_name = excluded.bank_name, account_number = excluded.account_number, \
             ifsc = excluded.ifsc, updated_at_ms = excluded.updated_at_ms",
        )
        .bind(user_id)
        .bind(&account.account_holder)
        .bind(&account.bank_name)
        .bind(&account.account_number)
        .bind(&account.ifsc)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        Ok(())
    }
}
