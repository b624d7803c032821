// The console's sections: one list that both the left navigation and the router read, so a
// link exists only for a screen that exists, and each screen says which roles may open it.
import type { ReactNode } from 'react';
import { isConsoleUser, type UserInfo } from '../lib/session';

export type ConsoleRole = 'admin' | 'agent';

export interface ConsoleSection {
  /** The path under /console/ (`downline`); the section's own routes may follow it. */
  path: string;
  label: string;
  /** Who sees the link and may open the screen; the server checks every call again. */
  roles: readonly ConsoleRole[];
  /** The screen: a lazily loaded component, so each area is its own chunk. */
  element: ReactNode;
}

/** The user's console role; null for a client or no one (lib/session's isConsoleUser decides). */
export function consoleRole(user: UserInfo | null): ConsoleRole | null {
  return isConsoleUser(user) ? user.role : null;
}

/** The sections `role` may open, in the list's order. */
export function sectionsFor(sections: readonly ConsoleSection[], role: ConsoleRole | null): ConsoleSection[] {
  return role ? sections.filter((section) => section.roles.includes(role)) : [];
}

/** The role's name as the console shows it: the admin runs the site, hence "operator". */
export function roleLabel(role: ConsoleRole): string {
  return role === 'admin' ? 'Operator' : 'Agent';
}
