//! Each game's rules as a player reads them: the same rules as the game's module docs, with the
//! posted odds and the house edge of every market from docs/casino.md.
//!
//! The server sends these lines with the game list (`casino/getCasinoList`), and the web shows
//! them on the table's Rules panel and on the rules page's Casino tab, so there is one text.
//! `tests/rules.rs` checks that every posted odds figure and every house edge in docs/casino.md
//! appears in its game's rules, so the text cannot drift from the tables.
//!
//! ```
//! use backlay_casino::games::GameKind;
//!
//! let rules = GameKind::DragonTiger.rules();
//! assert!(rules.iter().any(|line| line.contains("16.50")));
//! ```

use crate::games::GameKind;

const TEEN_PATTI_HANDS: &str = "Hands, best first: trail (three of a rank, A-A-A best), pure sequence (three in rank order, one suit), sequence (three in rank order, mixed suits), colour (one suit), pair, high card.";
const TEEN_PATTI_SEQUENCES: &str = "Sequences rank A-K-Q highest, then A-2-3, then K-Q-J, Q-J-10 … down to 4-3-2; K-A-2 is not a sequence. Otherwise the ace is high.";
const TEEN_PATTI_TIES: &str = "Within a hand type: trails by rank; sequences by the order above; a pair by its rank, then the odd card; colour and high card by the highest card, then the second, then the third. Suits never rank: equal hands tie.";

const TEEN_PATTI_T20: &[&str] = &[
    "One shuffled 52-card deck. Player A and Player B get three cards each, dealt A, B, A, B, A, B.",
    TEEN_PATTI_HANDS,
    TEEN_PATTI_SEQUENCES,
    TEEN_PATTI_TIES,
    "Player A and Player B pay 1.98; on a tie both bets are pushed (the stake comes back). House edge 1.00%.",
    "Pair Plus A and Pair Plus B pay on that player's own hand, whoever wins: pair 2.00, colour 5.00, sequence 7.00, trail 31.00, pure sequence 41.00; a high card loses. House edge 2.32%.",
];

const TEEN_PATTI_ONE_DAY: &[&str] = &[
    "One shuffled 52-card deck. Player A and Player B get three cards each, dealt A, B, A, B, A, B.",
    TEEN_PATTI_HANDS,
    TEEN_PATTI_SEQUENCES,
    TEEN_PATTI_TIES,
    "Player A and Player B pay 1.98; on a tie both bets are pushed (the stake comes back). House edge 1.00%.",
    "Tie pays 875.00 when both hands are equal. House edge 3.18%.",
];

const TEEN_PATTI_TEST: &[&str] = &[
    "One shuffled 52-card deck. Tiger, Lion and Dragon get three cards each, dealt Tiger, Lion, Dragon in turn, three times.",
    TEEN_PATTI_HANDS,
    TEEN_PATTI_SEQUENCES,
    TEEN_PATTI_TIES,
    "The best hand wins: Tiger, Lion and Dragon pay 2.90. Players sharing the best hand are pushed (the stake comes back); the others lose. House edge about 3.37% (three-way ties estimated by simulation).",
];

const DRAGON_TIGER: &[&str] = &[
    "One shuffled 52-card deck. The first card is Dragon's, the second Tiger's; the higher card wins.",
    "Cards rank by value only, ace lowest: A (1), 2 … 10, J (11), Q (12), K (13). Suits never rank.",
    "Dragon and Tiger pay 2.00; on a tie Dragon and Tiger bets lose half the stake. House edge 2.94%.",
    "Tie pays 16.50 when both cards have the same value. House edge 2.94%.",
    "Dragon Even and Tiger Even pay 2.10 when that card's value is even (2 4 6 8 10 Q). House edge 3.08%.",
    "Dragon Odd and Tiger Odd pay 1.80 when that card's value is odd (A 3 5 7 9 J K). House edge 3.08%.",
    "Dragon Red, Dragon Black, Tiger Red and Tiger Black pay 1.94 on that card's colour. House edge 3.00%.",
];

const TWO_CARD_TEEN_PATTI: &[&str] = &[
    "One shuffled 52-card deck. Player A and Player B get two cards each, dealt A, B, A, B.",
    "Hands, best first: pair (A-A best), pure sequence (consecutive ranks, one suit), sequence (consecutive ranks, mixed suits), colour (one suit), high card.",
    "Sequences rank A-K highest, then A-2, then K-Q, Q-J … down to 3-2. Otherwise aces are high; colour and high card compare the higher card, then the lower. Suits never rank: equal hands tie.",
    "Player A and Player B pay 1.98; on a tie both bets are pushed (the stake comes back). House edge 1.00%.",
    "Pair A and Pair B pay 16.50 when that player's two cards are a pair. House edge 2.94%.",
];

