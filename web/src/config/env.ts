// Build-time settings (Vite `VITE_*` variables); see web/README.md.

/**
 * The IP-geolocation service the sign-up page asks for a default country (spec §7: a GET with
 * the query `ip` and `fields=geo`). Empty: no look-up, India stays the default.
 */
export const GEOLOCATION_URL: string = import.meta.env.VITE_GEOLOCATION_URL ?? '';
