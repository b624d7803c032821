//! What a repository is written with: the helpers the store's own modules use to read rows,
//! tell a conflict from a failure, seal a column and build SQL text, public for the store's
//! sibling crates
//! (`backlay-casino-store`, `backlay-office-store`). Those hold a job's tables over the same
//! schema and pool, and add their methods to [`Store`](crate::Store) and
//! [`Writer`](crate::Writer) through traits; with [`Writer::conn`](crate::Writer::conn),
//! [`Writer::keyring`](crate::Writer::keyring) and [`Store::keyring`](crate::Store::keyring)
//! this is all they reach inside the store. Handlers and services call repositories, never
//! these.

use std::str::FromStr;

pub use crate::downline::TREE_CTE;
pub use crate::secrets::{open_column, seal_column};
pub use crate::sql::numbered;

/// True for a unique-constraint violation (both engines report it through the same kind).
pub fn is_unique_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.kind() == sqlx::error::ErrorKind::UniqueViolation)
}

pub fn is_foreign_key_violation(err: &sqlx::Error) -> bool {
    matches!(err, sqlx::Error::Database(db) if db.kind() == sqlx::error::ErrorKind::ForeignKeyViolation)
}

/// Reads a text column that holds one of a named enum's names (`backlay_core::named`), such
/// as a market's status. A name the enum does not know is an error naming the column and the
/// value, never a panic.
pub fn named<T>(row: &sqlx::any::AnyRow, column: &str) -> Result<T, sqlx::Error>
where
    T: FromStr<Err = backlay_core::named::UnknownName>,
{
    let text: String = sqlx::Row::try_get(row, column)?;
    // Quoted, as sqlx names the column of its own decoding errors.
    text.parse().map_err(|err| sqlx::Error::ColumnDecode {
        index: format!("{column:?}"),
        source: Box::new(err),
    })
}

/// `text` with `\`, `%` and `_` escaped for `LIKE … ESCAPE '\'`, so that they match themselves.
pub fn like_escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")
}

/// SQL flags are 0/1 integers on both engines.
pub fn flag(value: bool) -> i64 {
    i64::from(value)
}