const HI_LOW: &[&str] = &[
    "One shuffled 52-card deck. The first card, the base card, is shown when betting opens; the next card, dealt after betting closes, decides.",
    "Values: A (1) lowest, 2 … 10, J (11), Q (12), K (13) highest. Suits never rank.",
    "High wins if the next card is higher than the base card, Low if it is lower. A next card of the same value loses both.",
    "The odds depend on the base card: with n of the 51 unseen cards winning, the odds are 97 × 51 / n hundredths, rounded down. On a base 7, High and Low both pay 2.06. A side that cannot win (High on a king, Low on an ace) is not offered.",
    "House edge 3.06% to 3.53%, depending on the base card.",
];

const POKER: &[&str] = &[
    "Texas hold'em, two hands, all cards dealt at once from one shuffled 52-card deck: two hole cards each (A, B, A, B), then five community cards.",
    "Each hand is the best five of its player's seven cards: straight flush, four of a kind, full house, flush, straight, three of a kind, two pair, one pair, high card.",
    "The ace is high, except in the wheel A-2-3-4-5, the lowest straight. Ties break on the ranks that make the hand, then the kickers; suits never rank.",
    "Player A and Player B pay 1.98; an exact tie pushes both bets (the stake comes back). House edge about 0.96% (the tie chance estimated by simulation).",
];

const QUEEN: &[&str] = &[
    "Four boxes, Total 0, Total 1, Total 2 and Total 3, start with 0, 1, 2 and 3 points.",
    "Cards from one shuffled 52-card deck go to the boxes in turn, Total 0 first, each adding its value: A = 1, 2 … 10 as marked, J = 11, Q = 12, K = 13.",
    "The first box to reach 20 or more wins, and dealing stops.",
    "Total 0 pays 2.88 (house edge about 3.56%), Total 1 3.60 (about 3.57%), Total 2 4.40 (about 3.61%), Total 3 5.41 (about 3.58%); the chances are estimated from 4 000 000 simulated rounds.",
];

const BACCARAT: &[&str] = &[
    "Punto banco from a fresh 8-deck shoe each round. Cards go Player, Banker, Player, Banker.",
    "Points: A = 1, 2–9 as marked, 10 J Q K = 0; a hand's total is its points' sum modulo 10. The total closer to 9 wins.",
    "A two-card 8 or 9 (a natural) on either side: both stand. Otherwise Player draws a third card on 0–5 and stands on 6–7.",
    "If Player stood, Banker draws on 0–5. If Player drew a card worth p, Banker draws on 0–2 always, on 3 unless p is 8, on 4 if p is 2–7, on 5 if 4–7, on 6 if 6–7, and never on 7.",
    "Player pays 2.00 (house edge 1.24%); Banker pays 1.95, 1:1 less 5% commission (house edge 1.06%); both are pushed on a tie.",
    "Tie pays 10.00 (9:1). House edge 4.84%.",
    "Player Pair and Banker Pair pay 13.00 when that hand's first two cards share a rank. House edge 2.89%.",
];

const AMAR_AKBAR_ANTHONY: &[&str] = &[
    "One card from a shuffled 52-card deck. Values: A = 1, 2 … 10, J = 11, Q = 12, K = 13.",
    "Amar (A to 6) pays 2.10, Akbar (7 to 10) 3.15, Anthony (J, Q, K) 4.20. House edge 3.08%.",
    "Even (2 4 6 8 10 Q) pays 2.10, Odd (A 3 5 7 9 J K) 1.80. House edge 3.08%.",
    "Red and Black pay 1.94. House edge 3.00%.",
    "Under 7 (A to 6) and Over 7 (8 to K) pay 2.10; a 7 loses both. House edge 3.08%.",
    "Each rank, Card A … Card K, pays 12.60. House edge 3.08%.",
];

const BOLLYWOOD: &[&str] = &[
    "One card from a shuffled 16-card pack of the jacks, queens, kings and aces of the four suits.",
    "Don (any ace) and Amar Akbar Anthony (any king) pay 3.85. House edge 3.75%.",
    "Sahib Bibi aur Ghulam (Q♠ or Q♣), Kis Kisko Pyaar Karoon (Q♥ or Q♦), Dharam Veer (J♠ or J♣) and Ghulam (J♥ or J♦) pay 7.75. House edge 3.13%.",
    "Red and Black pay 1.94. House edge 3.00%.",
];

