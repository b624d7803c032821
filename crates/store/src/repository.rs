//! What a repository is written with: the helpers the store's own modules use to read rows,
//! tell a conflict from a failure, seal a column and build SQL text, public for the store's
//! sibling crates
//! (`backlay-casino-store`, `backlay-office-store`). Those hold a job's tables over the same
//! schema and pool, and add their methods to [`Store`](crate::Store) and
//! [`Writer`](crate::Writer) through traits; with [`Writer::conn`](crate::Writer::conn),
//! [`Writer::keyring`](crate::Writer::keyring) and [`Store::keyring`](crate::Store::keyring)
//! this is all they reach inside the store. Handlers and services call repositories, never
//! these.

use std::fmt::Debug;
use std::str::FromStr;

use backlay_core::named::UnknownName;

use crate::Store;

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

/// For the tests of the store crates' named states: every one of `all` read back through
/// [`named`] as itself, and a name none of them has refused with an error naming the column and
/// the value. Panics, as a test's assertion does, when either does not hold.
pub async fn assert_names_read_back<T>(store: &Store, all: &[T], name: fn(T) -> &'static str)
where
    T: FromStr<Err = UnknownName> + Copy + PartialEq + Debug,
{
    async fn read<T: FromStr<Err = UnknownName>>(
        store: &Store,
        text: &str,
    ) -> Result<T, sqlx::Error> {
        let row =
            sqlx::query("SELECT $1 AS state").bind(text).fetch_one(store.pool()).await.unwrap();
        named(&row, "state")
    }
    for value in all {
        assert_eq!(read::<T>(store, name(*value)).await.unwrap(), *value);
    }
    let err = read::<T>(store, "not_a_state").await.unwrap_err();
    assert!(
        matches!(&err, sqlx::Error::ColumnDecode { index, .. } if index == "\"state\""),
        "{err:?}"
    );
    assert!(err.to_string().contains("\"not_a_state\" is not a"), "{err}");
}
