-- Which door a session came in by: the web app's log-in ('web') or the bot API's identity calls
-- ('bot'). Only a bot session is kept alive by the bot API's keepAlive, and never past its
-- longest life (store::sessions::MAX_SESSION_LIFE_MS) from its log-in.
ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'web' CHECK (kind IN ('web', 'bot'));
