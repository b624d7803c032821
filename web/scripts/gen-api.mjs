// `npm run gen:api`: refreshes the API contract after a change to the server's annotations.
// Writes src/api/openapi.json (the document, from `backlay openapi`: built from the source, no
// server or network needed) and src/api/schema.ts (its TypeScript). The server's test
// openapi_snapshot and api-types.test.mjs here fail while either file is stale.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiTypes } from './api-types.mjs';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const documentPath = path.join(web, 'src/api/openapi.json');
const schemaPath = path.join(web, 'src/api/schema.ts');

const document = execFileSync('cargo', ['run', '--quiet', '-p', 'backlay', '--', 'openapi'], {
  cwd: path.join(web, '..'),
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 64 * 1024 * 1024,
});
writeFileSync(documentPath, document);
writeFileSync(schemaPath, await apiTypes(readFileSync(documentPath, 'utf8')));
console.log(`wrote ${path.relative(web, documentPath)} and ${path.relative(web, schemaPath)}`);
