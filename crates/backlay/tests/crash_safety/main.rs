//! Crash safety: bettors place and cancel bets against the real `backlay serve` while the test
//! kills it with SIGKILL at random moments and restarts it on the same database, on SQLite and
//! on PostgreSQL. A moment is random by count, not by clock: the kill comes as soon as the
//! bettors together have been told of a random number of bets, with every bettor still
//! sending, so it lands in the middle of the traffic however fast the machine runs. After every
//! restart the bets whose answer was lost are sent again with the same `client_ref`; at the end,
//! what the bettors were told must be what is stored:
//!
//! - every acknowledged bet is stored once, with its id and stake;
//! - no bet is half-applied: matched + unmatched + cancelled + lapsed = stake, and an exchange
//!   bet's fills add up to what it matched;
//! - each user's stored exposure in a market is what their stored bets make it, and the
//!   engine, rebuilt from the database at start, shows the same book and positions;
//! - the ledger check passes (balances are their entries, exposure the sum of its markets).
//!
//! On PostgreSQL the same bettors and checks run against three servers on one database (issue
//! 16): each time the server killed is the one that owns the busy exchange market, while the
//! bettors on the other two keep betting through the take-over, and a live stream on a node
//! that survives must show the market's changes made by its new owner; the test prints the failover
//! times (kill → first bet on that market sent after the kill and placed through another
//! node), which
//! `bench/cluster.sh` collects over more kills (`CLUSTER_KILLS`, default 3).
//!
//! The server is `$BACKLAY_CRASH_TEST_BIN` (`bench/faults.sh` points it at the release binary),
//! else the workspace's own build of `backlay`, which `make test` runs. `CRASH_KILLS` (default
//! 10) sets the number of kills; the longer run in `bench/faults.sh` raises it.
//!
//! One test binary (each links the whole server): `harness` starts servers and drives the
//! bettors, `checks` holds the end checks, `kills` the tests above, `db_cuts` the same bettors
//! while the database's connections are cut and `disk_full` while SQLite's disk is full
//! (issue 27).

mod checks;
mod db_cuts;
mod disk_full;
mod harness;
mod kills;
