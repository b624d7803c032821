//! Users: operators (`admin`), agents (parents) and clients, with their credentials and flags.
//!
//! User names are unique ignoring case (`user_name_key` is the lower-cased name). Creating a user
//! also opens the user's ledger account in the same transaction, so every user can hold chips.

use backlay_core::user::UserName;
use sqlx::any::AnyRow;
use sqlx::{Any, Executor, Row};

use crate::branch_locks::Lock;
use crate::{flag, is_unique_violation, named, Store, StoreError, StoreResult, Writer};

backlay_core::named_enum! {
    /// What a user may do. Agents are parents of clients; the admin is the operator.
    pub enum Role as "role" {
        Admin = "admin",
        Agent = "agent",
        Client = "client",
    }
}

/// A user as the rest of the system sees it (never the password hash).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    pub id: i64,
    pub user_name: String,
    pub role: Role,
    pub parent_id: Option<i64>,
    pub is_locked: bool,
    pub is_change_password: bool,
    pub dial_code: Option<String>,
    pub mobile: Option<String>,
    pub max_exposure_minor: Option<i64>,
    pub created_at_ms: i64,
    /// Share of the house's result against the downline (basis points, cumulative from the
    /// bottom; see `backlay_core::partnership`). 0 for clients and admins.
    pub partnership_bp: u32,
    /// What the parent says the account owes or is owed: a number on the account, not money.
    pub credit_reference_minor: i64,
    /// Can log in, cannot bet.
    pub is_bet_locked: bool,
    /// The largest stake of one bet, on top of each market's own limit.
    pub max_stake_minor: Option<i64>,
    pub last_login_at_ms: Option<i64>,
    /// The nearest account above this one that is locked on its own: this one is locked too
    /// ([`crate::branch_locks`]).
    pub locked_by_user_id: Option<i64>,
    /// The nearest account above this one that is bet-locked on its own.
    pub bet_locked_by_user_id: Option<i64>,
}

impl User {
    /// Locked on its own or by an agent above it: no log-in, no session, no bet.
    pub fn is_effectively_locked(&self) -> bool {
        self.is_locked || self.locked_by_user_id.is_some()
    }

    /// May not bet: bet-locked or locked, on its own or by an agent above it.
    pub fn is_effectively_bet_locked(&self) -> bool {
        self.is_bet_locked || self.bet_locked_by_user_id.is_some() || self.is_effectively_locked()
    }
}

/// A user to create. The password arrives already hashed; `Debug` leaves the hash out (it is
/// what an offline guesser needs). The name is a [`UserName`], so every stored name is a valid
/// one.
#[derive(Clone)]
pub struct NewUser<'a> {
    pub user_name: &'a UserName,
    pub password_hash: &'a str,
    pub role: Role,
    pub parent_id: Option<i64>,
    pub is_change_password: bool,
    pub dial_code: Option<&'a str>,
    pub mobile: Option<&'a str>,
    /// An agent's partnership (basis points); 0 for others.
    pub partnership_bp: u32,
}

impl std::fmt::Debug for NewUser<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewUser")
            .field("user_name", &self.user_name)
            .field("role", &self.role)
            .field("parent_id", &self.parent_id)
            .field("is_change_password", &self.is_change_password)
            .field("dial_code", &self.dial_code)
            .field("mobile", &self.mobile)
            .field("partnership_bp", &self.partnership_bp)
            .finish_non_exhaustive()
    }
}

pub(crate) const USER_COLUMNS: &str = "id, user_name, role, parent_id, is_locked, \
     is_change_password, dial_code, mobile, max_exposure_minor, created_at_ms, partnership_bp, \
     credit_reference_minor, is_bet_locked, max_stake_minor, last_login_at_ms, locked_by_user_id, \
     bet_locked_by_user_id";

/// [`USER_COLUMNS`] of the table aliased `alias`, for joins.
pub(crate) fn user_columns_of(alias: &str) -> String {
    USER_COLUMNS.split(", ").map(|c| format!("{alias}.{}", c.trim())).collect::<Vec<_>>().join(", ")
}

