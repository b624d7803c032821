//! The probability and house edge of every market, computed from the games' own code.
//!
//! A market's **house edge** is the share of each stake the house keeps on average:
//! `edge = 1 − E[return] / stake`, where the return is what [`crate::market::payout`] would
//! give back before rounding (stake × odds on a win, the stake on a push, half on a half loss,
//! nothing on a loss). Every market's edge is positive.
//!
//! Most games are computed **exactly**, by running the game's own [`GameKind::result`] over
//! every equally likely deal (or a weighted set of representative deals) and adding up each
//! market's return as an exact fraction:
//!
//! | game | how |
//! |---|---|
//! | Dragon Tiger, Hi-Low, Trio, Amar Akbar Anthony, Bollywood | every ordered deal of the cards used (2 652, 2 652, 132 600, 52, 16) |
//! | Roulette | the 37 pockets |
//! | Worli Matka | every open draw with each close single (10 000 deals), then every close draw (1 000): the digits are independent, so this weighs every market exactly as the 10⁶ draws would |
//! | Baccarat | the 10⁶ sequences of six point classes (A–9 and the 0-point cards), weighted by how many 8-deck cards each is, for Player, Banker, Tie; the 13⁴ rank sequences of the first four cards for the pairs |
//! | Andar Bahar | the position of the first match, 1–49, weighted by the ways to place the other two matching cards after it |
//! | Teen Patti T20, 1 Day, Muflis; 2 Card Teen Patti | ties counted over all pairs of disjoint hands; by symmetry A and B win the rest equally; Pair Plus and Pair over every hand |
//!
//! Three games have no practical exact form, so their rows are **estimates** from a fixed set
//! of simulated rounds (deterministic seeds), with a standard error: Queen (the race's odds
//! depend on which cards are gone), Poker (the tie chance over 52·51·…·44 deals) and Teen
//! Patti Test (three hands). For Poker the edge is known in closed form anyway: with 1.98 on a
//! win and a push on a tie, `edge = 0.01 × (1 − P(tie))`, between 0.9% and 1%.
//!
//! ```
//! use backlay_casino::games::GameKind;
//! use backlay_casino::house_edge::game_table;
//!
//! let rows = game_table(GameKind::Roulette, 0);
//! let straight = rows.iter().find(|r| r.family == "straight").unwrap();
//! assert_eq!(straight.win.to_fixed(6), "0.027027"); // 1/37
//! assert_eq!(straight.edge.to_percent(2), "2.70%"); // 1 − 36/37
//! assert!(rows.iter().all(|r| r.edge.is_positive()));
//! ```

use std::collections::BTreeMap;

use crate::cards::{court_and_ace_pack, standard_deck, Card, Rank, Suit};
use crate::fair::{FairRng, ServerSeed};
use crate::games::{teen_patti, two_card_teen_patti, GameKind};
use crate::market::{return_per_100, Deal, Market, Verdict};

/// A fraction `num / den` (den > 0), exact.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ratio {
    /// Numerator.
    pub num: i128,
    /// Denominator, positive.
    pub den: i128,
}

impl Ratio {
    fn new(num: i128, den: i128) -> Ratio {
        assert!(den > 0, "a ratio needs a positive denominator");
        Ratio { num, den }
    }

    /// Whether the fraction is above zero.
    pub fn is_positive(self) -> bool {
        self.num > 0
    }

    /// The value as an `f64`, for display and statistics only.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The value with `places` decimals, rounded half away from zero: `0.027027`.
    pub fn to_fixed(self, places: u32) -> String {
        let scale = 10i128.pow(places);
        let scaled = (self.num.abs() * scale * 2 + self.den) / (self.den * 2);
        let sign = if self.num < 0 && scaled > 0 { "-" } else { "" };
        if places == 0 {
            return format!("{sign}{scaled}");
        }
        format!("{sign}{}.{:0width$}", scaled / scale, scaled % scale, width = places as usize)
    }

    /// The value as a percentage with `places` decimals: `2.70%`.
    pub fn to_percent(self, places: u32) -> String {
        format!("{}%", Ratio::new(self.num * 100, self.den).to_fixed(places))
    }

