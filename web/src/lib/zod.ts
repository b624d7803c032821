// The one way the app imports zod: with JIT compilation off. Zod compiles object parsers with
// `new Function` when it may, and probes for that the first time an object schema is made; the
// page's Content-Security-Policy has no 'unsafe-eval', so the probe alone is reported as a
// violation. Forms gain nothing measurable from the JIT.
import { z } from 'zod';

z.config({ jitless: true });

export { z };
