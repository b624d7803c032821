#!/usr/bin/env bash
# The long fuzzing run: tests/fuzz/run.sh (what `make test` runs with 25 examples) with a budget
# of tens of thousands of cases per database, and a dated section appended to bench/RESULTS.md
# with what ran and what it found.
#
#   bench/fuzz.sh
#
# Knobs (environment): FUZZ_MAX_EXAMPLES (400 per operation and phase), FUZZ_SEED (a new one
# each run, printed in the section so that a finding can be replayed), FUZZ_WORKERS (2),
# BACKLAY_BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test: a server where this user
# may create databases; skipped with a note when unreachable).
set -euo pipefail

cd "$(dirname "$0")/.."
export FUZZ_MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-400}
export FUZZ_SEED=${FUZZ_SEED:-$(date +%s)}
export FUZZ_WORKERS=${FUZZ_WORKERS:-2}
export BACKLAY_TEST_POSTGRES_URL=${BACKLAY_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
RESULTS=bench/RESULTS.md

WORK=$(mktemp -d -t backlay-bench-fuzz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
SECTION=$WORK/section.md
OUTPUT=$WORK/fuzz.txt

log() { echo "bench/fuzz.sh: $*" >&2; }
out() { echo "$@" >>"$SECTION"; }

log "building (release) and the fuzzer's virtualenv"
make --no-print-directory release target/fuzz-venv/.installed >&2

{
  echo
  echo "## $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown): fuzzing"
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "schemathesis $(target/fuzz-venv/bin/schemathesis --version | grep -o '[0-9.]*$') against /api/openapi.json of the release binary with the demo data, as \`demo\` then as \`admin\`; $FUZZ_MAX_EXAMPLES examples per operation and phase, seed $FUZZ_SEED, $FUZZ_WORKERS workers; checks: not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance, and no ERROR in the server's log (tests/fuzz/run.sh says what is left out and why)."
  echo
} >"$SECTION"

STARTED=$SECONDS
status=0
tests/fuzz/run.sh 2>&1 | tee "$OUTPUT" >&2 || status=$?
for database in SQLite PostgreSQL; do
  if grep -q "^fuzz: $database: fuzzed" "$OUTPUT"; then
    client=$(grep -o "^fuzz: $database as client: [0-9]* cases" "$OUTPUT" | grep -o '[0-9]* cases' || echo '? cases')
    admin=$(grep -o "^fuzz: $database as admin: [0-9]* cases" "$OUTPUT" | grep -o '[0-9]* cases' || echo '? cases')
    out "- **$database**: $client as the client, $admin as the admin, $(grep -o "^fuzz: $database: fuzzed in [0-9]* s" "$OUTPUT" | grep -o 'in [0-9]* s')"
  else
    out "- $database: $(grep -m1 "$database" "$OUTPUT" | sed 's/^fuzz: //' || echo 'not run')"
  fi
done
out "- **$(grep -o '[0-9]* cases in all' "$OUTPUT" || echo 'no count')**"
if ((status == 0)); then
  out "- found nothing: no 5xx, every answer as the document says, no ERROR in the server's log"
else
  out "- **failed** (exit status $status): each failing operation, its check and the answer's status; the server's ERROR lines"
  out
  out '```text'
  grep -E '^(- [A-Z]{2}[0-9]{3} |\[[0-9]{3}\]|_{5,} )| ERROR |^fuzz: (FAILED|.*ERROR)' "$OUTPUT" | cut -c1-240 | head -60 >>"$SECTION" || true
  out '```'
fi
# What schemathesis warned of: operations it could not get past validation, a 404 or the
# wallet's signature with the cases it generated (one line per run, in the order of the runs).
grep -E '^  ⚠️ ' "$OUTPUT" | sed 's/^  ⚠️ /- warning: /' >>"$SECTION" || true
out
out "Load average at end: $(cut -d' ' -f1-3 /proc/loadavg); bench/fuzz.sh took $((SECONDS - STARTED)) s."

if [[ ! -f $RESULTS ]]; then
  printf '# Benchmark results\n\nWritten by `bench/run.sh` and `bench/fuzz.sh`, one dated section per run, newest last. What each figure means: `bench/README.md`.\n' >"$RESULTS"
fi
cat "$SECTION" >>"$RESULTS"
log "done: appended to $RESULTS"
cat "$SECTION"
exit "$status"
