import { describe, expect, it } from 'vitest';
import { allowedFrameOrigins, frameableUrl } from './frame-policy';

describe('casino frame allow-list', () => {
  it('frames nothing while the server publishes no origins', () => {
    expect(allowedFrameOrigins({})).toEqual([]);
    expect(frameableUrl('https://games.example.com/play?t=1', allowedFrameOrigins(null))).toBeNull();
  });

  it('frames only http(s) addresses whose origin is listed', () => {
    const allowed = allowedFrameOrigins({ casino_frame_origins: 'https://games.example.com, https://live.example.org/' });
    expect(allowed).toEqual(['https://games.example.com', 'https://live.example.org']);
    expect(frameableUrl('https://games.example.com/play?t=1', allowed)).toBe('https://games.example.com/play?t=1');
    expect(frameableUrl('https://games.example.com.evil.test/play', allowed)).toBeNull();
    expect(frameableUrl('http://games.example.com/play', allowed)).toBeNull();
    expect(frameableUrl('javascript:alert(1)', allowed)).toBeNull();
    expect(frameableUrl('not a url', allowed)).toBeNull();
  });
});
