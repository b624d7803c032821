//! The built-in game provider: Backlay serving its own in-house games to the world-casino
//! lobby, through exactly the path an outside provider takes.
//!
//! ```text
//! gap/gaplogin ──▶ {public url}/provider/play?token=…&game=teen20   (framed by casino/mac88/game)
//!                     │ page: POST /provider/api/table  → balance (signed wallet/balance), a
//!                     │       fresh seed's commitment, the open cards, the markets and odds
//!                     │ page: POST /provider/api/deal   → signed wallet/debit of the stake,
//!                     ▼       deal, payout, signed wallet/credit (0 for a loss); on a failure
//!              crate::wallet::handle                  after the debit, a signed wallet/rollback
//! ```
//!
//! The provider's backend signs each wallet call with its own secret and calls
//! [`crate::wallet::handle`], the function behind `POST /api/wallet/*`, so the signature,
//! timestamp, idempotency and funds checks are the ones every provider meets. The provider row
//! (code `backlay`) and its secret, 32 bytes from the operating system, are created at start
//! when missing, with the in-house games in the catalogue ([`CATALOGUE`]).
//!
//! Play is instant and provably fair: a table is dealt from a fresh seed the moment the page
//! asks for one, and only the seed's commitment, the open cards (Hi-Low's base card, Andar
//! Bahar's joker) and the markets are shown; the stake is placed against that commitment and
//! the seed is revealed with the result, so anyone can recompute the deal with
//! `backlay_casino::fair::verify` (round id = the provider round).

mod play;

use std::collections::HashMap;
use std::sync::Mutex;

use backlay_casino::fair::ServerSeed;
use backlay_casino::games::GameKind;
use backlay_casino_store::providers::{CasinoProvider, NewCasinoProvider, NewWorldCasinoGame};
use backlay_store::Store;

use backlay_casino_store::ProviderWrites;
pub use play::routes;

/// The built-in provider's code (what it signs as).
pub const BUILTIN_CODE: &str = "backlay";
/// Its name in the catalogue.
pub const BUILTIN_NAME: &str = "Backlay Games";
/// Where its pages live on the public origin.
pub const PLAY_PATH: &str = "/provider/play";

/// The catalogue's category of every in-house game. The games are dealt by the computer the
/// moment a player stakes, one player at a time: nothing about them is live (no dealer, no
/// studio, no shared round), so none is listed under Live Dealer, Live, Live Game Shows or
/// Poker beside the providers' studio tables.
pub const BUILTIN_CATEGORY: &str = "Virtual";
/// The catalogue's `sub_type` of the in-house games: the lobby marks them computer-dealt.
pub const BUILTIN_SUB_TYPE: &str = "instant";

/// The in-house games in the world-casino catalogue, with the name a player sees there. Every
/// one launches (any `GameKind` plays instantly). The names say "Instant" because the table of
/// the same rules in `/casino/list` is another product: rounds on a clock, shared by every
/// player, with a betting window.
pub const CATALOGUE: &[(GameKind, &str)] = &[
    (GameKind::Baccarat, "Baccarat Instant"),
    (GameKind::DragonTiger, "Dragon Tiger Instant"),
    (GameKind::AndarBahar, "Andar Bahar Instant"),
    (GameKind::Poker, "Poker Instant (Texas hold'em)"),
    (GameKind::TeenPattiT20, "Teen Patti T20 Instant"),
    (GameKind::TeenPattiOneDay, "Teen Patti 1 Day Instant"),
    (GameKind::TeenPattiTest, "Teen Patti Test Instant"),
    (GameKind::TwoCardTeenPatti, "2 Card Teen Patti Instant"),
    (GameKind::MuflisTeenPatti, "Muflis Teen Patti Instant"),
    (GameKind::Roulette, "Roulette Instant"),
    (GameKind::HiLow, "Hi-Low Instant"),
    (GameKind::WorliMatka, "Worli Matka Instant"),
    (GameKind::Trio, "Trio Instant"),
    (GameKind::Bollywood, "Bollywood Casino Instant"),
    (GameKind::AmarAkbarAnthony, "Amar Akbar Anthony Instant"),
    (GameKind::Queen, "Queen Instant"),
];

/// The name of an in-house game in the catalogue, which its framed page shows too.
pub fn catalogue_name(game: GameKind) -> &'static str {
    CATALOGUE.iter().find(|(listed, _)| *listed == game).map_or(game.title(), |(_, name)| name)
}

