import { describe, expect, it, vi } from 'vitest';
import { initialVisibility } from '../features/header/visibility';
import { TOAST_SETTINGS } from '../lib/toast';
import { applyTheme } from './Theme';

describe('theme from the global setting', () => {
  it('sets the colour fields as CSS variables, the title and the favicon', () => {
    applyTheme({
      bg_primary_color: '#112233',
      bg_secondry_color: '#223344',
      text_primary_color: '#ffffff',
      text_secondry_color: '#f5c542',
      other_color: '#72bbef',
      site_title: 'My Exchange',
      favicon: 'fav.png',
    });
    const style = document.documentElement.style;
    expect(style.getPropertyValue('--bg-primary')).toBe('#112233');
    expect(style.getPropertyValue('--bg-secondary')).toBe('#223344');
    expect(style.getPropertyValue('--text-primary')).toBe('#ffffff');
    expect(style.getPropertyValue('--text-secondary')).toBe('#f5c542');
    expect(style.getPropertyValue('--other-color')).toBe('#72bbef');
    expect(document.title).toBe('My Exchange');
    expect(document.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe('/upload/image/fav.png');
  });

  it('ignores a value that is not a colour', () => {
    applyTheme({ bg_primary_color: 'red; background: url(x)' });
    expect(document.documentElement.style.getPropertyValue('--bg-primary')).not.toContain('url');
  });
});

describe('balance and exposure visibility', () => {
  const narrow = (matches: boolean) =>
    vi.stubGlobal('matchMedia', (query: string) => ({ matches, media: query, addEventListener: () => undefined, removeEventListener: () => undefined }));

  it('is shown by default, and restores the saved setting only under 993 px', () => {
    narrow(true);
    expect(initialVisibility('balance')).toBe(true);
    sessionStorage.setItem('showBalance', 'false');
    expect(initialVisibility('balance')).toBe(false);
    expect(initialVisibility('exposure')).toBe(true);
    narrow(false);
    expect(initialVisibility('balance')).toBe(true);
  });
});

describe('toasts', () => {
  it('use the product setting: 800 ms, top-center, tap to dismiss, close button', () => {
    expect(TOAST_SETTINGS).toMatchObject({ autoClose: 800, position: 'top-center', closeOnClick: true, closeButton: true });
  });
});
