import { Suspense, useCallback, useMemo, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { usePageState } from '../hooks/usePageState';
import { RulesContext, type RulesControl, type RulesTopic } from '../lib/rules-topic';
import { Spinner } from '../components/QueryState';
import { WelcomePopup } from '../features/auth/WelcomePopup';
import { Header, type HeaderModals } from '../features/header/Header';
import { NoticeBell } from '../features/notices/NoticeBell';
import { NoticeFeed } from '../features/notices/NoticeFeed';
import { RulesModal } from '../features/rules/RulesModal';
import { ButtonValuesModal } from '../features/settings/ButtonValuesModal';
import { ChangePasswordModal } from '../features/settings/ChangePasswordModal';
import { Sidebar } from '../features/sports-nav/Sidebar';
import { TopNav } from '../features/sports-nav/TopNav';

// The header opens modals that other areas own; composing them here keeps features apart.
const headerModals: HeaderModals = {
  buttonValues: (close) => <ButtonValuesModal onClose={close} />,
  changePassword: (close) => <ChangePasswordModal onClose={close} />,
};

/** Header, top navigation, left sidebar and the page. */
export function MainLayout() {
  const location = useLocation();
  // The side menu (a drawer on a phone) belongs to the page it opened on: Back closes it.
  const [sidebarOpenState, setSidebarOpenState] = usePageState<true>();
  const sidebarOpen = sidebarOpenState === true;
  const setSidebarOpen = (open: boolean) => setSidebarOpenState(open || null);
  // The rules pop-up, opened on what it was asked about: the header's link and the user menu
  // on the page's own topic (a match: its sport), a market's Rules button on that market.
  const [rules, setRules] = usePageState<{ topic: RulesTopic | null }>();
  const [pageTopic, setPageTopic] = useState<RulesTopic | null>(null);
  const openRules = useCallback((topic?: RulesTopic) => setRules({ topic: { ...pageTopic, ...topic } }), [setRules, pageTopic]);
  const rulesControl: RulesControl = useMemo(() => ({ open: openRules, setPageTopic }), [openRules]);
  return (
    <RulesContext value={rulesControl}>
      <div className="main-layout">
        <Header modals={headerModals} bell={<NoticeBell />} />
        <NoticeFeed />
        <TopNav onMenu={() => setSidebarOpen(!sidebarOpen)} />
        <div className="main-body">
          <aside className={`sidebar-wrap${sidebarOpen ? ' open' : ''}`}>
            <Sidebar onNavigate={() => setSidebarOpen(false)} />
          </aside>
          {sidebarOpen && <div className="sidebar-scrim" onClick={() => setSidebarOpen(false)} />}
          <main className="content" data-testid="content">
            <ErrorBoundary resetKey={location.pathname}>
              <Suspense fallback={<Spinner />}>
                <Outlet />
              </Suspense>
            </ErrorBoundary>
          </main>
        </div>
        <WelcomePopup />
        {rules && <RulesModal topic={rules.topic} onClose={() => setRules(null)} />}
      </div>
    </RulesContext>
  );
}
