//! Who plays in the demo: the teams of each demo series, the race venues, and names for
//! horses and greyhounds. The feed drives only the fixtures it knows from these lists — a match
//! between two teams of a demo series, a race at a demo venue — so a match an operator adds by
//! hand ("Lions v Tigers") is left alone, in the demo database as in real operation.

use super::rng::DemoRng;

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

/// A cricket side the feed plays: its name, the short name the fancy lines use ("6 over runs
/// MI") and its batting order, as the scorecards write the batsmen ("R Sharma").
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CricketSide {
    pub name: &'static str,
    pub short: &'static str,
    pub batting_order: [&'static str; 11],
}

const fn side(
    name: &'static str,
    short: &'static str,
    batting_order: [&'static str; 11],
) -> CricketSide {
    CricketSide { name, short, batting_order }
}

/// Every cricket side of [`SERIES_TEAMS`].
pub const CRICKET_SIDES: &[CricketSide] = &[
    side(
        "Mumbai Indians",
        "MI",
        [
            "R Sharma",
            "I Kishan",
            "S Yadav",
            "T Varma",
            "H Pandya",
            "T David",
            "N Wadhera",
            "P Chawla",
            "J Bumrah",
            "G Coetzee",
            "A Madhwal",
        ],
    ),
    side(
        "Chennai Super Kings",
        "CSK",
        [
            "R Gaikwad",
            "D Conway",
            "A Rahane",
            "S Dube",
            "R Jadeja",
            "D Mitchell",
            "M Dhoni",
            "S Thakur",
            "D Chahar",
            "M Pathirana",
            "T Deshpande",
        ],
    ),
    side(
        "Royal Challengers Bengaluru",
        "RCB",
        [
            "V Kohli",
            "F du Plessis",
            "R Patidar",
            "G Maxwell",
            "C Green",
            "D Karthik",
            "M Lomror",
            "K Sharma",
            "M Siraj",
            "Y Dayal",
            "L Ferguson",
        ],
    ),
    side(
        "Kolkata Knight Riders",
        "KKR",
        [
            "P Salt",
            "S Narine",
            "V Iyer",
            "S Iyer",
            "R Singh",
            "A Russell",
            "M Pandey",
            "R Gurbaz",
            "M Starc",
            "H Rana",
            "V Chakravarthy",
        ],
    ),
    side(
        "Delhi Capitals",
        "DC",
        [
            "D Warner",
            "P Shaw",
            "J Fraser-McGurk",
            "R Pant",
            "T Stubbs",
            "A Patel",
            "L Yadav",
            "K Yadav",
            "A Nortje",
            "K Ahmed",
            "M Kumar",
        ],
    ),
    side(
        "Rajasthan Royals",
        "RR",
        [
            "Y Jaiswal",
            "J Buttler",
            "S Samson",
            "R Parag",
            "S Hetmyer",
            "D Jurel",
            "R Powell",
            "R Ashwin",
            "T Boult",
            "A Khan",
            "Y Chahal",
        ],
    ),
    side(
        "Sunrisers Hyderabad",
        "SRH",
        [
            "T Head",
            "A Sharma",
            "A Markram",
            "H Klaasen",
            "N Reddy",
            "A Samad",
            "S Ahmed",
            "P Cummins",
            "B Kumar",
            "T Natarajan",
            "J Unadkat",
        ],
    ),
    side(
        "Punjab Kings",
        "PBKS",
        [
            "S Dhawan",
            "J Bairstow",
            "P Singh",
            "L Livingstone",
            "S Curran",
            "J Sharma",
            "S Singh",
            "A Sharma",
            "H Brar",
            "K Rabada",
            "A Singh",
        ],
    ),
    side(
        "Lucknow Super Giants",
        "LSG",
        [
            "K Rahul",
            "Q de Kock",
            "D Padikkal",
            "M Stoinis",
            "N Pooran",
            "A Badoni",
            "K Pandya",
            "R Bishnoi",
            "N Ul-Haq",
            "M Yadav",
            "Y Thakur",
        ],
    ),
    side(
        "Gujarat Titans",
        "GT",
        [
            "S Gill",
            "W Saha",
            "S Sudharsan",
            "D Miller",
            "V Shankar",
            "R Tewatia",
            "S Khan",
            "R Khan",
            "U Yadav",
            "M Sharma",
            "N Ahmad",
        ],
    ),
    side(
        "India",
        "IND",
        [
            "R Sharma", "S Gill", "V Kohli", "S Iyer", "K Rahul", "H Pandya", "R Jadeja",
            "A Patel", "K Yadav", "J Bumrah", "M Shami",
        ],
    ),
    side(
        "Australia",
        "AUS",
        [
            "T Head",
            "D Warner",
            "M Marsh",
            "S Smith",
            "M Labuschagne",
            "G Maxwell",
            "J Inglis",
            "P Cummins",
            "M Starc",
            "A Zampa",
            "J Hazlewood",
        ],
    ),
    side(
        "England",
        "ENG",
        [
            "J Bairstow",
            "D Malan",
            "J Root",
            "B Stokes",
            "J Buttler",
            "H Brook",
            "L Livingstone",
            "C Woakes",
            "A Rashid",
            "M Wood",
            "R Topley",
        ],
    ),
    side(
        "South Africa",
        "SA",
        [
            "Q de Kock",
            "T Bavuma",
            "R van der Dussen",
            "A Markram",
            "H Klaasen",
            "D Miller",
            "M Jansen",
            "K Maharaj",
            "K Rabada",
            "G Coetzee",
            "L Ngidi",
        ],
    ),
    side(
        "Pakistan",
        "PAK",
        [
            "F Zaman",
            "I ul-Haq",
            "B Azam",
            "M Rizwan",
            "S Shakeel",
            "I Ahmed",
            "S Khan",
            "S Afridi",
            "H Rauf",
            "N Shah",
            "U Mir",
        ],
    ),
    side(
        "New Zealand",
        "NZ",
        [
            "D Conway",
            "W Young",
            "R Ravindra",
            "K Williamson",
            "D Mitchell",
            "T Latham",
            "G Phillips",
            "M Santner",
            "M Henry",
            "T Boult",
            "L Ferguson",
        ],
    ),
    side(
        "Afghanistan",
        "AFG",
        [
            "R Gurbaz",
            "I Zadran",
            "R Shah",
            "H Shahidi",
            "A Omarzai",
            "M Nabi",
            "I Alikhil",
            "R Khan",
            "M Ur Rahman",
            "N Ahmad",
            "F Farooqi",
        ],
    ),
    side(
        "Bangladesh",
        "BAN",
        [
            "L Das",
            "T Hasan",
            "N Shanto",
            "S Al Hasan",
            "M Rahim",
            "M Ullah",
            "T Hridoy",
            "M Hasan",
            "T Ahmed",
            "M Rahman",
            "S Islam",
        ],
    ),
    side(
        "Sydney Sixers",
        "SIX",
        [
            "J Philippe",
            "J Vince",
            "M Henriques",
            "D Hughes",
            "J Edwards",
            "D Christian",
            "S Abbott",
            "B Dwarshuis",
            "T Curran",
            "S O'Keefe",
            "B Manenti",
        ],
    ),
    side(
        "Perth Scorchers",
        "SCO",
        [
            "C Bancroft",
            "J Inglis",
            "A Hardie",
            "A Turner",
            "N Hobson",
            "C Connolly",
            "A Agar",
            "J Richardson",
            "A Tye",
            "L Morris",
            "J Behrendorff",
        ],
    ),
    side(
        "Melbourne Stars",
        "STA",
        [
            "T Rogers",
            "J Clarke",
            "B Webster",
            "G Maxwell",
            "M Stoinis",
            "H Cartwright",
            "J Lyon",
            "N Coulter-Nile",
            "A Zampa",
            "S Rainbird",
            "M Steketee",
        ],
    ),
    side(
        "Brisbane Heat",
        "HEA",
        [
            "J Brown",
            "C Munro",
            "M Renshaw",
            "M Labuschagne",
            "S Heazlett",
            "J Wildermuth",
            "M Bryant",
            "M Kuhnemann",
            "X Bartlett",
            "M Swepson",
            "S Johnson",
        ],
    ),
    side(
        "Adelaide Strikers",
        "STR",
        [
            "M Short",
            "D D'Arcy Short",
            "C Lynn",
            "T Kelly",
            "A Ross",
            "J Weatherald",
            "H Nielsen",
            "W Agar",
            "H Kerr",
            "D Drew",
            "L Pope",
        ],
    ),
    side(
        "Hobart Hurricanes",
        "HUR",
        [
            "C Jewell",
            "M Wade",
            "B McDermott",
            "T David",
            "C Wakim",
            "N Ellis",
            "P Hatzoglou",
            "R Meredith",
            "J Bird",
            "W Parker",
            "C Boyce",
        ],
    ),
    side(
        "Melbourne Renegades",
        "REN",
        [
            "J Fraser-McGurk",
            "S Marsh",
            "A Finch",
            "W Sutherland",
            "J Harper",
            "N Hope",
            "T Stanlake",
            "K Richardson",
            "A Zampa",
            "T Rogers",
            "F O'Neill",
        ],
    ),
    side(
        "Sydney Thunder",
        "THU",
        [
            "A Hales",
            "M Gilkes",
            "O Davies",
            "D Warner",
            "A Ross",
            "B Cutting",
            "C Green",
            "T Sangha",
            "N McAndrew",
            "D Sams",
            "G Sandhu",
        ],
    ),
];

/// The cricket side of this name, if the feed knows it.
pub fn cricket_side(name: &str) -> Option<&'static CricketSide> {
    CRICKET_SIDES.iter().find(|side| side.name == name)
}

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
    fn every_cricket_team_has_a_side_with_full_distinct_names() {
        let teams = SERIES_TEAMS.iter().filter(|(sport, _, _)| *sport == CRICKET);
        for team in teams.flat_map(|(_, _, teams)| teams.iter()) {
            let side = cricket_side(team).unwrap_or_else(|| panic!("{team} has no side"));
            assert!(
                (2..=4).contains(&side.short.len())
                    && side.short.chars().all(|c| c.is_ascii_uppercase()),
                "{team}: short name {}",
                side.short
            );
            for (i, batsman) in side.batting_order.iter().enumerate() {
                // "R Sharma": an initial, a space and a surname of two letters or more.
                let (initial, surname) = batsman.split_once(' ').unwrap_or(("", ""));
                assert!(
                    initial.len() == 1 && surname.len() >= 2,
                    "{team}: {batsman} is not an initial and a surname"
                );
                assert!(!side.batting_order[i + 1..].contains(batsman), "{team}: {batsman} twice");
            }
        }
        let shorts: Vec<&str> = CRICKET_SIDES.iter().map(|s| s.short).collect();
        for (i, short) in shorts.iter().enumerate() {
            assert!(!shorts[i + 1..].contains(short), "{short} names two sides");
        }
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
