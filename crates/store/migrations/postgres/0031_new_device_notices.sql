-- A log-in from a new device is a notice (issue 33). A device is its family, the browser and
-- system without the browser's version ("Chrome on Windows 10"), so that a browser's update is
-- not a new device; the rows before this migration count their device as its family.
ALTER TABLE login_history ADD COLUMN device_family TEXT NOT NULL DEFAULT '';
UPDATE login_history SET device_family = device;
CREATE INDEX login_history_family ON login_history (user_id, device_family);

-- A notice of a new device names no market: market_id becomes optional, and the notice keeps
-- the device and address it tells of (the log-in history is pruned after a year; the notice
-- says what it said). The other engine's 0031 is its twin.
ALTER TABLE notices DROP CONSTRAINT notices_kind_check;
ALTER TABLE notices ADD CONSTRAINT notices_kind_check
    CHECK (kind IN ('matched', 'partially_matched', 'lapsed', 'cancelled', 'settled', 'voided', 'new_device'));
ALTER TABLE notices ALTER COLUMN market_id DROP NOT NULL;
-- new_device: the device's name ("Chrome 131 on Windows 10") and the address it came from.
ALTER TABLE notices ADD COLUMN device TEXT;
ALTER TABLE notices ADD COLUMN client_ip TEXT;
ALTER TABLE notices ADD CONSTRAINT notices_market_named CHECK ((kind = 'new_device') = (market_id IS NULL));
ALTER TABLE notices ADD CONSTRAINT notices_device_named CHECK ((kind = 'new_device') = (device IS NOT NULL));
