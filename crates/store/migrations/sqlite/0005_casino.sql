-- The in-house casino (crates/casino): the sixteen games, their rounds and the bets on them.
-- SQLite twin of ../postgres/0005_casino.sql.
--
-- A round's life: 'betting' (until close_at_ms, server time) → 'closed' → 'dealt' (deal,
-- result and seed public) → 'settled' (winners paid from the house, once). The seed is stored
-- from the start so that a restarted server can resume the round; the API never serves it
-- before the round is dealt. A bet debits the stake into the house in the same transaction as
-- its row; settlement credits each winner's payout in one ledger transaction per round.

CREATE TABLE casino_games (
    id              INTEGER PRIMARY KEY,                  -- the API's match_id
    game_code       TEXT    NOT NULL UNIQUE,              -- the client's code (web casino-games.ts): 'teen20', 'dt6' …
    kind            TEXT    NOT NULL UNIQUE,              -- backlay_casino::GameKind::code(): 'teen20', 'dt1day' …
    name            TEXT    NOT NULL,                     -- the sidebar's label
    title           TEXT    NOT NULL,                     -- the full name
    series_id       TEXT    NOT NULL,                     -- casino category (casino_sports.sport_id)
    is_active       INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    display_order   INTEGER NOT NULL
);

CREATE TABLE casino_rounds (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    round_id        TEXT    NOT NULL UNIQUE,              -- '<kind>-<opened ms>', the fair stream's round id
    game_id         INTEGER NOT NULL REFERENCES casino_games (id),
    commitment      TEXT    NOT NULL,                     -- hex SHA-256 of the seed, public from the start
    seed_hex        TEXT    NOT NULL,                     -- SECRET until phase is 'dealt' or 'settled'
    phase           TEXT    NOT NULL DEFAULT 'betting' CHECK (phase IN ('betting', 'closed', 'dealt', 'settled')),
    opened_at_ms    INTEGER NOT NULL,
    close_at_ms     INTEGER NOT NULL,
    bet_count       INTEGER NOT NULL DEFAULT 0,           -- bumped by each bet: the row lock that orders bets against closing
    staked_minor    INTEGER NOT NULL DEFAULT 0,
    deal_json       TEXT,                                 -- set when dealt
    result_json     TEXT,                                 -- the outcome (winner, hands, verdicts), set when dealt
    winner          TEXT,
    dealt_at_ms     INTEGER,
    paid_minor      INTEGER,                              -- set when settled
    transaction_id  INTEGER REFERENCES ledger_transactions (id), -- the settlement's payouts (none when nobody won)
    settled_at_ms   INTEGER,
    CHECK (close_at_ms > opened_at_ms),
    CHECK ((phase IN ('dealt', 'settled')) = (deal_json IS NOT NULL)),
    CHECK ((phase = 'settled') = (settled_at_ms IS NOT NULL))
);
CREATE INDEX casino_rounds_game ON casino_rounds (game_id, id);
CREATE INDEX casino_rounds_unfinished ON casino_rounds (phase) WHERE phase <> 'settled';
CREATE INDEX casino_rounds_results ON casino_rounds (game_id, settled_at_ms);

CREATE TABLE casino_bets (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users (id),
    round_id        INTEGER NOT NULL REFERENCES casino_rounds (id),
    market_code     TEXT    NOT NULL,
    market_name     TEXT    NOT NULL,
    odds_hundredths INTEGER NOT NULL CHECK (odds_hundredths > 100),
    stake_minor     INTEGER NOT NULL CHECK (stake_minor > 0),
    payout_minor    INTEGER CHECK (payout_minor >= 0),    -- what the bettor got back, stake included; set when settled
    status          TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'won', 'lost', 'push', 'half_lost')),
    transaction_id  INTEGER NOT NULL REFERENCES ledger_transactions (id), -- the stake's debit
    created_at_ms   INTEGER NOT NULL,
    settled_at_ms   INTEGER,
    CHECK ((status = 'open') = (payout_minor IS NULL))
);
CREATE INDEX casino_bets_user ON casino_bets (user_id, status, id);
CREATE INDEX casino_bets_round ON casino_bets (round_id, user_id);

-- The sidebar's "Others" list, in its order.
INSERT INTO casino_games (id, game_code, kind, name, title, series_id, display_order) VALUES
    (1,  'teen20',   'teen20',     'TP T20',              'Teen Patti T20',        'teenpatti',  1),
    (2,  'teen',     'teen1day',   'TP 1 DAY',            'Teen Patti 1 Day',      'teenpatti',  2),
    (3,  'teen9',    'teentest',   'TP TEST',             'Teen Patti Test',       'teenpatti',  3),
    (4,  'dt6',      'dt1day',     'DT 1 DAY',            'Dragon Tiger 1 Day',    'livecasino', 4),
    (5,  'teen2',    'teen2card',  'TP 2 Card',           '2 Card Teen Patti',     'teenpatti',  5),
    (6,  'hilow',    'hilow',      'HILOW',               'Hi-Low',                'livecasino', 6),
    (7,  'poker',    'poker',      'POKER',               'Poker (Texas hold''em)', 'livecasino', 7),
    (8,  'queen',    'queen',      'QUEEN',               'Queen',                 'livecasino', 8),
    (9,  'baccarat', 'baccarat',   'BACCARAT',            'Baccarat',              'livecasino', 9),
    (10, 'aaa',      'aaa',        'AMAR AKBAR ANTHONEY', 'Amar Akbar Anthony',    'livecasino', 10),
    (11, 'btable',   'bollywood',  'BOLLYWOOD',           'Bollywood Casino',      'livecasino', 11),
    (12, 'trio',     'trio',       'TRIO',                'Trio',                  'livecasino', 12),
    (13, 'ab20',     'andarbahar', 'ANDAR BAHAR',         'Andar Bahar',           'livecasino', 13),
    (14, 'teenmuf',  'muflis',     'MUFLIS TP',           'Muflis Teen Patti',     'teenpatti',  14),
    (15, 'roulette', 'roulette',   'ROULETTE',            'Roulette',              'livecasino', 15),
    (16, 'worli',    'worli',      'WORLI MATAKA',        'Worli Matka',           'matka',      16);
