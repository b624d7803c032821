//! The sixteen in-house games of the sidebar's "Others" list, one module per game family,
//! and [`GameKind`], which names a game and dispatches to its rules.
//!
//! Every game has the same shape: a list of [`Market`]s (bet options with posted odds), a
//! deal procedure driven by the round's [`FairRng`], and a result that judges every market.
//! Card games shuffle a fresh pack each round (one 52-card deck unless the module says
//! otherwise) and deal from the top.
//!
//! ```
//! use backlay_casino::fair::{FairRng, ServerSeed};
//! use backlay_casino::games::GameKind;
//! use backlay_casino::market::payout;
//!
//! let game = GameKind::TeenPattiT20;
//! let seed = ServerSeed::from_bytes([9; 32]);
//! let deal = game.deal(&mut FairRng::new(&seed, "teen20-1"));
//! assert_eq!(deal.cards().len(), 6); // Player A and B, three cards each
//! let outcome = game.result(&deal);
//! let player_a = game.market(&[], "player-a").unwrap();
//! let back_minor = payout(&player_a, 100_00, &outcome);
//! assert!([0, 100_00, 198_00].contains(&back_minor)); // lost, tie (push) or won at 1.98
//! ```

use serde::{Serialize, Serializer};

use crate::cards::Card;
use crate::fair::FairRng;
use crate::market::{Deal, Market, Outcome};

pub mod andar_bahar;
pub mod baccarat;
pub mod dragon_tiger;
pub mod hi_low;
pub mod poker;
pub mod queen;
pub mod roulette;
pub mod single_card;
pub mod teen_patti;
pub mod trio;
pub mod two_card_teen_patti;
pub mod worli_matka;

/// One of the in-house games.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum GameKind {
    /// Teen Patti T20: Player A v Player B, with Pair Plus side bets ([`teen_patti`]).
    TeenPattiT20,
    /// Teen Patti 1 Day: Player A v Player B, with a Tie market ([`teen_patti`]).
    TeenPattiOneDay,
    /// Teen Patti Test: Tiger v Lion v Dragon ([`teen_patti`]).
    TeenPattiTest,
    /// Dragon Tiger 1 Day ([`dragon_tiger`]).
    DragonTiger,
    /// 2 Card Teen Patti ([`two_card_teen_patti`]).
    TwoCardTeenPatti,
    /// Hi-Low ([`hi_low`]).
    HiLow,
    /// Poker: Texas hold'em, two hands ([`poker`]).
    Poker,
    /// Queen: four totals race to 20 ([`queen`]).
    Queen,
    /// Baccarat, punto banco ([`baccarat`]).
    Baccarat,
    /// Amar Akbar Anthony ([`single_card`]).
    AmarAkbarAnthony,
    /// Bollywood casino ([`single_card`]).
    Bollywood,
    /// Trio ([`trio`]).
    Trio,
    /// Andar Bahar ([`andar_bahar`]).
    AndarBahar,
    /// Muflis Teen Patti: the lowest hand wins ([`teen_patti`]).
    MuflisTeenPatti,
    /// Roulette, single zero ([`roulette`]).
    Roulette,
    /// Worli Matka ([`worli_matka`]).
    WorliMatka,
}

impl GameKind {
    /// All games, in the sidebar's order.
    pub const ALL: [GameKind; 16] = [
        GameKind::TeenPattiT20,
        GameKind::TeenPattiOneDay,
        GameKind::TeenPattiTest,
        GameKind::DragonTiger,
        GameKind::TwoCardTeenPatti,
        GameKind::HiLow,
        GameKind::Poker,
        GameKind::Queen,
        GameKind::Baccarat,
        GameKind::AmarAkbarAnthony,
        GameKind::Bollywood,
        GameKind::Trio,
        GameKind::AndarBahar,
        GameKind::MuflisTeenPatti,
        GameKind::Roulette,
        GameKind::WorliMatka,
    ];

