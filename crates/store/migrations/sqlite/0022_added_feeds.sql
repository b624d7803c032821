-- Live feeds an admin added from the console (admin/feed/add, crates/feed-runtime): kept so that
-- the server (a cluster's leading node) starts them again after a restart, paused if they were,
-- and never again once removed. Feeds given on the command line (--feed) are not here.
CREATE TABLE added_feeds (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    source          TEXT    NOT NULL,                 -- betfair-stream:HOST:PORT
    markets         TEXT    NOT NULL,                 -- the market filter, items joined by commas
    state           TEXT    NOT NULL CHECK (state IN ('running', 'paused', 'removed')),
    added_by        INTEGER NOT NULL REFERENCES users (id),
    added_at_ms     INTEGER NOT NULL
);
