//! SQL text the repositories share: bound-parameter lists for `IN (…)` and multi-row
//! `VALUES`, how many rows one such statement may carry, and an enum's names quoted for an
//! `IN (…)`. Both engines take the same `$N` placeholders and quoting, so the text is built
//! once here; only multi-row `VALUES` lists are spelled per engine (below).
//!
//! ```text
//! numbered(3)                          = "$1, $2, $3"
//! placeholders(Postgres, 2, 3)         = "($1, $2, $3), ($4, $5, $6)"
//! placeholders(Sqlite, 2, 3)           = "(?, ?, ?), (?, ?, ?)"
//! quoted(["open", "matched"])          = "'open', 'matched'"
//! ```
//!
//! Why SQLite gets anonymous `?`: SQLite keeps a statement's parameter names in a list it
//! searches from the start, once per `$N` when it parses the statement and once per parameter
//! when sqlx binds it (`sqlite3_bind_parameter_name`), so a 64-bet insert of 20 columns cost
//! about a million comparisons, a fifth of the server's time under load (bench/RESULTS.md,
//! issue 31's flame graph). Anonymous `?` have no names: they are numbered in order of
//! appearance, which is the order `placeholders` numbers them in, and sqlx binds them in turn.
//! A `$N` written after such a list (a statement's trailing parameter) still binds by its
//! number.

use crate::Engine;

/// Rows per multi-row statement: far below either engine's limit on bound parameters.
pub(crate) const ROWS_PER_STATEMENT: usize = 100;

/// `$1, $2, …, $n`: an `IN (…)` list of `n` bound values.
pub fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ")
}

/// `($1, $2), ($3, $4), …`: `rows` groups of `columns` placeholders, numbered in order
/// (on SQLite anonymous `?`, numbered in order by SQLite itself: see the module docs).
pub(crate) fn placeholders(engine: Engine, rows: usize, columns: usize) -> String {
    placeholders_from(engine, 1, rows, columns)
}

/// [`placeholders`] numbered from `$first` on PostgreSQL: a list after other values in the
/// same statement. SQLite's anonymous `?` need no number.
pub(crate) fn placeholders_from(
    engine: Engine,
    first: usize,
    rows: usize,
    columns: usize,
) -> String {
    let mut text = String::with_capacity(rows * columns * 5);
    for row in 0..rows {
        if row > 0 {
            text.push_str(", ");
        }
        text.push('(');
        for column in 0..columns {
            if column > 0 {
                text.push_str(", ");
            }
            match engine {
                Engine::Postgres => {
                    text.push('$');
                    text.push_str(&(first + row * columns + column).to_string());
                }
                Engine::Sqlite => text.push('?'),
            }
        }
        text.push(')');
    }
    text
}

/// `'a', 'b'`: names of states for an `IN (…)`. They are the enums' own names, never input.
pub(crate) fn quoted<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names.into_iter().map(|name| format!("'{name}'")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_number_every_value_once_in_order() {
        assert_eq!(numbered(0), "");
        assert_eq!(numbered(3), "$1, $2, $3");
        assert_eq!(placeholders(Engine::Postgres, 1, 1), "($1)");
        assert_eq!(placeholders(Engine::Postgres, 2, 3), "($1, $2, $3), ($4, $5, $6)");
        assert_eq!(placeholders(Engine::Sqlite, 2, 3), "(?, ?, ?), (?, ?, ?)");
        assert_eq!(placeholders_from(Engine::Postgres, 7, 2, 2), "($7, $8), ($9, $10)");
    }
}
