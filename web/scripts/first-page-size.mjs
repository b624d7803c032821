// Prints the gzipped size of the JavaScript a visitor's first page (the login page) loads:
// the entry chunk, the login route's chunk, and every chunk they import statically.
// Run after `npm run build`:  npm run size
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const FIRST_PAGE = ['index.html', 'src/features/auth/LoginPage.tsx'];

/** @type {Set<string>} */
const seen = new Set();
/** @param {string} key */
function collect(key) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) collect(dep);
}
for (const key of FIRST_PAGE) {
  if (!manifest[key]) throw new Error(`${key} is not in the build manifest`);
  collect(key);
}

let raw = 0;
let gz = 0;
for (const key of seen) {
  const file = manifest[key].file;
  const bytes = readFileSync(path.join(dist, file));
  const zipped = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += zipped;
  console.log(`${(zipped / 1024).toFixed(1).padStart(7)} KiB gz  ${file}`);
}
console.log(`first page JS: ${(raw / 1024).toFixed(1)} KiB, ${(gz / 1024).toFixed(1)} KiB gzipped (${seen.size} files)`);
