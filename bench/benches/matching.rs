//! The matching core on one core, with criterion: one iteration is one operation of the
//! steady 40/40/20 place (rests) / cancel / place (crosses) mix on a book of ~1,000 orders
//! (see `backlay_bench::matching`). Throughput is in operations per second; criterion's time
//! per iteration is the mean time of one operation, driver bookkeeping included.
//!
//! Run: `cargo bench -p backlay-bench --bench matching` (pin it with `taskset -c 1` for steadier
//! figures). Per-operation percentiles come from `matching_latency`, which times each call.

use std::hint::black_box;
use std::time::Duration;

use backlay_bench::matching::MatchingWorkload;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn matching(c: &mut Criterion) {
    let mut group = c.benchmark_group("matching");
    group.throughput(Throughput::Elements(1));
    let mut workload = MatchingWorkload::new(0xBAC1A7);
    group.bench_function("mix_40_40_20_book_1000", |b| b.iter(|| black_box(workload.step())));
    group.finish();
    let counts = workload.counts();
    println!(
        "matching: ran {} operations ({} rests, {} cancels, {} crossings, {} fills); book now {} orders",
        counts.total(),
        counts.by_op[0],
        counts.by_op[1],
        counts.by_op[2],
        counts.fills,
        workload.book_len()
    );
}

criterion_group! {
    name = benches;
    // Short by default so that bench/run.sh stays within a few minutes on 2 cores; the
    // command line (--measurement-time, --sample-size) overrides these.
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4)).sample_size(50);
    targets = matching
}
criterion_main!(benches);
