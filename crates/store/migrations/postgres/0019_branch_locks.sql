-- Branch locks (issue 28): a lock or bet-lock on an agent covers its whole branch. Each account
-- carries the nearest agent above it that is locked (bet-locked), NULL when none is, so that
-- every check of a user's own lock (log-in, session, bet, casino, wallet) sees the branch's in
-- the same row read, with no walk up the tree per request. Kept by the store when a lock
-- changes (crates/store/src/branch_locks.rs) and when an account is created.
-- PostgreSQL twin of ../sqlite/0016_branch_locks.sql.
ALTER TABLE users ADD COLUMN locked_by_user_id BIGINT REFERENCES users (id);
ALTER TABLE users ADD COLUMN bet_locked_by_user_id BIGINT REFERENCES users (id);
CREATE INDEX users_locked_by ON users (locked_by_user_id);
CREATE INDEX users_bet_locked_by ON users (bet_locked_by_user_id);

-- Accounts under agents already locked: the nearest locked ancestor (the walk capped at 16
-- levels like every walk of the tree).
WITH RECURSIVE up(id, ancestor_id, depth) AS (
    SELECT id, parent_id, 1 FROM users WHERE parent_id IS NOT NULL
    UNION ALL
    SELECT up.id, u.parent_id, up.depth + 1 FROM up JOIN users u ON u.id = up.ancestor_id
    WHERE u.parent_id IS NOT NULL AND up.depth < 16
)
UPDATE users SET
    locked_by_user_id = (SELECT up.ancestor_id FROM up JOIN users a ON a.id = up.ancestor_id
        WHERE up.id = users.id AND a.is_locked = 1 ORDER BY up.depth LIMIT 1),
    bet_locked_by_user_id = (SELECT up.ancestor_id FROM up JOIN users a ON a.id = up.ancestor_id
        WHERE up.id = users.id AND a.is_bet_locked = 1 ORDER BY up.depth LIMIT 1);
