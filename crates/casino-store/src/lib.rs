//! The casino's tables, over the store's one schema and pool: the in-house games, their rounds
//! and bets ([`casino`]), the game providers with their sealed signing secrets and launch
//! sessions ([`providers`]), and the seamless wallet's calls and provider rounds ([`wallet`]).
//!
//! `Store` and `Writer` are `backlay_store`'s types, so each module adds its methods to them
//! through a pair of traits, reads on the `Store` and writes in a `Writer`'s transaction: a
//! caller brings them into scope (`use backlay_casino_store::{CasinoReads, CasinoWrites}`) and
//! calls `store.casino_game(id)` or `w.place_casino_bet(&bet, now_ms)` as on any repository.
//! A method's documentation is at its body, in the trait's impl next to the trait.
//! The migrations stay in `backlay_store`: one schema for every table.

pub mod casino;
pub mod providers;
pub mod wallet;

pub use casino::{CasinoReads, CasinoWrites};
pub use providers::{ProviderReads, ProviderWrites};
pub use wallet::{WalletReads, WalletWrites};

#[cfg(test)]
mod tests {
    use backlay_store::repository::assert_names_read_back;
    use backlay_store::Store;

    use super::casino::{self, CasinoRound, NewRound, RoundPhase};
    use super::providers::{CasinoProvider, NewCasinoProvider};
    use super::wallet;

    #[test]
    fn debug_leaves_secrets_out() {
        const SECRET: &str = "JBSWY3DPEHPK3PXP";
        let new_provider = NewCasinoProvider {
            code: "acme",
            name: "Acme",
            hmac_secret: SECRET,
            launch_url: None,
            is_active: true,
        };
        let provider = CasinoProvider {
            id: 1,
            code: "acme".into(),
            name: "Acme".into(),
            hmac_secret: SECRET.into(),
            launch_url: None,
            is_builtin: false,
            is_active: true,
        };
        let new_round = NewRound {
            game_id: 1,
            round_id: "r1",
            commitment: "c",
            secret_seed_hex: SECRET,
            opened_at_ms: 0,
            close_at_ms: 1,
        };
        let mut round = CasinoRound {
            id: 1,
            round_id: "r1".into(),
            game_id: 1,
            kind: "teen20".into(),
            commitment: "c".into(),
            secret_seed_hex: SECRET.into(),
            phase: RoundPhase::Closed,
            opened_at_ms: 0,
            close_at_ms: 1,
            bet_count: 0,
            staked_minor: 0,
            deal_json: None,
            result_json: None,
            winner: None,
            dealt_at_ms: None,
            paid_minor: None,
            settled_at_ms: None,
        };
        let printed = [
            format!("{new_provider:?}"),
            format!("{provider:?}"),
            format!("{new_round:?}"),
            format!("{round:?}"),
        ];
        for text in printed {
            assert!(!text.contains(SECRET), "{text}");
        }
        // Once dealt, the seed is public and `Debug` shows it.
        round.phase = RoundPhase::Dealt;
        assert!(format!("{round:?}").contains(SECRET));
    }

    #[tokio::test]
    async fn every_stored_state_reads_back_and_an_unknown_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("named.db").display());
        let store = Store::connect(&url).await.unwrap();
        store.migrate().await.unwrap();
        assert_names_read_back(&store, casino::RoundPhase::ALL, casino::RoundPhase::as_str).await;
        assert_names_read_back(
            &store,
            casino::CasinoBetStatus::ALL,
            casino::CasinoBetStatus::as_str,
        )
        .await;
        assert_names_read_back(&store, wallet::WalletKind::ALL, wallet::WalletKind::as_str).await;
        assert_names_read_back(
            &store,
            wallet::ProviderRoundState::ALL,
            wallet::ProviderRoundState::as_str,
        )
        .await;
    }
}