    fn same_value(self, other: Ratio) -> bool {
        self.num * other.den == other.num * self.den
    }
}

/// How a row was computed.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Basis {
    /// Exactly.
    Exact,
    /// Estimated from `rounds` simulated rounds; `edge_std_error` is the standard error of
    /// the edge estimate.
    Simulated {
        /// Rounds simulated.
        rounds: u64,
        /// Standard error of the edge.
        edge_std_error: f64,
    },
}

/// One row of the house-edge table: a family of markets that pay alike.
#[derive(Clone, Debug, PartialEq)]
pub struct EdgeRow {
    /// The game.
    pub game: GameKind,
    /// The market family ([`Market::family`]).
    pub family: String,
    /// The family's markets, by name (`Player A`, `Player B`).
    pub market_names: Vec<String>,
    /// What a win pays: the odds, or `2.00 to 41.00` for a pay table.
    pub pays: String,
    /// The chance that a bet on one market of the family wins.
    pub win: Ratio,
    /// The chance that it comes back whole or in half (push or half loss).
    pub push: Ratio,
    /// The house edge: `1 − expected return per unit staked`.
    pub edge: Ratio,
    /// Exact rows: whether every market of the family has exactly the same win, push and
    /// edge. Simulated rows pool the family (its markets are alike by symmetry): always true.
    pub uniform: bool,
    /// Exact or estimated.
    pub basis: Basis,
}

#[derive(Clone, Debug, Default)]
struct Tally {
    posted: i128,
    win: i128,
    push: i128,
    /// Σ weight × return per 100 staked.
    returned: i128,
    max_odds: u32,
}

/// The running totals of one game's markets over a set of weighted deals.
struct Book {
    game: GameKind,
    markets: BTreeMap<String, Market>,
    tallies: BTreeMap<String, Tally>,
    /// Total weight of deals whose markets were not posted one by one (games without open
    /// cards post every market on every deal).
    total: i128,
}

impl Book {
    fn new(game: GameKind) -> Book {
        Book { game, markets: BTreeMap::new(), tallies: BTreeMap::new(), total: 0 }
    }

    /// Adds one deal of weight `weight`, counting only markets whose codes pass `keep`.
    fn add(&mut self, deal: &Deal, weight: i128, keep: &dyn Fn(&str) -> bool) {
        let outcome = self.game.result(deal);
        if self.game.open_card_count() == 0 {
            if self.markets.is_empty() {
                for market in self.game.markets(&[]) {
                    if keep(&market.code) {
                        self.tallies.insert(market.code.clone(), Tally::default());
                        self.markets.insert(market.code.clone(), market);
                    }
                }
            }
            self.total += weight;
            for (code, verdict) in outcome.settled_markets() {
                if let Some(market) = self.markets.get(code) {
                    let tally = self.tallies.get_mut(code).expect("tallied with its market");
                    record(tally, market, verdict, weight);
                }
            }
        } else {
            for market in self.game.markets(self.game.open_cards(deal)) {
                if !keep(&market.code) {
                    continue;
                }
                let key = format!("{}@{}", market.code, market.family);
                let tally = self.tallies.entry(key.clone()).or_default();
                tally.posted += weight;
                record(tally, &market, outcome.verdict(&market.code), weight);
                self.markets.insert(key, market);
            }
        }
    }

