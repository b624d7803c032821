-- A log-in from a new device is a notice (issue 33). A device is its family, the browser and
-- system without the browser's version ("Chrome on Windows 10"), so that a browser's update is
-- not a new device; the rows before this migration count their device as its family.
ALTER TABLE login_history ADD COLUMN device_family TEXT NOT NULL DEFAULT '';
UPDATE login_history SET device_family = device;
CREATE INDEX login_history_family ON login_history (user_id, device_family);

-- A notice of a new device names no market: market_id becomes optional, and the notice keeps
-- the device and address it tells of (the log-in history is pruned after a year; the notice
-- says what it said). SQLite cannot change a column's constraints in place, so the table is
-- made again (no table refers to notices). The other engine's 0031 is its twin.
CREATE TABLE notices_next (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          INTEGER NOT NULL REFERENCES users (id),
    kind             TEXT    NOT NULL CHECK (kind IN ('matched', 'partially_matched', 'lapsed', 'cancelled', 'settled', 'voided', 'new_device')),
    -- Every kind but new_device names its market.
    market_id        INTEGER REFERENCES markets (id),
    bet_id           INTEGER REFERENCES bets (id),
    amount_minor     INTEGER NOT NULL,
    commission_minor INTEGER NOT NULL DEFAULT 0 CHECK (commission_minor >= 0),
    created_at_ms    INTEGER NOT NULL,
    -- new_device: the device's name ("Chrome 131 on Windows 10") and the address it came from.
    device           TEXT,
    client_ip        TEXT,
    CHECK ((kind = 'new_device') = (market_id IS NULL)),
    CHECK ((kind = 'new_device') = (device IS NOT NULL))
);
INSERT INTO notices_next (id, user_id, kind, market_id, bet_id, amount_minor, commission_minor, created_at_ms)
    SELECT id, user_id, kind, market_id, bet_id, amount_minor, commission_minor, created_at_ms FROM notices;
DROP TABLE notices;
ALTER TABLE notices_next RENAME TO notices;
CREATE INDEX notices_user ON notices (user_id, id);
