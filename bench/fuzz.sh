#!/usr/bin/env bash
# The long fuzzing run: tests/fuzz/run.sh (what `make test` runs with 25 examples) with a budget
# of tens of thousands of cases, on SQLite and on PostgreSQL, and a dated section appended to
# bench/RESULTS.md with what ran and what it found.
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
POSTGRES_URL=${BACKLAY_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
RESULTS=bench/RESULTS.md

WORK=$(mktemp -d -t backlay-bench-fuzz.XXXXXX)
SECTION=$WORK/section.md
PG_DB=""
cleanup() {
  if [[ -n $PG_DB ]]; then
    psql "$POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

log() { echo "bench/fuzz.sh: $*" >&2; }
out() { echo "$@" >>"$SECTION"; }

log "building (release) and the fuzzer's virtualenv"
make --no-print-directory release target/fuzz-venv/.installed >&2

# fuzz LABEL [DATABASE_URL]: one tests/fuzz/run.sh, its figures into the section.
fuzz() {
  local label=$1 started=$SECONDS status=0 cases
  log "$label: $FUZZ_MAX_EXAMPLES examples per operation and phase, seed $FUZZ_SEED"
  FUZZ_DATABASE_URL=${2:-} FUZZ_REPORT_DIR=$WORK/report-$label tests/fuzz/run.sh 2>&1 | tee "$WORK/fuzz-$label.txt" >&2 || status=$?
  local took=$((SECONDS - started)) txt=$WORK/fuzz-$label.txt
  out "- **$label**: $(grep -o '[0-9]* cases in all' "$txt" || echo 'no count'), in $took s ($(grep -o 'as client: [0-9]* cases' "$txt" | grep -o '[0-9]*' || echo ?) as the client, $(grep -o 'as admin: [0-9]* cases' "$txt" | grep -o '[0-9]*' || echo ?) as the admin)"
  if ((status == 0)); then
    out "  - found nothing: no 5xx, every answer as the document says, no ERROR in the server's log"
  else
    out "  - **failed** (exit status $status):"
    out
    out '```text'
    grep -E '^(- |\[[0-9]{3}\]|_{5,} )|ERROR|FAILED' "$txt" | head -40 >>"$SECTION" || true
    out '```'
  fi
  # What schemathesis warned of (the client's run, then the admin's): operations it could not
  # get past validation, a 404 or the wallet's signature with the cases it generated.
  grep -E '^  ⚠️ ' "$txt" | sed 's/^  ⚠️ /  - warning: /' >>"$SECTION" || true
}

{
  echo
  echo "## $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown): fuzzing"
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo) RAM; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "schemathesis $(target/fuzz-venv/bin/schemathesis --version | grep -o '[0-9.]*$') against /api/openapi.json of the release binary with the demo data, as \`demo\` then as \`admin\`; $FUZZ_MAX_EXAMPLES examples per operation and phase, seed $FUZZ_SEED, $FUZZ_WORKERS workers; checks: not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance (tests/fuzz/run.sh says what is left out and why)."
  echo
} >"$SECTION"

STARTED=$SECONDS
fuzz SQLite
if psql "$POSTGRES_URL" -q -c 'SELECT 1' >/dev/null 2>&1; then
  PG_DB=backlay_fuzz_$$_$(date +%s)
  psql "$POSTGRES_URL" -q -c "CREATE DATABASE $PG_DB" >/dev/null
  fuzz PostgreSQL "${POSTGRES_URL%/*}/$PG_DB"
  psql "$POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null
  PG_DB=""
else
  out "- PostgreSQL: skipped ($POSTGRES_URL unreachable)"
fi
out
out "Load average at end: $(cut -d' ' -f1-3 /proc/loadavg); bench/fuzz.sh took $((SECONDS - STARTED)) s."

if [[ ! -f $RESULTS ]]; then
  printf '# Benchmark results\n\nWritten by `bench/run.sh` and `bench/fuzz.sh`, one dated section per run, newest last. What each figure means: `bench/README.md`.\n' >"$RESULTS"
fi
cat "$SECTION" >>"$RESULTS"
log "done: appended to $RESULTS"
cat "$SECTION"
grep -q '\*\*failed\*\*' "$SECTION" && exit 1 || true
