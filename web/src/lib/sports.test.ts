import { describe, expect, it } from 'vitest';
import { sidebarSports, sportPath, topNavSports } from './sports';

const sports = [
  { sport_id: 1, name: 'Football', order: 3, is_active: 1 },
  { sport_id: 2378961, name: 'Politics', order: 9, is_active: 1 },
  { sport_id: 7, name: 'Horse Racing', order: 5, is_active: 1 },
  { sport_id: 4339, name: 'Greyhound Racing', order: 6, is_active: 1 },
  { sport_id: -1, name: 'Indian Casino', order: 0, is_active: 1 },
  { sport_id: -17, name: 'Virtual', order: 1, is_active: 1 },
  { sport_id: 4, name: 'Cricket', order: 8, is_active: 1 },
  { sport_id: 2, name: 'Tennis', order: 4, is_active: 0 },
];

describe('sport ordering (spec §3)', () => {
  it('top navigation: cricket first, 2378961 promoted, -1 and -17 out, only active', () => {
    expect(topNavSports(sports).map((s) => s.sport_id)).toEqual([4, 2378961, 1, 7, 4339]);
  });

  it('sidebar: 7 and 4339 removed', () => {
    expect(sidebarSports(sports).map((s) => s.sport_id)).toEqual([4, 2378961, 1, 2]);
  });

  it('racing tabs lead to the racing page', () => {
    expect(sportPath(7)).toBe('/horse-racing?sport_id=7');
    expect(sportPath(4)).toBe('/all-sports/4');
  });
});
