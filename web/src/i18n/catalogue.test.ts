import { describe, expect, it } from 'vitest';
import { resources } from './index';

type Tree = { [key: string]: string | Tree };

/** Every leaf of a catalogue as `namespace:dotted.key` → text. */
function leaves(tree: Tree, prefix: string, out: Map<string, string>): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else leaves(value, path, out);
  }
  return out;
}

const catalogue = (language: 'en' | 'hi') => {
  const out = new Map<string, string>();
  for (const [ns, tree] of Object.entries(resources[language])) leaves(tree, `${ns}:`, out);
  return out;
};

/** {{placeholders}} and <n> tags a text uses, sorted, so a translation keeps every one. */
const slots = (text: string) => [...text.matchAll(/\{\{\s*[\w.]+\s*\}\}|<\/?\d+>/g)].map((m) => m[0].replace(/\s/g, '')).sort();

describe('the Hindi catalogue', () => {
  const en = catalogue('en');
  const hi = catalogue('hi');

  it('has every English key and no other', () => {
    expect([...hi.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect([...en.keys()].filter((k) => !hi.has(k))).toEqual([]);
  });

  it('keeps every placeholder and tag of the English text', () => {
    const wrong = [...en].filter(([key, text]) => hi.has(key) && slots(text).join() !== slots(hi.get(key)!).join());
    expect(wrong.map(([key]) => key)).toEqual([]);
  });

  it('has no empty text', () => {
    expect([...hi].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
  });
});
