-- The live state of a match: its score and its result, as a feed, the demo or an operator last
-- set them (admin/match/score). SQLite twin of ../postgres/0007_match_state.sql.
--
-- One row per match that has any; a match without a row has neither. The score is the checked
-- score as JSON (backlay_core::score::ScoreInput: cricket innings, football goals and minute,
-- tennis sets and games, a race's placings), written whole each time, so a reader never sees
-- half of one update.

CREATE TABLE match_states (
    match_id        INTEGER PRIMARY KEY REFERENCES matches (id),
    score           TEXT,                                 -- JSON, NULL: no score yet
    result          TEXT,                                 -- "Chennai Super Kings won by 12 runs"; NULL: not over
    updated_at_ms   INTEGER NOT NULL
);
