-- Deposit and withdraw requests a user sends to their parent (agent), who approves or rejects
-- each once. SQLite twin of ../postgres/0003_payments.sql. Approving one runs the same transfer
-- as admin/user/transfer; the request keeps the ledger transaction it caused.
--
-- status: 'pending' → 'processing' (an approval has claimed it and is moving the chips) →
-- 'approved'; or 'pending' → 'rejected'. A failed approval puts it back to 'pending'.

CREATE TABLE payment_requests (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id             INTEGER NOT NULL REFERENCES users (id),
    kind                TEXT    NOT NULL CHECK (kind IN ('deposit', 'withdraw')),
    amount_minor        INTEGER NOT NULL CHECK (amount_minor > 0),
    status              TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'approved', 'rejected')),
    reference           TEXT,                                     -- deposit: the UTR / bank transaction reference
    account_holder      TEXT,                                     -- withdraw: where to pay
    bank_name           TEXT,
    account_number      TEXT,
    ifsc                TEXT,
    remark              TEXT    NOT NULL DEFAULT '',              -- the decider's note
    decided_by_user_id  INTEGER REFERENCES users (id),            -- set when claimed or rejected
    transaction_id      INTEGER REFERENCES ledger_transactions (id), -- the transfer an approval posted
    created_at_ms       INTEGER NOT NULL,
    decided_at_ms       INTEGER,
    CHECK (kind <> 'deposit' OR reference IS NOT NULL),
    CHECK (kind <> 'withdraw' OR (account_holder IS NOT NULL AND bank_name IS NOT NULL
                                  AND account_number IS NOT NULL AND ifsc IS NOT NULL)),
    CHECK ((status = 'approved') = (transaction_id IS NOT NULL))
);
CREATE INDEX payment_requests_user ON payment_requests (user_id, status);
CREATE INDEX payment_requests_status ON payment_requests (status, id);
-- One bank transfer can be claimed by one live deposit request: a UTR sent again while an
-- earlier request with it is pending or approved is refused (a rejected one may be sent again).
CREATE UNIQUE INDEX payment_requests_deposit_reference ON payment_requests (reference)
    WHERE kind = 'deposit' AND status <> 'rejected';
