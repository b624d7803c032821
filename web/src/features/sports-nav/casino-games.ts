/** The sidebar's "Others" quick-launch casino games, in the spec's order (§2). */
export const QUICK_CASINO_GAMES: { name: string; code: string }[] = [
  { name: 'TP T20', code: 'teen20' },
  { name: 'TP 1 DAY', code: 'teen' },
  { name: 'TP TEST', code: 'teen9' },
  { name: 'DT 1 DAY', code: 'dt6' },
  { name: 'TP 2 Card', code: 'teen2' },
  { name: 'HILOW', code: 'hilow' },
  { name: 'POKER', code: 'poker' },
  { name: 'QUEEN', code: 'queen' },
  { name: 'BACCARAT', code: 'baccarat' },
  { name: 'AMAR AKBAR ANTHONEY', code: 'aaa' },
  { name: 'BOLLYWOOD', code: 'btable' },
  { name: 'TRIO', code: 'trio' },
  { name: 'ANDAR BAHAR', code: 'ab20' },
  { name: 'MUFLIS TP', code: 'teenmuf' },
  { name: 'ROULETTE', code: 'roulette' },
  { name: 'WORLI MATAKA', code: 'worli' },
];
