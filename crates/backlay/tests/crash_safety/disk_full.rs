//! Disk full: bettors place and cancel bets on a server whose SQLite file lives on a small
//! tmpfs, while the test fills that filesystem until its writes fail ("database or disk is
//! full"), keeps betting a while, then gives the room back (issue 27).
//!
//! While the disk is full a bet must be answered 503 with a Retry-After (never a 500, never a
//! 200 for a bet not committed), and at least one is: that is how the test knows the fault
//! happened. Once there is room again betting resumes without a restart; then the bets not known
//! to be placed are sent again, the server is killed and started again on the same file, every
//! market must take a bet, and the end checks (`checks`) run.
//!
//! The test mounts the tmpfs itself (`mount -t tmpfs`), which needs root or CAP_SYS_ADMIN:
//! where that is refused it is skipped with a note, except under `CI=true`, where that fails.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use backlay_store::Store;
use rand::SeedableRng;
use tokio::time::Instant;

use crate::checks::{end_checks, markets_take_bets};
use crate::harness::{
    create_markets, log_errors, login, match_of, reader, send_again, spawn_bettors, told_of_within,
    Round, Server, Tally, USERS,
};

/// The tmpfs's size: the demo database and its WAL take about 5 MiB.
const TMPFS_MIB: usize = 32;
/// Bets acknowledged before the disk fills.
const ACKS_BEFORE_FULL: usize = 30;
const ACKS_BEFORE_FULL_WAIT: Duration = Duration::from_secs(20);
/// Once the disk is full the bettors are told of no more bets for this long: the writes fail.
const STALLED: Duration = Duration::from_secs(1);
/// How long the test waits for the writes to fail once the disk is full.
const STALL_WAIT: Duration = Duration::from_secs(20);
/// How long betting goes on, failing, before the room is given back.
const FULL_FOR: Duration = Duration::from_secs(2);
/// Bets acknowledged after the room is back that show betting resumed, and how long they may take.
const ACKS_AFTER_ROOM: usize = 10;
const RESUME_WAIT: Duration = Duration::from_secs(30);

/// A tmpfs mounted on a folder, unmounted when dropped (after the server using it is stopped).
struct Tmpfs {
    dir: PathBuf,
}

impl Tmpfs {
    /// Mounts a tmpfs of `size_mib` on `dir`, or says why not.
    fn mount(dir: &Path, size_mib: usize) -> Result<Tmpfs, String> {
        std::fs::create_dir_all(dir).unwrap();
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size_mib}m"), "tmpfs"])
            .arg(dir)
            .output()
            .map_err(|err| format!("mount(8) did not run: {err}"))?;
        if !output.status.success() {
            return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
        }
        Ok(Tmpfs { dir: dir.to_path_buf() })
    }

    /// Writes a file until the filesystem is full (ENOSPC); answers its path.
    fn fill(&self) -> PathBuf {
        let path = self.dir.join("filler");
        let mut file = std::fs::File::create(&path).unwrap();
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..=TMPFS_MIB {
            match file.write_all(&chunk) {
                Ok(()) => {}
                Err(err) if err.raw_os_error() == Some(28) => return path,
                Err(err) => panic!("filling {}: {err}", path.display()),
            }
        }
        panic!("{} MiB written and the {TMPFS_MIB} MiB tmpfs is not full", TMPFS_MIB + 1);
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let unmounted = Command::new("umount").arg(&self.dir).status().is_ok_and(|s| s.success());
        if !unmounted {
            // Still busy (a server not yet reaped): detach it now, freed when the last file closes.
            let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
        }
    }
}

