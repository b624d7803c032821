-- The trading desk's spread per market (issue 28): on a bookmaker, how many rate points its lay
-- is posted above its back when the desk types a back rate; on a fancy, how many runs its YES
-- line is above its NO line when the desk types a NO line. Null: the type's default (bookmaker 5,
-- fancy 0; crates/store/src/markets.rs DEFAULT_*_SPREAD).
ALTER TABLE markets ADD COLUMN desk_spread INTEGER;
