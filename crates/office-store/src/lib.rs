//! The operator's back office's tables, over the store's one schema and pool: deposit and
//! withdrawal requests ([`payments`]), the payment details a payee shows its clients
//! ([`payee`]), the console dashboard's figures ([`dashboard`]) and the audit log ([`audit`]).
//!
//! `Store` and `Writer` are `backlay_store`'s types, so each module adds its methods to them
//! through traits, on the `Store` and in a `Writer`'s transaction: a caller brings them into
//! scope (`use backlay_office_store::{AuditWrites, PaymentReads}`) and calls
//! `w.audit(entry, now_ms)` or `store.payment_request(id)` as on any repository. A method's
//! documentation is at its body, in the trait's impl next to the trait. The migrations stay in
//! `backlay_store`: one schema for every table.

pub mod audit;
pub mod dashboard;
pub mod payee;
pub mod payments;

pub use audit::{AuditLog, AuditWrites};
pub use dashboard::DashboardReads;
pub use payee::{PayeeReads, PayeeWrites};
pub use payments::{PaymentReads, PaymentWrites};

#[cfg(test)]
mod tests {
    use backlay_store::repository::assert_names_read_back;
    use backlay_store::Store;

    use super::payments;

    #[tokio::test]
    async fn every_stored_state_reads_back_and_an_unknown_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("named.db").display());
        let store = Store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        assert_names_read_back(&store, payments::PaymentKind::ALL, payments::PaymentKind::as_str)
            .await;
        assert_names_read_back(
            &store,
            payments::PaymentStatus::ALL,
            payments::PaymentStatus::as_str,
        )
        .await;
    }
}
