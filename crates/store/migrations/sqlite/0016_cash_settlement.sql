-- Cash settled between a parent and its direct child (issue 28): the collection report says who
-- owes whom; a settlement records cash changing hands, see crates/store/src/cash.rs.
-- SQLite twin of ../postgres/0016_cash_settlement.sql.

-- Each user's cash account ('cash:<user id>'): the net cash it has received in settlements with
-- its parent and its children (negative: paid out). Chips are not in it: a settlement never
-- changes what a bettor can bet with. Its kind is 'house' for the reason 0011 gives for share
-- accounts (0001's CHECK on kind); cash_of_user_id says whose it is.
ALTER TABLE ledger_accounts ADD COLUMN cash_of_user_id INTEGER REFERENCES users (id);
CREATE UNIQUE INDEX ledger_accounts_cash_of_user ON ledger_accounts (cash_of_user_id);

-- One row per settlement, beside its ledger transaction: who settled with whom and how much
-- (positive: the parent received cash from the child; negative: the parent paid the child).
-- Each user's cash account balance is what it received as a parent less what it paid, plus
-- the opposite of its settlements as a child (the ledger check compares them). Never updated
-- or deleted: a mistake is corrected by a settlement the other way.
CREATE TABLE cash_settlements (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    transaction_id      INTEGER  NOT NULL REFERENCES ledger_transactions (id),
    parent_user_id      INTEGER  NOT NULL REFERENCES users (id),
    child_user_id       INTEGER  NOT NULL REFERENCES users (id),
    amount_minor        INTEGER  NOT NULL CHECK (amount_minor <> 0),
    remark              TEXT    NOT NULL DEFAULT '',
    actor_user_id       INTEGER  REFERENCES users (id),
    created_at_ms       INTEGER  NOT NULL
);
CREATE INDEX cash_settlements_pair ON cash_settlements (parent_user_id, child_user_id, created_at_ms);
CREATE INDEX cash_settlements_child ON cash_settlements (child_user_id, created_at_ms);
