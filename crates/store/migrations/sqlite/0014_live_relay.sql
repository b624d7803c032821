-- Live events too big for one NOTIFY (issue 16): a node relaying its live events to the others
-- (crates/server/src/live_relay.rs) sends each with pg_notify, whose payload must stay under
-- 8000 bytes. A bigger one (the book of a 20-runner race) is stored here and only its id is
-- notified; the listeners read it by id. Rows are transient: the sender deletes those older
-- than a minute, so the table holds at most a minute of big events.
-- A SQLite server is one node and relays nothing: the table stays empty, kept for schema parity
-- with ../postgres/0014_live_relay.sql.
CREATE TABLE live_relay_payloads (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at_ms   INTEGER NOT NULL,
    payload         TEXT    NOT NULL
);
CREATE INDEX live_relay_payloads_created ON live_relay_payloads (created_at_ms);
