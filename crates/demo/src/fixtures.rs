//! Who plays in the demo: the teams of each demo series, the race venues, and names for
//! horses and greyhounds. The feed drives only the fixtures it knows from these lists — a match
//! between two teams of a demo series, a race at a demo venue — so a match an operator adds by
//! hand ("Lions v Tigers") is left alone, in the demo database as in real operation.

use super::simulator::DemoRng;

/// The demo's sports that have markets and are played by the feed.
pub const CRICKET: i64 = 4;
pub const FOOTBALL: i64 = 1;
pub const TENNIS: i64 = 2;
pub const HORSE_RACING: i64 = 7;
pub const GREYHOUND_RACING: i64 = 4339;

/// Series the feed plays, with every team that may meet in it: (sport id, series, teams).
/// The seeded fixtures (`SERIES` in the parent module) use the first teams of each list.
pub const SERIES_TEAMS: &[(i64, &str, &[&str])] = &[
    (
        CRICKET,
        "Indian Premier League",
        &[
            "Mumbai Indians",
            "Chennai Super Kings",
            "Royal Challengers Bengaluru",
            "Kolkata Knight Riders",
            "Delhi Capitals",
            "Rajasthan Royals",
            "Sunrisers Hyderabad",
            "Punjab Kings",
            "Lucknow Super Giants",
            "Gujarat Titans",
        ],
    ),
    (
        CRICKET,
        "ICC Champions Trophy",
        &[
            "India",
            "Australia",
            "England",
            "South Africa",
            "Pakistan",
            "New Zealand",
            "Afghanistan",
            "Bangladesh",
        ],
    ),
    (
        CRICKET,
        "Big Bash League",
        &[
            "Sydney Sixers",
            "Perth Scorchers",
            "Melbourne Stars",
            "Brisbane Heat",
            "Adelaide Strikers",
            "Hobart Hurricanes",
            "Melbourne Renegades",
            "Sydney Thunder",
        ],
    ),
    (
        FOOTBALL,
        "English Premier League",
        &[
            "Arsenal",
            "Liverpool",
            "Manchester City",
            "Chelsea",
            "Tottenham",
            "Newcastle",
            "Aston Villa",
            "Manchester United",
        ],
    ),
    (
        FOOTBALL,
        "La Liga",
        &["Real Madrid", "Barcelona", "Atletico Madrid", "Sevilla", "Villarreal", "Real Sociedad"],
    ),
    (
        TENNIS,
        "ATP Finals",
        &["Sinner", "Alcaraz", "Djokovic", "Zverev", "Medvedev", "Fritz", "Ruud", "de Minaur"],
    ),
];

/// Race venues: (sport id, series, country code, venues).
pub const VENUES: &[(i64, &str, &str, &[&str])] = &[
    (
        HORSE_RACING,
        "GB Racing",
        "GB",
        &[
            "Ascot",
            "Cheltenham",
            "Newmarket",
            "York",
            "Goodwood",
            "Epsom",
            "Aintree",
            "Sandown Park",
        ],
    ),
    (
        HORSE_RACING,
        "IE Racing",
        "IE",
        &["Leopardstown", "The Curragh", "Punchestown", "Fairyhouse"],
    ),
    (HORSE_RACING, "AU Racing", "AU", &["Flemington", "Randwick", "Caulfield", "Moonee Valley"]),
    (
        HORSE_RACING,
        "US Racing",
        "US",
        &["Belmont Park", "Churchill Downs", "Santa Anita", "Saratoga"],
    ),
    (
        GREYHOUND_RACING,
        "GB Greyhounds",
        "GB",
        &["Romford", "Towcester", "Nottingham", "Hove", "Sheffield"],
    ),
    (GREYHOUND_RACING, "AU Greyhounds", "AU", &["Wentworth Park", "The Meadows", "Angle Park"]),
];

/// The two sides of a match name ("India v Australia").
pub fn sides(match_name: &str) -> Option<(&str, &str)> {
    let (home, away) = match_name.split_once(" v ")?;
    Some((home.trim(), away.trim()))
        .filter(|(h, a)| !h.is_empty() && !a.is_empty() && !a.contains(" v "))
}

