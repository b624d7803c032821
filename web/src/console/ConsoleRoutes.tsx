import { Navigate, Route, Routes } from 'react-router';
import { lazyNamed } from '../lib/lazy';
import { useSession } from '../lib/session';
import { ConsoleLayout } from './ConsoleLayout';
import { consoleRole, sectionsFor, type ConsoleSection } from './nav';
import { ConsoleNotFound } from './ConsoleNotFound';

const DashboardPage = lazyNamed(() => import('./dashboard/DashboardPage'), 'DashboardPage');
const DownlinePage = lazyNamed(() => import('./accounts/DownlinePage'), 'DownlinePage');
const PaymentsRoutes = lazyNamed(() => import('./payments/PaymentsPage'), 'PaymentsRoutes');
const AuditPage = lazyNamed(() => import('./audit/AuditPage'), 'AuditPage');
const SiteSettingsPage = lazyNamed(() => import('./settings/SiteSettingsPage'), 'SiteSettingsPage');
const RiskRoutes = lazyNamed(() => import('./risk/RiskPages'), 'RiskRoutes');
const AccountPage = lazyNamed(() => import('./risk/AccountPage'), 'AccountPage');
const CatalogueRoutes = lazyNamed(() => import('./catalogue/CataloguePage'), 'CatalogueRoutes');
const DeskRoutes = lazyNamed(() => import('./desk/DeskPage'), 'DeskRoutes');
const FeedsPage = lazyNamed(() => import('./feeds/FeedsPage'), 'FeedsPage');
const ReportsPage = lazyNamed(() => import('./reports/ReportsPage'), 'ReportsPage');
const CasinoPage = lazyNamed(() => import('./casino/CasinoPage'), 'CasinoPage');

/**
 * Every console screen, in the navigation's order: Dashboard (the landing page), Downline, Payments, Audit log, Settings,
 * Markets/Desk, Feeds, Risk, Reports, Casino. An area adds its screen here (one lazy import and one
 * entry) when the screen exists, so the navigation never links to nothing.
 */
const CONSOLE_SECTIONS: readonly ConsoleSection[] = [
  { path: 'dashboard', label: 'Dashboard', roles: ['admin', 'agent'], element: <DashboardPage /> },
  { path: 'downline', label: 'Downline', roles: ['admin', 'agent'], element: <DownlinePage /> },
  { path: 'payments', label: 'Payments', roles: ['admin', 'agent'], element: <PaymentsRoutes /> },
  { path: 'audit', label: 'Audit log', roles: ['admin'], element: <AuditPage /> },
  { path: 'settings', label: 'Settings', roles: ['admin'], element: <SiteSettingsPage /> },
  { path: 'markets', label: 'Markets', roles: ['admin'], element: <CatalogueRoutes /> },
  { path: 'desk', label: 'Trading desk', roles: ['admin'], element: <DeskRoutes /> },
  { path: 'feeds', label: 'Feeds', roles: ['admin'], element: <FeedsPage /> },
  { path: 'risk', label: 'Risk', roles: ['admin', 'agent'], element: <RiskRoutes /> },
  { path: 'reports', label: 'Reports', roles: ['admin', 'agent'], element: <ReportsPage /> },
  { path: 'casino', label: 'Casino', roles: ['admin'], element: <CasinoPage /> },
];

/** `#/console/…` for an admin or agent (app/guards' ConsoleOnly let them in). */
export function ConsoleRoutes() {
  const sections = sectionsFor(CONSOLE_SECTIONS, consoleRole(useSession()));
  return (
    <Routes>
      <Route element={<ConsoleLayout sections={sections} />}>
        <Route index element={<Navigate to={sections[0]?.path ?? 'downline'} replace />} />
        {sections.map((section) => (
          <Route key={section.path} path={`${section.path}/*`} element={section.element} />
        ))}
        {/* Opened from the downline and the bet lists, not from the navigation. */}
        {sections.length > 0 && <Route path="account/:userId" element={<AccountPage />} />}
        <Route path="*" element={<ConsoleNotFound />} />
      </Route>
    </Routes>
  );
}
