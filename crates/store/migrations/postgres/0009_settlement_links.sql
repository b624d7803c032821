-- True bet records: a statement line of a settled or voided market opens the bets it settled,
-- and a bet's average matched price is read from its fills. PostgreSQL twin of
-- ../sqlite/0009_settlement_links.sql.

-- The market whose settlement or void posted this transaction (NULL for every other kind, and
-- for settlements posted before this migration, which named their market only in words).
ALTER TABLE ledger_transactions ADD COLUMN market_id BIGINT REFERENCES markets (id);

-- A bet's fills, from either side: the average matched price of every listed bet, and the
-- placement's Σ price × size, read them by bet instead of scanning the market's fills.
CREATE INDEX fills_back_bet ON fills (back_bet_id);
CREATE INDEX fills_lay_bet ON fills (lay_bet_id);
