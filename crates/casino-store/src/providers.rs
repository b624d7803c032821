//! World-casino game providers (`casino_providers`), their catalogue (`world_casino_games`) and
//! the launch sessions `gap/gaplogin` opens for them (`provider_sessions`).
//!
//! A provider is a partner who runs games and calls our seamless wallet ([`crate::wallet`]),
//! signing each call with the shared `hmac_secret`. One provider is built in: Backlay serves
//! the in-house games itself under `/provider/…` (its `launch_url` is NULL: the server's public
//! origin decides the address). The server creates that row and its secret at start when
//! missing, and lists the in-house games in the catalogue under it.
//!
//! The signing secret is stored sealed ([`backlay_store::secrets`]), bound to the provider's
//! code (what it signs as, unique and never changed): a dump of the table signs nothing.
//!
//! A launch session is the provider's handle on one player and one game: the token goes to the
//! provider in the launch URL, and only its SHA-256 is stored here, like log-in sessions.

use std::future::Future;

use sqlx::any::AnyRow;
use sqlx::Row;

use backlay_store::repository::{flag, is_unique_violation, open_column, seal_column};
use backlay_store::secrets::{Keyring, SecretError, SecretSlot};
use backlay_store::{Store, StoreError, StoreResult, Writer};

/// A game provider.
#[derive(Clone, PartialEq, Eq)]
pub struct CasinoProvider {
    pub id: i64,
    pub code: String,
    pub name: String,
    /// The shared HMAC-SHA256 key. Never logged: `Debug` leaves it out.
    pub hmac_secret: String,
    /// The provider's game address; `None` for the built-in provider.
    pub launch_url: Option<String>,
    pub is_builtin: bool,
    pub is_active: bool,
}

impl std::fmt::Debug for CasinoProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CasinoProvider")
            .field("id", &self.id)
            .field("code", &self.code)
            .field("name", &self.name)
            .field("launch_url", &self.launch_url)
            .field("is_builtin", &self.is_builtin)
            .field("is_active", &self.is_active)
            .finish_non_exhaustive()
    }
}

/// A provider to add. `Debug` leaves the secret out.
#[derive(Clone)]
pub struct NewCasinoProvider<'a> {
    pub code: &'a str,
    pub name: &'a str,
    pub hmac_secret: &'a str,
    /// `None`: the built-in provider (at most one).
    pub launch_url: Option<&'a str>,
    pub is_active: bool,
}

impl std::fmt::Debug for NewCasinoProvider<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewCasinoProvider")
            .field("code", &self.code)
            .field("name", &self.name)
            .field("launch_url", &self.launch_url)
            .field("is_active", &self.is_active)
            .finish_non_exhaustive()
    }
}

/// The categories of the world-casino catalogue (the spec's list, the table's CHECK).
pub const WORLD_CASINO_CATEGORIES: [&str; 6] =
    ["Crash Games", "Live Game Shows", "Live", "Poker", "Virtual", "Live Dealer"];

/// Most games the catalogue lists.
pub const MAX_WORLD_CASINO_GAMES: i64 = 2_000;

/// A catalogue game with its provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorldCasinoGame {
    pub id: i64,
    /// The catalogue's public id (getStaticGames `game_id`, gaplogin `gameId`).
    pub game_id: String,
    pub provider_id: i64,
    pub provider_code: String,
    pub provider_name: String,
    pub provider_is_active: bool,
    pub provider_is_builtin: bool,
    pub provider_launch_url: Option<String>,
    /// The provider's own code for the game.
    pub game_code: String,
    pub game_name: String,
    pub category: String,
    pub sub_provider_name: String,
    pub sub_type: Option<String>,
    pub url_thumb: String,
    pub is_active: bool,
    pub display_order: i64,
}

impl WorldCasinoGame {
    /// True when the game and its provider are both switched on.
    pub fn is_playable(&self) -> bool {
        self.is_active && self.provider_is_active
    }
}