pub(crate) fn user_from_row(row: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: row.try_get("id")?,
        user_name: row.try_get("user_name")?,
        role: named(row, "role")?,
        parent_id: row.try_get("parent_id")?,
        is_locked: row.try_get::<i64, _>("is_locked")? != 0,
        is_change_password: row.try_get::<i64, _>("is_change_password")? != 0,
        dial_code: row.try_get("dial_code")?,
        mobile: row.try_get("mobile")?,
        max_exposure_minor: row.try_get("max_exposure_minor")?,
        created_at_ms: row.try_get("created_at_ms")?,
        partnership_bp: u32::try_from(row.try_get::<i64, _>("partnership_bp")?).unwrap_or(0),
        credit_reference_minor: row.try_get("credit_reference_minor")?,
        is_bet_locked: row.try_get::<i64, _>("is_bet_locked")? != 0,
        max_stake_minor: row.try_get("max_stake_minor")?,
        last_login_at_ms: row.try_get("last_login_at_ms")?,
        locked_by_user_id: row.try_get("locked_by_user_id")?,
        bet_locked_by_user_id: row.try_get("bet_locked_by_user_id")?,
    })
}

async fn fetch_user<'e, E: Executor<'e, Database = Any>>(
    executor: E,
    user_id: i64,
) -> StoreResult<User> {
    let sql = format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1");
    let row = sqlx::query(&sql)
        .bind(user_id)
        .fetch_optional(executor)
        .await?
        .ok_or(StoreError::NotFound)?;
    Ok(user_from_row(&row)?)
}

/// One page of users with their balances, for operator screens.
#[derive(Clone, Debug)]
pub struct UserWithBalance {
    pub user: User,
    pub balance_minor: i64,
    pub exposure_minor: i64,
}

impl Store {
    pub async fn user_by_id(&self, user_id: i64) -> StoreResult<User> {
        fetch_user(self.pool(), user_id).await
    }

    /// The user and password hash for a log-in attempt, by name ignoring case.
    pub async fn user_for_login(&self, user_name: &str) -> StoreResult<Option<(User, String)>> {
        let sql =
            format!("SELECT {USER_COLUMNS}, password_hash FROM users WHERE user_name_key = $1");
        let row =
            sqlx::query(&sql).bind(user_name.to_lowercase()).fetch_optional(self.pool()).await?;
        match row {
            None => Ok(None),
            Some(row) => Ok(Some((user_from_row(&row)?, row.try_get("password_hash")?))),
        }
    }

    /// The stored password hash of a user (for change-password's current-password check).
    pub async fn password_hash(&self, user_id: i64) -> StoreResult<String> {
        sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(self.pool())
            .await?
            .ok_or(StoreError::NotFound)
    }

    pub async fn user_id_by_name(&self, user_name: &str) -> StoreResult<Option<i64>> {
        Ok(sqlx::query_scalar("SELECT id FROM users WHERE user_name_key = $1")
            .bind(user_name.to_lowercase())
            .fetch_optional(self.pool())
            .await?)
    }

    pub async fn count_users(&self) -> StoreResult<i64> {
        Ok(sqlx::query_scalar("SELECT COUNT(*) FROM users").fetch_one(self.pool()).await?)
    }

