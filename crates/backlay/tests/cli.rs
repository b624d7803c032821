//! The `backlay` binary as an operator uses it: migrate, then `backlay admin …` on a fresh
//! SQLite file, checking what each command prints and that refusals exit non-zero with a reason.

use std::process::{Command, Output};

#[path = "support/printed_address.rs"]
mod printed_address;

struct Console {
    database_url: String,
    _dir: tempfile::TempDir,
}

impl Console {
    fn new() -> Console {
        let dir = tempfile::tempdir().unwrap();
        let database_url =
            format!("sqlite://{}", dir.path().join("nested/folder/cli.db").display());
        Console { database_url, _dir: dir }
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_backlay"))
            .args(args)
            .env("DATABASE_URL", &self.database_url)
            .env("BACKLAY_LOG", "error")
            .output()
            .expect("backlay runs")
    }

    /// Runs and expects success; returns stdout.
    #[track_caller]
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs and expects failure; returns stderr.
    #[track_caller]
    fn refused(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            !out.status.success(),
            "{args:?} should have failed: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8(out.stderr).unwrap()
    }
}

#[test]
fn an_operator_sets_up_users_and_chips_from_the_console() {
    let console = Console::new();
    assert!(console.ok(&["migrate"]).contains("up to date"));
    assert!(console
        .ok(&[
            "admin",
            "create-user",
            "--name",
            "boss",
            "--password",
            "Boss@1234",
            "--role",
            "admin"
        ])
        .contains("created admin boss"));
    console.ok(&[
        "admin",
        "create-user",
        "--name",
        "ag1",
        "--password",
        "Agent@123",
        "--role",
        "agent",
        "--parent",
        "boss",
    ]);
    console.ok(&[
        "admin",
        "create-user",
        "--name",
        "cl1",
        "--password",
        "Client@123",
        "--role",
        "client",
        "--parent",
        "ag1",
        "--must-change-password",
    ]);
    assert!(console
        .ok(&["admin", "mint", "--to", "boss", "--amount", "10000"])
        .contains("balance 10000.00"));
    console.ok(&[
        "admin",
        "transfer",
        "--user",
        "ag1",
        "--amount",
        "2500.50",
        "--direction",
        "deposit",
    ]);
    let out = console.ok(&[
        "admin",
        "transfer",
        "--user",
        "cl1",
        "--amount",
        "500",
        "--direction",
        "deposit",
        "--remark",
        "welcome",
    ]);
    assert!(out.contains("cl1 now has 500.00, their parent 2000.50"), "{out}");
    let refused = console.refused(&[
        "admin",
        "transfer",
        "--user",
        "cl1",
        "--amount",
        "600",
        "--direction",
        "withdraw",
    ]);
    assert!(refused.contains("cl1 has only ₹500.00 available"), "{refused}");
    // Cash is settled only against what is owed: cl1 has lost nothing.
    let refused = console.refused(&[
        "admin",
        "settle-cash",
        "--user",
        "cl1",
        "--amount",
        "100",
        "--direction",
        "received",
    ]);
    assert!(refused.contains("There is no cash to receive from cl1 now"), "{refused}");
    let listing = console.ok(&["admin", "list-users", "--parent", "ag1"]);
    assert!(
        listing.contains("cl1") && listing.contains("500.00") && listing.contains("1 user(s)"),
        "{listing}"
    );
    console.ok(&["admin", "lock", "--user", "cl1"]);
    assert!(console
        .ok(&["admin", "list-users"])
        .lines()
        .any(|l| l.contains("cl1") && l.ends_with("yes")));
    console.ok(&["admin", "unlock", "--user", "cl1"]);
    assert!(console.ok(&["admin", "ledger-check"]).contains("ledger is sound"));
}