/// A catalogue game to add.
#[derive(Clone, Debug)]
pub struct NewWorldCasinoGame<'a> {
    pub game_id: &'a str,
    pub provider_id: i64,
    pub game_code: &'a str,
    pub game_name: &'a str,
    /// One of [`WORLD_CASINO_CATEGORIES`].
    pub category: &'a str,
    pub sub_provider_name: &'a str,
    pub sub_type: Option<&'a str>,
    pub url_thumb: &'a str,
    pub display_order: i64,
}

/// A launch session with what a wallet call needs to know about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderSession {
    pub session_id: i64,
    pub provider_id: i64,
    pub user_id: i64,
    pub user_name: String,
    pub user_is_locked: bool,
    /// The parent's bet-lock and stake cap on the player, as at this call.
    pub user_is_bet_locked: bool,
    pub user_max_stake_minor: Option<i64>,
    pub game_pk: i64,
    pub game_code: String,
    pub game_name: String,
    pub expires_at_ms: i64,
}

const PROVIDER_COLUMNS: &str = "id, code, name, hmac_secret, launch_url, is_builtin, is_active";

fn secret_slot(code: &str) -> SecretSlot {
    SecretSlot::new("casino_providers", "hmac_secret", code)
}

fn provider_from_row(
    row: &AnyRow,
    keyring: Result<&Keyring, SecretError>,
) -> StoreResult<CasinoProvider> {
    let code: String = row.try_get("code")?;
    let sealed: String = row.try_get("hmac_secret")?;
    Ok(CasinoProvider {
        id: row.try_get("id")?,
        hmac_secret: open_column(keyring, &sealed, secret_slot(&code))?,
        code,
        name: row.try_get("name")?,
        launch_url: row.try_get("launch_url")?,
        is_builtin: row.try_get::<i64, _>("is_builtin")? == 1,
        is_active: row.try_get::<i64, _>("is_active")? == 1,
    })
}

const GAME_COLUMNS: &str = "g.id, g.game_id, g.provider_id, p.code AS provider_code, p.name AS provider_name, \
     p.is_active AS provider_is_active, p.is_builtin AS provider_is_builtin, p.launch_url AS provider_launch_url, \
     g.game_code, g.game_name, g.category, g.sub_provider_name, g.sub_type, g.url_thumb, g.is_active, g.display_order";

const GAME_FROM: &str = "FROM world_casino_games g JOIN casino_providers p ON p.id = g.provider_id";

fn game_from_row(row: &AnyRow) -> Result<WorldCasinoGame, sqlx::Error> {
    Ok(WorldCasinoGame {
        id: row.try_get("id")?,
        game_id: row.try_get("game_id")?,
        provider_id: row.try_get("provider_id")?,
        provider_code: row.try_get("provider_code")?,
        provider_name: row.try_get("provider_name")?,
        provider_is_active: row.try_get::<i64, _>("provider_is_active")? == 1,
        provider_is_builtin: row.try_get::<i64, _>("provider_is_builtin")? == 1,
        provider_launch_url: row.try_get("provider_launch_url")?,
        game_code: row.try_get("game_code")?,
        game_name: row.try_get("game_name")?,
        category: row.try_get("category")?,
        sub_provider_name: row.try_get("sub_provider_name")?,
        sub_type: row.try_get("sub_type")?,
        url_thumb: row.try_get("url_thumb")?,
        is_active: row.try_get::<i64, _>("is_active")? == 1,
        display_order: row.try_get("display_order")?,
    })
}

/// The providers' reads on the [`Store`]: a trait, because `Store` is backlay-store's type and
/// only that crate can add methods of its own to it.
pub trait ProviderReads {
    fn casino_provider_by_code(
        &self,
        code: &str,
    ) -> impl Future<Output = StoreResult<Option<CasinoProvider>>> + Send;
    fn casino_providers(&self) -> impl Future<Output = StoreResult<Vec<CasinoProvider>>> + Send;
    fn builtin_casino_provider(
        &self,
    ) -> impl Future<Output = StoreResult<Option<CasinoProvider>>> + Send;
    fn world_casino_games(&self) -> impl Future<Output = StoreResult<Vec<WorldCasinoGame>>> + Send;
    fn world_casino_game(
        &self,
        game_id: &str,
    ) -> impl Future<Output = StoreResult<Option<WorldCasinoGame>>> + Send;
    fn provider_session(
        &self,
        token_hash: &str,
    ) -> impl Future<Output = StoreResult<Option<ProviderSession>>> + Send;
}

