/** The build-time settings the app reads (web/README.md says what each does). */
interface ImportMetaEnv {
  readonly VITE_GEOLOCATION_URL?: string;
}
