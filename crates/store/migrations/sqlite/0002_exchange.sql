-- The exchange: markets gain what bookmaker, fancy and place markets need and their result;
-- bets (orders), fills and per-market exposure are stored. SQLite twin of ../postgres/0002.

-- Place markets: how many runners are placed.
ALTER TABLE markets ADD COLUMN winners INTEGER NOT NULL DEFAULT 1;
-- Fancy (session) markets: the posted NO and YES lines and rates (rate 100 = even money).
ALTER TABLE markets ADD COLUMN line_no INTEGER;
ALTER TABLE markets ADD COLUMN rate_no INTEGER;
ALTER TABLE markets ADD COLUMN line_yes INTEGER;
ALTER TABLE markets ADD COLUMN rate_yes INTEGER;
-- The declared result: the winning runner, or the fancy's run total; set once, at settlement.
ALTER TABLE markets ADD COLUMN result_runner_id INTEGER;
ALTER TABLE markets ADD COLUMN result_value INTEGER;
ALTER TABLE markets ADD COLUMN settled_at_ms INTEGER;
-- Bookmaker markets: the posted back and lay rates per runner (45 = decimal odds 1.45).
ALTER TABLE runners ADD COLUMN back_rate INTEGER;
ALTER TABLE runners ADD COLUMN lay_rate INTEGER;

-- One row per bet (an exchange order, or a bookmaker/fancy bet against the house).
CREATE TABLE bets (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id             INTEGER NOT NULL REFERENCES users (id),
    market_id           INTEGER NOT NULL REFERENCES markets (id),
    runner_id           INTEGER REFERENCES runners (id),          -- NULL for fancy
    side                TEXT    NOT NULL CHECK (side IN ('back', 'lay', 'yes', 'no')),
    price               INTEGER NOT NULL CHECK (price > 0),       -- odds in hundredths, or the rate
    line                INTEGER,                                  -- fancy only
    stake_minor         INTEGER NOT NULL CHECK (stake_minor > 0), -- the backer's stake
    matched_minor       INTEGER NOT NULL DEFAULT 0 CHECK (matched_minor >= 0),
    remaining_minor     INTEGER NOT NULL DEFAULT 0 CHECK (remaining_minor >= 0),
    cancelled_minor     INTEGER NOT NULL DEFAULT 0 CHECK (cancelled_minor >= 0),
    lapsed_minor        INTEGER NOT NULL DEFAULT 0 CHECK (lapsed_minor >= 0),
    persistence         TEXT    NOT NULL DEFAULT 'lapse' CHECK (persistence IN ('lapse', 'persist')),
    status              TEXT    NOT NULL CHECK (status IN ('open', 'matched', 'closed', 'settled', 'void')),
    pnl_minor           INTEGER,                                  -- set at settlement
    client_ref          TEXT,
    request_hash        TEXT,
    created_at_ms       INTEGER NOT NULL,
    CHECK (matched_minor + remaining_minor + cancelled_minor + lapsed_minor = stake_minor),
    UNIQUE (user_id, client_ref)
);
CREATE INDEX bets_market_open ON bets (market_id, remaining_minor);
CREATE INDEX bets_user ON bets (user_id, id);

-- One row per match between a back and a lay: the price is the resting order's, and the
-- backer's profit is computed once here so that what one side wins the other loses exactly.
CREATE TABLE fills (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    market_id           INTEGER NOT NULL REFERENCES markets (id),
    runner_id           INTEGER NOT NULL REFERENCES runners (id),
    back_bet_id         INTEGER NOT NULL REFERENCES bets (id),
    lay_bet_id          INTEGER NOT NULL REFERENCES bets (id),
    price               INTEGER NOT NULL,
    size_minor          INTEGER NOT NULL CHECK (size_minor > 0),
    backer_profit_minor INTEGER NOT NULL CHECK (backer_profit_minor >= 0),
    created_at_ms       INTEGER NOT NULL
);
CREATE INDEX fills_market ON fills (market_id);

-- A user's exposure in one market; ledger_accounts.exposure_minor is their sum over markets.
CREATE TABLE market_exposures (
    user_id             INTEGER NOT NULL REFERENCES users (id),
    market_id           INTEGER NOT NULL REFERENCES markets (id),
    exposure_minor      INTEGER NOT NULL CHECK (exposure_minor >= 0),
    PRIMARY KEY (user_id, market_id)
);
