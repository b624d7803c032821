//! Tennis, game by game: best of three sets with a tie-break at 6-6, each player holding
//! serve with a fixed chance, and the match price worked out exactly over every way the
//! remaining games can go.

use crate::rng::DemoRng;

/// A tennis match, game by game.
#[derive(Clone, Debug)]
pub struct Tennis {
    rng: DemoRng,
    sets: [u32; 2],
    games: [u32; 2],
    server: usize,
    /// Each player's chance of holding serve.
    hold: [f64; 2],
}

impl Tennis {
    /// `edge` is player 0's pre-match log-odds.
    pub fn new(seed: u64, edge: f64) -> Tennis {
        let mut rng = DemoRng::new(seed);
        let tilt = 0.06 * edge.tanh();
        let server = rng.below(2) as usize;
        Tennis { rng, sets: [0, 0], games: [0, 0], server, hold: [0.80 + tilt, 0.80 - tilt] }
    }

    pub fn sets(&self) -> [u32; 2] {
        self.sets
    }

    pub fn games(&self) -> [u32; 2] {
        self.games
    }

    pub fn winner(&self) -> Option<usize> {
        (0..2).find(|side| self.sets[*side] == 2)
    }

    /// Who serves the next game (0 or 1).
    pub fn server(&self) -> usize {
        self.server
    }

    /// Plays a game (or the tie-break); returns who won it, `None` once the match is over.
    pub fn play_game(&mut self) -> Option<usize> {
        if self.winner().is_some() {
            return None;
        }
        let p0 = self.game_chance(self.games, self.server);
        let won_by = if self.rng.chance(p0) { 0 } else { 1 };
        (self.sets, self.games) = after_game(self.sets, self.games, won_by);
        self.server = 1 - self.server;
        Some(won_by)
    }

    /// Player 0's chance of winning the next game: holding or breaking serve, or the
    /// tie-break at 6-6.
    fn game_chance(&self, games: [u32; 2], server: usize) -> f64 {
        if games == [6, 6] {
            (0.5 + (self.hold[0] - self.hold[1])).clamp(0.05, 0.95)
        } else if server == 0 {
            self.hold[0]
        } else {
            1.0 - self.hold[1]
        }
    }

    /// Player 0's chance of winning the match from here, exactly, over every way the
    /// remaining games can go.
    pub fn win_probability(&self) -> f64 {
        let mut memo = [None; 2 * 2 * 8 * 8 * 2];
        self.chance_from(self.sets, self.games, self.server, &mut memo)
    }

    fn chance_from(
        &self,
        sets: [u32; 2],
        games: [u32; 2],
        server: usize,
        memo: &mut [Option<f64>; 512],
    ) -> f64 {
        if sets[0] == 2 {
            return 1.0;
        }
        if sets[1] == 2 {
            return 0.0;
        }
        let key = ((((sets[0] * 2 + sets[1]) * 8 + games[0]) * 8 + games[1]) * 2) as usize + server;
        if let Some(known) = memo[key] {
            return known;
        }
        let p = self.game_chance(games, server);
        let (won_sets, won_games) = after_game(sets, games, 0);
        let (lost_sets, lost_games) = after_game(sets, games, 1);
        let chance = p * self.chance_from(won_sets, won_games, 1 - server, memo)
            + (1.0 - p) * self.chance_from(lost_sets, lost_games, 1 - server, memo);
        memo[key] = Some(chance);
        chance
    }
}

/// The score after `winner` takes a game: a set goes at 6 with two clear, or 7.
fn after_game(mut sets: [u32; 2], mut games: [u32; 2], winner: usize) -> ([u32; 2], [u32; 2]) {
    games[winner] += 1;
    let (mine, theirs) = (games[winner], games[1 - winner]);
    if (mine >= 6 && mine >= theirs + 2) || mine == 7 {
        sets[winner] += 1;
        games = [0, 0];
    }
    (sets, games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tennis_is_best_of_three_and_priced_exactly() {
        let even = Tennis::new(2, 0.0);
        assert!((even.win_probability() - 0.5).abs() < 0.02, "{}", even.win_probability());
        let mut game = Tennis::new(11, 0.5);
        assert!(game.win_probability() > 0.55);
        let mut games = 0;
        while game.play_game().is_some() {
            games += 1;
            let p = game.win_probability();
            assert!((0.0..=1.0).contains(&p));
        }
        let winner = game.winner().unwrap();
        assert_eq!(game.sets()[winner], 2);
        assert!(game.sets()[1 - winner] <= 1);
        assert!((12..=39).contains(&games), "{games} games");
        assert_eq!(game.win_probability(), if winner == 0 { 1.0 } else { 0.0 });
        // A set and a break up is a strong position.
        let mut ahead = Tennis::new(2, 0.0);
        ahead.sets = [1, 0];
        ahead.games = [3, 1];
        assert!(ahead.win_probability() > 0.85);
    }
}