/// Whether the feed drives this match: both sides are teams of its demo series, or it is a
/// race at a demo venue.
pub fn is_demo_fixture(
    sport_id: i64,
    series_name: &str,
    match_name: &str,
    venue: Option<&str>,
) -> bool {
    if is_racing(sport_id) {
        return venue.is_some_and(|venue| {
            VENUES.iter().any(|(sport, series, _, venues)| {
                *sport == sport_id && *series == series_name && venues.contains(&venue)
            })
        });
    }
    let Some((home, away)) = sides(match_name) else { return false };
    SERIES_TEAMS.iter().any(|(sport, series, teams)| {
        *sport == sport_id
            && *series == series_name
            && teams.contains(&home)
            && teams.contains(&away)
    })
}

pub fn is_racing(sport_id: i64) -> bool {
    sport_id == HORSE_RACING || sport_id == GREYHOUND_RACING
}

const HORSE_FIRST: &[&str] = &[
    "Silver", "Midnight", "Golden", "Royal", "Desert", "Highland", "Crimson", "Noble", "Rapid",
    "Lucky", "Dancing", "Thunder", "Velvet", "Winter", "Summer", "Wild", "Secret", "Stormy",
    "Bold", "Gallant",
];
const HORSE_SECOND: &[&str] = &[
    "Arrow",
    "Storm",
    "Prince",
    "Legend",
    "Dream",
    "Spirit",
    "Charm",
    "Echo",
    "Falcon",
    "Harbour",
    "Rebel",
    "Sovereign",
    "Whisper",
    "Comet",
    "Monarch",
    "Lady",
    "Crown",
    "Express",
    "Runner",
    "Flame",
];
const DOG_FIRST: &[&str] = &[
    "Ballymac",
    "Droopys",
    "Swift",
    "Romeo",
    "Kinda",
    "Brinkley",
    "Skywalker",
    "Coolavanny",
    "Salacres",
    "Deerjet",
    "Glengar",
    "Clona",
];
const DOG_SECOND: &[&str] = &[
    "Bolt", "Flash", "Ace", "Rocket", "Blaze", "Dash", "Jet", "Spark", "Rover", "Magic", "Bullet",
    "Comet",
];

/// `count` different runner names for one race ("Midnight Falcon", "Ballymac Bolt").
pub fn runner_names(rng: &mut DemoRng, greyhounds: bool, count: usize) -> Vec<String> {
    let (first, second) =
        if greyhounds { (DOG_FIRST, DOG_SECOND) } else { (HORSE_FIRST, HORSE_SECOND) };
    let mut names: Vec<String> = Vec::with_capacity(count);
    while names.len() < count {
        let name = format!("{} {}", pick(rng, first), pick(rng, second));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// One element of a non-empty list.
pub fn pick<'a>(rng: &mut DemoRng, list: &[&'a str]) -> &'a str {
    list[rng.below(list.len() as u32) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feed_knows_its_own_fixtures_and_nobody_elses() {
        assert!(is_demo_fixture(
            CRICKET,
            "Indian Premier League",
            "Mumbai Indians v Chennai Super Kings",
            None
        ));
        assert!(!is_demo_fixture(CRICKET, "Indian Premier League", "Lions v Tigers", None));
        assert!(!is_demo_fixture(CRICKET, "Big Bash League", "India v Australia", None));
        assert!(is_demo_fixture(HORSE_RACING, "GB Racing", "Ascot 14:30", Some("Ascot")));
        assert!(!is_demo_fixture(HORSE_RACING, "GB Racing", "Kempton 14:30", Some("Kempton")));
        assert!(!is_demo_fixture(GREYHOUND_RACING, "GB Racing", "Ascot 14:30", Some("Ascot")));
    }

    #[test]
    fn runner_names_differ_within_a_race() {
        let mut rng = DemoRng::new(7);
        let names = runner_names(&mut rng, false, 10);
        assert_eq!(names.len(), 10);
        for (i, name) in names.iter().enumerate() {
            assert!(!names[i + 1..].contains(name), "{name} twice in {names:?}");
        }
    }
}
