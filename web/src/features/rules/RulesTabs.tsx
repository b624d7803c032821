import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { casinoGamesKey, getCasinoGames } from '../../api/casino-games';
import { errorMessage } from '../../api/client';
import { commissionText } from '../../lib/rules-topic';
import { RULES_TAB_IDS, rulesSection, rulesTabs, type RulesSection, type RulesTab } from './rules-content';

/**
 * The Casino tab's id: after the spec's tabs, the in-house games' rules, as the server sends them
 * with the game list (the same text as each table's Rules panel).
 */
export const CASINO_RULES_TAB_ID = 'casino';

/** Every tab's id, in order: the spec's, then Casino. */
const ALL_TAB_IDS: readonly string[] = [...RULES_TAB_IDS, CASINO_RULES_TAB_ID];

/**
 * The rules as a vertical tab list, one panel per sport or market group, opened on
 * `initialTab` (a tab id) when given. Opened from a market, each panel first says that
 * market's commission.
 */
export function RulesTabs({ initialTab, market }: { initialTab?: string | null; market?: { name: string; commissionBp: number } }) {
  const { t } = useTranslation('rules');
  const [activeId, setActiveId] = useState(() => (initialTab && ALL_TAB_IDS.includes(initialTab) ? initialTab : ALL_TAB_IDS[0]));
  const allTabs: RulesTab[] = [...rulesTabs(t('tabs', { returnObjects: true })), { id: CASINO_RULES_TAB_ID, title: t('casino.title'), sections: [] }];
  const active = allTabs.find((tab) => tab.id === activeId) ?? allTabs[0];
  // Opened on a tab far down the list (Match, Fancy), the list shows it without a scroll.
  const openedOn = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    openedOn.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <div className="rules-tabs" data-testid="rules-tabs">
      <div className="rules-tab-list" role="tablist" aria-orientation="vertical">
        {allTabs.map((tab) => (
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
            {market.commissionBp > 0 ? t('commission', { market: market.name, rate: commissionText(market.commissionBp) }) : t('noCommission', { market: market.name })}
          </p>
        )}
        {active.id === CASINO_RULES_TAB_ID ? <CasinoRules /> : <Sections sections={active.sections} />}
      </div>
    </div>
  );
}

function Sections({ sections }: { sections: RulesSection[] }) {
  const { t } = useTranslation('rules');
  if (sections.length === 0) return <p className="empty-state">{t('empty')}</p>;
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
  const { t } = useTranslation('rules');
  const games = useQuery({ queryKey: casinoGamesKey(), queryFn: () => getCasinoGames(), staleTime: 5 * 60_000 });
  if (games.isPending) return <p className="muted">{t('casino.loading')}</p>;
  if (games.error) return <p className="error-message">{errorMessage(games.error)}</p>;
  const sections: RulesSection[] = (games.data ?? [])
    .filter((g) => (g.rules ?? []).length > 0)
    .map((g) => ({ heading: g.title && g.title !== g.name ? `${g.title} (${g.name})` : g.name, items: g.rules ?? [] }));
  // The general rules are the app's words; each game's are the server's, as it sends them.
  const general = rulesSection(t('casino.general', { returnObjects: true }));
  return <Sections sections={sections.length > 0 ? [general, ...sections] : []} />;
}
