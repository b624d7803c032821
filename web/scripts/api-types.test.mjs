// The committed API types are what openapi-typescript makes of the committed document; the
// server's test openapi_snapshot holds that document to the one the server serves.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { apiTypes } from './api-types.mjs';

// Vitest runs from web/ (under jsdom, import.meta.url is not a file address).
const read = (/** @type {string} */ file) => readFileSync(path.join(process.cwd(), 'src/api', file), 'utf8');

it('src/api/schema.ts is generated from src/api/openapi.json (else run `npm run gen:api`)', async () => {
  const generated = await apiTypes(read('openapi.json'));
  expect(generated === read('schema.ts'), 'src/api/schema.ts is stale: run `npm run gen:api` in web/').toBe(true);
});
