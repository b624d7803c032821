#!/usr/bin/env bash
# Fuzzes the API from its own OpenAPI document with schemathesis, as a client and as an admin,
# on SQLite and on PostgreSQL.
#
#   tests/fuzz/run.sh            # what `make test-fuzz` runs (after `cargo build -p backlay`)
#
# For each database, starts the server with the demo data on a fresh database (a
# SQLite file; a PostgreSQL database created in BACKLAY_TEST_POSTGRES_URL's server and dropped
# after) and a free loopback port, logs in as `demo` (a client) and `admin`, and runs
# schemathesis against /api/openapi.json with each token: every operation gets
# FUZZ_MAX_EXAMPLES generated cases per phase (coverage, fuzzing, stateful; examples when the
# document has some), from the fixed FUZZ_SEED, valid and invalid alike. It fails on:
#   - any 5xx (not_a_server_error);
#   - any status the document does not list for that operation (status_code_conformance);
#   - any body or content type that does not match the document (response_schema_conformance,
#     content_type_conformance);
#   - any ERROR line in the server's log, even under a 4xx answer.
# The operations a client is refused whatever it sends (CLIENT_REFUSED_PATHS: the admin's, the
# console's and the provider-signed wallet's, 67 of the 114) refuse before they read the body:
# schemathesis reports that every case of theirs got 401 or 403. So the client sends them only
# FUZZ_REFUSED_EXAMPLES generated bodies each (the fuzzing phase alone: the coverage phase's
# boundary values test the body, which is never read), on SQLite only (the role check reads the
# session as on any database); with every phase at 25 they took 4,900 of the client's 7,500
# cases on SQLite and reached nothing more. The admin sends them the whole budget on both.
# Only two operations are left out everywhere, because they cannot be fuzzed with a fixed token:
#   - POST /api/user/logout ends the session of the token the rest of the run uses;
#   - GET /api/stream never ends (Server-Sent Events), so no answer would ever be complete.
# The admin run goes second: it may lock users, void markets and turn settings off, which is
# fuzzing too, but would starve the client run of anything to reach.
#
# PostgreSQL unreachable (or no psql): its half is skipped with a note, except under CI=true,
# where that fails, as for the API tests.
#
# Environment: BACKLAY_BIN (target/debug/backlay), SCHEMATHESIS (target/fuzz-venv/bin/
# schemathesis, which `make test-fuzz` installs from tests/fuzz/requirements.txt),
# FUZZ_MAX_EXAMPLES (25), FUZZ_REFUSED_EXAMPLES (10), FUZZ_SEED (20261124), FUZZ_WORKERS (2),
# FUZZ_DATABASES ("sqlite postgres"), BACKLAY_TEST_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/test),
# FUZZ_REPORT_DIR (where each run's JUnit report and the servers' logs are kept; a temporary
# folder otherwise). Prints "fuzz: <database> as <user>: N cases" per run and the total.
set -euo pipefail

cd "$(dirname "$0")/../.."
BACKLAY_BIN=${BACKLAY_BIN:-target/debug/backlay}
SCHEMATHESIS=${SCHEMATHESIS:-target/fuzz-venv/bin/schemathesis}
FUZZ_MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-25}
FUZZ_REFUSED_EXAMPLES=${FUZZ_REFUSED_EXAMPLES:-10}
FUZZ_SEED=${FUZZ_SEED:-20261124}
FUZZ_WORKERS=${FUZZ_WORKERS:-2}
FUZZ_DATABASES=${FUZZ_DATABASES:-sqlite postgres}
POSTGRES_URL=${BACKLAY_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test}
# The operations only an admin, an agent or a casino provider may call (see above).
CLIENT_REFUSED_PATHS='^/api/(admin|console|wallet)/'
# Bounds on waiting: the server's start, and one request of the fuzzer.
SERVER_START_TIMEOUT_S=60
REQUEST_TIMEOUT_S=15

