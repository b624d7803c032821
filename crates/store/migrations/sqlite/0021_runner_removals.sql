-- Non-runners (crates/core/src/exchange/non_runner.rs): a runner withdrawn from a market, with
-- its reduction factor in basis points of a whole (1250 = 12.5 %) and the last fill of the market
-- when it was removed. Fills up to that one, on the other runners, had their backer's profit
-- reduced by it (fills.backer_profit_minor; fills.price stays the price matched); the runner's own
-- fills and bets are void (runners.status = 'removed', bets.status = 'void').
CREATE TABLE runner_removals (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    market_id           INTEGER  NOT NULL REFERENCES markets (id),
    runner_id           INTEGER  NOT NULL REFERENCES runners (id) UNIQUE,
    reduction_factor_bp INTEGER NOT NULL CHECK (reduction_factor_bp BETWEEN 0 AND 10000),
    last_fill_id        INTEGER,
    removed_at_ms       INTEGER  NOT NULL
);
CREATE INDEX runner_removals_market ON runner_removals (market_id, id);