async fn bet_while_the_disk_fills() {
    let dir = tempfile::tempdir().unwrap();
    let tmpfs = match Tmpfs::mount(&dir.path().join("db"), TMPFS_MIB) {
        Ok(tmpfs) => tmpfs,
        Err(why) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("the disk-full test mounts a tmpfs, and under CI=true it must: {why}")
        }
        Err(why) => {
            eprintln!("note: skipping the disk-full test: mounting a tmpfs was refused ({why})");
            return;
        }
    };
    // The log and the secret key stay off the tmpfs: only the database fills up.
    let log = dir.path().join("server.log");
    let database_url = format!("sqlite://{}", tmpfs.dir.join("faults.db").display());
    let run_started = Instant::now();
    let mut server = Server::start_with(&database_url, &log, true, &[]).await;
    let admin = login(&server.base, "admin", "Admin@1234").await;
    let markets = create_markets(&server.base, &admin).await;
    let mut tokens = HashMap::new();
    for (user, password) in USERS {
        tokens.insert(user, login(&server.base, user, password).await);
    }

    let match_id = {
        let store = Store::connect(&database_url).await.unwrap();
        let match_id = match_of(&store, markets.exchange).await;
        store.close().await;
        match_id
    };

    let mut rng = rand::rngs::StdRng::seed_from_u64(0xF111);
    let mut tally = Tally::default();
    let Round { bettors, mut acked, stop } =
        spawn_bettors(|_| server.base.clone(), &tokens, markets, &mut rng, |i| 3000 + i as u32);
    let reader = tokio::spawn(reader(
        server.base.clone(),
        tokens["demo"].clone(),
        match_id,
        stop.subscribe(),
    ));
    let started = told_of_within(&mut acked, ACKS_BEFORE_FULL, ACKS_BEFORE_FULL_WAIT).await;
    if !started {
        tally.problem(format!(
            "the bettors were told of {} bets in {ACKS_BEFORE_FULL_WAIT:?}, not {ACKS_BEFORE_FULL}",
            *acked.borrow()
        ));
    }

    let filler = tmpfs.fill();
    let filled_at = Instant::now();
    // The writes fail once SQLite needs a page it cannot have: wait (bounded) until the bettors
    // are told of no bet for a while, then let them go on failing a little longer.
    let mut last = *acked.borrow();
    let mut last_change = Instant::now();
    while last_change.elapsed() < STALLED && filled_at.elapsed() < STALL_WAIT {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = *acked.borrow();
        if now != last {
            (last, last_change) = (now, Instant::now());
        }
    }
    tokio::time::sleep(FULL_FOR).await;
    std::fs::remove_file(&filler).unwrap();
    let full_for = filled_at.elapsed();

    let after_room = *acked.borrow();
    let resumed = told_of_within(&mut acked, after_room + ACKS_AFTER_ROOM, RESUME_WAIT).await;
    let _ = stop.send(true);
    for bettor in bettors {
        tally.add(bettor.await.expect("a bettor finished"));
    }
    tally.add(reader.await.expect("the reader finished"));
    if !resumed {
        tally.problem(format!(
            "betting did not resume in {RESUME_WAIT:?} after the disk had room again"
        ));
    }
    if tally.unavailable == 0 {
        tally.problem(format!(
            "no bet was answered 503 in the {full_for:?} the disk was full ({} 500s): the fault did \
             not happen, or was not answered as one",
            tally.server_errors.len()
        ));
    }

    send_again(&server.base, &tokens, &mut tally).await;
    server.kill9();
    server = Server::start_with(&database_url, &log, false, &[]).await;
    markets_take_bets(&[server.base.as_str()], &tokens["demo"], markets, "end", &mut tally).await;

    let store = Store::connect(&database_url).await.unwrap();
    let verdict = end_checks(&store, &server.base, &admin, &tokens, markets, &tally).await;
    eprintln!(
        "faults on sqlite (disk full): the disk full for {:.1} s; {} bets checked, {} not known to be placed \
         sent again ({} answers lost, {} 503s), {} refused; exposure mismatches: {}; crossed books: {}; \
         500s: {}; problems: {}; {:.1} s",
        full_for.as_secs_f64(),
        tally.acknowledged.len(),
        tally.sent_again,
        tally.lost,
        tally.unavailable,
        tally.refused,
        verdict.exposure_mismatches,
        verdict.crossed_books,
        tally.server_errors.len(),
        verdict.problems.len(),
        run_started.elapsed().as_secs_f64()
    );
    if !verdict.problems.is_empty() {
        let errors = log_errors(&log, 20);
        eprintln!("the server's log, its first ERROR lines:\n{}", errors.join("\n"));
    }
    store.close().await;
    drop(server);
    verdict.assert_sound("the disk filled");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_acknowledged_bet_survives_a_full_disk_on_sqlite() {
    bet_while_the_disk_fills().await;
}
