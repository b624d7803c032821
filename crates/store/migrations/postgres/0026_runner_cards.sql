-- A race card's facts about a runner (issue 32): its draw (a horse's stall, a greyhound's trap),
-- its jockey and its trainer, each as the feed's catalogue (Betfair's runner metadata) or an
-- operator gives it, and absent when nobody did: none is ever made up. The other engine's
-- 0026_runner_cards.sql is its twin.
CREATE TABLE runner_cards (
    runner_id     BIGINT NOT NULL PRIMARY KEY REFERENCES runners (id),
    draw          BIGINT CHECK (draw BETWEEN 1 AND 99),
    jockey        TEXT,
    trainer       TEXT,
    updated_at_ms BIGINT NOT NULL
);
