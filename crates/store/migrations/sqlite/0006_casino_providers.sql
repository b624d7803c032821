-- World casino: game providers, their catalogue, launch sessions, and the seamless wallet the
-- providers call (docs/wallet.md). SQLite twin of ../postgres/0006_casino_providers.sql.
--
-- A launch (gap/gaplogin) stores a provider session whose token the provider then names in
-- every wallet call. Each wallet call the provider signs is one write transaction: its row in
-- wallet_transactions (UNIQUE per provider and provider tx id: a repeated id finds the first
-- row and gets its stored answer, and never moves money twice), the round's running totals,
-- and one balanced ledger transaction between the user and the 'provider_games' account.
-- Refused calls write nothing here; they go to the audit log.

CREATE TABLE casino_providers (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    code            TEXT    NOT NULL UNIQUE,              -- what the provider signs as (X-Backlay-Provider): 'backlay', 'evo' …
    name            TEXT    NOT NULL,                     -- the catalogue's provider_name
    hmac_secret     TEXT    NOT NULL,                     -- shared HMAC-SHA256 key (hex); needed in clear to verify signatures
    launch_url      TEXT,                                 -- the provider's game address; NULL for the built-in provider (/provider/play on the public origin)
    is_builtin      INTEGER NOT NULL DEFAULT 0 CHECK (is_builtin IN (0, 1)),
    is_active       INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at_ms   INTEGER NOT NULL,
    CHECK ((is_builtin = 1) = (launch_url IS NULL)),
    CHECK (length(hmac_secret) >= 32)
);
-- At most one built-in provider (the server creates it at start when missing).
CREATE UNIQUE INDEX casino_providers_builtin ON casino_providers (is_builtin) WHERE is_builtin = 1;

-- The world-casino catalogue (casino/getStaticGames): only games a provider can launch.
CREATE TABLE world_casino_games (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id             TEXT    NOT NULL UNIQUE,          -- the catalogue's id: getStaticGames game_id, gaplogin gameId
    provider_id         INTEGER NOT NULL REFERENCES casino_providers (id),
    game_code           TEXT    NOT NULL,                 -- the provider's own code, sent in the launch URL
    game_name           TEXT    NOT NULL,
    category            TEXT    NOT NULL CHECK (category IN ('Crash Games', 'Live Game Shows', 'Live', 'Poker', 'Virtual', 'Live Dealer')),
    sub_provider_name   TEXT    NOT NULL DEFAULT '',
    sub_type            TEXT,
    url_thumb           TEXT    NOT NULL DEFAULT '',
    is_active           INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    display_order       INTEGER NOT NULL DEFAULT 100,
    UNIQUE (provider_id, game_code)
);

-- A launch: the provider's token for one user and game. Only the token's SHA-256 is stored.
CREATE TABLE provider_sessions (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash      TEXT    NOT NULL UNIQUE,
    user_id         INTEGER NOT NULL REFERENCES users (id),
    provider_id     INTEGER NOT NULL REFERENCES casino_providers (id),
    game_pk         INTEGER NOT NULL REFERENCES world_casino_games (id),
    created_at_ms   INTEGER NOT NULL,
    expires_at_ms   INTEGER NOT NULL,
    CHECK (expires_at_ms > created_at_ms)
);
CREATE INDEX provider_sessions_user ON provider_sessions (user_id);

-- A provider's round for one user: opened by its first debit, settled by its credit, or
-- rolled back when every debit in it was. debited_minor is net of rollbacks, so an open
-- round always has debited_minor > 0.
CREATE TABLE provider_rounds (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    provider_id     INTEGER NOT NULL REFERENCES casino_providers (id),
    round_ref       TEXT    NOT NULL,                     -- the provider's round id
    user_id         INTEGER NOT NULL REFERENCES users (id),
    game_code       TEXT    NOT NULL,
    debited_minor   INTEGER NOT NULL DEFAULT 0 CHECK (debited_minor >= 0),
    credited_minor  INTEGER NOT NULL DEFAULT 0 CHECK (credited_minor >= 0),
    state           TEXT    NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'settled', 'rolled_back')),
    created_at_ms   INTEGER NOT NULL,
    settled_at_ms   INTEGER,
    UNIQUE (provider_id, round_ref),
    CHECK ((state = 'settled') = (settled_at_ms IS NOT NULL))
);
CREATE INDEX provider_rounds_user ON provider_rounds (user_id, id);

-- One row per accepted wallet call that moves (or settles) money. reverses_id is UNIQUE: a
-- debit is rolled back by at most one rollback, whatever tx id the provider sends.
CREATE TABLE wallet_transactions (
    id                      INTEGER PRIMARY KEY AUTOINCREMENT,
    provider_id             INTEGER NOT NULL REFERENCES casino_providers (id),
    provider_tx_id          TEXT    NOT NULL,
    kind                    TEXT    NOT NULL CHECK (kind IN ('debit', 'credit', 'rollback')),
    user_id                 INTEGER NOT NULL REFERENCES users (id),
    round_id                INTEGER NOT NULL REFERENCES provider_rounds (id),
    amount_minor            INTEGER NOT NULL CHECK (amount_minor >= 0),
    reverses_id             INTEGER UNIQUE REFERENCES wallet_transactions (id),
    request_hash            TEXT    NOT NULL,             -- SHA-256 of what was asked: a repeated tx id must ask the same
    answer_json             TEXT    NOT NULL,             -- the first answer, returned again to a repeat
    ledger_transaction_id   INTEGER REFERENCES ledger_transactions (id), -- NULL only for a credit of 0
    created_at_ms           INTEGER NOT NULL,
    UNIQUE (provider_id, provider_tx_id),
    CHECK ((kind = 'rollback') = (reverses_id IS NOT NULL)),
    CHECK (kind = 'credit' OR amount_minor > 0)
);
CREATE INDEX wallet_transactions_user ON wallet_transactions (user_id, created_at_ms);
CREATE INDEX wallet_transactions_round ON wallet_transactions (round_id);

-- The providers' side of every wallet posting: a debit is user −amount, provider_games
-- +amount; a credit or rollback the reverse. Its kind is 'house' because 0001's CHECK on
-- ledger_accounts.kind cannot be widened in SQLite without rebuilding the table every ledger
-- entry references; the code tells it apart.
INSERT INTO ledger_accounts (code, kind, may_go_negative, created_at_ms) VALUES ('provider_games', 'house', 1, 0);
