//! Secrets at rest (issue 11, finding 9): TOTP secrets and providers' signing secrets are sealed
//! with the server's key in the database rows, on SQLite and PostgreSQL, and everything that uses
//! them still works: TOTP log-in, signed wallet calls, a restart, a key rotation, rows written in
//! clear before sealing existed. A sealed value copied into another row does not open, and a
//! server given the wrong key refuses to start with a message that says so.

use backlay_kit::totp::Secret;
use backlay_operator::{self as operator, Actor, AddProvider, AddWorldCasinoGame, OperatorContext};
use backlay_server::Server;
use backlay_store::secrets::Keyring;
use backlay_store::Store;
use serde_json::json;

use crate::both_databases;
use crate::common::TestApp;
use crate::security::{clear_of_step_edge, code, enable, otp_token, verify};
use crate::wallet::{launch_url, player_token, query_param, wallet, Provider};
use backlay_casino_store::ProviderReads;

/// A raw column value, as a dump of the database shows it.
async fn raw(store: &Store, sql: &str) -> String {
    sqlx::query_scalar::<_, String>(sql)
        .fetch_one(store.pool())
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

async fn execute(store: &Store, sql: &str) {
    sqlx::query(sql).execute(store.pool()).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
}

/// Adds the outside provider `evo` with a game, as the console does; answers its secret.
async fn add_evo(store: &Store) -> String {
    let console = OperatorContext { store, actor: Actor::Console, client_ip: None };
    let provider = AddProvider {
        code: "evo".into(),
        name: "Evolution".into(),
        launch_url: "https://games.example.com/launch".into(),
    };
    let (_, secret) = operator::add_casino_provider(&console, provider).await.unwrap();
    let game = AddWorldCasinoGame {
        provider_code: "evo".into(),
        game_code: "lightning".into(),
        game_name: "Lightning Roulette".into(),
        category: "Live".into(),
        sub_provider_name: String::new(),
        url_thumb: String::new(),
    };
    operator::add_world_casino_game(&console, game).await.unwrap();
    secret
}

/// A wallet balance call signed by `evo` with `secret` for a fresh launch of its game.
async fn evo_balance(app: &TestApp, user_token: &str, secret: &str) -> crate::common::Answer {
    let token = query_param(&launch_url(app, user_token, "evo-lightning").await, "token");
    wallet(
        app,
        &Provider { code: "evo".into(), secret: secret.into() },
        "balance",
        json!({ "token": token }),
    )
    .await
}

async fn the_rows_hold_no_clear_secret_and_everything_still_works(app: TestApp) {
    let store = app.store().await;
    let demo = app.demo().await;
    let s = clear_of_step_edge().await;
    let totp = enable(&app, &demo, s - 1).await;
    let evo_secret = add_evo(&store).await;
    let builtin_secret = store.builtin_casino_provider().await.unwrap().unwrap().hmac_secret;

    // What a dump shows: sealed values, none holding the secret.
    let demo_row = raw(&store, "SELECT totp_secret FROM users WHERE user_name = 'demo'").await;
    let evo_row = raw(&store, "SELECT hmac_secret FROM casino_providers WHERE code = 'evo'").await;
    let builtin_row =
        raw(&store, "SELECT hmac_secret FROM casino_providers WHERE code = 'backlay'").await;
    for (row, secret) in [
        (&demo_row, totp.to_base32()),
        (&evo_row, evo_secret.clone()),
        (&builtin_row, builtin_secret.clone()),
    ] {
        assert!(row.starts_with("sealed:v1:"), "{row}");
        assert!(!row.to_lowercase().contains(&secret.to_lowercase()), "{row} holds {secret}");
    }
    // The whole SQLite file (and its write-ahead log) holds none of them either.
    if app.database_url().starts_with("sqlite:") {
        let path = backlay_store::sqlite_path(app.database_url());
        let mut dump = std::fs::read(&path).unwrap();
        dump.extend(std::fs::read(format!("{path}-wal")).unwrap_or_default());
        let dump = String::from_utf8_lossy(&dump).to_lowercase();
        for secret in [totp.to_base32(), evo_secret.clone(), builtin_secret.clone()] {
            assert!(
                !dump.contains(&secret.to_lowercase()),
                "the database file holds a secret in clear"
            );
        }
        // The embedded default's key file sits beside the database, readable by its owner only.
        let key_path = app.secret_key_path();
        assert_eq!(key_path, std::path::Path::new(&path).with_extension("key"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            assert_eq!(std::fs::metadata(&key_path).unwrap().permissions().mode() & 0o777, 0o600);
        }
    }

    // TOTP log-in works; so do calls signed with either provider's secret.
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    verify(&app, &challenge, &code(&totp, s)).await.expect(200);
    evo_balance(&app, &demo, &evo_secret).await.expect(200);
    let builtin = Provider { code: "backlay".into(), secret: builtin_secret };
    wallet(&app, &builtin, "balance", json!({ "token": player_token(&app, &demo).await }))
        .await
        .expect(200);
}
both_databases!(the_rows_hold_no_clear_secret_and_everything_still_works);

async fn a_sealed_secret_copied_into_another_row_does_not_open(app: TestApp) {
    let store = app.store().await;
    let demo = app.demo().await;
    let s = clear_of_step_edge().await;
    let totp = enable(&app, &demo, s - 1).await;
    let evo_secret = add_evo(&store).await;
    let builtin_secret = store.builtin_casino_provider().await.unwrap().unwrap().hmac_secret;

    // Someone with write access to the database copies demo's sealed TOTP secret to demo2 (whose
    // password they know), and the built-in provider's sealed secret into evo's row.
    execute(
        &store,
        "UPDATE users SET totp_enabled = 1, totp_last_step = NULL, \
         totp_secret = (SELECT totp_secret FROM users WHERE user_name = 'demo') WHERE user_name = 'demo2'",
    )
    .await;
    execute(
        &store,
        "UPDATE casino_providers SET hmac_secret = (SELECT hmac_secret FROM casino_providers WHERE code = 'backlay') WHERE code = 'evo'",
    )
    .await;

    // Neither opens in its new row: demo's codes do not log in as demo2, and nothing signed for
    // evo is accepted. It is the server's problem (500, logged), never a session or a payment.
    let as_demo2 = app.login_answer("demo2", "Demo@1234").await;
    as_demo2.expect(500);
    assert!(as_demo2.data().is_null(), "{}", as_demo2.body);
    let before = app.balance_minor(&demo).await;
    let signed_with_builtin = evo_balance(&app, &demo, &builtin_secret).await;
    assert_eq!(signed_with_builtin.status.as_u16(), 500, "{}", signed_with_builtin.body);
    assert_eq!(evo_balance(&app, &demo, &evo_secret).await.status.as_u16(), 500);
    assert_eq!(app.balance_minor(&demo).await, before);
    // The rows they were copied from still work.
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    verify(&app, &challenge, &code(&totp, s)).await.expect(200);
}
both_databases!(a_sealed_secret_copied_into_another_row_does_not_open);

async fn secrets_stored_in_clear_before_sealing_are_sealed_at_start(mut app: TestApp) {
    let store = app.store().await;
    // Rows as the previous release wrote them.
    let totp = Secret::from_bytes(*b"12345678901234567890");
    let builtin_secret = "ab".repeat(32);
    execute(
        &store,
        &format!(
            "UPDATE users SET totp_enabled = 1, totp_secret = '{}', totp_pending_secret = NULL, totp_last_step = NULL WHERE user_name = 'demo'",
            totp.to_base32()
        ),
    )
    .await;
    execute(
        &store,
        &format!(
            "UPDATE casino_providers SET hmac_secret = '{builtin_secret}' WHERE code = 'backlay'"
        ),
    )
    .await;

    app.restart().await;
    let demo_row = raw(&store, "SELECT totp_secret FROM users WHERE user_name = 'demo'").await;
    let builtin_row =
        raw(&store, "SELECT hmac_secret FROM casino_providers WHERE code = 'backlay'").await;
    assert!(
        demo_row.starts_with("sealed:v1:") && !demo_row.contains(&totp.to_base32()),
        "{demo_row}"
    );
    assert!(
        builtin_row.starts_with("sealed:v1:") && !builtin_row.contains(&builtin_secret),
        "{builtin_row}"
    );
    // Nobody lost their working secret.
    let s = clear_of_step_edge().await;
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    let session = verify(&app, &challenge, &code(&totp, s)).await;
    session.expect(200);
    let demo = session.data()["token"].as_str().unwrap().to_string();
    let builtin = Provider { code: "backlay".into(), secret: builtin_secret };
    wallet(&app, &builtin, "balance", json!({ "token": player_token(&app, &demo).await }))
        .await
        .expect(200);
}
both_databases!(secrets_stored_in_clear_before_sealing_are_sealed_at_start);

async fn a_rotated_key_reaches_the_running_server_and_a_restart(mut app: TestApp) {
    let store = app.store().await;
    let demo = app.demo().await;
    let s = clear_of_step_edge().await;
    let totp = enable(&app, &demo, s - 1).await;
    let evo_secret = add_evo(&store).await;
    let old_id = Keyring::load_file(&app.secret_key_path()).unwrap().current_key_id();

    // What `backlay admin secret-key rotate` does, while the server runs.
    let new_id = Keyring::add_key_to_file(&app.secret_key_path()).unwrap();
    let report = store.seal_secrets(true).await.unwrap();
    assert_eq!(report.resealed, 3, "demo's TOTP secret and both providers' secrets: {report:?}");
    assert_eq!(report.by_key.keys().cloned().collect::<Vec<_>>(), vec![new_id.clone()]);
    let demo_row = raw(&store, "SELECT totp_secret FROM users WHERE user_name = 'demo'").await;
    assert!(
        demo_row.starts_with(&format!("sealed:v1:{new_id}:")),
        "{demo_row} is sealed with the new key, not {old_id}"
    );

    // The running server reads the key file again when it meets the new key.
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    verify(&app, &challenge, &code(&totp, s)).await.expect(200);
    evo_balance(&app, &demo, &evo_secret).await.expect(200);
    // And a restart with the same key file works.
    app.restart().await;
    let challenge = otp_token(&app, "demo", "Demo@1234").await;
    let session = verify(&app, &challenge, &code(&totp, s + 1)).await;
    session.expect(200);
    evo_balance(&app, session.data()["token"].as_str().unwrap(), &evo_secret).await.expect(200);
}
both_databases!(a_rotated_key_reaches_the_running_server_and_a_restart);

async fn a_server_given_the_wrong_key_refuses_to_start_and_says_why(mut app: TestApp) {
    use backlay_kit::secret_key::SecretKeySource;
    let demo = app.demo().await;
    let s = clear_of_step_edge().await;
    enable(&app, &demo, s - 1).await;
    let key_id = Keyring::load_file(&app.secret_key_path()).unwrap().current_key_id();
    // On SQLite a second server is refused while the first runs, whatever its key.
    app.stop().await;
    let dir = tempfile::tempdir().unwrap();
    let start_with = |source: SecretKeySource| {
        let mut config = app.config().clone();
        config.addr = "127.0.0.1:0".parse().unwrap();
        config.secret_key = source;
        async move {
            Server::build(config).await.err().expect("the server refuses to start").to_string()
        }
    };

    let other_key = backlay_store::secrets::new_key();
    let wrong = start_with(SecretKeySource::Text(other_key)).await;
    assert!(
        wrong.contains("BACKLAY_SECRET_KEY does not open the secrets in this database"),
        "{wrong}"
    );
    assert!(wrong.contains(&format!("with key {key_id}")), "names the key needed: {wrong}");

    let other_file = dir.path().join("other.key");
    let missing =
        start_with(SecretKeySource::File { path: other_file.clone(), create: false }).await;
    assert!(
        missing.contains("does not exist") && missing.contains("--create-secret-key"),
        "{missing}"
    );
    // Asked to create one, it will not make a fresh key for a database sealed with another.
    let fresh = start_with(SecretKeySource::File { path: other_file.clone(), create: true }).await;
    assert!(
        fresh.contains("is missing, but") && fresh.contains("secrets in the database are sealed"),
        "{fresh}"
    );
    assert!(!other_file.exists());

    if app.database_url().starts_with("postgres") {
        // PostgreSQL has no default place for a key.
        let none = start_with(SecretKeySource::BesideDatabase).await;
        assert!(
            none.contains("PostgreSQL database needs a secret key")
                && none.contains("--secret-key-file"),
            "{none}"
        );
    }
}
both_databases!(a_server_given_the_wrong_key_refuses_to_start_and_says_why);