impl ProviderReads for Store {
    /// The provider that signs as `code`.
    async fn casino_provider_by_code(&self, code: &str) -> StoreResult<Option<CasinoProvider>> {
        let row = sqlx::query(&format!(
            "SELECT {PROVIDER_COLUMNS} FROM casino_providers WHERE code = $1"
        ))
        .bind(code)
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(|row| provider_from_row(row, self.keyring())).transpose()
    }

    /// Every provider, the built-in one first, then by code.
    async fn casino_providers(&self) -> StoreResult<Vec<CasinoProvider>> {
        let rows = sqlx::query(&format!(
            "SELECT {PROVIDER_COLUMNS} FROM casino_providers ORDER BY is_builtin DESC, code"
        ))
        .fetch_all(self.pool())
        .await?;
        rows.iter().map(|row| provider_from_row(row, self.keyring())).collect()
    }

    /// The built-in provider, once the server has created it.
    async fn builtin_casino_provider(&self) -> StoreResult<Option<CasinoProvider>> {
        let row = sqlx::query(&format!(
            "SELECT {PROVIDER_COLUMNS} FROM casino_providers WHERE is_builtin = 1"
        ))
        .fetch_optional(self.pool())
        .await?;
        row.as_ref().map(|row| provider_from_row(row, self.keyring())).transpose()
    }

    /// The whole catalogue (at most [`MAX_WORLD_CASINO_GAMES`]), in display order.
    async fn world_casino_games(&self) -> StoreResult<Vec<WorldCasinoGame>> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} {GAME_FROM} ORDER BY g.display_order, g.id LIMIT $1"
        ))
        .bind(MAX_WORLD_CASINO_GAMES)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(game_from_row).collect::<Result<_, _>>()?)
    }

    /// The catalogue game with this public id.
    async fn world_casino_game(&self, game_id: &str) -> StoreResult<Option<WorldCasinoGame>> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} {GAME_FROM} WHERE g.game_id = $1"))
            .bind(game_id)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.as_ref().map(game_from_row).transpose()?)
    }

    /// The launch session of a token hash, expired or not, whatever its provider: the wallet
    /// decides what an expired session, a locked player or another provider's token may do.
    async fn provider_session(&self, token_hash: &str) -> StoreResult<Option<ProviderSession>> {
        let row = sqlx::query(
            "SELECT s.id, s.provider_id, s.user_id, u.user_name, u.is_locked, u.is_bet_locked, u.max_stake_minor, \
             u.locked_by_user_id, u.bet_locked_by_user_id, \
             s.game_pk, g.game_code, g.game_name, s.expires_at_ms \
             FROM provider_sessions s JOIN users u ON u.id = s.user_id JOIN world_casino_games g ON g.id = s.game_pk \
             WHERE s.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(ProviderSession {
            session_id: row.try_get("id")?,
            provider_id: row.try_get("provider_id")?,
            user_id: row.try_get("user_id")?,
            user_name: row.try_get("user_name")?,
            // Locked or bet-locked on its own or by an agent above it (backlay_store::branch_locks).
            user_is_locked: row.try_get::<i64, _>("is_locked")? == 1
                || row.try_get::<Option<i64>, _>("locked_by_user_id")?.is_some(),
            user_is_bet_locked: row.try_get::<i64, _>("is_bet_locked")? == 1
                || row.try_get::<Option<i64>, _>("bet_locked_by_user_id")?.is_some(),
            user_max_stake_minor: row.try_get("max_stake_minor")?,
            game_pk: row.try_get("game_pk")?,
            game_code: row.try_get("game_code")?,
            game_name: row.try_get("game_name")?,
            expires_at_ms: row.try_get("expires_at_ms")?,
        }))
    }
}