/// The catalogue's public id of an in-house game.
pub fn catalogue_game_id(game: GameKind) -> String {
    format!("{BUILTIN_CODE}-{}", game.code())
}

/// The built-in provider as its own backend knows it: its code and secret, and the tables
/// dealt but not yet played.
pub struct BuiltinProvider {
    code: String,
    secret: String,
    tables: Mutex<Tables>,
}

impl std::fmt::Debug for BuiltinProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinProvider").field("code", &self.code).finish_non_exhaustive()
    }
}

impl BuiltinProvider {
    /// Creates the provider row and its secret when missing, lists the in-house games in the
    /// catalogue, and answers the provider as stored. A database listed by an older server has
    /// its rows corrected to [`CATALOGUE`]'s names and [`BUILTIN_CATEGORY`]; what the operator
    /// decides (a game switched off, its image) stays.
    pub async fn ensure(store: &Store, now_ms: i64) -> anyhow::Result<BuiltinProvider> {
        let secret = backlay_kit::token::new_secret();
        let mut w = store.begin_write().await?;
        let provider = w
            .ensure_builtin_casino_provider(
                &NewCasinoProvider {
                    code: BUILTIN_CODE,
                    name: BUILTIN_NAME,
                    hmac_secret: &secret,
                    launch_url: None,
                    is_active: true,
                },
                now_ms,
            )
            .await?;
        for (order, (game, name)) in CATALOGUE.iter().enumerate() {
            w.ensure_builtin_world_casino_game(&NewWorldCasinoGame {
                game_id: &catalogue_game_id(*game),
                provider_id: provider.id,
                game_code: game.code(),
                game_name: name,
                category: BUILTIN_CATEGORY,
                sub_provider_name: "",
                sub_type: Some(BUILTIN_SUB_TYPE),
                url_thumb: "",
                display_order: i64::try_from(order).unwrap_or(i64::MAX),
            })
            .await?;
        }
        w.commit().await?;
        Ok(BuiltinProvider::from_row(&provider))
    }

    fn from_row(provider: &CasinoProvider) -> BuiltinProvider {
        BuiltinProvider {
            code: provider.code.clone(),
            secret: provider.hmac_secret.clone(),
            tables: Mutex::default(),
        }
    }
}

/// How long a dealt table waits for its stake.
pub const TABLE_TTL_MS: i64 = 10 * 60 * 1000;
/// Most tables waiting at once, over all players.
pub const MAX_TABLES: usize = 10_000;
/// Most tables one launch session keeps waiting; a new one pushes out its oldest.
pub const MAX_TABLES_PER_SESSION: usize = 4;

/// A table dealt from a fresh seed, waiting for the player's stake.
struct PendingTable {
    token_hash: String,
    game: GameKind,
    seed: ServerSeed,
    round_ref: String,
    created_ms: i64,
}

#[derive(Default)]
struct Tables {
    by_id: HashMap<String, PendingTable>,
}

impl Tables {
    /// Keeps `table` under `id`; false when the server holds [`MAX_TABLES`] live ones.
    fn insert(&mut self, id: String, table: PendingTable, now_ms: i64) -> bool {
        self.by_id.retain(|_, t| now_ms - t.created_ms < TABLE_TTL_MS);
        let mut of_session: Vec<(i64, String)> = self
            .by_id
            .iter()
            .filter(|(_, t)| t.token_hash == table.token_hash)
            .map(|(id, t)| (t.created_ms, id.clone()))
            .collect();
        of_session.sort();
        while of_session.len() >= MAX_TABLES_PER_SESSION {
            let (_, oldest) = of_session.remove(0);
            self.by_id.remove(&oldest);
        }
        if self.by_id.len() >= MAX_TABLES {
            return false;
        }
        self.by_id.insert(id, table);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_lists_every_game_once_by_a_name_that_says_instant() {
        for game in GameKind::ALL {
            assert_eq!(
                CATALOGUE.iter().filter(|(listed, _)| *listed == game).count(),
                1,
                "{game:?}"
            );
            assert!(
                catalogue_name(game).ends_with("Instant")
                    || catalogue_name(game).contains("Instant (")
            );
        }
        assert_eq!(catalogue_name(GameKind::DragonTiger), "Dragon Tiger Instant");
    }
}
