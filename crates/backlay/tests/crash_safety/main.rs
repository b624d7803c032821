//! Crash safety: bettors place and cancel bets against the real `backlay serve` (a process on a
//! port it picks) while the test breaks what it stands on, then checks that what the bettors were
//! told is what is stored. Bets whose answer was lost, or was a 503 ("not now, try again"), are
//! sent again with the same `client_ref`, as a careful client would; a 500 is never an answer.
//!
//! The faults:
//!
//! - `kills`: the server killed with SIGKILL at random moments and restarted on the same
//!   database, on SQLite and on PostgreSQL. A moment is random by count, not by clock: the kill
//!   comes as soon as the bettors together have been told of a random number of bets, with
//!   every bettor still sending, so it lands in the middle of the traffic however fast the
//!   machine runs. On three servers on one PostgreSQL (issue 16) the one killed is the owner of
//!   the busy exchange market, while bettors on the two others keep betting through the
//!   take-over and a live stream on a survivor must show the new owner's changes; the test
//!   prints the failover times, which `bench/cluster.sh` collects over more kills
//!   (`CLUSTER_KILLS`, default 3). A node frozen (SIGSTOP) past its lease must find its writes
//!   fenced off when it wakes.
//! - `db_cuts` (issue 27): every backend of the database terminated, or the database refusing
//!   connections for longer than a node's lease, on one node and on three; the health check
//!   must say the database is unavailable meanwhile, and betting must resume by itself after.
//!   The long run adds kills and freezes at random.
//! - `disk_full` (issue 27): SQLite's filesystem (a tmpfs) filled until writes fail, then
//!   given room again.
//!
//! At the end (`checks`):
//!
//! - every acknowledged bet is stored once, with its id and stake, no `client_ref` twice, and
//!   nothing is stored that its bettor was not told of;
//! - no bet is half-applied: matched + unmatched + cancelled + lapsed = stake, and an exchange
//!   bet's fills add up to what it matched;
//! - no exchange book is crossed (a back resting at or below a lay);
//! - each user's stored exposure in a market, and their reserved exposure, is what their stored
//!   bets make it, and the engine, rebuilt from the database at start, shows the same book and
//!   positions;
//! - the ledger check passes (balances are their entries, exposure the sum of its markets);
//! - after the database faults every server, killed and started again, takes a bet on every
//!   market.
//!
//! The server is `$BACKLAY_CRASH_TEST_BIN` (`bench/faults.sh` points it at the release binary),
//! else the workspace's own build of `backlay`, which `make test` runs. `CRASH_KILLS` (default
//! 10) sets the kills and `DB_CUTS` (default 6) the database faults per test; the long run,
//! `bench/faults.sh`, raises both.
//!
//! One test binary (each links the whole server): `harness` starts servers and drives the
//! bettors, `checks` holds the end checks, and a module per kind of fault holds its tests.

mod checks;
mod db_cuts;
mod disk_full;
mod harness;
mod kills;
#[path = "../support/printed_address.rs"]
mod printed_address;
