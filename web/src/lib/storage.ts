// Every key the product keeps in the browser (spec §3). The names, including the spelling
// "logedIn", are the product's own: other code and the browser tests read them.

/** localStorage keys. */
export const LOCAL_KEYS = {
  userInfo: 'userinfo',
  token: 'usertoken',
  loggedIn: 'logedIn',
  userId: 'userId',
  globalData: 'globalData',
  openWelcomePopup: 'openWelcomePopup',
  /** The sidebar's last "All Sports" tree, so the menu shows at once on reload. */
  testData: 'testData',
  parentId: 'parent_id',
  /** Set while a log-in waits for its security-auth code; the header sends such a visitor to /login. */
  otpVerify: 'otpVerify',
} as const;

/** sessionStorage keys. */
export const SESSION_KEYS = {
  /** The last balance answer (total_balance, liability), shown before the next poll lands. */
  exposureBalance: 'exposureBalance',
  showBalance: 'showBalance',
  showExposure: 'showExposure',
  /** Why the last session ended, when the app ended it for a reason the login page should say (a time-out, the session limit). */
  farewell: 'farewell',
} as const;

export function readJson<T>(storage: Storage, key: string): T | null {
  const text = storage.getItem(key);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function writeJson(storage: Storage, key: string, value: unknown): void {
  storage.setItem(key, JSON.stringify(value));
}