#[test]
fn the_console_refuses_bad_input_with_a_reason() {
    let console = Console::new();
    console.ok(&[
        "admin",
        "create-user",
        "--name",
        "boss",
        "--password",
        "Boss@1234",
        "--role",
        "admin",
    ]);
    assert!(console
        .refused(&[
            "admin",
            "create-user",
            "--name",
            "BOSS",
            "--password",
            "Boss@1234",
            "--role",
            "admin"
        ])
        .contains("already taken"));
    assert!(console
        .refused(&["admin", "create-user", "--name", "x", "--password", "weak", "--role", "agent"])
        .contains("user_name"));
    assert!(console
        .refused(&[
            "admin",
            "create-user",
            "--name",
            "abc",
            "--password",
            "Abc@1234",
            "--role",
            "king"
        ])
        .contains("not a role"));
    assert!(console
        .refused(&["admin", "mint", "--to", "boss", "--amount", "1.234"])
        .contains("2 decimal"));
    assert!(console
        .refused(&[
            "admin",
            "transfer",
            "--user",
            "ghost",
            "--amount",
            "1",
            "--direction",
            "deposit"
        ])
        .contains("no user named"));
    assert!(console.refused(&["admin", "set-setting", "payment_gateway", "7"]).contains("0 or 1"));
    assert!(console
        .refused(&[
            "admin",
            "create-match",
            "--series",
            "1",
            "--name",
            "A v B",
            "--start",
            "tomorrow"
        ])
        .contains("ISO-8601"));
    let bad_url = Command::new(env!("CARGO_BIN_EXE_backlay"))
        .args(["migrate", "--database-url", "mysql://x"])
        .output()
        .unwrap();
    assert!(!bad_url.status.success());
    assert!(String::from_utf8_lossy(&bad_url.stderr).contains("unsupported database URL"));
}

