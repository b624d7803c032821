-- Security auth: a TOTP (RFC 6238) second factor per user, and the short-lived log-in
-- challenges that stand between a right password and a session. SQLite twin of
-- ../postgres/0004_security_auth.sql.

-- The authenticator secret (base32, 20 random bytes) once security auth is on.
ALTER TABLE users ADD COLUMN totp_secret TEXT;
-- A secret shown by user/security/setup and not yet confirmed with a code; setup replaces it.
ALTER TABLE users ADD COLUMN totp_pending_secret TEXT;
ALTER TABLE users ADD COLUMN totp_enabled INTEGER NOT NULL DEFAULT 0 CHECK (totp_enabled IN (0, 1));
-- The 30-second step of the last code accepted: a code of that step or an earlier one is a replay.
ALTER TABLE users ADD COLUMN totp_last_step INTEGER;

-- A right password for a user with security auth on opens one of these instead of a session;
-- user/verifyOtp trades it, with a right code, for the session. Only the token's SHA-256 is kept.
CREATE TABLE login_otp_challenges (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id         INTEGER NOT NULL REFERENCES users (id),
    token_hash      TEXT    NOT NULL UNIQUE,
    client_ip       TEXT,
    created_at_ms   INTEGER NOT NULL,
    expires_at_ms   INTEGER NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0)   -- wrong codes so far
);
CREATE INDEX login_otp_challenges_user ON login_otp_challenges (user_id);
CREATE INDEX login_otp_challenges_expires ON login_otp_challenges (expires_at_ms);
