-- Bot API (issue 17): Betfair's per-order references, stored with each bet so that a bot
-- (flumine) finds its orders again in listCurrentOrders, listClearedOrders and the order
-- stream. customer_order_ref is at most 32 characters, customer_strategy_ref at most 15
-- (Betfair's limits, checked by the API); both are null for bets placed elsewhere.
ALTER TABLE bets ADD COLUMN customer_order_ref TEXT;
ALTER TABLE bets ADD COLUMN customer_strategy_ref TEXT;
