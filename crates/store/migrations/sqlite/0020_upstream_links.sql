-- What an upstream feed (a Betfair Exchange Stream, crates/feed-runtime) calls each match, market
-- and runner it created here: 'betfair:31389771' (an event), '1.197931750' (a market),
-- '1.197931750:37947503' (a runner). Written in the same transaction as the row it names, so a
-- restart finds what it made and never makes it twice.
CREATE TABLE upstream_links (
    kind            TEXT    NOT NULL CHECK (kind IN ('match', 'market', 'runner')),
    upstream_ref    TEXT    NOT NULL,
    local_id        INTEGER NOT NULL,
    PRIMARY KEY (kind, upstream_ref)
);
CREATE INDEX upstream_links_local ON upstream_links (kind, local_id);
