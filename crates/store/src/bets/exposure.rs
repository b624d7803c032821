//! Exposure: what each user stands to lose in each market (`market_exposures`) and its total
//! over every market on the ledger account, which the funds check reads. Placement raises it,
//! a cancel or settlement lowers it, a result's correction restores it.

use sqlx::Row;

use super::place::{bind_three, AnyQuery, RowWrite};
use crate::{StoreError, StoreResult, Writer};

impl Writer {
    /// Moves a user's exposure in a market from `stored_minor` to `new_minor`, in the market's
    /// row and in their account's total (see [`Writer::change_exposure`] for the funds check).
    pub async fn set_exposure(
        &mut self,
        user_id: i64,
        market_id: i64,
        stored_minor: i64,
        new_minor: i64,
    ) -> StoreResult<()> {
        assert!(new_minor >= 0 && stored_minor >= 0, "exposure is never negative");
        if new_minor == stored_minor {
            return Ok(());
        }
        self.change_exposure(user_id, new_minor - stored_minor).await?;
        self.store_market_exposures(market_id, &[(user_id, new_minor)]).await
    }

    /// Changes a user's total exposure (over every market) by `delta_minor`. An increase is the
    /// funds check: it succeeds only if the account's available balance covers it (else
    /// `InsufficientFunds`) and the total stays within the user's exposure limit if the operator
    /// set one (else `ExposureLimit`); a refusal writes nothing.
    pub async fn change_exposure(&mut self, user_id: i64, delta_minor: i64) -> StoreResult<()> {
        if delta_minor == 0 {
            return Ok(());
        }
        // The check reads the account as the earlier batches of a placement group left it.
        self.write_earlier_batches().await?;
        let updated: Option<i64> = sqlx::query_scalar(
            "UPDATE ledger_accounts SET exposure_minor = exposure_minor + $1 \
             WHERE user_id = $2 AND ($1 <= 0 OR (balance_minor - exposure_minor - $1 >= 0 \
               AND exposure_minor + $1 <= COALESCE((SELECT max_exposure_minor FROM users WHERE id = $2), exposure_minor + $1))) \
             RETURNING id",
        )
        .bind(delta_minor)
        .bind(user_id)
        .fetch_optional(self.conn())
        .await?;
        if updated.is_some() {
            return Ok(());
        }
        let row = sqlx::query(
            "SELECT a.balance_minor - a.exposure_minor AS available_minor, a.exposure_minor, u.max_exposure_minor \
             FROM ledger_accounts a JOIN users u ON u.id = a.user_id WHERE a.user_id = $1",
        )
        .bind(user_id)
        .fetch_optional(self.conn())
        .await?
        .ok_or(StoreError::NotFound)?;
        let available_minor: i64 = row.try_get("available_minor")?;
        let exposure_minor: i64 = row.try_get("exposure_minor")?;
        let limit: Option<i64> = row.try_get("max_exposure_minor")?;
        Err(match limit {
            Some(limit_minor)
                if exposure_minor + delta_minor > limit_minor && available_minor >= delta_minor =>
            {
                StoreError::ExposureLimit { limit_minor }
            }
            _ => StoreError::InsufficientFunds { available_minor },
        })
    }

    /// Adds to several users' total exposure in one statement: `(user_id, delta_minor)`. No
    /// funds check: the caller checked against funds it locked ([`Writer::lock_funds`]), or
    /// the deltas only lower exposure. A placement batch sharing its group's transaction defers
    /// it to the group's end, and the later batches' [`Writer::lock_funds`] count it
    /// (`group_commit`).
    pub async fn add_exposures(&mut self, deltas: &[(i64, i64)]) -> StoreResult<()> {
        if let Some(deferred) = self.deferred() {
            for (user_id, delta_minor) in deltas {
                *deferred.exposure_changes.entry(*user_id).or_default() += delta_minor;
            }
            return Ok(());
        }
        let engine = self.engine;
        EXPOSURE_CHANGES.write(self.conn(), engine, deltas).await
    }

    /// Stores users' exposure in one market: `(user_id, exposure_minor)`. Their account totals
    /// are changed separately ([`Writer::change_exposure`], [`Writer::add_exposures`]).
    /// Deferred like [`Writer::add_exposures`].
    pub async fn store_market_exposures(
        &mut self,
        market_id: i64,
        rows: &[(i64, i64)],
    ) -> StoreResult<()> {
        assert!(rows.iter().all(|(_, exposure)| *exposure >= 0), "exposure is never negative");
        if let Some(deferred) = self.deferred() {
            for (user_id, exposure_minor) in rows {
                deferred.market_exposures.insert((*user_id, market_id), *exposure_minor);
            }
            return Ok(());
        }
        let rows: Vec<(i64, i64, i64)> =
            rows.iter().map(|(user_id, exposure)| (*user_id, market_id, *exposure)).collect();
        let engine = self.engine;
        MARKET_EXPOSURES.write(self.conn(), engine, &rows).await
    }
}

/// Changes to users' total exposure: `(user_id, delta_minor)`, a user once.
pub(crate) const EXPOSURE_CHANGES: RowWrite<(i64, i64)> =
    RowWrite { columns: 2, sql: add_exposures_sql, bind: bind_two };

/// Users' exposure in markets: `(user_id, market_id, exposure_minor)`, each pair once.
pub(crate) const MARKET_EXPOSURES: RowWrite<(i64, i64, i64)> =
    RowWrite { columns: 3, sql: store_market_exposures_sql, bind: bind_three };

fn add_exposures_sql(values: &str) -> String {
    format!(
        "UPDATE ledger_accounts SET exposure_minor = ledger_accounts.exposure_minor + v.column2 \
         FROM (VALUES {values}) AS v WHERE ledger_accounts.user_id = v.column1"
    )
}

fn bind_two<'q>(query: AnyQuery<'q>, (a, b): &'q (i64, i64)) -> AnyQuery<'q> {
    query.bind(*a).bind(*b)
}

fn store_market_exposures_sql(values: &str) -> String {
    format!(
        "INSERT INTO market_exposures (user_id, market_id, exposure_minor) VALUES {values} \
         ON CONFLICT (user_id, market_id) DO UPDATE SET exposure_minor = excluded.exposure_minor"
    )
}