const TRIO: &[&str] = &[
    "Three cards from a shuffled 52-card deck. Values: A = 1, 2 … 10, J = 11, Q = 12, K = 13; the hand types are teen patti's.",
    "Total Over 21 (22 or more) and Total Under 21 (20 or less) pay 2.06; a total of 21 loses both. House edge 3.06%.",
    "Judgement 1 2 4 (any A, 2 or 4) and Judgement J Q K (any J, Q or K) pay 1.75. House edge 3.24%.",
    "Two Red Only and Two Black Only (exactly two cards of that colour) pay 2.54 (house edge 2.88%); Two Odd Only pays 2.36 (3.12%); Two Even Only 2.77 (3.14%).",
    "Pair (not a trail) pays 5.72 (house edge 3.10%); Colour 19.55 (3.05%); Sequence in mixed suits 29.75 (3.08%); Trail 412.00 (3.06%); Pure Sequence 446.00 (3.13%).",
];

const ANDAR_BAHAR: &[&str] = &[
    "One shuffled 52-card deck. The first card, the joker, is shown when betting opens.",
    "After betting closes, cards go to Andar and Bahar in turn, Andar first, until one matches the joker's rank; that side wins. Suits do not matter.",
    "Andar pays 1.90 (house edge 2.15%); Bahar pays 2.00 (house edge 3.00%). Andar draws first, so it wins a little more often.",
];

const MUFLIS_TEEN_PATTI: &[&str] = &[
    "Dealt as Teen Patti T20: Player A and Player B get three cards each from one shuffled 52-card deck, dealt A, B, A, B, A, B.",
    "The lowest hand wins: the teen patti order is reversed entirely, so 5-3-2 in mixed suits is the best Muflis hand and A-A-A the worst.",
    "Teen patti order, best first: trail, pure sequence, sequence (A-K-Q highest, then A-2-3, then K-Q-J … 4-3-2), colour, pair, high card. Suits never rank.",
    "Player A and Player B pay 1.98; on a tie both bets are pushed (the stake comes back). House edge 1.00%.",
];

const ROULETTE: &[&str] = &[
    "Single-zero roulette: 37 pockets, 0 to 36, each as likely.",
    "A bet on k numbers pays 36 / k: Straight (one number) 36.00, Split (two neighbours, and 0-1, 0-2, 0-3) 18.00, Street (a row of three, and 0-1-2, 0-2-3) 12.00, Corner (four, and 0-1-2-3) 9.00, Six Line (two rows) 6.00.",
    "Dozen (1–12, 13–24, 25–36) and Column pay 3.00; Red, Black, Odd, Even, Low (1–18) and High (19–36) pay 2.00.",
    "Red: 1 3 5 7 9 12 14 16 18 19 21 23 25 27 30 32 34 36; the other numbers 1–36 are black. Zero loses every outside bet.",
    "House edge 2.70% (1/37) on every bet.",
];

const WORLI_MATKA: &[&str] = &[
    "Two draws, open then close, of three digits each; every digit is drawn independently from 0 to 9.",
    "A draw's panna is its digits in ascending order with 0 counted as 10 (2, 0, 1 gives 120); its single is the last digit of the digits' sum; the jodi is the open single then the close single. The result reads open panna - jodi - close panna, e.g. 120-38-567.",
    "Open Single and Close Single 0–9 pay 9.70 (house edge 3.00%); Jodi 00–99 pays 97.00 (house edge 3.00%).",
    "Open Panna and Close Panna pay 160.00 for a single patti (three different digits), 320.00 for a double patti (two alike) and 960.00 for a triple patti (all alike). House edge 4.00%.",
];

impl GameKind {
    /// The game's rules for players, one paragraph a line: how the cards are dealt, how the
    /// result is decided, and what each market pays with its house edge (docs/casino.md).
    pub const fn rules(self) -> &'static [&'static str] {
        match self {
            GameKind::TeenPattiT20 => TEEN_PATTI_T20,
            GameKind::TeenPattiOneDay => TEEN_PATTI_ONE_DAY,
            GameKind::TeenPattiTest => TEEN_PATTI_TEST,
            GameKind::DragonTiger => DRAGON_TIGER,
            GameKind::TwoCardTeenPatti => TWO_CARD_TEEN_PATTI,
            GameKind::HiLow => HI_LOW,
            GameKind::Poker => POKER,
            GameKind::Queen => QUEEN,
            GameKind::Baccarat => BACCARAT,
            GameKind::AmarAkbarAnthony => AMAR_AKBAR_ANTHONY,
            GameKind::Bollywood => BOLLYWOOD,
            GameKind::Trio => TRIO,
            GameKind::AndarBahar => ANDAR_BAHAR,
            GameKind::MuflisTeenPatti => MUFLIS_TEEN_PATTI,
            GameKind::Roulette => ROULETTE,
            GameKind::WorliMatka => WORLI_MATKA,
        }
    }
}