    /// One row per family. Exact rows check that every market of the family has the same
    /// figures; simulated rows pool the family's markets (they are alike by symmetry, and
    /// pooling shrinks the error).
    fn rows(self, simulated: Option<(u64, &BTreeMap<String, f64>)>) -> Vec<EdgeRow> {
        let order: Vec<Market> = match self.game.open_card_count() {
            0 => self.game.markets(&[]),
            _ => Vec::new(),
        };
        let position = |code: &str| order.iter().position(|m| m.code == code).unwrap_or(usize::MAX);
        let mut families: BTreeMap<String, Vec<(Market, Tally)>> = BTreeMap::new();
        for (key, mut tally) in self.tallies {
            if self.game.open_card_count() == 0 {
                tally.posted = self.total;
            }
            let market = self.markets[&key].clone();
            families.entry(market.family.clone()).or_default().push((market, tally));
        }
        let mut rows: Vec<EdgeRow> = families
            .into_iter()
            .map(|(family, mut members)| {
                members.sort_by_key(|(m, _)| position(&m.code));
                let market = members[0].0.clone();
                let max_odds = members.iter().map(|(_, t)| t.max_odds).max().unwrap_or(0);
                let pays = if max_odds > market.odds.hundredths() {
                    format!("{} to {}", market.odds, crate::market::Odds::from_hundredths(max_odds))
                } else {
                    market.odds.to_string()
                };
                let mut market_names: Vec<String> =
                    members.iter().map(|(m, _)| m.name.clone()).collect();
                market_names.dedup();
                let (stats, uniform, basis) = match simulated {
                    None => {
                        let stats: Vec<(Ratio, Ratio, Ratio)> =
                            members.iter().map(|(_, t)| tally_ratios(t)).collect();
                        let first = stats[0];
                        let uniform = stats.iter().all(|s| {
                            s.0.same_value(first.0)
                                && s.1.same_value(first.1)
                                && s.2.same_value(first.2)
                        });
                        (first, uniform, Basis::Exact)
                    }
                    Some((rounds, std_errors)) => {
                        let mut pooled = Tally::default();
                        for (_, t) in &members {
                            pooled.posted += t.posted;
                            pooled.win += t.win;
                            pooled.push += t.push;
                            pooled.returned += t.returned;
                        }
                        let edge_std_error =
                            std_errors.get(&family).copied().unwrap_or(f64::INFINITY);
                        (tally_ratios(&pooled), true, Basis::Simulated { rounds, edge_std_error })
                    }
                };
                EdgeRow {
                    game: self.game,
                    family,
                    market_names,
                    pays,
                    win: stats.0,
                    push: stats.1,
                    edge: stats.2,
                    uniform,
                    basis,
                }
            })
            .collect();
        // Rows in the order the game lists its markets (Hi-Low: by side, then base card).
        rows.sort_by_key(|row| {
            let first = order.iter().position(|m| m.family == row.family).unwrap_or(usize::MAX);
            let base = row
                .family
                .chars()
                .last()
                .and_then(|c| Rank::ALL.iter().position(|r| r.symbol() == c));
            (first, row.family.starts_with("low"), base)
        });
        rows
    }
}

fn record(tally: &mut Tally, market: &Market, verdict: Verdict, weight: i128) {
    let back = return_per_100(market, verdict);
    match verdict {
        Verdict::Won | Verdict::WonAt(_) => tally.win += weight,
        Verdict::Push | Verdict::HalfLost => tally.push += weight,
        Verdict::Lost => {}
    }
    if let Verdict::WonAt(odds) = verdict {
        tally.max_odds = tally.max_odds.max(odds.hundredths());
    }
    tally.returned += weight * i128::from(back);
}

fn tally_ratios(tally: &Tally) -> (Ratio, Ratio, Ratio) {
    let posted = tally.posted;
    (
        Ratio::new(tally.win, posted),
        Ratio::new(tally.push, posted),
        Ratio::new(100 * posted - tally.returned, 100 * posted),
    )
}

fn keep_all(_: &str) -> bool {
    true
}

fn exact_rows(book: Book) -> Vec<EdgeRow> {
    book.rows(None)
}

/// Every ordered deal of `k` distinct cards from `pack`, each of weight 1.
fn ordered_deals(book: &mut Book, pack: &[Card], k: usize) {
    fn walk(book: &mut Book, pack: &[Card], k: usize, used: &mut Vec<usize>) {
        if used.len() == k {
            let deal = Deal::Cards(used.iter().map(|&i| pack[i]).collect());
            book.add(&deal, 1, &keep_all);
            return;
        }
        for i in 0..pack.len() {
            if !used.contains(&i) {
                used.push(i);
                walk(book, pack, k, used);
                used.pop();
            }
        }
    }
    walk(book, pack, k, &mut Vec::with_capacity(k));
}

fn by_ordered_deals(game: GameKind, pack: &[Card], k: usize) -> Vec<EdgeRow> {
    let mut book = Book::new(game);
    ordered_deals(&mut book, pack, k);
    exact_rows(book)
}

