-- State every node of one database shares (issue 16): the log-in throttle's counts and the
-- tickets that open live streams, which each server process used to keep in its own memory.
-- PostgreSQL twin of ../sqlite/0012_shared_state.sql.

-- One row per throttled key ('user:<lower-case name>', 'addr:<address>', 'addr:wallet <address>'):
-- its settled failures within the window that began at window_start_ms, and the block they
-- earned. The row is locked (updated) first by every attempt that counts against the key, so
-- that attempts on several nodes at once take turns. expires_at_ms is when the row holds nothing
-- worth keeping (window passed, block over, attempts in flight past their bound): the sweep
-- deletes it then.
CREATE TABLE login_throttle_keys (
    key              TEXT    PRIMARY KEY,
    failures         BIGINT  NOT NULL CHECK (failures >= 0),
    window_start_ms  BIGINT  NOT NULL,
    blocked_until_ms BIGINT  NOT NULL,
    expires_at_ms    BIGINT  NOT NULL
);
CREATE INDEX login_throttle_keys_expires ON login_throttle_keys (expires_at_ms);

-- Attempts let in and not yet settled, one row per key the attempt counts against. A row is
-- counted only while younger than the server's bound on a password check, so the attempts of a
-- node that died while checking are forgotten rather than counted for ever.
CREATE TABLE login_attempts (
    attempt_id      TEXT    NOT NULL,
    key             TEXT    NOT NULL,
    started_at_ms   BIGINT  NOT NULL,
    PRIMARY KEY (attempt_id, key)
);
CREATE INDEX login_attempts_key ON login_attempts (key, started_at_ms);
CREATE INDEX login_attempts_started ON login_attempts (started_at_ms);

-- Tickets that open live streams (GET /api/stream?ticket=…): a ticket issued by one node opens
-- a stream on any other. Only the ticket's SHA-256 is stored, as for sessions.
CREATE TABLE stream_tickets (
    token_hash      TEXT    PRIMARY KEY,
    user_id         BIGINT  NOT NULL REFERENCES users (id),
    expires_at_ms   BIGINT  NOT NULL
);
CREATE INDEX stream_tickets_user ON stream_tickets (user_id, expires_at_ms);
CREATE INDEX stream_tickets_expires ON stream_tickets (expires_at_ms);
