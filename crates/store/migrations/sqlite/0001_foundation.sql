-- Backlay foundation schema (SQLite). The PostgreSQL twin is ../postgres/0001_foundation.sql:
-- the same tables, columns and constraints; only the id and type spellings differ.
-- Money is integer minor units (BIGINT), times are epoch milliseconds, flags are 0/1 integers.

CREATE TABLE users (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    user_name           TEXT    NOT NULL,
    user_name_key       TEXT    NOT NULL UNIQUE,          -- lower-cased: names are unique ignoring case
    password_hash       TEXT    NOT NULL,
    role                TEXT    NOT NULL CHECK (role IN ('admin', 'agent', 'client')),
    parent_id           INTEGER REFERENCES users (id),
    is_locked           INTEGER NOT NULL DEFAULT 0 CHECK (is_locked IN (0, 1)),
    is_change_password  INTEGER NOT NULL DEFAULT 0 CHECK (is_change_password IN (0, 1)),
    dial_code           TEXT,
    mobile              TEXT,
    max_exposure_minor  INTEGER,                          -- NULL: no per-user cap
    created_at_ms       INTEGER NOT NULL
);
CREATE INDEX users_parent ON users (parent_id);

CREATE TABLE sessions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users (id),
    token_hash      TEXT    NOT NULL UNIQUE,              -- SHA-256 of the opaque token; the token itself is never stored
    client_ip       TEXT,
    created_at_ms   INTEGER NOT NULL,
    expires_at_ms   INTEGER NOT NULL,
    revoked_at_ms   INTEGER
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Double-entry ledger. balance_minor is the running sum of the account's entries, kept in the
-- same transaction as the entries so that the funds check is one conditional UPDATE.
CREATE TABLE ledger_accounts (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    code            TEXT    NOT NULL UNIQUE,              -- 'user:<id>', 'house', 'issuance', 'commission'
    kind            TEXT    NOT NULL CHECK (kind IN ('user', 'house', 'issuance', 'commission')),
    user_id         INTEGER UNIQUE REFERENCES users (id),
    balance_minor   INTEGER NOT NULL DEFAULT 0,
    exposure_minor  INTEGER NOT NULL DEFAULT 0 CHECK (exposure_minor >= 0),
    may_go_negative INTEGER NOT NULL DEFAULT 0 CHECK (may_go_negative IN (0, 1)),
    created_at_ms   INTEGER NOT NULL,
    CHECK (may_go_negative = 1 OR balance_minor >= 0)
);

CREATE TABLE ledger_transactions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    kind            TEXT    NOT NULL,                     -- 'mint', 'deposit', 'withdraw', later 'settlement' …
    actor_user_id   INTEGER REFERENCES users (id),        -- NULL: the operator console
    remark          TEXT    NOT NULL DEFAULT '',
    created_at_ms   INTEGER NOT NULL
);

-- Append-only: corrections are reversing entries, never UPDATE or DELETE.
CREATE TABLE ledger_entries (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    transaction_id      INTEGER NOT NULL REFERENCES ledger_transactions (id),
    account_id          INTEGER NOT NULL REFERENCES ledger_accounts (id),
    amount_minor        INTEGER NOT NULL CHECK (amount_minor <> 0),
    balance_after_minor INTEGER NOT NULL,
    description         TEXT    NOT NULL,
    created_at_ms       INTEGER NOT NULL
);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id);
CREATE INDEX ledger_entries_transaction ON ledger_entries (transaction_id);

CREATE TABLE global_settings (
    key             TEXT    PRIMARY KEY,
    value           TEXT    NOT NULL,
    updated_at_ms   INTEGER NOT NULL
);

CREATE TABLE sports (
    sport_id        INTEGER PRIMARY KEY,                  -- given ids (4 cricket, 7 horse racing …), not generated
    name            TEXT    NOT NULL,
    is_active       INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    display_order   INTEGER NOT NULL DEFAULT 100
);

