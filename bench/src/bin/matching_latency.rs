//! matching_latency: the matching core's throughput and per-operation latency percentiles.
//!
//! Runs the steady place / cancel / crossing mix of `backlay_bench::matching` three times
//! after a warm-up: untimed, for operations per second (driver bookkeeping included, so the
//! figure is conservative); then with a clock read around each book call, recording each
//! call's nanoseconds into a histogram per kind of operation. The cost of reading the clock
//! twice is measured and printed, not subtracted: percentiles include it.
//!
//! Prints Markdown lines, which `bench/run.sh` copies into `bench/RESULTS.md`.

use std::hint::black_box;
use std::time::Instant;

use anyhow::ensure;
use backlay_bench::matching::{MatchingWorkload, Op, RESTING_TARGET};
use backlay_bench::per_second;
use clap::Parser;
use hdrhistogram::Histogram;

/// Longest run accepted: enough for steady figures, bounded so a typo cannot run for hours.
const MAX_OPS: u64 = 100_000_000;

#[derive(Parser)]
#[command(about = "Matching core: operations per second and per-operation latency p50/p99/p99.9")]
struct Args {
    /// Operations in each of the throughput and the latency runs.
    #[arg(long, default_value_t = 5_000_000)]
    ops: u64,
    /// Warm-up operations before measuring.
    #[arg(long, default_value_t = 500_000)]
    warmup_ops: u64,
    /// Seed of the workload.
    #[arg(long, default_value_t = 0xBAC1A7)]
    seed: u64,
    /// The throughput to meet (issue 3: at least 1,000,000; aim for 5,000,000).
    #[arg(long, default_value_t = 1_000_000)]
    target_ops_per_s: u64,
    /// The p99 latency of all operations to meet, in nanoseconds (issue 3: 5 µs).
    #[arg(long, default_value_t = 5_000)]
    target_p99_ns: u64,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    ensure!((1..=MAX_OPS).contains(&args.ops), "--ops must be 1 to {MAX_OPS}");
    ensure!(args.warmup_ops <= MAX_OPS, "--warmup-ops must be at most {MAX_OPS}");

    let mut workload = MatchingWorkload::new(args.seed);
    for _ in 0..args.warmup_ops {
        black_box(workload.step());
    }

    // Throughput: nothing but the operations.
    let before = workload.counts();
    let started = Instant::now();
    for _ in 0..args.ops {
        black_box(workload.step());
    }
    let elapsed_s = started.elapsed().as_secs_f64();
    let after = workload.counts();
    let ops_per_s = args.ops as f64 / elapsed_s;

    // Latency: each book call timed on its own.
    let mut histograms: Vec<Histogram<u64>> = (0..=Op::ALL.len())
        .map(|_| Histogram::new_with_bounds(1, 1_000_000_000, 3).expect("valid bounds"))
        .collect();
    let (mut min_len, mut max_len) = (usize::MAX, 0);
    for _ in 0..args.ops {
        let (op, action) = workload.next_action();
        let start = Instant::now();
        let result = workload.apply(&action);
        let nanos = start.elapsed().as_nanos() as u64;
        workload.record(&action, black_box(result));
        histograms[op.index()].saturating_record(nanos.max(1));
        histograms[Op::ALL.len()].saturating_record(nanos.max(1));
        let len = workload.book_len();
        min_len = min_len.min(len);
        max_len = max_len.max(len);
    }
    let timer_overhead_ns = clock_overhead_ns();

    let mix = |op: Op| after.by_op[op.index()] - before.by_op[op.index()];
    let total = (after.total() - before.total()) as f64;
    println!("- workload: {} operations on one runner's book of ~{RESTING_TARGET} resting orders (seed {:#x})", args.ops, args.seed);
    println!(
        "- mix: {:.1}% place (rests) / {:.1}% cancel / {:.1}% place (crosses); {:.2} fills per crossing place; book held between {min_len} and {max_len} orders",
        100.0 * mix(Op::PlaceResting) as f64 / total,
        100.0 * mix(Op::Cancel) as f64 / total,
        100.0 * mix(Op::PlaceCrossing) as f64 / total,
        (after.fills - before.fills) as f64 / mix(Op::PlaceCrossing).max(1) as f64,
    );
    println!(
        "- **throughput: {} operations/s** ({:.1} ns per operation on average, driver included)",
        per_second(ops_per_s),
        1e9 / ops_per_s
    );
    println!("- per-operation latency (book call only; includes ~{timer_overhead_ns} ns of clock reads):");
    println!();
    println!("| operation | count | p50 | p99 | p99.9 | max |");
    println!("|---|---:|---:|---:|---:|---:|");
    let row = |name: &str, histogram: &Histogram<u64>| {
        println!(
            "| {name} | {} | {} | {} | {} | {} |",
            histogram.len(),
            nanos(histogram.value_at_quantile(0.50)),
            nanos(histogram.value_at_quantile(0.99)),
            nanos(histogram.value_at_quantile(0.999)),
            nanos(histogram.max()),
        );
    };
    for op in Op::ALL {
        row(op.name(), &histograms[op.index()]);
    }
    row("**all**", &histograms[Op::ALL.len()]);
    println!();
    let p99_ns = histograms[Op::ALL.len()].value_at_quantile(0.99);
    let met = ops_per_s >= args.target_ops_per_s as f64 && p99_ns <= args.target_p99_ns;
    println!(
        "- target: ≥ {} operations/s with p99 ≤ {}: **{}**",
        per_second(args.target_ops_per_s as f64),
        nanos(args.target_p99_ns),
        if met { "met" } else { "missed" }
    );
    Ok(())
}

/// `1234` → `1.23 µs`, `456` → `456 ns`.
fn nanos(value: u64) -> String {
    if value >= 1_000 {
        format!("{:.2} µs", value as f64 / 1_000.0)
    } else {
        format!("{value} ns")
    }
}

/// The median cost of the two clock reads that bracket each timed call.
fn clock_overhead_ns() -> u64 {
    let mut histogram =
        Histogram::<u64>::new_with_bounds(1, 1_000_000_000, 3).expect("valid bounds");
    for _ in 0..200_000 {
        let start = Instant::now();
        let nanos = black_box(start).elapsed().as_nanos() as u64;
        histogram.saturating_record(nanos.max(1));
    }
    histogram.value_at_quantile(0.5)
}