    /// Users, optionally only the children of `parent_id`, newest last, with their balances.
    pub async fn list_users(
        &self,
        parent_id: Option<i64>,
        offset: i64,
        limit: i64,
    ) -> StoreResult<(Vec<UserWithBalance>, i64)> {
        let columns = user_columns_of("u");
        // `$1 IS NULL` would need a typed NULL on PostgreSQL; -1 is never a user id.
        let filter = parent_id.unwrap_or(-1);
        let sql = format!(
            "SELECT {columns}, a.balance_minor, a.exposure_minor FROM users u \
             JOIN ledger_accounts a ON a.user_id = u.id \
             WHERE ($1 = -1 OR u.parent_id = $1) ORDER BY u.id LIMIT $2 OFFSET $3"
        );
        let rows =
            sqlx::query(&sql).bind(filter).bind(limit).bind(offset).fetch_all(self.pool()).await?;
        let total: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM users WHERE ($1 = -1 OR parent_id = $1)")
                .bind(filter)
                .fetch_one(self.pool())
                .await?;
        let users = rows
            .iter()
            .map(|row| {
                Ok(UserWithBalance {
                    user: user_from_row(row)?,
                    balance_minor: row.try_get("balance_minor")?,
                    exposure_minor: row.try_get("exposure_minor")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok((users, total))
    }
}

impl Writer {
    pub async fn user_by_id(&mut self, user_id: i64) -> StoreResult<User> {
        fetch_user(self.conn(), user_id).await
    }

    /// Inserts the user and opens their ledger account. A taken name (ignoring case) is
    /// `Conflict`, reported by the unique index rather than by a read before the write.
    pub async fn insert_user(&mut self, new: &NewUser<'_>, now_ms: i64) -> StoreResult<i64> {
        let inserted = sqlx::query_scalar(
            "INSERT INTO users (user_name, user_name_key, password_hash, role, parent_id, \
             is_change_password, dial_code, mobile, created_at_ms, partnership_bp) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
        )
        .bind(new.user_name.as_str())
        .bind(new.user_name.as_str().to_lowercase())
        .bind(new.password_hash)
        .bind(new.role.as_str())
        .bind(new.parent_id)
        .bind(flag(new.is_change_password))
        .bind(new.dial_code)
        .bind(new.mobile)
        .bind(now_ms)
        .bind(i64::from(new.partnership_bp))
        .fetch_one(self.conn())
        .await;
        let user_id: i64 = match inserted {
            Ok(id) => id,
            Err(err) if is_unique_violation(&err) => {
                return Err(StoreError::Conflict(format!(
                    "the user name {} is already taken",
                    new.user_name
                )))
            }
            Err(err) => return Err(err.into()),
        };
        if let Some(parent_id) = new.parent_id {
            self.inherit_locks(user_id, parent_id).await?;
        }
        self.open_user_account(user_id, now_ms).await?;
        Ok(user_id)
    }

    pub async fn set_password(
        &mut self,
        user_id: i64,
        password_hash: &str,
        must_change: bool,
    ) -> StoreResult<()> {
        let done = sqlx::query(
            "UPDATE users SET password_hash = $1, is_change_password = $2 WHERE id = $3",
        )
        .bind(password_hash)
        .bind(flag(must_change))
        .bind(user_id)
        .execute(self.conn())
        .await?;
        one_row_changed(done.rows_affected())
    }

    /// Sets (or with `None` removes) the most exposure the user may hold across markets.
    pub async fn set_max_exposure(
        &mut self,
        user_id: i64,
        max_exposure_minor: Option<i64>,
    ) -> StoreResult<()> {
        let done = sqlx::query("UPDATE users SET max_exposure_minor = $1 WHERE id = $2")
            .bind(max_exposure_minor)
            .bind(user_id)
            .execute(self.conn())
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Sets the terms a parent keeps on an account (credit reference, bet-lock, stake cap); a
    /// bet-lock covers the account's branch ([`crate::branch_locks`]).
    pub async fn set_account_terms(
        &mut self,
        user_id: i64,
        credit_reference_minor: i64,
        bet_locked: bool,
        max_stake_minor: Option<i64>,
    ) -> StoreResult<()> {
        let done = sqlx::query(
            "UPDATE users SET credit_reference_minor = $1, max_stake_minor = $2 WHERE id = $3",
        )
        .bind(credit_reference_minor)
        .bind(max_stake_minor)
        .bind(user_id)
        .execute(self.conn())
        .await?;
        one_row_changed(done.rows_affected())?;
        self.set_own_lock(user_id, Lock::Betting, bet_locked).await
    }

    /// Locks or unlocks the account and, with it, its branch ([`crate::branch_locks`]).
    pub async fn set_locked(&mut self, user_id: i64, locked: bool) -> StoreResult<()> {
        self.set_own_lock(user_id, Lock::Account, locked).await
    }
}

/// An update of one user by id changed exactly that row, or there is no such user.
fn one_row_changed(rows_affected: u64) -> StoreResult<()> {
    if rows_affected == 0 {
        Err(StoreError::NotFound)
    } else {
        Ok(())
    }
}
