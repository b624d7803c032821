// What the rules are opened about. The header's Rules link, a market's own Rules button and the
// user menu's Rules item all open one rules pop-up (the app's, app/MainLayout.tsx); the rules
// feature turns the topic into its tab (features/rules/topic.ts). A page says what its Rules
// are about while it shows (a match: its sport), so the header's link opens on the page's
// own rules rather than on the first tab.
import { createContext, useContext, useEffect } from 'react';

export interface RulesTopic {
  sportId?: number;
  sportName?: string;
  /** A market's type ("match_odds", "bookmaker", "fancy", "win", "place"). */
  marketType?: string;
  marketName?: string;
  /** The market's commission on net winnings, basis points (200 = 2%). */
  commissionBp?: number;
}

export interface RulesControl {
  /** Opens the rules on `topic`, over the page's own topic (a market's sport is its page's). */
  open: (topic?: RulesTopic) => void;
  /** What the page showing now is about; null when it leaves. */
  setPageTopic: (topic: RulesTopic | null) => void;
}

export const RulesContext = createContext<RulesControl>({ open: () => undefined, setPageTopic: () => undefined });

export function useRules(): RulesControl {
  return useContext(RulesContext);
}

/** The page's rules topic while it shows: its sport (id and name), once known. */
export function usePageRulesTopic(sportId: number | undefined, sportName: string | undefined): void {
  const { setPageTopic } = useRules();
  useEffect(() => {
    if (sportId === undefined) return undefined;
    setPageTopic({ sportId, sportName });
    return () => setPageTopic(null);
  }, [setPageTopic, sportId, sportName]);
}

/** "2%", "2.5%": a commission in basis points as a bettor reads it. */
export function commissionText(commissionBp: number): string {
  return `${String(commissionBp / 100)}%`;
}
