-- A bettor's betting preferences, kept on the server so they follow the bettor to any device
-- (issue 32, quick betting): one-click betting and its stake, and which moves of a bookmaker's
-- rate or a fancy's line the bettor accepts when placing. No row: the defaults (one-click off,
-- exact rates). The other engine's 0029_user_preferences.sql is its twin.
CREATE TABLE user_preferences (
    user_id              BIGINT PRIMARY KEY REFERENCES users (id),
    one_click            BIGINT NOT NULL DEFAULT 0 CHECK (one_click IN (0, 1)),
    one_click_stake_minor BIGINT CHECK (one_click_stake_minor > 0),
    accept_rate_changes  TEXT NOT NULL DEFAULT 'exact' CHECK (accept_rate_changes IN ('exact', 'better', 'any')),
    updated_at_ms        BIGINT NOT NULL
);
