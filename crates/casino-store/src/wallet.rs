//! The seamless wallet's records: provider rounds (`provider_rounds`) and the wallet calls that
//! moved money (`wallet_transactions`). The protocol (signatures, refusals) is the server's
//! (`backlay_casino_runtime::wallet`); this module stores what a call did, inside the caller's write
//! transaction, next to its ledger transaction.
//!
//! Idempotency rests on `UNIQUE (provider_id, provider_tx_id)`: a call first looks for its tx
//! id ([`Writer::wallet_tx_by_ref`]) and, when it is new, claims it by inserting its row
//! ([`Writer::claim_wallet_tx`]) before any money moves. Two copies of one call that race both
//! miss the look-up on PostgreSQL; the second's insert then waits for the first to commit and
//! fails on the constraint, so it moves nothing and re-reads the first answer. On SQLite the
//! write lock orders them and the second finds the row at once. A rollback's row also names the
//! debit it undoes in the UNIQUE `reverses_id`, so a debit is undone at most once whatever tx
//! ids the provider sends.
//!
//! Example (provider `evo`, user 9, round `r-77`):
//!
//! ```text
//! debit  tx d1 100.00  round r-77 open, debited 100.00    ledger: user −100.00, provider_games +100.00
//! debit  tx d1 again   → the first answer, nothing moves
//! credit tx c1 250.00  round r-77 settled, credited 250.00 ledger: provider_games −250.00, user +250.00
//! rollback of d1       → refused: the round is settled
//! ```

use std::future::Future;

use sqlx::any::AnyRow;
use sqlx::Row;

use backlay_store::repository::{is_unique_violation, named};
use backlay_store::{Store, StoreError, StoreResult, Writer};

backlay_core::named_enum! {
    /// What a wallet call did.
    pub enum WalletKind as "wallet call kind" {
        Debit = "debit",
        Credit = "credit",
        Rollback = "rollback",
    }
}

backlay_core::named_enum! {
    /// Where a provider round is.
    pub enum ProviderRoundState as "provider round state" {
        /// Debited, waiting for its credit.
        Open = "open",
        /// Credited: no more debits, credits or rollbacks.
        Settled = "settled",
        /// Every debit in it was rolled back.
        RolledBack = "rolled_back",
    }
}

/// A provider's round for one user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderRound {
    pub id: i64,
    pub provider_id: i64,
    pub round_ref: String,
    pub user_id: i64,
    pub game_code: String,
    /// Net of rollbacks.
    pub debited_minor: i64,
    pub credited_minor: i64,
    pub state: ProviderRoundState,
    pub created_at_ms: i64,
    pub settled_at_ms: Option<i64>,
}

/// An accepted wallet call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalletTx {
    pub id: i64,
    pub provider_id: i64,
    pub provider_tx_id: String,
    pub kind: WalletKind,
    pub user_id: i64,
    pub round_pk: i64,
    pub amount_minor: i64,
    /// A rollback: the debit it undid.
    pub reverses_id: Option<i64>,
    pub request_hash: String,
    /// The first answer's JSON (`data` of the envelope).
    pub answer_json: String,
    pub ledger_transaction_id: Option<i64>,
    pub created_at_ms: i64,
}

/// A wallet call to claim (see the module docs).
#[derive(Clone, Debug)]
pub struct NewWalletTx<'a> {
    pub provider_id: i64,
    pub provider_tx_id: &'a str,
    pub kind: WalletKind,
    pub user_id: i64,
    pub round_pk: i64,
    pub amount_minor: i64,
    pub reverses_id: Option<i64>,
    pub request_hash: &'a str,
}

/// One row of the Live Casino Bets report: a wallet call of the user's, with its round and game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveCasinoLine {
    pub id: i64,
    pub provider_code: String,
    pub provider_name: String,
    pub provider_tx_id: String,
    pub kind: WalletKind,
    pub amount_minor: i64,
    pub round_ref: String,
    pub round_state: ProviderRoundState,
    pub game_code: String,
    /// The catalogue's name for the game, when the provider lists it.
    pub game_name: Option<String>,
    /// A debit: the provider tx id of the rollback that undid it.
    pub rolled_back_by: Option<String>,
    pub created_at_ms: i64,
}

/// Most rows one report page reads.
pub const MAX_WALLET_ROWS: i64 = 100;

const ROUND_COLUMNS: &str =
    "id, provider_id, round_ref, user_id, game_code, debited_minor, credited_minor, state, created_at_ms, settled_at_ms";