/// The providers' writes in a [`Writer`]'s transaction: a trait, because `Writer` is
/// backlay-store's type and only that crate can add methods of its own to it.
pub trait ProviderWrites {
    fn insert_casino_provider(
        &mut self,
        provider: &NewCasinoProvider<'_>,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<i64>> + Send;
    fn ensure_builtin_casino_provider(
        &mut self,
        provider: &NewCasinoProvider<'_>,
        now_ms: i64,
    ) -> impl Future<Output = StoreResult<CasinoProvider>> + Send;
    fn add_world_casino_game(
        &mut self,
        game: &NewWorldCasinoGame<'_>,
    ) -> impl Future<Output = StoreResult<bool>> + Send;
    fn ensure_builtin_world_casino_game(
        &mut self,
        game: &NewWorldCasinoGame<'_>,
    ) -> impl Future<Output = StoreResult<()>> + Send;
    fn set_casino_provider_secret(
        &mut self,
        code: &str,
        hmac_secret: &str,
    ) -> impl Future<Output = StoreResult<()>> + Send;
    fn set_world_casino_game_active(
        &mut self,
        game_id: &str,
        active: bool,
    ) -> impl Future<Output = StoreResult<()>> + Send;
    fn insert_provider_session(
        &mut self,
        token_hash: &str,
        user_id: i64,
        game: &WorldCasinoGame,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> impl Future<Output = StoreResult<i64>> + Send;
}

impl ProviderWrites for Writer {
    /// Adds a provider; a code already taken (or a second built-in provider) is a conflict.
    async fn insert_casino_provider(
        &mut self,
        provider: &NewCasinoProvider<'_>,
        now_ms: i64,
    ) -> StoreResult<i64> {
        let sealed = seal_column(self.keyring(), provider.hmac_secret, secret_slot(provider.code))?;
        let inserted = sqlx::query_scalar(
            "INSERT INTO casino_providers (code, name, hmac_secret, launch_url, is_builtin, is_active, created_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        )
        .bind(provider.code)
        .bind(provider.name)
        .bind(sealed)
        .bind(provider.launch_url)
        .bind(flag(provider.launch_url.is_none()))
        .bind(flag(provider.is_active))
        .bind(now_ms)
        .fetch_one(self.conn())
        .await;
        match inserted {
            Ok(id) => Ok(id),
            Err(err) if is_unique_violation(&err) => Err(StoreError::Conflict(format!(
                "there is already a provider {} (or a built-in provider)",
                provider.code
            ))),
            Err(err) => Err(err.into()),
        }
    }

    /// The built-in provider, created with `provider` when there is none yet. Two servers
    /// starting at once both end with the same row: the insert does nothing on a conflict.
    async fn ensure_builtin_casino_provider(
        &mut self,
        provider: &NewCasinoProvider<'_>,
        now_ms: i64,
    ) -> StoreResult<CasinoProvider> {
        assert!(
            provider.launch_url.is_none(),
            "the built-in provider has no launch URL of its own"
        );
        let sealed = seal_column(self.keyring(), provider.hmac_secret, secret_slot(provider.code))?;
        sqlx::query(
            "INSERT INTO casino_providers (code, name, hmac_secret, launch_url, is_builtin, is_active, created_at_ms) \
             VALUES ($1, $2, $3, NULL, 1, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(provider.code)
        .bind(provider.name)
        .bind(sealed)
        .bind(flag(provider.is_active))
        .bind(now_ms)
        .execute(self.conn())
        .await?;
        let row = sqlx::query(&format!(
            "SELECT {PROVIDER_COLUMNS} FROM casino_providers WHERE is_builtin = 1"
        ))
        .fetch_optional(self.conn())
        .await?
        .ok_or_else(|| {
            StoreError::Conflict(format!(
                "the provider code {} is taken by a provider that is not built in",
                provider.code
            ))
        })?;
        provider_from_row(&row, self.keyring())
    }

    /// Adds a game to the catalogue unless the provider already lists its code (or the public
    /// id is taken); true when it was added.
    async fn add_world_casino_game(&mut self, game: &NewWorldCasinoGame<'_>) -> StoreResult<bool> {
        let added = write_catalogue_row(
            self,
            "INSERT INTO world_casino_games (game_id, provider_id, game_code, game_name, category, sub_provider_name, \
             sub_type, url_thumb, display_order) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING",
            game,
        )
        .await?;
        Ok(added == 1)
    }

    /// Lists one of the built-in provider's games, or corrects the row an earlier server
    /// listed: its name, category and `sub_type` become `game`'s, so what the catalogue says
    /// about the in-house games follows the code. The operator's choices on the row (switched
    /// off, its image) and its place in the list stay. One statement, so two servers starting
    /// at once end with the same row.
    async fn ensure_builtin_world_casino_game(
        &mut self,
        game: &NewWorldCasinoGame<'_>,
    ) -> StoreResult<()> {
        // The WHERE keeps an outside provider's row out of reach even if given its id.
        let written = write_catalogue_row(
            self,
            "INSERT INTO world_casino_games (game_id, provider_id, game_code, game_name, category, sub_provider_name, \
             sub_type, url_thumb, display_order) \
             SELECT $1, id, $3, $4, $5, $6, $7, $8, $9 FROM casino_providers WHERE id = $2 AND is_builtin = 1 \
             ON CONFLICT (provider_id, game_code) DO UPDATE SET game_name = excluded.game_name, \
             category = excluded.category, sub_type = excluded.sub_type",
            game,
        )
        .await?;
        if written == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Replaces an outside provider's signing secret; `NotFound` when there is no such outside
    /// provider (the built-in one's secret is held by the running server, so it is not changed
    /// here).
    async fn set_casino_provider_secret(
        &mut self,
        code: &str,
        hmac_secret: &str,
    ) -> StoreResult<()> {
        let sealed = seal_column(self.keyring(), hmac_secret, secret_slot(code))?;
        let done = sqlx::query(
            "UPDATE casino_providers SET hmac_secret = $1 WHERE code = $2 AND is_builtin = 0",
        )
        .bind(sealed)
        .bind(code)
        .execute(self.conn())
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Switches a catalogue game on or off; `NotFound` for an unknown public id.
    async fn set_world_casino_game_active(
        &mut self,
        game_id: &str,
        active: bool,
    ) -> StoreResult<()> {
        let done = sqlx::query("UPDATE world_casino_games SET is_active = $1 WHERE game_id = $2")
            .bind(flag(active))
            .bind(game_id)
            .execute(self.conn())
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound);
        }
        Ok(())
    }

    /// Stores a launch session (the token's hash only).
    async fn insert_provider_session(
        &mut self,
        token_hash: &str,
        user_id: i64,
        game: &WorldCasinoGame,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<i64> {
        Ok(sqlx::query_scalar(
            "INSERT INTO provider_sessions (token_hash, user_id, provider_id, game_pk, created_at_ms, expires_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(game.provider_id)
        .bind(game.id)
        .bind(now_ms)
        .bind(expires_at_ms)
        .fetch_one(self.conn())
        .await?)
    }
}

/// Runs `sql`, an insert of a catalogue row whose $1…$9 are `game`'s columns in the order
/// the two inserts of the impl above name them; answers how many rows it wrote.
async fn write_catalogue_row(
    w: &mut Writer,
    sql: &str,
    game: &NewWorldCasinoGame<'_>,
) -> StoreResult<u64> {
    assert!(WORLD_CASINO_CATEGORIES.contains(&game.category), "unknown category {}", game.category);
    let done = sqlx::query(sql)
        .bind(game.game_id)
        .bind(game.provider_id)
        .bind(game.game_code)
        .bind(game.game_name)
        .bind(game.category)
        .bind(game.sub_provider_name)
        .bind(game.sub_type)
        .bind(game.url_thumb)
        .bind(game.display_order)
        .execute(w.conn())
        .await?;
    Ok(done.rows_affected())
}
