-- Safer gambling (issue 33): the limits a bettor sets on their own play, the changes waiting out
-- their cooling-off, time-outs and self-exclusions, and every log-in attempt of a known account.
-- The other engine's 0030_safer_gambling.sql is its twin.

-- The limits in force, one row per bettor who has any (no row: none). Money in minor units;
-- NULL: no limit of that kind.
CREATE TABLE user_limits (
    user_id             BIGINT PRIMARY KEY REFERENCES users (id),
    deposit_day_minor   BIGINT CHECK (deposit_day_minor > 0),
    deposit_week_minor  BIGINT CHECK (deposit_week_minor > 0),
    deposit_month_minor BIGINT CHECK (deposit_month_minor > 0),
    loss_day_minor      BIGINT CHECK (loss_day_minor > 0),
    loss_week_minor     BIGINT CHECK (loss_week_minor > 0),
    loss_month_minor    BIGINT CHECK (loss_month_minor > 0),
    stake_minor         BIGINT CHECK (stake_minor > 0),
    session_minutes     BIGINT CHECK (session_minutes > 0),
    updated_at_ms       BIGINT NOT NULL
);

-- A higher limit or a removal, waiting out its cooling-off and then the bettor's confirmation.
-- period is '' for stake and session; value_minor NULL is a removal (minutes for session).
CREATE TABLE pending_limits (
    user_id          BIGINT NOT NULL REFERENCES users (id),
    kind             TEXT   NOT NULL CHECK (kind IN ('deposit', 'loss', 'stake', 'session')),
    period           TEXT   NOT NULL CHECK (period IN ('', 'day', 'week', 'month')),
    value_minor      BIGINT CHECK (value_minor > 0),
    requested_at_ms  BIGINT NOT NULL,
    effective_at_ms  BIGINT NOT NULL,
    PRIMARY KEY (user_id, kind, period)
);

-- The operator's defaults: a daily loss limit given to every new account, and the most any bet
-- in the tree may stake. One row, id 1.
CREATE TABLE safer_defaults (
    id                     BIGINT PRIMARY KEY CHECK (id = 1),
    default_loss_day_minor BIGINT CHECK (default_loss_day_minor > 0),
    max_stake_minor        BIGINT CHECK (max_stake_minor > 0),
    updated_at_ms          BIGINT NOT NULL
);
INSERT INTO safer_defaults (id, updated_at_ms) VALUES (1, 0);

-- Time-outs and self-exclusions, kept after they end. The mobile number is copied so that a
-- self-excluded number cannot open another account while it lasts.
CREATE TABLE account_blocks (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        BIGINT NOT NULL REFERENCES users (id),
    kind           TEXT   NOT NULL CHECK (kind IN ('time_out', 'self_exclusion')),
    period         TEXT   NOT NULL,
    started_at_ms  BIGINT NOT NULL,
    until_ms       BIGINT NOT NULL,
    dial_code      TEXT,
    mobile         TEXT
);
CREATE INDEX account_blocks_user ON account_blocks (user_id, until_ms);
CREATE INDEX account_blocks_mobile ON account_blocks (mobile, until_ms);

-- Every log-in attempt of a known account, its result and where from (user/loginHistory).
CREATE TABLE login_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id     BIGINT NOT NULL REFERENCES users (id),
    at_ms       BIGINT NOT NULL,
    client_ip   TEXT,
    device      TEXT   NOT NULL,
    result      TEXT   NOT NULL CHECK (result IN ('ok', 'wrong_password', 'wrong_code', 'locked', 'timed_out', 'self_excluded'))
);
CREATE INDEX login_history_user ON login_history (user_id, id);

-- How often the reality check reminds the bettor of the time played, minutes.
ALTER TABLE user_preferences ADD COLUMN reality_check_minutes BIGINT NOT NULL DEFAULT 60 CHECK (reality_check_minutes IN (15, 30, 45, 60, 90, 120));

-- The device a session was opened from (user/sessions).
ALTER TABLE sessions ADD COLUMN device TEXT NOT NULL DEFAULT '';

-- A loss limit sums a bettor's play entries since a period began.
CREATE INDEX ledger_entries_account_time ON ledger_entries (account_id, created_at_ms);
