-- The in-house casino's lobby (issue 14): an operator's own image for a game, and honest
-- categories. PostgreSQL twin of ../sqlite/0010_casino_lobby.sql.

-- The uploaded image (uploaded_images.name, served at /upload/image/<name>) shown instead of
-- the game's built-in art (/casino/art/<kind>.svg); NULL shows the art. Removing the image
-- brings the art back rather than leaving the tile pointing at nothing.
ALTER TABLE casino_games ADD COLUMN image_name TEXT REFERENCES uploaded_images (name) ON DELETE SET NULL;

-- The in-house tables are dealt by the computer, so none belongs under "Live Casino", where
-- 0005 put ten of them: the card tables go to Card Games and roulette to Table Games, which
-- take Live Casino's place in the order (ties are shown by id: cardgames, then tablegames).
-- Teen Patti and Matka keep theirs. A database that already has these ids keeps its rows.
INSERT INTO casino_sports (sport_id, name, is_active, display_order)
SELECT 'cardgames', 'Card Games', 1, COALESCE((SELECT display_order FROM casino_sports WHERE sport_id = 'livecasino'), 2) WHERE true
ON CONFLICT (sport_id) DO NOTHING;
INSERT INTO casino_sports (sport_id, name, is_active, display_order)
SELECT 'tablegames', 'Table Games', 1, COALESCE((SELECT display_order FROM casino_sports WHERE sport_id = 'livecasino'), 2) WHERE true
ON CONFLICT (sport_id) DO NOTHING;

UPDATE casino_games SET series_id = 'cardgames'
WHERE series_id = 'livecasino'
  AND kind IN ('dt1day', 'hilow', 'poker', 'queen', 'baccarat', 'aaa', 'bollywood', 'trio', 'andarbahar');
UPDATE casino_games SET series_id = 'tablegames' WHERE series_id = 'livecasino' AND kind = 'roulette';

-- Live Casino goes once no game is left in it.
DELETE FROM casino_sports
WHERE sport_id = 'livecasino' AND NOT EXISTS (SELECT 1 FROM casino_games WHERE series_id = 'livecasino');