/// A `backlay serve` child process on the port it picked, killed on drop.
struct RunningServer {
    child: std::process::Child,
    url: String,
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(console: &Console) -> RunningServer {
    let mut child = Command::new(env!("CARGO_BIN_EXE_backlay"))
        .args(["serve", "--addr", "127.0.0.1:0", "--demo", "--web-dir", "/nonexistent"])
        .env("DATABASE_URL", &console.database_url)
        .env("BACKLAY_LOG", "error")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("server starts");
    let address = printed_address::watch(&mut child);
    let addr = match printed_address::wait(&mut child, &address, std::time::Duration::from_secs(30))
    {
        Ok(addr) => addr,
        Err(why) => {
            let _ = child.kill();
            panic!("{why}");
        }
    };
    let server = RunningServer { child, url: format!("http://{addr}") };
    for _ in 0..300 {
        if let Ok(mut stream) = std::net::TcpStream::connect(addr) {
            use std::io::{Read, Write};
            let _ = stream.write_all(b"GET /api/health HTTP/1.0\r\n\r\n");
            let mut answer = String::new();
            let _ = stream.read_to_string(&mut answer);
            if answer.starts_with("HTTP/1.0 200") || answer.starts_with("HTTP/1.1 200") {
                return server;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the server did not become healthy");
}

#[test]
fn markets_are_run_from_the_console_through_the_running_server() {
    let console = Console::new();
    let server = serve(&console);
    let market = |args: &[&str]| {
        let mut all =
            vec!["admin", "market", "--url", &server.url, "--admin-password", "Admin@1234"];
        all.extend_from_slice(args);
        all.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let run = |args: Vec<String>| console.run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let created = run(market(&[
        "create",
        "--match",
        "1",
        "--type",
        "bookmaker",
        "--name",
        "Console Bookmaker",
        "--runners",
        "Home,Away",
    ]));
    assert!(created.status.success(), "{}", String::from_utf8_lossy(&created.stderr));
    let stdout = String::from_utf8(created.stdout).unwrap();
    assert!(stdout.contains("Console Bookmaker created"), "{stdout}");
    let data: serde_json::Value = serde_json::from_str(stdout.lines().nth(1).unwrap()).unwrap();
    let market_id = data["market_id"].as_i64().unwrap().to_string();
    let home = data["selection_ids"][0].as_i64().unwrap();
    assert!(run(market(&["open", &market_id])).status.success());
    assert!(run(market(&["bookmaker-rates", &market_id, "--runner", &format!("{home}:45:50")]))
        .status
        .success());
    let bad = run(market(&["bookmaker-rates", &market_id, "--runner", "nonsense"]));
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("selection_id:back:lay"));
    let settled = run(market(&["result", &market_id, "--winner", &home.to_string()]));
    assert!(
        String::from_utf8_lossy(&settled.stdout).contains("is settled"),
        "{}",
        String::from_utf8_lossy(&settled.stderr)
    );
    let again = run(market(&["void", &market_id]));
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("(409"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    // A result corrected from the console: previewed, then taken back with a reason, after
    // which the market is live again and takes a new result.
    let preview = run(market(&["unsettle", &market_id, "--preview"]));
    assert!(
        String::from_utf8_lossy(&preview.stdout).contains("\"applied\":false"),
        "{}",
        String::from_utf8_lossy(&preview.stderr)
    );
    let no_reason = run(market(&["unsettle", &market_id]));
    assert!(String::from_utf8_lossy(&no_reason.stderr).contains("(400"));
    let corrected = run(market(&["unsettle", &market_id, "--reason", "wrong winner"]));
    assert!(
        String::from_utf8_lossy(&corrected.stdout).contains("Declare the right result"),
        "{}",
        String::from_utf8_lossy(&corrected.stderr)
    );
    assert!(run(market(&["void", &market_id])).status.success());
    let wrong_password = console.run(&[
        "admin",
        "market",
        "--url",
        &server.url,
        "--admin-password",
        "nope",
        "open",
        "1",
    ]);
    assert!(
        String::from_utf8_lossy(&wrong_password.stderr).contains("Incorrect user name or password")
    );
    drop(server);
    assert!(console.ok(&["admin", "ledger-check"]).contains("ledger is sound"));

    // 1.00 reserved for demo in a live market where demo has no bet, the account's total
    // raised with it: every total is still the sum of its markets, but nothing is at risk.
    let (demo, market) = reserve_without_a_bet(&console.database_url, "demo", 1_00);
    let refused = console.refused(&["admin", "ledger-check"]);
    assert!(refused.contains("the ledger is NOT sound (1 finding(s))"), "{refused}");
    assert!(
        refused.contains(&format!(
            "user {demo} (demo), market {market}: ₹1.00 reserved, worst case ₹0.00 (too much: \
             money of theirs is locked)"
        )),
        "{refused}"
    );
}

/// Stores `exposure_minor` for the user in the first live market where they have no bet, and
/// adds it to their account's total, behind the server's back: (user id, market id).
fn reserve_without_a_bet(database_url: &str, user_name: &str, exposure_minor: i64) -> (i64, i64) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let store = backlay_store::Store::connect(database_url).await.unwrap();
        let user: i64 = sqlx::query_scalar("SELECT id FROM users WHERE user_name = $1")
            .bind(user_name)
            .fetch_one(store.pool())
            .await
            .unwrap();
        let market: i64 = sqlx::query_scalar(
            "SELECT id FROM markets WHERE status NOT IN ('closed', 'void') \
             AND id NOT IN (SELECT market_id FROM bets WHERE user_id = $1) ORDER BY id LIMIT 1",
        )
        .bind(user)
        .fetch_one(store.pool())
        .await
        .expect("the demo has live markets");
        sqlx::query(
            "INSERT INTO market_exposures (user_id, market_id, exposure_minor) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id, market_id) DO UPDATE SET exposure_minor = excluded.exposure_minor",
        )
        .bind(user)
        .bind(market)
        .bind(exposure_minor)
        .execute(store.pool())
        .await
        .unwrap();
        sqlx::query(
            "UPDATE ledger_accounts SET exposure_minor = exposure_minor + $1 WHERE user_id = $2",
        )
        .bind(exposure_minor)
        .bind(user)
        .execute(store.pool())
        .await
        .unwrap();
        store.close().await;
        (user, market)
    })
}

#[test]
fn an_operator_lists_an_outside_provider_and_its_games_from_the_console() {
    let console = Console::new();
    console.ok(&["migrate"]);
    let added = console.ok(&[
        "admin",
        "provider",
        "add",
        "--code",
        "evo",
        "--name",
        "Evolution",
        "--launch-url",
        "https://games.example.com/launch",
    ]);
    let secret = |text: &str| text.split_whitespace().last().unwrap_or_default().to_string();
    let first = secret(added.lines().nth(1).unwrap_or_default());
    assert!(
        first.len() == 64 && first.bytes().all(|b| b.is_ascii_hexdigit()),
        "a 32-byte secret shown once: {added}"
    );
    assert!(
        added.contains("casino_frame_origins"),
        "the operator is told to allow its frames: {added}"
    );
    assert!(console
        .refused(&[
            "admin",
            "provider",
            "add",
            "--code",
            "evo",
            "--name",
            "Again",
            "--launch-url",
            "https://x.example.com"
        ])
        .contains("already"));
    let bad = console.refused(&[
        "admin",
        "provider",
        "add",
        "--code",
        "Bad Code",
        "--name",
        "",
        "--launch-url",
        "ftp://x?y=1",
    ]);
    assert!(
        bad.contains("code:") && bad.contains("name:") && bad.contains("launch_url:"),
        "every field's problem: {bad}"
    );

    assert!(console
        .ok(&[
            "admin",
            "provider",
            "add-game",
            "--provider",
            "evo",
            "--code",
            "lightning",
            "--name",
            "Lightning Roulette",
            "--category",
            "Live"
        ])
        .contains("listed evo-lightning"));
    assert!(console
        .refused(&[
            "admin",
            "provider",
            "add-game",
            "--provider",
            "evo",
            "--code",
            "lightning",
            "--name",
            "Again",
            "--category",
            "Live"
        ])
        .contains("already lists"));
    assert!(console
        .refused(&[
            "admin",
            "provider",
            "add-game",
            "--provider",
            "evo",
            "--code",
            "x",
            "--name",
            "X",
            "--category",
            "Slots"
        ])
        .contains("Crash Games"));
    assert!(console
        .refused(&[
            "admin",
            "provider",
            "add-game",
            "--provider",
            "nobody",
            "--code",
            "x",
            "--name",
            "X",
            "--category",
            "Live"
        ])
        .contains("no provider nobody"));
    let listing = console.ok(&["admin", "provider", "list"]);
    assert!(
        listing.lines().any(|l| l.contains("evo-lightning") && l.trim_end().ends_with("on")),
        "{listing}"
    );
    console.ok(&["admin", "provider", "game", "evo-lightning", "--off"]);
    assert!(console
        .ok(&["admin", "provider", "list"])
        .lines()
        .any(|l| l.contains("evo-lightning") && l.trim_end().ends_with("off")));
    assert!(console
        .refused(&["admin", "provider", "game", "evo-nothing", "--on"])
        .contains("no world-casino game"));

    let rotated = secret(&console.ok(&["admin", "provider", "rotate-secret", "--code", "evo"]));
    assert!(rotated.len() == 64 && rotated != first, "a new secret");
    assert!(console
        .refused(&["admin", "provider", "rotate-secret", "--code", "backlay"])
        .contains("no outside provider"));
}

/// `backlay serve` with `env` set to `value`, stopped by an unsupported database URL right after
/// its settings are read: answers stderr.
fn serve_settings_with(env: &str, value: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_backlay"))
        .args(["serve", "--database-url", "mysql://nowhere/x"])
        .env_remove("BACKLAY_DEMO")
        .env_remove("BACKLAY_DEMO_FEED")
        .env_remove("BACKLAY_CASINO")
        .env_remove("BACKLAY_TRUST_FORWARDED_FOR")
        .env_remove("BACKLAY_TRUSTED_PROXY_HOPS")
        .env_remove("BACKLAY_SECRET_KEY")
        .env_remove("BACKLAY_CREATE_SECRET_KEY")
        // Where --create-secret-key would create the key (never reached: the URL stops it first).
        .env("BACKLAY_SECRET_KEY_FILE", "/nonexistent/backlay.key")
        .env(env, value)
        .output()
        .expect("backlay runs");
    assert!(!out.status.success());
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn every_on_off_environment_twin_takes_the_same_forms() {
    for env in [
        "BACKLAY_DEMO",
        "BACKLAY_DEMO_FEED",
        "BACKLAY_CASINO",
        "BACKLAY_TRUST_FORWARDED_FOR",
        "BACKLAY_CREATE_SECRET_KEY",
    ] {
        for value in ["1", "0", "true", "False", "YES", "no", "on", "Off", " true "] {
            let stderr = serve_settings_with(env, value);
            assert!(
                stderr.contains("unsupported database URL"),
                "{env}={value:?} should be accepted: {stderr}"
            );
        }
        let stderr = serve_settings_with(env, "maybe");
        assert!(
            stderr.contains(env)
                && stderr.contains("\"maybe\"")
                && stderr.contains("1/0, true/false, yes/no or on/off"),
            "{env}=maybe is refused with what to write instead: {stderr}"
        );
    }
    // The number of trusted proxies means nothing unless their header is trusted.
    let stderr = serve_settings_with("BACKLAY_TRUSTED_PROXY_HOPS", "2");
    assert!(stderr.contains("needs --trust-forwarded-for"), "{stderr}");
    let stderr = serve_settings_with("BACKLAY_TRUSTED_PROXY_HOPS", "0");
    assert!(stderr.contains("trusted-proxy-hops"), "{stderr}");
}

#[test]
fn the_console_rotates_the_secret_key_and_reseals_every_secret() {
    let console = Console::new();
    console.ok(&["migrate"]);
    // The embedded default: the first command that needs the key makes it beside the database.
    let added = console.ok(&[
        "admin",
        "provider",
        "add",
        "--code",
        "evo",
        "--name",
        "Evolution",
        "--launch-url",
        "https://games.example.com/launch",
    ]);
    let secret = added.lines().nth(1).unwrap().split_whitespace().last().unwrap().to_string();
    let key_path = std::path::Path::new(&console.database_url.trim_start_matches("sqlite://"))
        .with_extension("key");
    let key_lines = |path: &std::path::Path| {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let first = key_lines(&key_path);
    assert_eq!(first.len(), 1, "one key: {first:?}");

    let rotated = console.ok(&["admin", "secret-key", "rotate"]);
    assert!(rotated.contains("added key") && rotated.contains("re-sealed 1 secrets"), "{rotated}");
    let both = key_lines(&key_path);
    assert_eq!(
        (both.len(), &both[1]),
        (2, &first[0]),
        "the new key first, the old one kept: {both:?}"
    );
    let again = console.ok(&["admin", "secret-key", "reencrypt"]);
    assert!(again.contains("re-sealed 0 secrets") && again.contains("can be removed"), "{again}");

    // Without the old key the provider's secret still opens: it was re-sealed with the new one.
    std::fs::write(&key_path, format!("{}\n", both[0])).unwrap();
    assert!(console.ok(&["admin", "provider", "list"]).contains("evo"));
    // With only the old key it does not, and the console says which key is needed.
    std::fs::write(&key_path, format!("{}\n", first[0])).unwrap();
    let refused = console.refused(&["admin", "provider", "list"]);
    assert!(refused.contains("does not open the secrets in this database"), "{refused}");
    std::fs::write(&key_path, format!("{}\n", both[0])).unwrap();

    // A key in the environment: `new` prints one, and rotate says how to rotate it by hand.
    let fresh = console.ok(&["admin", "secret-key", "new"]).trim().to_string();
    assert_eq!(fresh.len(), 44, "32 bytes in base64: {fresh}");
    let by_env = Command::new(env!("CARGO_BIN_EXE_backlay"))
        .args(["admin", "secret-key", "rotate"])
        .env("DATABASE_URL", &console.database_url)
        .env("BACKLAY_SECRET_KEY", &both[0])
        .env("BACKLAY_LOG", "error")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&by_env.stderr).contains("keep the old one after a comma"),
        "{}",
        String::from_utf8_lossy(&by_env.stderr)
    );
    assert!(!secret.is_empty());
}

#[test]
fn on_postgresql_the_server_and_the_console_ask_for_a_key_before_touching_the_database() {
    // Nothing listens there: the refusal comes before any connection.
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_backlay"))
            .args(args)
            .env("DATABASE_URL", "postgres://nobody@127.0.0.1:1/none")
            .env_remove("BACKLAY_SECRET_KEY")
            .env_remove("BACKLAY_SECRET_KEY_FILE")
            .env_remove("BACKLAY_CREATE_SECRET_KEY")
            .env("BACKLAY_LOG", "error")
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    for args in [&["serve", "--no-demo"][..], &["admin", "provider", "list"][..]] {
        let stderr = run(args);
        assert!(
            stderr.contains("PostgreSQL database needs a secret key")
                && stderr.contains("--create-secret-key"),
            "{args:?}: {stderr}"
        );
    }
    let stderr = run(&["admin", "--create-secret-key", "provider", "list"]);
    assert!(stderr.contains("needs --secret-key-file"), "{stderr}");
}

#[test]
fn help_never_prints_a_password_found_in_the_environment() {
    let help = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_backlay"))
            .args(args)
            .env("DATABASE_URL", "postgres://backlay:db-s3cret@127.0.0.1/backlay")
            .env("BACKLAY_ADMIN_PASSWORD", "admin-s3cret")
            .output()
            .expect("backlay runs");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    for args in [&["serve", "--help"][..], &["migrate", "--help"], &["admin", "market", "--help"]] {
        let text = help(args);
        assert!(text.contains("DATABASE_URL") || text.contains("BACKLAY_ADMIN_PASSWORD"), "{text}");
        assert!(!text.contains("s3cret"), "{args:?} printed a password:\n{text}");
    }
}

#[test]
fn an_operator_edits_casino_categories_and_uploads_a_logo_from_the_console() {
    let console = Console::new();
    console.ok(&["migrate"]);
    // The spec's categories come with the database, World Casino once.
    let list = console.ok(&["admin", "casino", "category", "list"]);
    for id in ["teenpatti", "cardgames", "tablegames", "worldcasino", "matka"] {
        assert!(list.contains(id), "{list}");
    }
    assert_eq!(list.matches("World Casino").count(), 1, "{list}");
    assert!(!list.contains("Live Casino"), "the computer-dealt tables are not live: {list}");

    console.ok(&[
        "admin",
        "casino",
        "category",
        "add",
        "--id",
        "crash",
        "--name",
        "Crash Games",
        "--order",
        "0",
    ]);
    console.ok(&["admin", "casino", "category", "rename", "matka", "--name", "Worli Matka"]);
    console.ok(&["admin", "casino", "category", "order", "cardgames", "--order", "-1"]);
    let list = console.ok(&["admin", "casino", "category", "list"]);
    let ids: Vec<&str> =
        list.lines().skip(1).filter_map(|line| line.split_whitespace().nth(1)).collect();
    assert_eq!(
        ids,
        vec!["cardgames", "crash", "teenpatti", "tablegames", "worldcasino", "matka"],
        "{list}"
    );
    assert!(list.contains("Worli Matka"));
    // One place down: crash and teenpatti swap, and the list is numbered 10, 20, 30….
    let moved = console.ok(&["admin", "casino", "category", "move", "crash", "--down"]);
    let ids: Vec<&str> = moved.lines().filter_map(|line| line.split_whitespace().nth(1)).collect();
    assert_eq!(
        ids,
        vec!["cardgames", "teenpatti", "crash", "tablegames", "worldcasino", "matka"],
        "{moved}"
    );
    assert!(moved.lines().next().unwrap().trim_start().starts_with("10 "), "{moved}");
    let refused = console.refused(&["admin", "casino", "category", "move", "matka", "--down"]);
    assert!(refused.contains("already last"), "{refused}");
    console.ok(&["admin", "casino", "category", "remove", "crash"]);
    assert!(!console.ok(&["admin", "casino", "category", "list"]).contains("crash"));

    // A table off and on again, by its client or its rules code.
    let off = console.ok(&["admin", "casino", "table", "dt6", "--off"]);
    assert!(off.contains("Dragon Tiger 1 Day (dt6) is off"), "{off}");
    let on = console.ok(&["admin", "casino", "table", "dt1day", "--on"]);
    assert!(on.contains("is on"), "{on}");
    let refused = console.refused(&["admin", "casino", "table", "nogame", "--on"]);
    assert!(refused.contains("no casino game nogame"), "{refused}");

    let refused = console.refused(&[
        "admin",
        "casino",
        "category",
        "add",
        "--id",
        "Live Casino",
        "--name",
        "x",
    ]);
    assert!(refused.contains("lower-case letters"), "{refused}");
    let refused = console
        .refused(&["admin", "casino", "category", "add", "--id", "matka", "--name", "Matka"]);
    assert!(refused.contains("already exists"), "{refused}");
    let refused =
        console.refused(&["admin", "casino", "category", "rename", "nope", "--name", "x"]);
    assert!(refused.contains("no casino category nope"), "{refused}");
    let refused =
        console.refused(&["admin", "casino", "category", "rename", "matka", "--name", " "]);
    assert!(refused.contains("required"), "{refused}");
    let refused = console.refused(&[
        "admin",
        "casino",
        "category",
        "rename",
        "cardgames",
        "--name",
        "Live Casino",
    ]);
    assert!(refused.contains("which the computer deals"), "{refused}");

    // A logo: stored under a safe name, listed, and refused when it is not an image.
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("Site Logo.PNG");
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend_from_slice(&[0u8; 64]);
    std::fs::write(&png, &bytes).unwrap();
    let stored = console.ok(&["admin", "image", "upload", png.to_str().unwrap()]);
    assert!(stored.contains("stored as site-logo.png"), "{stored}");
    let named = console.ok(&["admin", "image", "upload", png.to_str().unwrap(), "--name", "fav"]);
    assert!(named.contains("stored as fav.png"), "{named}");
    let list = console.ok(&["admin", "image", "list"]);
    assert!(
        list.contains("site-logo.png") && list.contains("image/png") && list.contains("72 bytes"),
        "{list}"
    );

    let svg = dir.path().join("logo.svg");
    std::fs::write(
        &svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>",
    )
    .unwrap();
    let refused = console.refused(&["admin", "image", "upload", svg.to_str().unwrap()]);
    assert!(refused.contains("PNG, JPEG, GIF, WebP or ICO"), "{refused}");
    let big = dir.path().join("big.png");
    let mut huge = b"\x89PNG\r\n\x1a\n".to_vec();
    huge.resize(600 * 1024, 0);
    std::fs::write(&big, &huge).unwrap();
    let refused = console.refused(&["admin", "image", "upload", big.to_str().unwrap()]);
    assert!(refused.contains("at most 512 KiB"), "{refused}");

    // A game's tile shows an uploaded image, then its own art again.
    let list = console.ok(&["admin", "casino", "image", "list"]);
    assert!(list.contains("dt6") && list.contains("/casino/art/dt1day.svg"), "{list}");
    let set = console.ok(&["admin", "casino", "image", "set", "dt6", "fav.png"]);
    assert!(set.contains("/upload/image/fav.png"), "{set}");
    assert!(console.ok(&["admin", "casino", "image", "list"]).contains("/upload/image/fav.png"));
    let reset = console.ok(&["admin", "casino", "image", "reset", "dt1day"]);
    assert!(reset.contains("/casino/art/dt1day.svg"), "{reset}");
    let refused = console.refused(&["admin", "casino", "image", "set", "dt6", "nothing.png"]);
    assert!(refused.contains("no uploaded image nothing.png"), "{refused}");
    let refused = console.refused(&["admin", "casino", "image", "set", "blackjack", "fav.png"]);
    assert!(refused.contains("no casino game blackjack"), "{refused}");

    console.ok(&["admin", "image", "remove", "fav.png"]);
    let refused = console.refused(&["admin", "image", "remove", "fav.png"]);
    assert!(refused.contains("no uploaded image fav.png"), "{refused}");
}

#[test]
fn a_recording_is_shown_as_it_stood_at_a_moment() {
    let console = Console::new();
    let win = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/feeds/flumine/1.197931750");
    // The 100th message of the recording, and the book as it stood then.
    let shown: serde_json::Value = serde_json::from_str(&console.ok(&[
        "feed",
        "show",
        win,
        "--until-pt",
        "1650392800000",
        "--levels",
        "2",
    ]))
    .unwrap();
    assert_eq!(shown["refused"], 0);
    assert!(shown["pt"].as_i64().unwrap() <= 1650392800000);
    let market = &shown["markets"][0];
    assert_eq!(
        (market["market_id"].as_str(), market["status"].as_str()),
        (Some("1.197931750"), Some("OPEN"))
    );
    let runners = market["runners"].as_array().unwrap();
    assert_eq!(runners.len(), 6);
    for runner in runners {
        let back = runner["back"].as_array().unwrap();
        assert!(back.len() <= 2);
        let prices: Vec<f64> = back.iter().map(|l| l["price"].as_f64().unwrap()).collect();
        assert!(prices.windows(2).all(|w| w[0] > w[1]), "best price first: {prices:?}");
    }
    // Played to the end, the market is settled as recorded.
    let end: serde_json::Value = serde_json::from_str(&console.ok(&["feed", "show", win])).unwrap();
    assert_eq!(end["markets"][0]["status"], "CLOSED");

    assert!(console
        .refused(&["feed", "show", "/no/such/recording"])
        .contains("/no/such/recording"));
    assert!(console
        .refused(&["feed", "show", win, "--levels", "0"])
        .contains("0 is not in 1..=350"));
}
