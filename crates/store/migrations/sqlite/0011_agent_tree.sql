-- The agent tree (issue 15): partnerships, credit references, bet-locks and stake caps on
-- accounts, and the ledger accounts that carry each agent's share of the house's result.
-- SQLite twin of ../postgres/0011_agent_tree.sql.

-- The share (basis points, 10000 = 100%) of the house's result against its downline that an
-- agent carries, cumulative from the bottom: agent 4000 under master 7000 means the agent takes
-- 40% of a client's result, the master 30%, the operator the remaining 30%. Fixed when the
-- account is made, never more than the parent's. 0 for clients and admins.
ALTER TABLE users ADD COLUMN partnership_bp INTEGER NOT NULL DEFAULT 0 CHECK (partnership_bp BETWEEN 0 AND 10000);
-- What the parent says the account owes or is owed (a number on the account, not money).
ALTER TABLE users ADD COLUMN credit_reference_minor INTEGER NOT NULL DEFAULT 0;
-- A bet-locked account can log in and see its account but cannot place bets.
ALTER TABLE users ADD COLUMN is_bet_locked INTEGER NOT NULL DEFAULT 0 CHECK (is_bet_locked IN (0, 1));
-- The largest stake the account may place on one bet, on top of each market's own; NULL: none.
ALTER TABLE users ADD COLUMN max_stake_minor INTEGER CHECK (max_stake_minor > 0);
ALTER TABLE users ADD COLUMN last_login_at_ms INTEGER;

-- An agent's share account ('share:<user id>'): what its partnership has taken of the house's
-- result, and may go negative when its downline wins. Its kind is 'house' for the same reason
-- as 0006's provider_games: 0001's CHECK on kind cannot be widened in SQLite without rebuilding
-- the ledger's tables; share_of_user_id says whose share it is.
ALTER TABLE ledger_accounts ADD COLUMN share_of_user_id INTEGER REFERENCES users (id);
CREATE UNIQUE INDEX ledger_accounts_share_of_user ON ledger_accounts (share_of_user_id);

-- How each settlement split the house's result with a client up the tree: one row per level
-- (user_id NULL: the operator's remainder, posted to 'house' or 'commission'). The rows of one
-- client in one transaction sum to the house's result against that client, and each agent's
-- rows sum to its share account's balance; the collection report and the P&L-by-downline report
-- are read from here. transaction_id is NULL when the settlement moved nothing: a casino round
-- whose players all lost under agents without a partnership (the stakes reached 'house' when
-- they were placed).
CREATE TABLE partnership_splits (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    transaction_id      INTEGER  REFERENCES ledger_transactions (id),
    client_user_id      INTEGER  NOT NULL REFERENCES users (id),
    user_id             INTEGER  REFERENCES users (id),
    part                TEXT    NOT NULL CHECK (part IN ('house', 'commission')),
    share_bp            INTEGER  NOT NULL CHECK (share_bp BETWEEN 0 AND 10000),
    amount_minor        INTEGER  NOT NULL,
    market_id           INTEGER,
    created_at_ms       INTEGER  NOT NULL
);
CREATE INDEX partnership_splits_client ON partnership_splits (client_user_id, created_at_ms);
CREATE INDEX partnership_splits_user ON partnership_splits (user_id, created_at_ms);
CREATE INDEX partnership_splits_transaction ON partnership_splits (transaction_id);
