// The API's answers as the server's OpenAPI document describes them: schema.ts is generated
// from it (`npm run gen:api`), so a shape changes here only when the server's changes. Each
// feature names the shapes it reads, once, in its api.ts.
import type { components } from './schema';

export type Schemas = components['schemas'];
