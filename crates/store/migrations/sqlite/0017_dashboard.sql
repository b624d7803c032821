-- The console's dashboard (issue 28, crates/store/src/dashboard.rs) counts the bets a branch
-- placed in a period: by user, then by time, so that a busy account's old bets are skipped.
CREATE INDEX bets_user_created ON bets (user_id, created_at_ms);
