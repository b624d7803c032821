//! The `backlay` binary as an operator uses it: migrate, then `backlay admin …` on a fresh
//! SQLite file, checking what each command prints and that refusals exit non-zero with a reason.

use std::process::{Command, Output};

struct Console {
    database_url: String,
    _dir: tempfile::TempDir,
}

impl Console {
    fn new() -> Console {
        let dir = tempfile::tempdir().unwrap();
        let database_url = format!("sqlite://{}", dir.path().join("nested/folder/cli.db").display());
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
        assert!(!out.status.success(), "{args:?} should have failed: {}", String::from_utf8_lossy(&out.stdout));
        String::from_utf8(out.stderr).unwrap()
    }
}

#[test]
fn an_operator_sets_up_users_and_chips_from_the_console() {
    let console = Console::new();
    assert!(console.ok(&["migrate"]).contains("up to date"));
    assert!(console.ok(&["admin", "create-user", "--name", "boss", "--password", "Boss@1234", "--role", "admin"]).contains("created admin boss"));
    console.ok(&["admin", "create-user", "--name", "ag1", "--password", "Agent@123", "--role", "agent", "--parent", "boss"]);
    console.ok(&["admin", "create-user", "--name", "cl1", "--password", "Client@123", "--role", "client", "--parent", "ag1", "--must-change-password"]);
    assert!(console.ok(&["admin", "mint", "--to", "boss", "--amount", "10000"]).contains("balance 10000.00"));
    console.ok(&["admin", "transfer", "--user", "ag1", "--amount", "2500.50", "--direction", "deposit"]);
    let out = console.ok(&["admin", "transfer", "--user", "cl1", "--amount", "500", "--direction", "deposit", "--remark", "welcome"]);
    assert!(out.contains("cl1 now has 500.00, their parent 2000.50"), "{out}");
    let refused = console.refused(&["admin", "transfer", "--user", "cl1", "--amount", "600", "--direction", "withdraw"]);
    assert!(refused.contains("cl1 has only 500.00 available"), "{refused}");
    let listing = console.ok(&["admin", "list-users", "--parent", "ag1"]);
    assert!(listing.contains("cl1") && listing.contains("500.00") && listing.contains("1 user(s)"), "{listing}");
    console.ok(&["admin", "lock", "--user", "cl1"]);
    assert!(console.ok(&["admin", "list-users"]).lines().any(|l| l.contains("cl1") && l.ends_with("yes")));
    console.ok(&["admin", "unlock", "--user", "cl1"]);
    assert!(console.ok(&["admin", "ledger-check"]).contains("ledger is sound"));
}

#[test]
fn the_console_refuses_bad_input_with_a_reason() {
    let console = Console::new();
    console.ok(&["admin", "create-user", "--name", "boss", "--password", "Boss@1234", "--role", "admin"]);
    assert!(console.refused(&["admin", "create-user", "--name", "BOSS", "--password", "Boss@1234", "--role", "admin"]).contains("already taken"));
    assert!(console.refused(&["admin", "create-user", "--name", "x", "--password", "weak", "--role", "agent"]).contains("user_name"));
    assert!(console.refused(&["admin", "create-user", "--name", "abc", "--password", "Abc@1234", "--role", "king"]).contains("not a role"));
    assert!(console.refused(&["admin", "mint", "--to", "boss", "--amount", "1.234"]).contains("2 decimal"));
    assert!(console.refused(&["admin", "transfer", "--user", "ghost", "--amount", "1", "--direction", "deposit"]).contains("no user named"));
    assert!(console.refused(&["admin", "set-setting", "payment_gateway", "7"]).contains("0 or 1"));
    assert!(console.refused(&["admin", "create-match", "--series", "1", "--name", "A v B", "--start", "tomorrow"]).contains("ISO-8601"));
    let bad_url = Command::new(env!("CARGO_BIN_EXE_backlay")).args(["migrate", "--database-url", "mysql://x"]).output().unwrap();
    assert!(!bad_url.status.success());
    assert!(String::from_utf8_lossy(&bad_url.stderr).contains("unsupported database URL"));
}