    /// The stable code used in URLs, the database and round ids.
    pub const fn code(self) -> &'static str {
        match self {
            GameKind::TeenPattiT20 => "teen20",
            GameKind::TeenPattiOneDay => "teen1day",
            GameKind::TeenPattiTest => "teentest",
            GameKind::DragonTiger => "dt1day",
            GameKind::TwoCardTeenPatti => "teen2card",
            GameKind::HiLow => "hilow",
            GameKind::Poker => "poker",
            GameKind::Queen => "queen",
            GameKind::Baccarat => "baccarat",
            GameKind::AmarAkbarAnthony => "aaa",
            GameKind::Bollywood => "bollywood",
            GameKind::Trio => "trio",
            GameKind::AndarBahar => "andarbahar",
            GameKind::MuflisTeenPatti => "muflis",
            GameKind::Roulette => "roulette",
            GameKind::WorliMatka => "worli",
        }
    }

    /// The game of `code`.
    pub fn from_code(code: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|game| game.code() == code)
    }

    /// The label in the sidebar's "Others" list, as the product spec writes it.
    pub const fn sidebar_label(self) -> &'static str {
        match self {
            GameKind::TeenPattiT20 => "TP T20",
            GameKind::TeenPattiOneDay => "TP 1 DAY",
            GameKind::TeenPattiTest => "TP TEST",
            GameKind::DragonTiger => "DT 1 DAY",
            GameKind::TwoCardTeenPatti => "TP 2 Card",
            GameKind::HiLow => "HILOW",
            GameKind::Poker => "POKER",
            GameKind::Queen => "QUEEN",
            GameKind::Baccarat => "BACCARAT",
            GameKind::AmarAkbarAnthony => "AMAR AKBAR ANTHONEY",
            GameKind::Bollywood => "BOLLYWOOD",
            GameKind::Trio => "TRIO",
            GameKind::AndarBahar => "ANDAR BAHAR",
            GameKind::MuflisTeenPatti => "MUFLIS TP",
            GameKind::Roulette => "ROULETTE",
            GameKind::WorliMatka => "WORLI MATAKA",
        }
    }

    /// The game's full name.
    pub const fn title(self) -> &'static str {
        match self {
            GameKind::TeenPattiT20 => "Teen Patti T20",
            GameKind::TeenPattiOneDay => "Teen Patti 1 Day",
            GameKind::TeenPattiTest => "Teen Patti Test",
            GameKind::DragonTiger => "Dragon Tiger 1 Day",
            GameKind::TwoCardTeenPatti => "2 Card Teen Patti",
            GameKind::HiLow => "Hi-Low",
            GameKind::Poker => "Poker (Texas hold'em)",
            GameKind::Queen => "Queen",
            GameKind::Baccarat => "Baccarat",
            GameKind::AmarAkbarAnthony => "Amar Akbar Anthony",
            GameKind::Bollywood => "Bollywood Casino",
            GameKind::Trio => "Trio",
            GameKind::AndarBahar => "Andar Bahar",
            GameKind::MuflisTeenPatti => "Muflis Teen Patti",
            GameKind::Roulette => "Roulette",
            GameKind::WorliMatka => "Worli Matka",
        }
    }

    /// How many cards of the deal are shown when betting opens (Hi-Low's base card, Andar
    /// Bahar's joker); the markets' odds may depend on them. Every other card stays secret
    /// until the deal.
    pub const fn open_card_count(self) -> usize {
        match self {
            GameKind::HiLow | GameKind::AndarBahar => 1,
            _ => 0,
        }
    }

    /// What the table calls its open cards: the name of their hand in the result (Hi-Low's
    /// "Base card", Andar Bahar's "Joker"), so a page can show them under the same name before
    /// and after the deal; `None` for the games that show none.
    pub const fn open_hand_name(self) -> Option<&'static str> {
        match self {
            GameKind::HiLow => Some("Base card"),
            GameKind::AndarBahar => Some("Joker"),
            _ => None,
        }
    }

    /// The markets posted for a round whose open cards are `open` (pass `&[]` for the games
    /// that show none, see [`GameKind::open_card_count`]). Hi-Low prices High and Low from the
    /// base card and leaves out a side that cannot win.
    pub fn markets(self, open: &[Card]) -> Vec<Market> {
        match self {
            GameKind::TeenPattiT20 => teen_patti::t20_markets(),
            GameKind::TeenPattiOneDay => teen_patti::one_day_markets(),
            GameKind::TeenPattiTest => teen_patti::test_markets(),
            GameKind::DragonTiger => dragon_tiger::markets(),
            GameKind::TwoCardTeenPatti => two_card_teen_patti::markets(),
            GameKind::HiLow => hi_low::markets(open),
            GameKind::Poker => poker::markets(),
            GameKind::Queen => queen::markets(),
            GameKind::Baccarat => baccarat::markets(),
            GameKind::AmarAkbarAnthony => single_card::amar_akbar_anthony_markets(),
            GameKind::Bollywood => single_card::bollywood_markets(),
            GameKind::Trio => trio::markets(),
            GameKind::AndarBahar => andar_bahar::markets(),
            GameKind::MuflisTeenPatti => teen_patti::muflis_markets(),
            GameKind::Roulette => roulette::markets(),
            GameKind::WorliMatka => worli_matka::markets(),
        }
    }

    /// The posted market `code` for a round whose open cards are `open`.
    pub fn market(self, open: &[Card], code: &str) -> Option<Market> {
        self.markets(open).into_iter().find(|market| market.code == code)
    }

    /// Deals a round from `rng`: the only source of chance in a round.
    pub fn deal(self, rng: &mut FairRng) -> Deal {
        match self {
            GameKind::TeenPattiT20 | GameKind::TeenPattiOneDay | GameKind::MuflisTeenPatti => {
                teen_patti::deal_two_players(rng)
            }
            GameKind::TeenPattiTest => teen_patti::deal_test(rng),
            GameKind::DragonTiger => dragon_tiger::deal(rng),
            GameKind::TwoCardTeenPatti => two_card_teen_patti::deal(rng),
            GameKind::HiLow => hi_low::deal(rng),
            GameKind::Poker => poker::deal(rng),
            GameKind::Queen => queen::deal(rng),
            GameKind::Baccarat => baccarat::deal(rng),
            GameKind::AmarAkbarAnthony => single_card::deal_standard(rng),
            GameKind::Bollywood => single_card::deal_bollywood(rng),
            GameKind::Trio => trio::deal(rng),
            GameKind::AndarBahar => andar_bahar::deal(rng),
            GameKind::Roulette => roulette::deal(rng),
            GameKind::WorliMatka => worli_matka::deal(rng),
        }
    }

    /// The cards shown when betting opens (see [`GameKind::open_card_count`]).
    pub fn open_cards(self, deal: &Deal) -> &[Card] {
        let cards = deal.cards();
        &cards[..self.open_card_count().min(cards.len())]
    }

    /// Judges a deal: the winner, the hands, and every market's verdict.
    ///
    /// # Panics
    /// If `deal` is not a deal of this game (the wrong shape or too few cards): deals come from
    /// [`GameKind::deal`] or [`crate::fair::verify`].
    pub fn result(self, deal: &Deal) -> Outcome {
        match self {
            GameKind::TeenPattiT20 => teen_patti::t20_result(deal),
            GameKind::TeenPattiOneDay => teen_patti::one_day_result(deal),
            GameKind::TeenPattiTest => teen_patti::test_result(deal),
            GameKind::DragonTiger => dragon_tiger::result(deal),
            GameKind::TwoCardTeenPatti => two_card_teen_patti::result(deal),
            GameKind::HiLow => hi_low::result(deal),
            GameKind::Poker => poker::result(deal),
            GameKind::Queen => queen::result(deal),
            GameKind::Baccarat => baccarat::result(deal),
            GameKind::AmarAkbarAnthony => single_card::amar_akbar_anthony_result(deal),
            GameKind::Bollywood => single_card::bollywood_result(deal),
            GameKind::Trio => trio::result(deal),
            GameKind::AndarBahar => andar_bahar::result(deal),
            GameKind::MuflisTeenPatti => teen_patti::muflis_result(deal),
            GameKind::Roulette => roulette::result(deal),
            GameKind::WorliMatka => worli_matka::result(deal),
        }
    }
}