CREATE TABLE series (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    sport_id        INTEGER NOT NULL REFERENCES sports (sport_id),
    name            TEXT    NOT NULL,
    is_active       INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    is_featured     INTEGER NOT NULL DEFAULT 0 CHECK (is_featured IN (0, 1)),  -- listed by getCupsForMenu
    created_at_ms   INTEGER NOT NULL
);
CREATE INDEX series_sport ON series (sport_id);

CREATE TABLE matches (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    series_id       INTEGER NOT NULL REFERENCES series (id),
    sport_id        INTEGER NOT NULL REFERENCES sports (sport_id),
    name            TEXT    NOT NULL,
    open_date_ms    INTEGER NOT NULL,                     -- scheduled start
    is_active       INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    in_play         INTEGER NOT NULL DEFAULT 0 CHECK (in_play IN (0, 1)),
    venue           TEXT,
    country_code    TEXT,
    created_at_ms   INTEGER NOT NULL
);
CREATE INDEX matches_series ON matches (series_id);
CREATE INDEX matches_sport_open ON matches (sport_id, open_date_ms);

CREATE TABLE markets (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id            INTEGER NOT NULL REFERENCES matches (id),
    market_type         TEXT    NOT NULL CHECK (market_type IN ('match_odds', 'bookmaker', 'fancy', 'win', 'place', 'casino')),
    name                TEXT    NOT NULL,
    status              TEXT    NOT NULL DEFAULT 'suspended' CHECK (status IN ('open', 'suspended', 'ball_running', 'closed', 'void')),
    bet_delay_ms        INTEGER NOT NULL DEFAULT 5000,
    min_stake_minor     INTEGER NOT NULL DEFAULT 10000,
    max_stake_minor     INTEGER NOT NULL DEFAULT 10000000,
    commission_bp       INTEGER NOT NULL DEFAULT 0 CHECK (commission_bp BETWEEN 0 AND 10000),
    created_at_ms       INTEGER NOT NULL
);
CREATE INDEX markets_match ON markets (match_id);

CREATE TABLE runners (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    market_id       INTEGER NOT NULL REFERENCES markets (id),
    name            TEXT    NOT NULL,
    sort_order      INTEGER NOT NULL DEFAULT 0,
    status          TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'winner', 'loser', 'removed'))
);
CREATE INDEX runners_market ON runners (market_id);

CREATE TABLE button_values (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id             INTEGER NOT NULL REFERENCES users (id),
    button_type         TEXT    NOT NULL CHECK (button_type IN ('Game', 'Casino')),
    position            INTEGER NOT NULL,
    button_name         TEXT    NOT NULL,
    button_value_minor  INTEGER NOT NULL CHECK (button_value_minor > 0),
    UNIQUE (user_id, button_type, position)
);

CREATE TABLE casino_sports (
    sport_id        TEXT    PRIMARY KEY,                  -- e.g. 'matka', 'worldcasino'
    name            TEXT    NOT NULL,
    is_active       INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    display_order   INTEGER NOT NULL DEFAULT 100
);

CREATE TABLE audit_log (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    actor_user_id   INTEGER REFERENCES users (id),        -- NULL: the operator console or the system
    action          TEXT    NOT NULL,
    target          TEXT    NOT NULL DEFAULT '',
    detail          TEXT    NOT NULL DEFAULT '{}',        -- JSON
    client_ip       TEXT,
    created_at_ms   INTEGER NOT NULL
);
CREATE INDEX audit_log_created ON audit_log (created_at_ms);

-- The system accounts. 'issuance' goes negative by exactly the chips in circulation; 'house' is
-- the counterparty of bookmaker, fancy and casino bets; 'commission' collects exchange commission.
INSERT INTO ledger_accounts (code, kind, may_go_negative, created_at_ms) VALUES
    ('issuance', 'issuance', 1, 0),
    ('house', 'house', 1, 0),
    ('commission', 'commission', 0, 0);