fn roulette() -> Vec<EdgeRow> {
    let mut book = Book::new(GameKind::Roulette);
    for pocket in 0..37 {
        book.add(&Deal::Pocket(pocket), 1, &keep_all);
    }
    exact_rows(book)
}

/// Worli Matka's six digits are independent and uniform, and each market looks at the open
/// digits, the close digits, or the two singles. So two exact passes replace the 10⁶ draws:
/// every open triple with close draws `0 0 d` (d = 0–9, one per close single, each single as
/// likely as over all 1000 close triples) for the open and jodi markets; then every close
/// triple with a fixed open draw for the close markets.
fn worli_matka() -> Vec<EdgeRow> {
    let digits = |n: u16| [(n / 100) as u8, (n / 10 % 10) as u8, (n % 10) as u8];
    let mut open_and_jodi = Book::new(GameKind::WorliMatka);
    let keep_open = |code: &str| code.starts_with("open-") || code.starts_with("jodi-");
    for open in 0..1000 {
        for d in 0..10 {
            open_and_jodi.add(&Deal::Matka { open: digits(open), close: [0, 0, d] }, 1, &keep_open);
        }
    }
    let mut close = Book::new(GameKind::WorliMatka);
    let keep_close = |code: &str| code.starts_with("close-");
    for draw in 0..1000 {
        close.add(&Deal::Matka { open: [0, 0, 0], close: digits(draw) }, 1, &keep_close);
    }
    merge_books(exact_rows(open_and_jodi), exact_rows(close))
}

/// Joins two passes' rows, merging the rows of a family both passes computed.
fn merge_books(first: Vec<EdgeRow>, second: Vec<EdgeRow>) -> Vec<EdgeRow> {
    let mut rows = first;
    for row in second {
        match rows.iter_mut().find(|r| r.family == row.family) {
            Some(existing) => {
                existing.uniform &= existing.uniform
                    && row.uniform
                    && existing.win.same_value(row.win)
                    && existing.push.same_value(row.push)
                    && existing.edge.same_value(row.edge);
                existing.market_names.extend(row.market_names);
            }
            None => rows.push(row),
        }
    }
    rows
}

/// Baccarat over an 8-deck shoe. Player, Banker and Tie depend only on points: walk the
/// coup's cards as point classes (a representative card per class), drawing a fifth or sixth
/// card only when the rules call for it, each sequence weighted by the number of shoe cards in
/// each class drawn without replacement, times the ways to fill the unused places up to six
/// cards (so every leaf is counted over the same 416·415·…·411 deals). The pairs depend only on
/// the first four cards' ranks: enumerate those (a fixed fifth and sixth card, which the pair
/// markets ignore).
fn baccarat() -> Vec<EdgeRow> {
    const DECKS: i128 = crate::games::baccarat::DECKS as i128;
    const SHOE: i128 = 52 * DECKS;
    // Class c = points 0..=9; class 0 holds 10 J Q K (16 cards a deck), the others 4 a deck.
    let class_cards: [i128; 10] =
        std::array::from_fn(|c| if c == 0 { 16 * DECKS } else { 4 * DECKS });

    fn representative(class: usize) -> Card {
        let rank = match class {
            0 => Rank::Ten,
            points => Rank::from_value(points as u8).expect("1-9"),
        };
        Card::new(rank, Suit::Spades)
    }

    fn main_market(code: &str) -> bool {
        matches!(code, "player" | "banker" | "tie")
    }

    fn walk(book: &mut Book, classes: &mut Vec<usize>, left: &mut [i128; 10], weight: i128) {
        if classes.len() >= 4 {
            let mut cards: Vec<Card> = classes.iter().map(|&c| representative(c)).collect();
            let dealt = cards.len();
            // Padding, to see whether the rules call for another card; the decision to draw
            // depends only on the cards before, so the padding's value does not matter.
            cards.resize(6, representative(0));
            if crate::games::baccarat::play(&cards).cards_used() <= dealt {
                // The unused places up to six cards can be any of the cards left.
                let unused: i128 = (dealt..6).map(|i| SHOE - i as i128).product();
                cards.truncate(dealt);
                book.add(&Deal::Cards(cards), weight * unused, &main_market);
                return;
            }
        }
        for class in 0..10 {
            if left[class] == 0 {
                continue;
            }
            let drawn = weight * left[class];
            left[class] -= 1;
            classes.push(class);
            walk(book, classes, left, drawn);
            classes.pop();
            left[class] += 1;
        }
    }

    let mut book = Book::new(GameKind::Baccarat);
    walk(&mut book, &mut Vec::with_capacity(6), &mut class_cards.clone(), 1);
    let mut rows = exact_rows(book);

    let mut pairs = Book::new(GameKind::Baccarat);
    let pair_market = |code: &str| code.ends_with("-pair");
    for index in 0..13usize.pow(4) {
        let ranks = [index % 13, index / 13 % 13, index / 169 % 13, index / 2197];
        let mut left = [4 * DECKS; 13];
        let mut weight = 1i128;
        for &r in &ranks {
            weight *= left[r];
            left[r] -= 1;
        }
        let mut cards: Vec<Card> =
            ranks.iter().map(|&r| Card::new(Rank::ALL[r], Suit::Hearts)).collect();
        cards.extend([Card::new(Rank::Two, Suit::Clubs), Card::new(Rank::Three, Suit::Clubs)]);
        pairs.add(&Deal::Cards(cards), weight, &pair_market);
    }
    rows.extend(exact_rows(pairs));
    rows
}