fn round_from_row(row: &AnyRow) -> Result<ProviderRound, sqlx::Error> {
    Ok(ProviderRound {
        id: row.try_get("id")?,
        provider_id: row.try_get("provider_id")?,
        round_ref: row.try_get("round_ref")?,
        user_id: row.try_get("user_id")?,
        game_code: row.try_get("game_code")?,
        debited_minor: row.try_get("debited_minor")?,
        credited_minor: row.try_get("credited_minor")?,
        state: named(row, "state")?,
        created_at_ms: row.try_get("created_at_ms")?,
        settled_at_ms: row.try_get("settled_at_ms")?,
    })
}

const TX_COLUMNS: &str =
    "id, provider_id, provider_tx_id, kind, user_id, round_id, amount_minor, reverses_id, \
     request_hash, answer_json, ledger_transaction_id, created_at_ms";

fn tx_from_row(row: &AnyRow) -> Result<WalletTx, sqlx::Error> {
    Ok(WalletTx {
        id: row.try_get("id")?,
        provider_id: row.try_get("provider_id")?,
        provider_tx_id: row.try_get("provider_tx_id")?,
        kind: named(row, "kind")?,
        user_id: row.try_get("user_id")?,
        round_pk: row.try_get("round_id")?,
        amount_minor: row.try_get("amount_minor")?,
        reverses_id: row.try_get("reverses_id")?,
        request_hash: row.try_get("request_hash")?,
        answer_json: row.try_get("answer_json")?,
        ledger_transaction_id: row.try_get("ledger_transaction_id")?,
        created_at_ms: row.try_get("created_at_ms")?,
    })
}

/// The seamless wallet's reads on the [`Store`]: a trait, because `Store` is backlay-store's
/// type and only that crate can add methods of its own to it.
pub trait WalletReads {
    fn wallet_tx_by_ref(
        &self,
        provider_id: i64,
        provider_tx_id: &str,
    ) -> impl Future<Output = StoreResult<Option<WalletTx>>> + Send;
    fn rollback_of(
        &self,
        debit_id: i64,
    ) -> impl Future<Output = StoreResult<Option<WalletTx>>> + Send;
    fn provider_round(
        &self,
        provider_id: i64,
        round_ref: &str,
    ) -> impl Future<Output = StoreResult<Option<ProviderRound>>> + Send;
    fn live_casino_lines(
        &self,
        user_id: i64,
        from_ms: i64,
        to_ms: i64,
        offset: i64,
        limit: i64,
    ) -> impl Future<Output = StoreResult<(Vec<LiveCasinoLine>, i64)>> + Send;
}

impl WalletReads for Store {
    /// The accepted call a provider sent with this tx id.
    async fn wallet_tx_by_ref(
        &self,
        provider_id: i64,
        provider_tx_id: &str,
    ) -> StoreResult<Option<WalletTx>> {
        let row = sqlx::query(&format!("SELECT {TX_COLUMNS} FROM wallet_transactions WHERE provider_id = $1 AND provider_tx_id = $2"))
            .bind(provider_id)
            .bind(provider_tx_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(tx_from_row).transpose()?)
    }

