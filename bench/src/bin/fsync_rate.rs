//! fsync_rate: how many 4 KiB write + fsync rounds per second the disk takes, in a directory
//! on the same filesystem as the database. Without group commit, durable commits per second
//! cannot exceed this, so it is printed beside the placeBet figures.
//!
//! Measures both `fsync` (`File::sync_all`) and `fdatasync` (`File::sync_data`, what
//! PostgreSQL's default `wal_sync_method` and SQLite on Linux use) over `--rounds` rounds each,
//! appending to one file, stopping early after `--max-s` seconds. The file is removed after.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{ensure, Context};
use backlay_bench::per_second;
use clap::Parser;

const MAX_ROUNDS: u32 = 100_000;

#[derive(Parser)]
#[command(about = "Measure write + fsync rounds per second in a directory")]
struct Args {
    /// Where to write the scratch file (the database's filesystem).
    #[arg(long, default_value = ".")]
    dir: PathBuf,
    /// Rounds per method.
    #[arg(long, default_value_t = 1_000)]
    rounds: u32,
    /// Stop a method after this many seconds even if rounds remain.
    #[arg(long, default_value_t = 10)]
    max_s: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    ensure!((1..=MAX_ROUNDS).contains(&args.rounds), "--rounds must be 1 to {MAX_ROUNDS}");
    let path = args.dir.join(format!(".backlay-fsync-rate-{}", std::process::id()));
    let result = measure_both(&path, &args);
    let _ = std::fs::remove_file(&path);
    let ((fsync_rounds, fsync_s), (fdatasync_rounds, fdatasync_s)) = result?;
    println!(
        "- **fsync rate: {} fsyncs/s** (4 KiB append + fsync, {fsync_rounds} rounds), {} fdatasyncs/s ({fdatasync_rounds} rounds), in {}",
        per_second(f64::from(fsync_rounds) / fsync_s),
        per_second(f64::from(fdatasync_rounds) / fdatasync_s),
        args.dir.display()
    );
    Ok(())
}

type Rate = (u32, f64);

fn measure_both(path: &PathBuf, args: &Args) -> anyhow::Result<(Rate, Rate)> {
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    let fsync = measure(&mut file, args, File::sync_all)?;
    let fdatasync = measure(&mut file, args, File::sync_data)?;
    Ok((fsync, fdatasync))
}

fn measure(
    file: &mut File,
    args: &Args,
    sync: fn(&File) -> std::io::Result<()>,
) -> anyhow::Result<Rate> {
    let block = [0x5A_u8; 4096];
    let limit = Duration::from_secs(args.max_s);
    let started = Instant::now();
    let mut rounds = 0;
    while rounds < args.rounds && started.elapsed() < limit {
        file.write_all(&block)?;
        sync(file)?;
        rounds += 1;
    }
    Ok((rounds, started.elapsed().as_secs_f64()))
}