/// Andar Bahar: joker A♠; the first match A♥ at position k (1-based after the joker), after
/// k − 1 non-aces. The other two aces are somewhere after position k: C(51 − k, 2) ways.
fn andar_bahar() -> Vec<EdgeRow> {
    let mut book = Book::new(GameKind::AndarBahar);
    let fillers: Vec<Card> = standard_deck().into_iter().filter(|c| c.rank != Rank::Ace).collect();
    for k in 1..=49usize {
        let mut cards = vec![Card::new(Rank::Ace, Suit::Spades)];
        cards.extend_from_slice(&fillers[..k - 1]);
        cards.push(Card::new(Rank::Ace, Suit::Hearts));
        let after = (51 - k) as i128;
        book.add(&Deal::Cards(cards), after * (after - 1) / 2, &keep_all);
    }
    exact_rows(book)
}

/// All `size`-card hands of a 52-card deck, as deck positions.
fn all_hands(size: usize) -> Vec<Vec<usize>> {
    let mut hands = Vec::new();
    let mut hand = Vec::with_capacity(size);
    fn walk(start: usize, size: usize, hand: &mut Vec<usize>, hands: &mut Vec<Vec<usize>>) {
        if hand.len() == size {
            hands.push(hand.clone());
            return;
        }
        for i in start..52 {
            hand.push(i);
            walk(i + 1, size, hand, hands);
            hand.pop();
        }
    }
    walk(0, size, &mut hand, &mut hands);
    hands
}

/// Counts ordered pairs of disjoint hands with equal keys, and all ordered disjoint pairs.
fn ties<K: Ord + Copy>(size: usize, key: impl Fn(&[Card]) -> K) -> (i128, i128) {
    let deck = standard_deck();
    let hands = all_hands(size);
    let mut groups: BTreeMap<K, Vec<u64>> = BTreeMap::new();
    for hand in &hands {
        let cards: Vec<Card> = hand.iter().map(|&i| deck[i]).collect();
        let mask = hand.iter().fold(0u64, |m, &i| m | 1 << i);
        groups.entry(key(&cards)).or_default().push(mask);
    }
    let mut tied = 0i128;
    for masks in groups.values() {
        for a in masks {
            tied += masks.iter().filter(|b| *a & **b == 0).count() as i128;
        }
    }
    let n = hands.len() as i128;
    let others = all_hands_count(52 - size, size);
    (tied, n * others)
}

fn all_hands_count(n: usize, k: usize) -> i128 {
    (0..k).fold(1i128, |acc, i| acc * (n - i) as i128 / (i + 1) as i128)
}

