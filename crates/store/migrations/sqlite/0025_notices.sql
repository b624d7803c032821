-- What a bettor is told about their bets after placing them (issue 32): matched later, lapsed,
-- cancelled by the exchange, settled, voided. Written in the same transaction as the change it
-- tells of, so a notice is never lost or told of a change that did not commit; its words are
-- made when it is read (store's notices.rs), from the bet, runner, market and match it names.
-- The other engine's 0025_notices.sql is its twin.
CREATE TABLE notices (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          INTEGER NOT NULL REFERENCES users (id),
    kind             TEXT    NOT NULL CHECK (kind IN ('matched', 'partially_matched', 'lapsed', 'cancelled', 'settled', 'voided')),
    market_id        INTEGER NOT NULL REFERENCES markets (id),
    -- The bet told of; NULL for a market's settlement or void, told once per bettor.
    bet_id           INTEGER REFERENCES bets (id),
    -- matched, partially_matched: the size matched now; lapsed, cancelled: the size taken off;
    -- settled, voided: the bettor's P&L in the market before commission (0 for a void).
    amount_minor     INTEGER NOT NULL,
    commission_minor INTEGER NOT NULL DEFAULT 0 CHECK (commission_minor >= 0),
    created_at_ms    INTEGER NOT NULL
);
CREATE INDEX notices_user ON notices (user_id, id);

-- The newest notice each bettor has seen: the bell's unread count is of those after it.
CREATE TABLE notice_reads (
    user_id      INTEGER PRIMARY KEY REFERENCES users (id),
    last_read_id INTEGER NOT NULL
);