log() { echo "fuzz: $*" >&2; }

for tool in "$BACKLAY_BIN" "$SCHEMATHESIS"; do
  [[ -x $tool ]] || { log "$tool is missing (cargo build -p backlay; make target/fuzz-venv/.installed)"; exit 2; }
done

WORK=$(mktemp -d -t backlay-fuzz.XXXXXX)
REPORT_DIR=${FUZZ_REPORT_DIR:-$WORK/report}
mkdir -p "$REPORT_DIR"
SERVER_PID=""
PG_DB=""

stop_server() {
  if [[ -n $SERVER_PID ]]; then
    kill -INT "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
  fi
}
drop_pg_db() {
  if [[ -n $PG_DB ]]; then
    psql "$POSTGRES_URL" -q -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true
    PG_DB=""
  fi
}
cleanup() {
  stop_server
  drop_pg_db
  rm -rf "$WORK"
}
trap cleanup EXIT

# One small client for the log-ins: python3 is here anyway (schemathesis runs on it).
api() {
  python3 - "$BASE" "$@" <<'PY'
import json, sys, time, urllib.request, urllib.error
base, what = sys.argv[1], sys.argv[2]
def call(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        return json.load(answer)
if what == "health":
    for _ in range(300):
        try:
            if call("/api/health")["status"]:
                sys.exit(0)
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(0.2)
    sys.exit("/api/health never answered 200")
user, password = sys.argv[3], sys.argv[4]
print(call("/api/user/login", {"user_name": user, "password": password})["data"]["token"])
PY
}

TOTAL=0
FAILED=()

# fuzz_as LABEL TOKEN EXAMPLES [SCHEMATHESIS OPTION…]: one schemathesis run against $BASE with
# the token, EXAMPLES cases per operation and phase (and any further options); its cases into TOTAL.
fuzz_as() {
  local label=$1 token=$2 examples=$3 output=$WORK/schemathesis-${1// /-}.txt status=0 cases
  shift 3
  log "$label: $examples examples per operation and phase, seed $FUZZ_SEED"
  # fuzz_hooks.py: one lock around ast.parse (CPython 3.11 parses unsafely in two threads).
  PYTHONPATH=tests/fuzz SCHEMATHESIS_HOOKS=fuzz_hooks \
    "$SCHEMATHESIS" --config-file tests/fuzz/schemathesis.toml run "$BASE/api/openapi.json" \
    --header "Authorization: Bearer $token" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$examples" --seed "$FUZZ_SEED" --generation-database none \
    --workers "$FUZZ_WORKERS" --request-timeout "$REQUEST_TIMEOUT_S" \
    --exclude-path /api/user/logout --exclude-path /api/stream \
    --report junit --report-junit-path "$REPORT_DIR/junit-${label// /-}.xml" \
    --no-color "$@" >"$output" 2>&1 || status=$?
  # The summary's "Test cases:" line is followed by "N generated, …".
  cases=$(grep -A1 '^Test cases:' "$output" | grep -o '^ *[0-9]* generated' | grep -o '[0-9]*' || echo 0)
  TOTAL=$((TOTAL + cases))
  if ((status == 0 && cases == 0)); then
    log "$label: no case ran"; status=1
  fi
  if ((status != 0)); then
    # From the first failure or error on: each with the request that reproduces it.
    awk '/^=+ (FAILURES|ERRORS) =+$/ {show = 1} show' "$output" >&2
    FAILED+=("$label")
  else
    sed -n '/SUMMARY/,$p' "$output" >&2
  fi
  log "$label: $cases cases, schemathesis exit status $status"
}

# fuzz_database NAME DATABASE_URL REFUSED_EXAMPLES: a fresh server on the database, fuzzed as
# each user; the client's refused operations get REFUSED_EXAMPLES fuzzed cases each (0: none).
fuzz_database() {
  local name=$1 database_url=$2 refused_examples=$3 server_log=$REPORT_DIR/server-$1.log started=$SECONDS
  log "$name: starting $BACKLAY_BIN"
  # Port 0: the kernel picks a free port and the server prints the address it got.
  # A fresh secret key per database (PostgreSQL has no default place for one). Eight database
  # connections: it runs beside the API tests, within make test's share of PostgreSQL (README).
  BACKLAY_LOG=info NO_COLOR=1 "$BACKLAY_BIN" serve --addr 127.0.0.1:0 --database-url "$database_url" --demo \
    --database-connections 8 \
    --secret-key-file "$WORK/secret-$name.key" --create-secret-key \
    --web-dir "$WORK/no-web" >"$WORK/server-$name.out" 2>"$server_log" &
  SERVER_PID=$!
  BASE=""
  local deadline=$((SECONDS + SERVER_START_TIMEOUT_S))
  until [[ -n $BASE ]]; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null || ((SECONDS > deadline)); then
      log "$name: the server did not start:"; tail -5 "$server_log" >&2; FAILED+=("$name start"); stop_server; return
    fi
    BASE=$(grep -so 'http://127\.0\.0\.1:[0-9]*' "$WORK/server-$name.out" | head -1 || true)
    [[ -n $BASE ]] || sleep 0.2
  done
  local client_token admin_token
  # A failed log-in must stop the run: with an empty token every call would be a listed 401.
  if ! api health || ! client_token=$(api login demo Demo@1234) || ! admin_token=$(api login admin Admin@1234) \
    || [[ -z $client_token || -z $admin_token ]]; then
    log "$name: the server did not answer health and the demo log-ins"; FAILED+=("$name log-in"); stop_server; return
  fi
  fuzz_as "$name as client" "$client_token" "$FUZZ_MAX_EXAMPLES" --exclude-path-regex "$CLIENT_REFUSED_PATHS"
  if ((refused_examples > 0)); then
    fuzz_as "$name as client on refused operations" "$client_token" "$refused_examples" \
      --include-path-regex "$CLIENT_REFUSED_PATHS" --phases fuzzing
  fi
  fuzz_as "$name as admin" "$admin_token" "$FUZZ_MAX_EXAMPLES"
  stop_server
  local errors
  errors=$(grep -c ' ERROR ' "$server_log" || true)
  if ((errors > 0)); then
    log "$name: the server logged $errors ERROR lines:"; grep ' ERROR ' "$server_log" | head -20 >&2
    FAILED+=("$name server log")
  fi
  log "$name: fuzzed in $((SECONDS - started)) s"
}

for database in $FUZZ_DATABASES; do
  case $database in
    sqlite)
      fuzz_database SQLite "sqlite://$WORK/fuzz.db" "$FUZZ_REFUSED_EXAMPLES"
      ;;
    postgres)
      if command -v psql >/dev/null && psql "$POSTGRES_URL" -q -c 'SELECT 1' >/dev/null 2>&1; then
        PG_DB=backlay_fuzz_$$_$RANDOM
        psql "$POSTGRES_URL" -q -c "CREATE DATABASE $PG_DB" >/dev/null
        fuzz_database PostgreSQL "${POSTGRES_URL%/*}/$PG_DB" 0
        drop_pg_db
      elif [[ ${CI:-} == true ]]; then
        log "PostgreSQL at $POSTGRES_URL is unreachable (or psql is missing) under CI=true"
        FAILED+=("PostgreSQL unreachable")
      else
        log "note: skipping PostgreSQL: $POSTGRES_URL is unreachable (or psql is missing)"
      fi
      ;;
    *) log "unknown database $database (sqlite or postgres)"; exit 2 ;;
  esac
done

log "$TOTAL cases in all"
if ((${#FAILED[@]} > 0)); then
  log "FAILED: ${FAILED[*]}"
  exit 1
fi
log "passed: no 5xx, every answer as the document says, no ERROR in the server's log"