/// Rows for head-to-head markets that push on a tie: by symmetry each side wins half of the
/// rest. `tied / all` is the chance of a tie.
fn head_to_head_rows(
    game: GameKind,
    family: &str,
    tied: i128,
    all: i128,
    extra_tie: bool,
) -> Vec<EdgeRow> {
    let markets = game.markets(&[]);
    let mut book = Book::new(game);
    for market in &markets {
        let tally = if market.family == family {
            assert_eq!((all - tied) % 2, 0, "symmetric wins split evenly");
            Tally {
                posted: all,
                win: (all - tied) / 2,
                push: tied,
                returned: (all - tied) / 2 * i128::from(market.odds.hundredths()) + tied * 100,
                ..Tally::default()
            }
        } else if extra_tie && market.code == "tie" {
            Tally {
                posted: all,
                win: tied,
                returned: tied * i128::from(market.odds.hundredths()),
                ..Tally::default()
            }
        } else {
            continue;
        };
        book.tallies.insert(market.code.clone(), tally);
        book.markets.insert(market.code.clone(), market.clone());
    }
    book.total = all;
    exact_rows(book)
}

/// Markets judged on one player's hand alone (Pair Plus, Pair): every hand for that seat, the
/// other seat given the first cards not in it.
fn own_hand_rows(
    game: GameKind,
    size: usize,
    seats: usize,
    seat: usize,
    keep: &dyn Fn(&str) -> bool,
) -> Vec<EdgeRow> {
    let deck = standard_deck();
    let mut book = Book::new(game);
    for hand in all_hands(size) {
        let mut others = (0..52).filter(|i| !hand.contains(i)).map(|i| deck[i]);
        let mut cards = vec![deck[0]; size * seats];
        for round in 0..size {
            for s in 0..seats {
                cards[round * seats + s] =
                    if s == seat { deck[hand[round]] } else { others.next().expect("cards") };
            }
        }
        book.add(&Deal::Cards(cards), 1, keep);
    }
    exact_rows(book)
}

fn teen_patti_ties() -> (i128, i128) {
    ties(3, |cards| teen_patti::evaluate(cards.try_into().expect("3")))
}

fn teen_patti_t20() -> Vec<EdgeRow> {
    let (tied, all) = teen_patti_ties();
    let mut rows = head_to_head_rows(GameKind::TeenPattiT20, "player", tied, all, false);
    let a = own_hand_rows(GameKind::TeenPattiT20, 3, 2, 0, &|c| c == "pair-plus-a");
    let b = own_hand_rows(GameKind::TeenPattiT20, 3, 2, 1, &|c| c == "pair-plus-b");
    rows.extend(merge_books(a, b));
    rows
}

fn teen_patti_one_day() -> Vec<EdgeRow> {
    let (tied, all) = teen_patti_ties();
    head_to_head_rows(GameKind::TeenPattiOneDay, "player", tied, all, true)
}

fn muflis() -> Vec<EdgeRow> {
    // Muflis reverses the order, so the ties are teen patti's.
    let (tied, all) = ties(3, |cards| teen_patti::evaluate_muflis(cards.try_into().expect("3")));
    head_to_head_rows(GameKind::MuflisTeenPatti, "player", tied, all, false)
}

fn two_card() -> Vec<EdgeRow> {
    let (tied, all) = ties(2, |cards| two_card_teen_patti::evaluate(cards.try_into().expect("2")));
    let mut rows = head_to_head_rows(GameKind::TwoCardTeenPatti, "player", tied, all, false);
    let a = own_hand_rows(GameKind::TwoCardTeenPatti, 2, 2, 0, &|c| c == "pair-a");
    let b = own_hand_rows(GameKind::TwoCardTeenPatti, 2, 2, 1, &|c| c == "pair-b");
    rows.extend(merge_books(a, b));
    rows
}

