-- A runner's fills by time (issue 32: the price chart, `market/priceHistory`, reads one runner's
-- fills grouped into intervals of time; the full ladder's last traded price is the engine's). The
-- market's index grows into (market_id, runner_id, created_at_ms) rather than a second index
-- beside it: every read by market alone still goes by its first column, and each fill written
-- keeps one index of its market to update, not two. The other engine's 0027_fills_by_runner.sql
-- is its twin.
DROP INDEX fills_market;
CREATE INDEX fills_market_runner_time ON fills (market_id, runner_id, created_at_ms);
