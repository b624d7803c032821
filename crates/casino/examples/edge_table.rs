//! Prints the house-edge table of every game as markdown, for docs/casino.md.
//!
//! ```text
//! cargo run --release -p backlay-casino --example edge_table -- 4000000
//! ```
//!
//! The argument is how many rounds to simulate for the three estimated games (Queen, Poker,
//! Teen Patti Test); the exact rows do not depend on it.

use backlay_casino::house_edge::{markdown, table, Basis};

fn main() {
    let rounds: u64 =
        std::env::args().nth(1).map_or(200_000, |arg| arg.parse().expect("a number of rounds"));
    let rows = table(rounds);
    print!("{}", markdown(&rows));
    for row in &rows {
        assert!(row.uniform, "{:?} {} is not uniform", row.game, row.family);
        if let Basis::Simulated { edge_std_error, .. } = row.basis {
            eprintln!(
                "{} {}: edge {} ± {:.4}% (1 s.e.)",
                row.game.code(),
                row.family,
                row.edge.to_percent(3),
                edge_std_error * 100.0
            );
        }
    }
}