/// Simulates `rounds` rounds of `game` from a fixed seed: round ids `sim-0`, `sim-1`, ….
/// A family's standard error comes from each round's return averaged over the family's
/// markets (Poker's Player A and B together return 0.99 or 1.00 a round: a tiny variance).
fn simulated(game: GameKind, rounds: u64) -> Vec<EdgeRow> {
    let seed = ServerSeed::from_bytes(*b"backlay house-edge simulation 01");
    let mut book = Book::new(game);
    // family → (Σ mean return, Σ mean return²), returns per 100 staked.
    let mut moments: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for round in 0..rounds {
        let deal = game.deal(&mut FairRng::new(&seed, &format!("sim-{round}")));
        book.add(&deal, 1, &keep_all);
        let outcome = game.result(&deal);
        let mut families: BTreeMap<String, (f64, f64)> = BTreeMap::new();
        for market in game.markets(game.open_cards(&deal)) {
            let entry = families.entry(market.family.clone()).or_default();
            entry.0 += f64::from(return_per_100(&market, outcome.verdict(&market.code)));
            entry.1 += 1.0;
        }
        for (family, (sum, count)) in families {
            let mean = sum / count;
            let m = moments.entry(family).or_default();
            m.0 += mean;
            m.1 += mean * mean;
        }
    }
    let n = rounds as f64;
    let std_errors: BTreeMap<String, f64> = moments
        .into_iter()
        .map(|(family, (sum, sum_sq))| {
            let mean = sum / n;
            let variance = (sum_sq / n - mean * mean).max(0.0);
            (family, (variance / n).sqrt() / 100.0)
        })
        .collect();
    book.rows(Some((rounds, &std_errors)))
}

/// The rows of one game. `sim_rounds` is how many rounds to simulate for the three estimated
/// games (Queen, Poker, Teen Patti Test); it is ignored for the others.
pub fn game_table(game: GameKind, sim_rounds: u64) -> Vec<EdgeRow> {
    match game {
        GameKind::TeenPattiT20 => teen_patti_t20(),
        GameKind::TeenPattiOneDay => teen_patti_one_day(),
        GameKind::MuflisTeenPatti => muflis(),
        GameKind::TwoCardTeenPatti => two_card(),
        GameKind::DragonTiger | GameKind::HiLow => by_ordered_deals(game, &standard_deck(), 2),
        GameKind::Trio => by_ordered_deals(game, &standard_deck(), 3),
        GameKind::AmarAkbarAnthony => by_ordered_deals(game, &standard_deck(), 1),
        GameKind::Bollywood => by_ordered_deals(game, &court_and_ace_pack(), 1),
        GameKind::Roulette => roulette(),
        GameKind::WorliMatka => worli_matka(),
        GameKind::Baccarat => baccarat(),
        GameKind::AndarBahar => andar_bahar(),
        GameKind::Queen | GameKind::Poker | GameKind::TeenPattiTest => {
            simulated(game, sim_rounds.max(1))
        }
    }
}

/// The rows of every game, in the sidebar's order.
pub fn table(sim_rounds: u64) -> Vec<EdgeRow> {
    GameKind::ALL.into_iter().flat_map(|game| game_table(game, sim_rounds)).collect()
}

/// The table as the markdown docs/casino.md prints between its `edge-table` markers.
pub fn markdown(rows: &[EdgeRow]) -> String {
    let mut out = String::from("| game | market | pays | P(win) | P(push/half) | house edge |\n|---|---|---|---|---|---|\n");
    for row in rows {
        let approx = if matches!(row.basis, Basis::Simulated { .. }) { "≈ " } else { "" };
        let names = if row.market_names.len() > 4 {
            format!("{} … ({} markets)", row.market_names[0], row.market_names.len())
        } else {
            row.market_names.join(", ")
        };
        out.push_str(&format!(
            "| {} | {} `{}` | {} | {}{} | {}{} | {}{} |\n",
            row.game.code(),
            names,
            row.family,
            row.pays,
            approx,
            row.win.to_fixed(6),
            approx,
            row.push.to_fixed(6),
            approx,
            row.edge.to_percent(2),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_print_rounded() {
        assert_eq!(Ratio::new(1, 37).to_fixed(6), "0.027027");
        assert_eq!(Ratio::new(1, 37).to_percent(2), "2.70%");
        assert_eq!(Ratio::new(2, 3).to_fixed(2), "0.67");
        assert_eq!(Ratio::new(-1, 8).to_percent(1), "-12.5%");
        assert_eq!(Ratio::new(1, 200).to_fixed(2), "0.01"); // half away from zero
        assert_eq!(Ratio::new(0, 5).to_fixed(3), "0.000");
    }

    #[test]
    fn disjoint_pair_counts() {
        assert_eq!(all_hands(3).len(), 22_100);
        assert_eq!(all_hands_count(49, 3), 18_424);
    }
}
