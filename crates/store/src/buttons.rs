//! Stake buttons ("Set Button Value"): per user, a list of label + stake for the sports bet slip
//! (`Game`) and one for casino tables (`Casino`).

use sqlx::Row;

use crate::{Store, StoreResult, Writer};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ButtonValue {
    /// "Game" or "Casino".
    pub button_type: String,
    pub button_name: String,
    pub button_value_minor: i64,
}

impl Store {
    /// The user's buttons, Game first, each list in the order the user set.
    pub async fn button_values(&self, user_id: i64) -> StoreResult<Vec<ButtonValue>> {
        let rows = sqlx::query(
            "SELECT button_type, button_name, button_value_minor FROM button_values \
             WHERE user_id = $1 ORDER BY button_type DESC, position",
        )
        .bind(user_id)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|row| {
                Ok(ButtonValue {
                    button_type: row.try_get("button_type")?,
                    button_name: row.try_get("button_name")?,
                    button_value_minor: row.try_get("button_value_minor")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}

impl Writer {
    /// Replaces the user's list of one type (`Game` or `Casino`) with `buttons`, in order.
    pub async fn replace_button_values(
        &mut self,
        user_id: i64,
        button_type: &str,
        buttons: &[(String, i64)],
    ) -> StoreResult<()> {
        sqlx::query("DELETE FROM button_values WHERE user_id = $1 AND button_type = $2")
            .bind(user_id)
            .bind(button_type)
            .execute(self.conn())
            .await?;
        for (position, (name, value_minor)) in buttons.iter().enumerate() {
            sqlx::query(
                "INSERT INTO button_values (user_id, button_type, position, button_name, button_value_minor) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(user_id)
            .bind(button_type)
            .bind(position as i64)
            .bind(name)
            .bind(*value_minor)
            .execute(self.conn())
            .await?;
        }
        Ok(())
    }
}