/// Serialises as the game's code (`"teen20"`).
impl Serialize for GameKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// Shuffles a fresh copy of `pack` with `rng` and keeps the top `count` cards.
pub(crate) fn deal_from(rng: &mut FairRng, pack: Vec<Card>, count: usize) -> Vec<Card> {
    let mut pack = pack;
    rng.shuffle(&mut pack);
    pack.truncate(count);
    pack
}

/// The cards of a card deal, which must have at least `count`.
///
/// # Panics
/// If the deal is not a card deal of at least `count` cards.
pub(crate) fn cards(deal: &Deal, count: usize) -> &[Card] {
    match deal {
        Deal::Cards(cards) if cards.len() >= count => cards,
        other => panic!("expected a deal of at least {count} cards, got {other:?}"),
    }
}

/// The odds of `hundredths / 100`, as a shorter name for the game tables.
pub(crate) const fn odds(hundredths: u32) -> crate::market::Odds {
    crate::market::Odds::from_hundredths(hundredths)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair::ServerSeed;
    use std::collections::HashSet;

    #[test]
    fn codes_are_unique_and_round_trip() {
        let codes: HashSet<_> = GameKind::ALL.iter().map(|g| g.code()).collect();
        assert_eq!(codes.len(), 16);
        for game in GameKind::ALL {
            assert_eq!(GameKind::from_code(game.code()), Some(game));
        }
        assert_eq!(GameKind::from_code("blackjack"), None);
    }

    #[test]
    fn the_open_cards_are_the_results_first_hand_under_its_name() {
        let seed = ServerSeed::from_bytes([5; 32]);
        for game in GameKind::ALL {
            let deal = game.deal(&mut FairRng::new(&seed, game.code()));
            let open = game.open_cards(&deal);
            match game.open_hand_name() {
                None => assert!(open.is_empty(), "{game:?} shows cards it does not name"),
                Some(name) => {
                    let first = &game.result(&deal).hands[0];
                    assert_eq!((first.name.as_str(), first.cards.as_slice()), (name, open));
                }
            }
        }
    }

    #[test]
    fn every_game_posts_unique_market_codes_and_judges_its_own_deals() {
        let seed = ServerSeed::from_bytes([3; 32]);
        for game in GameKind::ALL {
            for round in 0..50 {
                let deal = game.deal(&mut FairRng::new(&seed, &format!("{}-{round}", game.code())));
                let markets = game.markets(game.open_cards(&deal));
                assert!(!markets.is_empty(), "{game:?}");
                let codes: HashSet<_> = markets.iter().map(|m| m.code.as_str()).collect();
                assert_eq!(codes.len(), markets.len(), "{game:?} repeats a market code");
                let outcome = game.result(&deal);
                assert!(!outcome.winner.is_empty());
                for (code, _) in outcome.settled_markets() {
                    assert!(codes.contains(code), "{game:?} judged unknown market {code}");
                }
            }
        }
    }
}
