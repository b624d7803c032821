-- The bettor's Bet History and Profit & Loss (issue 32): when each bet closed, and the links
-- from a ledger transaction to the casino play it moved money for, looked up by the P&L report.
-- SQLite twin of ../postgres/0028_bet_history.sql.

-- When the bet was last closed, in whole or in part: its market settled or voided (a runner
-- withdrawn voids its bets), or its unmatched part cancelled or lapsed. NULL while nothing of
-- it has closed. Bet History lists a user's closed bets by it, newest first.
ALTER TABLE bets ADD COLUMN closed_at_ms INTEGER;
-- Bets closed before this migration: their market's settling time where it has one; one
-- cancelled or lapsed before it takes its placing time, since when it closed was not kept.
UPDATE bets SET closed_at_ms = COALESCE(
    (SELECT m.settled_at_ms FROM markets m WHERE m.id = bets.market_id AND bets.status IN ('settled', 'void')),
    created_at_ms)
WHERE status IN ('settled', 'void') OR cancelled_minor > 0 OR lapsed_minor > 0;
CREATE INDEX bets_user_closed ON bets (user_id, closed_at_ms);

-- A casino ledger transaction to its round: a stake's (casino_bets.transaction_id), a round's
-- payouts (casino_rounds.transaction_id), a provider's wallet call
-- (wallet_transactions.ledger_transaction_id).
CREATE INDEX casino_bets_transaction ON casino_bets (transaction_id);
CREATE INDEX casino_rounds_transaction ON casino_rounds (transaction_id);
CREATE INDEX wallet_transactions_ledger ON wallet_transactions (ledger_transaction_id);
