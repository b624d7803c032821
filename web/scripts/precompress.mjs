// Writes a brotli (.br) and a gzip (.gz) copy next to each compressible asset of the build, for
// the server to send to browsers that accept them (ServeDir's precompressed_br/gzip): the
// first page's JavaScript goes over the wire compressed without the server compressing
// anything per request. Runs after `vite build` (npm run build); Node's own zlib, no package.
//
// A copy is written only when it is smaller than the file; index.html is skipped, as the
// server holds it in memory and answers it itself.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.map', '.wasm', '.xml', '.ico']);
/** Smaller files gain less than their extra request header costs. */
const MIN_BYTES = 256;

/** @param {string} dir @returns {string[]} */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

let raw = 0;
let br = 0;
let gz = 0;
let count = 0;
for (const file of files(dist)) {
  if (!COMPRESSIBLE.has(path.extname(file)) || statSync(file).size < MIN_BYTES) continue;
  const bytes = readFileSync(file);
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: path.extname(file) === '.wasm' ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
    },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  if (brotli.length < bytes.length) writeFileSync(`${file}.br`, brotli);
  if (gzip.length < bytes.length) writeFileSync(`${file}.gz`, gzip);
  raw += bytes.length;
  br += Math.min(brotli.length, bytes.length);
  gz += Math.min(gzip.length, bytes.length);
  count += 1;
}
const kib = (/** @type {number} */ n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`precompressed ${count} files: ${kib(raw)} → brotli ${kib(br)}, gzip ${kib(gz)}`);
