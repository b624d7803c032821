//! Backup and restore (`backlay_backup`, `backlay admin backup|restore`) while bets flow: every
//! bet acknowledged before the backup began is in the restored database once, none placed after
//! it ended is, the ledger is sound, and a server started on the restored database takes bets.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use backlay_kit::config::Config;
use backlay_kit::secret_key::SecretKeySource;
use serde_json::json;

use crate::both_databases;
use crate::common::TestApp;

/// A back of 1.00 at 2.50 on `runner`: its bet id once acknowledged.
async fn back(app: &TestApp, token: &str, market_id: i64, runner: i64) -> i64 {
    let bet = json!({ "market_id": market_id, "selection_id": runner, "side": "back", "price": 2.5, "stake": 1 });
    let answer = app.post("bet/placeBet", Some(token), bet).await;
    answer.expect(200);
    answer.data()["bet_id"].as_i64().unwrap()
}

async fn a_backup_taken_while_bets_flow_restores_every_bet_acknowledged_before_it(app: TestApp) {
    let admin = app.admin().await;
    let demo = app.demo().await;
    let matches = app.post("match/getMatches", Some(&demo), json!({ "sport_id": 4 })).await;
    let match_id = matches.data()[0]["match_id"].as_i64().unwrap();
    let (market_id, runners) = app
        .open_market(&admin, match_id, json!({ "type": "match_odds", "name": "Backup", "runners": ["Home", "Away"], "min_stake": 1, "bet_delay_s": 0 }))
        .await;
    // Shared with the task that keeps betting; taken back once it has ended.
    let app = Arc::new(app);
    let mut before: Vec<i64> = Vec::new();
    for _ in 0..10 {
        before.push(back(&app, &demo, market_id, runners[0]).await);
    }

    // Bets keep coming while the backup is taken: each with when it was acknowledged.
    let flowing = Arc::new(AtomicBool::new(true));
    let acknowledged: Arc<Mutex<Vec<(i64, Instant)>>> = Arc::default();
    let flow = {
        let (app, demo, flowing, acknowledged) =
            (Arc::clone(&app), demo.clone(), Arc::clone(&flowing), Arc::clone(&acknowledged));
        let runner = runners[1];
        tokio::spawn(async move {
            for _ in 0..500 {
                if !flowing.load(Ordering::Relaxed) {
                    break;
                }
                let bet_id = back(&app, &demo, market_id, runner).await;
                acknowledged.lock().unwrap().push((bet_id, Instant::now()));
            }
        })
    };
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("backlay.backup");
    let began = Instant::now();
    let manifest = backlay_backup::backup(app.database_url(), &file, backlay_kit::clock::now_ms())
        .await
        .expect("backed up while bets flow");
    let ended = Instant::now();
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    flowing.store(false, Ordering::Relaxed);
    flow.await.unwrap();
    let after: Vec<i64> = vec![back(&app, &demo, market_id, runners[0]).await];
    let flowed = acknowledged.lock().unwrap().clone();
    before.extend(flowed.iter().filter(|(_, at)| *at < began).map(|(id, _)| *id));
    let later: Vec<i64> =
        flowed.iter().filter(|(_, at)| *at > ended).map(|(id, _)| *id).chain(after).collect();
    assert!(!later.is_empty(), "bets were placed after the backup");
    assert!(manifest.figures.ledger_sound, "{manifest:?}");
    assert_eq!(manifest.sha256.len(), 64);

    // Restored into an empty database of the same engine.
    let (restored_url, _restored_dir) = fresh_database(&app).await;
    let restored = backlay_backup::restore(&file, &restored_url, false).await.expect("restored");
    assert!(restored.figures.ledger_sound);
    assert_eq!(restored.figures.bets, manifest.figures.bets);
    // Restoring again over it is refused without --force.
    let again = backlay_backup::restore(&file, &restored_url, false).await.unwrap_err();
    assert!(again.to_string().contains("already holds data"), "{again:#}");
    // A damaged backup is refused.
    std::fs::write(dir.path().join("damaged"), b"not a backup").unwrap();
    std::fs::copy(
        backlay_backup::manifest_path(&file),
        backlay_backup::manifest_path(&dir.path().join("damaged")),
    )
    .unwrap();
    let damaged = backlay_backup::restore(&dir.path().join("damaged"), &restored_url, true).await;
    assert!(damaged.unwrap_err().to_string().contains("SHA-256"));

    let store = backlay_store::Store::connect(&restored_url).await.unwrap();
    let bets = store.bets_of_market(market_id).await.unwrap();
    for id in &before {
        assert_eq!(bets.iter().filter(|b| b.bet_id == *id).count(), 1, "bet {id} restored once");
    }
    for id in &later {
        assert!(bets.iter().all(|b| b.bet_id != *id), "bet {id} came after the backup");
    }
    store.pool().close().await;

    // A server on the restored database, with the same secret key, takes bets.
    let key = app.secret_key_path();
    let mut app = Arc::try_unwrap(app).ok().expect("the flow has ended");
    app.restart_with(|config: &mut Config| {
        config.database_url = restored_url.clone();
        config.secret_key = SecretKeySource::File { path: key, create: false };
    })
    .await;
    let demo = app.demo().await;
    back(&app, &demo, market_id, runners[0]).await;
    let admin = app.admin().await;
    app.assert_ledger_sound(&admin).await;
}
both_databases!(a_backup_taken_while_bets_flow_restores_every_bet_acknowledged_before_it);

