// The site rules, written for bettors. One tab per sport or market group (spec §2); every
// constant of spec §9 is stated where it applies. Teenpatti has no rules text yet.

export interface RulesSection {
  heading?: string;
  /** Shown as a numbered list when true, else as bullet points. */
  numbered?: boolean;
  items: string[];
}

export interface RulesTab {
  id: string;
  title: string;
  sections: RulesSection[];
}

const GENERAL_NOTE =
  'In any circumstances the management decision is final on every exchange item. Where our scorecard differs from an online portal, our scorecard is used.';

export const RULES_TABS: RulesTab[] = [
  {
    id: 'horse-racing',
    title: 'Horse Racing',
    sections: [
      {
        items: [
          'All bets are settled on the official result at the time of the "weigh-in"; later stewards\' changes are not taken into account.',
          'When a runner is withdrawn (a non-runner) with a reduction factor of 2.5% or more in the win market, or 4.0% or more in the place market, all unmatched lay offers in that market are cancelled.',
          'Matched bets on the remaining runners are reduced by the non-runner\'s reduction factor; odds can never be reduced below 1.01.',
          'Reduction factors are mostly frozen about 15 minutes after the off (5 minutes for Australian and US racing); a runner withdrawn later carries no reduction.',
          'A race that is declared void, abandoned or not run on the scheduled day is void and all bets are returned.',
          'Dead heats: the stake is divided by the number of runners in the dead heat and settled at the full price.',
        ],
      },
    ],
  },
  {
    id: 'handball',
    title: 'Handball',
    sections: [
      {
        items: [
          'Match odds are settled on the result at the end of regular time (two halves of 30 minutes); extra time and penalty throws do not count unless the market says so.',
          'A match not played within 48 hours of the scheduled start is void.',
          'A match abandoned before the end of regular time is void, except markets whose result was already decided.',
        ],
      },
    ],
  },
  {
    id: 'table-tennis',
    title: 'Table Tennis',
    sections: [
      {
        items: [
          'Bets stand on the player who wins the match as announced by the governing body.',
          'If a player retires or is disqualified, match odds are void unless at least one full game has been completed; completed game markets stand.',
          'A match not started on the scheduled day is void.',
        ],
      },
    ],
  },
  {
    id: 'basketball',
    title: 'Basketball',
    sections: [
      {
        items: [
          'Match odds include overtime unless the market says otherwise.',
          'If a match is abandoned, match odds bets stand only when 5 minutes or less of game time were left; otherwise they are void.',
          'Quarter and half markets are settled on the score of that period alone; overtime counts only for the fourth quarter where stated.',
          'A match not played within 48 hours of the scheduled start is void.',
        ],
      },
    ],
  },
  {
    id: 'volleyball',
    title: 'Vollyball',
    sections: [
      {
        items: [
          'Match odds are settled on the winner of the match in sets.',
          'If a match is not completed, all bets are void except set markets already decided.',
          'Golden set results count for the match market only where the competition rules say so.',
        ],
      },
    ],
  },
  {
    id: 'ice-hockey',
    title: 'Ice Hockey',
    sections: [
      {
        items: [
          'Match odds (three-way) are settled on regular time of 60 minutes; overtime and shoot-outs do not count.',
          'Money-line markets include overtime and shoot-outs.',
          'A match not played within 48 hours of the scheduled start is void.',
        ],
      },
    ],
  },
  {
    id: 'football',
    title: 'Football',
    sections: [
      {
        items: [
          'All football bets are settled on 90 minutes of play plus stoppage time, unless the market says otherwise.',
          'If a match is not played within 48 hours of the scheduled kick-off, all bets on it are void.',
          'A match abandoned before 90 minutes is void, except markets already decided (e.g. first goalscorer after the goal).',
          'Goals are counted as the official governing body records them; own goals count for the team credited.',
        ],
      },
    ],
  },
  {
    id: 'tennis',
    title: 'Tennis',
    sections: [
      {
        items: [
          'If a player retires, is disqualified or a walkover is given, match odds are void unless the match was completed; decided set and game markets stand.',
          'A change of surface or venue does not void bets; a match postponed beyond the tournament is void.',
          'Tie-break scores count as one game in game totals.',
        ],
      },
    ],
  },
  {
    id: 'snooker',
    title: 'Snooker',
    sections: [
      {
        items: [
          'Match odds are settled on the player who progresses to the next round or wins the final.',
          'If a match starts but is not completed, bets are void unless a frame result was already decided.',
          'A re-spotted black counts as part of the frame in which it is potted.',
        ],
      },
    ],
  },
  {
    id: 'e-games',
    title: 'E-Games',
    sections: [
      {
        items: [
          'Markets are settled on the official result published by the tournament organiser.',
          'A map or game replayed because of a technical fault counts only in its final replay.',
          'If a team is replaced or a match is forfeited before the start, all bets are void.',
        ],
      },
    ],
  },
  {
    id: 'futsal',
    title: 'Fustal',
    sections: [
      {
        items: [
          'Futsal markets are settled on regular time of two halves of 20 minutes; extra time and penalties do not count.',
          'A match not played within 48 hours of the scheduled start is void.',
          'An abandoned match is void except markets already decided.',
        ],
      },
    ],
  },
  {
    id: 'big-bash-league',
    title: 'Big Bash League',
    sections: [
      {
        items: [
          'Bowler markets (runs conceded, wickets) need the match to reach at least 32 overs; otherwise they are void.',
          'Power surge and bash boost overs count in over and session markets as bowled.',
          'If a match is reduced by rain, the fancy lines are settled on the revised overs only where the defined overs were bowled; otherwise they are void.',
        ],
      },
    ],
  },
  {
    id: 'lunch-favourite',
    title: 'Lunch Favourite',
    sections: [
      {
        items: [
          'The lunch favourite is the team favoured in the match odds at the lunch break of the first day of a Test or the innings break of a limited-over match.',
          'If the rates at the break are equal, the market is settled on the team batting second.',
          'If the match is abandoned before the break, all bets are void.',
        ],
      },
    ],
  },
  {
    id: 'politics',
    title: 'Politics',
    sections: [
      {
        items: [
          'Political markets are settled on the official result declared by the election authority.',
          'Later recounts, legal challenges or changes of party allegiance do not change the settlement.',
          'If an election is postponed beyond the scheduled year, bets are void.',
        ],
      },
    ],
  },
  {
    id: 'bookmaker',
    title: 'Bookmaker',
    sections: [
      {
        items: [
          'Bookmaker rates are shown as a percentage: a rate of 45 means odds of 1.45. Bets are accepted only at the rate currently posted.',
          'If a match is tied or reduced, a bookmaker market in a T20 match is decided by the score at 10 overs, and in an ODI by the score at 25 overs, where those overs were completed.',
          'If a wrong rate has been posted, bets at that rate are cancelled.',
          GENERAL_NOTE,
        ],
      },
    ],
  },
  { id: 'teenpatti', title: 'Teenpatti', sections: [] },
  {
    id: 'cricket-casino',
    title: 'CricketCasino',
    sections: [
      {
        items: [
          'CricketCasino markets are settled on the last digit of the team score at the end of the stated over.',
          'If the stated over is not completed, all bets on it are void.',
          'Bets placed after the ball is bowled are cancelled.',
        ],
      },
    ],
  },
  {
    id: 'fancy-market-1',
    title: 'Fancy Market 1',
    sections: [
      {
        heading: 'Tournament averages',
        items: [
          'When a match is abandoned, reduced or not played, tournament-total fancy markets use these averages per match: 6 runs in the first over, 46 runs in the first 6 overs, 25 fours, 10 sixes, 12 wickets, 8 wides, 14 extras, 2 fifties, 8 caught outs, 2 bowled and 1 LBW.',
          'Some grounds have their own averages, published with the market.',
          'Fancy Market 1 bets are settled on the full figure of the event; a Yes bet wins when the result is at or above the line.',
        ],
      },
    ],
  },
  {
    id: 'football-fancy',
    title: 'Football Fancy',
    sections: [
      {
        items: [
          'Football fancy markets (corners, cards, goals in a time band) are settled on 90 minutes plus stoppage time.',
          'A match not played within 48 hours of the scheduled kick-off is void.',
          'A yellow card counts 1 and a red card 2 in card totals; a second yellow counts as a red only.',
        ],
      },
    ],
  },
  {
    id: 'ipl',
    title: 'IPL',
    sections: [
      {
        items: [
          'The IPL season has 74 IPL matches; tournament markets are settled over all 74 matches.',
          'If a match is abandoned or reduced, tournament-total fancy markets use the published per-match averages for it.',
          'Super overs do not count in any tournament-total market.',
        ],
      },
    ],
  },
  {
    id: 'kabaddi',
    title: 'Kabaddi',
    sections: [
      {
        items: [
          'Kabaddi markets are settled on the result at full time, including extra time only where the competition plays it.',
          'If a match is tied, match odds bets on either team lose and bets on the tie win where offered.',
          'Raid and tackle point markets count only points awarded by the referee.',
        ],
      },
    ],
  },
  {
    id: 'world-cup',
    title: 'World Cup',
    sections: [
      {
        heading: 'Averages per game',
        items: [
          'For an abandoned or reduced game, World Cup tournament markets use these averages per game: fours 48, sixes 10, wickets 15, wides 14, extras 25, no balls 2, fifties 3, centuries 1, run outs 1, ducks 1, caught outs 10, and 4 runs in the match 1st over.',
          'Per-team averages for ENG, IND, AUS, SA, NZ, WI, PAK, SL, BAN and AFG are published with each team market.',
          'Semi-final and final games count in tournament markets; reserve-day play counts as the same game.',
        ],
      },
    ],
  },
  {
    id: 'khado',
    title: 'Khado',
    sections: [
      {
        items: [
          'A khado market asks for a score in a range: the bet wins when the runs fall inside the chosen range.',
          'Test khado markets are for 70 overs of the innings; if 70 overs are not bowled, the result stands only when the innings has ended.',
          'Khado markets are not settled on a tied match; they stand on the runs scored.',
        ],
      },
    ],
  },
  {
    id: 'election',
    title: 'Election',
    sections: [
      {
        items: [
          'Election seat markets are settled on the seats declared by the election commission on counting day.',
          'Alliance totals count only the parties named in the market.',
          'Bye-elections held after counting day do not change the result.',
        ],
      },
    ],
  },
  {
    id: 'fancy',
    title: 'Fancy',
    sections: [
      {
        heading: 'General rules',
        numbered: true,
        items: [
          'All fancy bets are validated when the match has been tied.',
          'All advance fancy markets are suspended before the toss or for weather conditions.',
          'If a fancy market is suspended for a technical error and does not resume, the result is given and all earlier bets stand.',
          'If a wrong rate has been given in a fancy market, the bets placed at the wrong rate are cancelled.',
          GENERAL_NOTE,
          'If a customer places a bet in the wrong fancy, that bet is not deleted: it stands as a confirmed bet.',
          'Any query about a result or a rate must be raised within 7 days of the event; later queries are not considered.',
          'Deleted bets are removed from the account within 24 hours.',
          'TV and live scores have a delay of about 5 seconds; a bet placed on a rate that had already changed is cancelled.',
          'In limited-over events, if the defined overs are not bowled the event is voided, unless the result was already decided.',
          'Manual bets are not accepted under any circumstances.',
          'If a batsman retires injured, his runs market is settled on the runs he scored: a batsman injured at 34 runs is settled at 34.',
          'In no-boundary events a dot ball counts as 0 or 4, as the market states.',
          'The company may void winning bets placed from illegitimate ids: ids using a VPN, robot or automated betting, multiple entries from one IP address, or simultaneous punching of the same bets.',
          'Traders may block any id suspected of the activity in rule 14, with or without notice.',
          'Top-batsman markets: in a dead heat the stake is paid at 50%. In T20 matches the innings must last 20 overs, and in ODI matches 50 overs, unless all out.',
        ],
      },
      {
        heading: 'Test',
        items: [
          '1st day 1st session and 1st day 2nd session markets need at least 25 overs bowled in that session; otherwise they are void.',
          '1st day total runs needs at least 80 overs bowled on the day.',
          'Lambi innings (total of an innings) is for 70 overs.',
          'Other Test events (player runs, partnerships, total match events) need 300 overs in the match unless the result is decided earlier.',
          'Test khado markets are for 70 overs.',
        ],
      },
      {
        heading: 'ODI',
        items: [
          'A bookmaker market in an ODI reduced or tied is decided by the score at 25 overs.',
          'Top-batsman markets need 50 overs in the innings unless all out; a dead heat pays 50%.',
          'Session markets of 10, 20, 30 and 40 overs need those overs bowled.',
        ],
      },
      {
        heading: 'T20',
        items: [
          'A bookmaker market in a T20 reduced or tied is decided by the score at 10 overs.',
          'Top-batsman markets need 20 overs in the innings unless all out; a dead heat pays 50%.',
          '6-over and 10-over session markets need those overs bowled.',
        ],
      },
      {
        heading: 'Big Bash',
        items: [
          'Bowler markets need at least 32 overs in the match.',
          'Power surge overs count as normal overs in session markets.',
        ],
      },
      {
        heading: 'Virtual Cricket',
        items: [
          'Virtual cricket results come from the provider\'s feed and are final once shown.',
          'If the feed stops before a market is decided, bets on it are void.',
        ],
      },
      {
        heading: 'CPL',
        items: [
          'The CPL season has 33 matches.',
          'Averages per match for abandoned or reduced matches: 1st over 6 runs, fours 22, sixes 13, wickets 13, wides 10, extras 18, no ball 1, fifties 1, caught outs 9.',
          'Per-team averages are published with each team market.',
        ],
      },
      {
        heading: 'Tour Special Events',
        items: [
          'Tour T20 averages per match: 1st over 6 runs, 1st 6 overs 45, fours 24, sixes 9, boundaries 33, fifties 2, wickets 12, wides 8, extras 15, caught 8, bowled 2, LBW 2, run out 1.',
          'A player dropped from the XI for 3 matches is treated as out of the tour: his player-special bets are settled on the figures so far.',
        ],
      },
    ],
  },
  {
    id: 'match',
    title: 'Match',
    sections: [
      {
        heading: 'Cricket',
        items: [
          'Match odds are settled on the official result; a tie is settled as the competition decides (super over counts where played).',
          'Limited-over matches are voided if the defined overs are not bowled and no result is declared.',
        ],
      },
      {
        heading: 'Tennis',
        items: [
          'If a player retires or is disqualified, match bets are void unless the match was completed.',
          'A match not completed in the tournament is void.',
        ],
      },
      {
        heading: 'Football',
        items: [
          'Match bets are settled on 90 minutes plus stoppage time.',
          'A match not played within 48 hours of the scheduled kick-off is void.',
        ],
      },
    ],
  },
  {
    id: 'binary',
    title: 'Binary',
    sections: [
      {
        heading: 'Session times (IST)',
        items: [
          'Index stocks: Monday to Friday, 10:00 to 14:30.',
          'Gold, silver and crude: 11:30 to 22:30.',
          'US indices: 19:30 to 24:00.',
          'Binary markets are settled on the closing value published by the exchange at the end of the session; a Yes bet wins when the value is at or above the line.',
        ],
      },
    ],
  },
];
