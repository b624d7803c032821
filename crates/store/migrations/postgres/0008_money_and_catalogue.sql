-- Where bettors pay and are paid, the casino categories as data, and the operator's uploaded
-- images. PostgreSQL twin of ../sqlite/0008_money_and_catalogue.sql.
--
-- payment_details: what an agent or the operator shows its clients on the deposit page (a UPI
-- id, for the QR code, and/or a bank account). A client reads its parent's, or the nearest
-- ancestor's that set any, or the operator's (docs/api.md, "Payments").
CREATE TABLE payment_details (
    user_id         BIGINT  PRIMARY KEY REFERENCES users (id),
    upi_id          TEXT,                                 -- e.g. backlay.agent@okaxis
    upi_name        TEXT,                                 -- the payee name the UPI app shows
    account_name    TEXT,
    account_number  TEXT,
    ifsc            TEXT,
    bank_name       TEXT,
    updated_at_ms   BIGINT  NOT NULL,
    CHECK (upi_id IS NOT NULL OR account_number IS NOT NULL),
    CHECK ((account_number IS NULL) = (account_name IS NULL)
           AND (account_number IS NULL) = (ifsc IS NULL)
           AND (account_number IS NULL) = (bank_name IS NULL))
);

-- A bettor's own bank account, saved with each withdrawal (or on its own) and offered again.
CREATE TABLE saved_bank_accounts (
    user_id         BIGINT  PRIMARY KEY REFERENCES users (id),
    account_holder  TEXT    NOT NULL,
    bank_name       TEXT    NOT NULL,
    account_number  TEXT    NOT NULL,
    ifsc            TEXT    NOT NULL,
    updated_at_ms   BIGINT  NOT NULL
);

-- The spec's casino categories (casino/getCasinoSport). `backlay admin casino category …` edits
-- them; a database that already has them (an older demo seeded them) keeps its own.
INSERT INTO casino_sports (sport_id, name, is_active, display_order) VALUES
    ('teenpatti', 'Teen Patti', 1, 1),
    ('livecasino', 'Live Casino', 1, 2),
    ('worldcasino', 'World Casino', 1, 3),
    ('matka', 'Matka', 1, 4)
ON CONFLICT (sport_id) DO NOTHING;

-- Logos and favicons the operator uploaded, served at /upload/image/<name>.
CREATE TABLE uploaded_images (
    name            TEXT    PRIMARY KEY,                  -- letters, digits, '-', '_', one '.' and the extension
    content_type    TEXT    NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon')),
    bytes           BYTEA   NOT NULL,
    size_bytes      BIGINT  NOT NULL CHECK (size_bytes > 0 AND size_bytes <= 524288),
    uploaded_at_ms  BIGINT  NOT NULL
);