/// An empty database of the app's engine: a new SQLite file, or a fresh PostgreSQL database.
async fn fresh_database(app: &TestApp) -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    if app.database_url().starts_with("sqlite") {
        (format!("sqlite://{}", dir.path().join("restored.db").display()), dir)
    } else {
        let (url, _) = crate::common::fresh_postgres().await.expect("PostgreSQL is up");
        (url, dir)
    }
}

fn backups_every_second(config: &mut Config) {
    let dir = std::env::temp_dir().join(format!("backlay-backups-{}", rand::random::<u64>()));
    config.backups = Some(backlay_kit::config::BackupSchedule {
        dir,
        every: std::time::Duration::from_secs(1),
        keep: 1,
    });
}

/// `--backup-every` / `--backup-keep`: the server takes a backup every period with its
/// manifest, and keeps the newest (here one).
async fn the_server_takes_backups_on_its_schedule_and_keeps_the_newest(app: TestApp) {
    let dir = app.config().backups.as_ref().unwrap().dir.clone();
    let started = Instant::now();
    let backups = |dir: &std::path::Path| -> Vec<std::path::PathBuf> {
        let mut found: Vec<_> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "backup"))
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        found
    };
    // A second backup taken: the first is pruned, as only one is kept.
    let mut first = None;
    loop {
        let taken = backups(&dir);
        if let Some(newest) = taken.last() {
            match &first {
                None => first = Some(newest.clone()),
                // Pruned just after the new one is written; its manifest goes next (the
                // pruning may be between the two when the listing is read).
                Some(first) if newest != first && taken.len() == 1 => {
                    let manifest = backlay_backup::manifest_path(first);
                    while manifest.exists() {
                        assert!(
                            started.elapsed() < std::time::Duration::from_secs(20),
                            "the pruned backup's manifest is kept"
                        );
                        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                    }
                    break;
                }
                Some(_) => {}
            }
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "no second backup, or the first kept: {taken:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    for backup in backups(&dir) {
        let manifest = backlay_backup::manifest_path(&backup);
        let manifest: backlay_backup::Manifest =
            serde_json::from_slice(&std::fs::read(manifest).unwrap()).unwrap();
        assert!(manifest.figures.ledger_sound && manifest.figures.users > 0, "{manifest:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
both_databases!(
    the_server_takes_backups_on_its_schedule_and_keeps_the_newest,
    super::backups_every_second
);
