import { useState } from 'react';
import { RULES_TABS } from './rules-content';

/** The rules as a vertical tab list, one panel per sport or market group. */
export function RulesTabs() {
  const [activeId, setActiveId] = useState(RULES_TABS[0].id);
  const active = RULES_TABS.find((t) => t.id === activeId) ?? RULES_TABS[0];
  return (
    <div className="rules-tabs" data-testid="rules-tabs">
      <div className="rules-tab-list" role="tablist" aria-orientation="vertical">
        {RULES_TABS.map((tab) => (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`rules-tab-${tab.id}`}
            aria-selected={tab.id === active.id}
            aria-controls={`rules-panel-${tab.id}`}
            className={tab.id === active.id ? 'active' : undefined}
            onClick={() => setActiveId(tab.id)}
          >
            {tab.title}
          </button>
        ))}
      </div>
      <div className="rules-panel" role="tabpanel" id={`rules-panel-${active.id}`} aria-labelledby={`rules-tab-${active.id}`} data-testid="rules-panel">
        <h2>{active.title}</h2>
        {active.sections.length === 0 ? (
          <p className="empty-state">No records Found</p>
        ) : (
          active.sections.map((section, index) => {
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
          })
        )}
      </div>
    </div>
  );
}
