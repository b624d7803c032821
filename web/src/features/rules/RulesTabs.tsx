import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { casinoGamesKey, getCasinoGames } from '../../api/casino-games';
import { errorMessage } from '../../api/client';
import { commissionText } from '../../lib/rules-topic';
import { RULES_TABS, type RulesSection, type RulesTab } from './rules-content';

/**
 * The Casino tab, after the spec's tabs: the in-house games' rules, as the server sends them
 * with the game list (the same text as each table's Rules panel).
 */
export const CASINO_RULES_TAB: RulesTab = { id: 'casino', title: 'Casino', sections: [] };

export const ALL_RULES_TABS: RulesTab[] = [...RULES_TABS, CASINO_RULES_TAB];

const CASINO_GENERAL: RulesSection = {
  heading: 'All casino games',
  items: [
    'Odds are decimal: a winning bet returns the stake times the odds, rounded down to the paisa; a pushed bet returns the stake.',
    'Bets are taken until the betting window closes, by the server\'s clock to the millisecond; a bet that arrives later is refused.',
    'Provably fair: each round\'s commitment (SHA-256 of its secret seed) is shown before betting; after the result the seed is revealed, and the round page checks it and the deal can be recomputed.',
  ],
};

/**
 * The rules as a vertical tab list, one panel per sport or market group, opened on
 * `initialTab` (a tab id) when given. Opened from a market, each panel first says that
 * market's commission.
 */
export function RulesTabs({ initialTab, market }: { initialTab?: string | null; market?: { name: string; commissionBp: number } }) {
  const [activeId, setActiveId] = useState(() => (ALL_RULES_TABS.some((t) => t.id === initialTab) ? initialTab! : ALL_RULES_TABS[0].id));
  const active = ALL_RULES_TABS.find((t) => t.id === activeId) ?? ALL_RULES_TABS[0];
  // Opened on a tab far down the list (Match, Fancy), the list shows it without a scroll.
  const openedOn = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    openedOn.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div className="rules-tabs" data-testid="rules-tabs">
      <div className="rules-tab-list" role="tablist" aria-orientation="vertical">
        {ALL_RULES_TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`rules-tab-${tab.id}`}
            aria-selected={tab.id === active.id}
            aria-controls={`rules-panel-${tab.id}`}
            className={tab.id === active.id ? 'active' : undefined}
            ref={tab.id === active.id ? openedOn : undefined}
            onClick={() => setActiveId(tab.id)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      <div className="rules-panel" role="tabpanel" id={`rules-panel-${active.id}`} aria-labelledby={`rules-tab-${active.id}`} data-testid="rules-panel">
        <h2>{active.title}</h2>
        {market && (
          <p className="notice rules-commission" data-testid="rules-commission">
            {market.commissionBp > 0
              ? `${market.name}: commission ${commissionText(market.commissionBp)} of your net winnings on the market, taken when it is settled. Nothing is taken from a net loss.`
              : `${market.name}: no commission.`}
          </p>
        )}
        {active.id === CASINO_RULES_TAB.id ? <CasinoRules /> : <Sections sections={active.sections} />}
      </div>
    </div>
  );
}

function Sections({ sections }: { sections: RulesSection[] }) {
  if (sections.length === 0) return <p className="empty-state">No records Found</p>;
  return (
    <>
      {sections.map((section, index) => {
        const List = section.numbered ? 'ol' : 'ul';
        return (
          <div key={section.heading ?? index} className="rules-section">
            {section.heading && <h3>{section.heading}</h3>}
            <List>
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </List>
          </div>
        );
      })}
    </>
  );
}

/** Each in-house game's rules, from the server's game list. */
function CasinoRules() {
  const games = useQuery({ queryKey: casinoGamesKey(), queryFn: () => getCasinoGames(), staleTime: 5 * 60_000 });
  if (games.isPending) return <p className="muted">Loading the casino rules…</p>;
  if (games.error) return <p className="error-message">{errorMessage(games.error)}</p>;
  const sections: RulesSection[] = (games.data ?? [])
    .filter((g) => (g.rules ?? []).length > 0)
    .map((g) => ({ heading: g.title && g.title !== g.name ? `${g.title} (${g.name})` : g.name, items: g.rules ?? [] }));
  return <Sections sections={sections.length > 0 ? [CASINO_GENERAL, ...sections] : []} />;
}