    /// The rollback that undid a debit, if any.
    async fn rollback_of(&self, debit_id: i64) -> StoreResult<Option<WalletTx>> {
        let row = sqlx::query(&format!(
            "SELECT {TX_COLUMNS} FROM wallet_transactions WHERE reverses_id = $1"
        ))
        .bind(debit_id)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(tx_from_row).transpose()?)
    }

    /// A provider round by the provider's id for it.
    async fn provider_round(
        &self,
        provider_id: i64,
        round_ref: &str,
    ) -> StoreResult<Option<ProviderRound>> {
        let row = sqlx::query(&format!(
            "SELECT {ROUND_COLUMNS} FROM provider_rounds WHERE provider_id = $1 AND round_ref = $2"
        ))
        .bind(provider_id)
        .bind(round_ref)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(round_from_row).transpose()?)
    }

    /// A user's wallet calls made between two times (inclusive, epoch ms), newest first, and
    /// how many there are.
    async fn live_casino_lines(
        &self,
        user_id: i64,
        from_ms: i64,
        to_ms: i64,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<LiveCasinoLine>, i64)> {
        let limit = limit.clamp(1, MAX_WALLET_ROWS);
        let rows = sqlx::query(
            "SELECT t.id, p.code AS provider_code, p.name AS provider_name, t.provider_tx_id, t.kind, t.amount_minor, \
             r.round_ref, r.state, r.game_code, g.game_name, rb.provider_tx_id AS rolled_back_by, t.created_at_ms \
             FROM wallet_transactions t \
             JOIN casino_providers p ON p.id = t.provider_id \
             JOIN provider_rounds r ON r.id = t.round_id \
             LEFT JOIN world_casino_games g ON g.provider_id = t.provider_id AND g.game_code = r.game_code \
             LEFT JOIN wallet_transactions rb ON rb.reverses_id = t.id \
             WHERE t.user_id = $1 AND t.created_at_ms >= $2 AND t.created_at_ms <= $3 \
             ORDER BY t.id DESC LIMIT $4 OFFSET $5",
        )
        .bind(user_id)
        .bind(from_ms)
        .bind(to_ms)
        .bind(limit)
        .bind(offset)
        .fetch_all(self.pool())
        .await?;
        let total: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM wallet_transactions WHERE user_id = $1 AND created_at_ms >= $2 AND created_at_ms <= $3",
        )
        .bind(user_id)
        .bind(from_ms)
        .bind(to_ms)
        .fetch_one(self.pool())
        .await?;
        let lines = rows
            .iter()
            .map(|row| {
                Ok(LiveCasinoLine {
                    id: row.try_get("id")?,
                    provider_code: row.try_get("provider_code")?,
                    provider_name: row.try_get("provider_name")?,
                    provider_tx_id: row.try_get("provider_tx_id")?,
                    kind: named(row, "kind")?,
                    amount_minor: row.try_get("amount_minor")?,
                    round_ref: row.try_get("round_ref")?,
                    round_state: named(row, "state")?,
                    game_code: row.try_get("game_code")?,
                    game_name: row.try_get("game_name")?,
                    rolled_back_by: row.try_get("rolled_back_by")?,
                    created_at_ms: row.try_get("created_at_ms")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()?;
        Ok((lines, total))
    }
}

/// The seamless wallet's writes in a [`Writer`]'s transaction: a trait, because `Writer` is
/// backlay-store's type and only that crate can add methods of its own to it.
pub trait WalletWrites {
    fn wallet_tx_by_ref(
        &mut self,
        provider_id: i64,
        provider_tx_id: &str,
    ) -> impl Future<Output = StoreResult<Option<WalletTx>>> + Send;
    fn rollback_of(
        &mut self,
        debit_id: i64,
    ) -> impl Future<Output = StoreResult<Option<WalletTx>>> + Send;
    fn provider_round(
        &mut self,
        provider_id: i64,
        round_ref: &str,
    ) -> impl Future<Output = StoreResult<Option<ProviderRound>>> + Send;
    fn provider_round_by_id(
        &mut self,
        round_pk: i64,
    ) -> impl Future<Output = StoreResult<ProviderRound>> + Send;
    fn open_provider_round(
        &mut self,
        provider_id: i64,
        round_ref: &str,
        user_id: i64,
        game_code: &str,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<ProviderRound>> + Send;
    fn claim_wallet_tx(
        &mut self,
        tx: &NewWalletTx<'_>,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<Option<i64>>> + Send;
    fn finish_wallet_tx(
        &mut self,
        id: i64,
        answer_json: &str,
        ledger_transaction_id: Option<i64>,
    ) -> impl Future<Output = StoreResult<()>> + Send;
    fn add_round_debit(
        &mut self,
        round_pk: i64,
        amount_minor: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn settle_provider_round(
        &mut self,
        round_pk: i64,
        credited_minor: i64,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn remove_round_debit(
        &mut self,
        round_pk: i64,
        amount_minor: i64,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
}

impl WalletWrites for Writer {
    /// The accepted call a provider sent with this tx id, as this transaction sees it.
    async fn wallet_tx_by_ref(
        &mut self,
        provider_id: i64,
        provider_tx_id: &str,
    ) -> StoreResult<Option<WalletTx>> {
        let row = sqlx::query(&format!("SELECT {TX_COLUMNS} FROM wallet_transactions WHERE provider_id = $1 AND provider_tx_id = $2"))
            .bind(provider_id)
            .bind(provider_tx_id)
            .fetch_optional(self.conn())
            .await?;
        Ok(row.as_ref().map(tx_from_row).transpose()?)
    }

    /// The rollback that undid a debit, as this transaction sees it.
    async fn rollback_of(&mut self, debit_id: i64) -> StoreResult<Option<WalletTx>> {
        let row = sqlx::query(&format!(
            "SELECT {TX_COLUMNS} FROM wallet_transactions WHERE reverses_id = $1"
        ))
        .bind(debit_id)
        .fetch_optional(self.conn())
        .await?;
        Ok(row.as_ref().map(tx_from_row).transpose()?)
    }

    async fn provider_round(
        &mut self,
        provider_id: i64,
        round_ref: &str,
    ) -> StoreResult<Option<ProviderRound>> {
        let row = sqlx::query(&format!(
            "SELECT {ROUND_COLUMNS} FROM provider_rounds WHERE provider_id = $1 AND round_ref = $2"
        ))
        .bind(provider_id)
        .bind(round_ref)
        .fetch_optional(self.conn())
        .await?;
        Ok(row.as_ref().map(round_from_row).transpose()?)
    }

    async fn provider_round_by_id(&mut self, round_pk: i64) -> StoreResult<ProviderRound> {
        let row =
            sqlx::query(&format!("SELECT {ROUND_COLUMNS} FROM provider_rounds WHERE id = $1"))
                .bind(round_pk)
                .fetch_optional(self.conn())
                .await?
                .ok_or(StoreError::NotFound)?;
        Ok(round_from_row(&row)?)
    }

    /// The round `round_ref` of a provider, opened for `user_id` when it is new. An existing
    /// round comes back as it is (perhaps another user's, or settled): the caller checks.
    async fn open_provider_round(
        &mut self,
        provider_id: i64,
        round_ref: &str,
        user_id: i64,
        game_code: &str,
        now_ms: i64,
    ) -> StoreResult<ProviderRound> {
        // DO NOTHING rather than a read first: two debits opening one round at once both end
        // up with the one row (PostgreSQL's second insert waits for the first to commit).
        sqlx::query(
            "INSERT INTO provider_rounds (provider_id, round_ref, user_id, game_code, created_at_ms) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (provider_id, round_ref) DO NOTHING",
        )
        .bind(provider_id)
        .bind(round_ref)
        .bind(user_id)
        .bind(game_code)
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        self.provider_round(provider_id, round_ref).await?.ok_or(StoreError::NotFound)
    }

    /// Claims a tx id by inserting its row, before any money moves. `None` when the id (or,
    /// for a rollback, the debit) was taken: on PostgreSQL the transaction is then aborted, so
    /// drop the writer and read what took it.
    async fn claim_wallet_tx(
        &mut self,
        tx: &NewWalletTx<'_>,
        now_ms: i64,
    ) -> StoreResult<Option<i64>> {
        assert_eq!(
            tx.kind == WalletKind::Rollback,
            tx.reverses_id.is_some(),
            "only a rollback reverses a debit"
        );
        assert!(tx.amount_minor >= 0, "wallet amounts are never negative");
        let inserted = sqlx::query_scalar(
            "INSERT INTO wallet_transactions (provider_id, provider_tx_id, kind, user_id, round_id, amount_minor, \
             reverses_id, request_hash, answer_json, created_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '{}', $9) RETURNING id",
        )
        .bind(tx.provider_id)
        .bind(tx.provider_tx_id)
        .bind(tx.kind.as_str())
        .bind(tx.user_id)
        .bind(tx.round_pk)
        .bind(tx.amount_minor)
        .bind(tx.reverses_id)
        .bind(tx.request_hash)
        .bind(now_ms)
        .fetch_one(self.conn())
        .await;
        match inserted {
            Ok(id) => Ok(Some(id)),
            Err(err) if is_unique_violation(&err) => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// Stores a claimed call's answer and ledger transaction, in the same transaction.
    async fn finish_wallet_tx(
        &mut self,
        id: i64,
        answer_json: &str,
        ledger_transaction_id: Option<i64>,
    ) -> StoreResult<()> {
        sqlx::query("UPDATE wallet_transactions SET answer_json = $1, ledger_transaction_id = $2 WHERE id = $3")
            .bind(answer_json)
            .bind(ledger_transaction_id)
            .bind(id)
            .execute(self.conn())
            .await?;
        Ok(())
    }

    /// Adds a debit to an open round; false when the round is no longer open.
    async fn add_round_debit(&mut self, round_pk: i64, amount_minor: i64) -> StoreResult<bool> {
        assert!(amount_minor > 0, "a debit takes money");
        let done = sqlx::query("UPDATE provider_rounds SET debited_minor = debited_minor + $1 WHERE id = $2 AND state = 'open'")
            .bind(amount_minor)
            .bind(round_pk)
            .execute(self.conn())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Settles an open round with its credit; false when it is no longer open.
    async fn settle_provider_round(
        &mut self,
        round_pk: i64,
        credited_minor: i64,
        now_ms: i64,
    ) -> StoreResult<bool> {
        assert!(credited_minor >= 0, "a credit is never negative");
        let done = sqlx::query(
            "UPDATE provider_rounds SET credited_minor = credited_minor + $1, state = 'settled', settled_at_ms = $2 \
             WHERE id = $3 AND state = 'open'",
        )
        .bind(credited_minor)
        .bind(now_ms)
        .bind(round_pk)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes a rolled-back debit out of an open round; the round is rolled back when nothing
    /// is left debited in it. False when the round is no longer open.
    async fn remove_round_debit(&mut self, round_pk: i64, amount_minor: i64) -> StoreResult<bool> {
        assert!(amount_minor > 0, "a debit took money");
        let done = sqlx::query(
            "UPDATE provider_rounds SET debited_minor = debited_minor - $1, \
             state = CASE WHEN debited_minor - $1 = 0 THEN 'rolled_back' ELSE 'open' END \
             WHERE id = $2 AND state = 'open' AND debited_minor >= $1",
        )
        .bind(amount_minor)
        .bind(round_pk)
        .execute(self.conn())
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
