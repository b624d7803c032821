import { Suspense, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { Spinner } from '../components/QueryState';
import { i18n } from '../i18n';
import { lazyNamed } from '../lib/lazy';
import { ConsoleOnly, GuestOnly, RequireAuth } from './guards';
import { NotFound } from './NotFound';

const MainLayout = lazyNamed(() => import('./MainLayout'), 'MainLayout');
const LoginPage = lazyNamed(() => import('../features/auth/LoginPage'), 'LoginPage');
const SignUpPage = lazyNamed(() => import('../features/auth/SignUpPage'), 'SignUpPage');
const RulesPage = lazyNamed(() => import('../features/rules/RulesPage'), 'RulesPage');
const CasinoGamePage = lazyNamed(() => import('../features/casino/CasinoGamePage'), 'CasinoGamePage');
const HomePage = lazyNamed(() => import('../features/matches/HomePage'), 'HomePage');
const AllSportsPage = lazyNamed(() => import('../features/matches/AllSportsPage'), 'AllSportsPage');
const MatchPage = lazyNamed(() => import('../features/betting/MatchPage'), 'MatchPage');
const RaceCardPage = lazyNamed(() => import('../features/betting/RaceCardPage'), 'RaceCardPage');
const UserPage = lazyNamed(() => import('../features/user/UserPage'), 'UserPage');
const reports = () => import('../features/reports/ReportPages');
const AccountStatementPage = lazyNamed(reports, 'AccountStatementPage');
const PaymentStatementPage = lazyNamed(reports, 'PaymentStatementPage');
const CurrentBetPage = lazyNamed(reports, 'CurrentBetPage');
const CasinoResultPage = lazyNamed(reports, 'CasinoResultPage');
const LiveCasinoBetsPage = lazyNamed(reports, 'LiveCasinoBetsPage');
const ProfitLossPage = lazyNamed(() => import('../features/reports/ProfitLossPage'), 'ProfitLossPage');
const BetHistoryPage = lazyNamed(() => import('../features/reports/BetHistoryPage'), 'BetHistoryPage');
const CasinoListPage = lazyNamed(() => import('../features/casino/CasinoListPage'), 'CasinoListPage');
const CasinoMatchPage = lazyNamed(() => import('../features/casino/CasinoMatchPage'), 'CasinoMatchPage');
const CasinoRoundPage = lazyNamed(() => import('../features/casino/CasinoRoundPage'), 'CasinoRoundPage');
const CasinoVerifyPage = lazyNamed(() => import('../features/casino/CasinoVerifyPage'), 'CasinoVerifyPage');
const WorldCasinoPage = lazyNamed(() => import('../features/casino/WorldCasinoPage'), 'WorldCasinoPage');
const Mac88LobbyPage = lazyNamed(() => import('../features/casino/WorldCasinoPage'), 'Mac88LobbyPage');
const HorseRacingPage = lazyNamed(() => import('../features/horse-racing/HorseRacingPage'), 'HorseRacingPage');
const ChangePasswordPage = lazyNamed(() => import('../features/settings/ChangePasswordPage'), 'ChangePasswordPage');
const ButtonValuesPage = lazyNamed(() => import('../features/settings/ButtonValuesPage'), 'ButtonValuesPage');
const DepositWithdrawPage = lazyNamed(() => import('../features/settings/DepositWithdrawPage'), 'DepositWithdrawPage');
// The operator's console: its own chunks, fetched only once ConsoleOnly has let an admin or agent in.
const ConsoleRoutes = lazyNamed(() => import('../console/ConsoleRoutes'), 'ConsoleRoutes');
// The operator's console stays in English whatever language the bettor's app is in: the shared
// parts it draws (pop-ups, paging, loading, empty tables) read this English copy of i18next, which
// shares the catalogues but not the language.
const englishI18n = i18n.cloneInstance({ lng: 'en' });
const SecurityAuthPage = lazyNamed(() => import('../features/security-auth/SecurityAuthPage'), 'SecurityAuthPage');
const SaferGamblingPage = lazyNamed(() => import('../features/safer-gambling/SaferGamblingPage'), 'SaferGamblingPage');
const LoginHistoryPage = lazyNamed(() => import('../features/safer-gambling/LoginHistoryPage'), 'LoginHistoryPage');

function Page({ children }: { children: ReactNode }) {
  const location = useLocation();
  return (
    <ErrorBoundary resetKey={location.pathname}>
      <Suspense fallback={<Spinner />}>{children}</Suspense>
    </ErrorBoundary>
  );
}

/** /CM/MD/{id}: a sports match by its numeric id, else a casino table by its code. */
function MatchOrCasinoPage() {
  return /^\d+$/.test(useParams().matchId ?? '') ? <MatchPage /> : <CasinoMatchPage />;
}

/** Spec §2's route table: hash-style URLs (the router is a HashRouter, see App.tsx). */
export function AppRoutes() {
  return (
    <Routes>
      {/* Authentication area: visitors only. */}
      <Route path="/login" element={<Page><GuestOnly><LoginPage /></GuestOnly></Page>} />
      <Route path="/sign-up" element={<Page><GuestOnly><SignUpPage /></GuestOnly></Page>} />
      <Route path="/signup" element={<Navigate to="/sign-up" replace />} />

      {/* Own layouts. */}
      <Route path="/page/rules" element={<Page><RequireAuth><RulesPage /></RequireAuth></Page>} />
      <Route path="/casino/mac88/game" element={<Page><RequireAuth><CasinoGamePage /></RequireAuth></Page>} />
      <Route path="/console/*" element={<Page><RequireAuth><ConsoleOnly><I18nextProvider i18n={englishI18n}><ConsoleRoutes /></I18nextProvider></ConsoleOnly></RequireAuth></Page>} />

      {/* Main layout: header, left sidebar, content. */}
      <Route element={<Page><RequireAuth><MainLayout /></RequireAuth></Page>}>
        <Route index element={<HomePage />} />
        <Route path="home" element={<HomePage />} />
        <Route path="game-details/:sportId/:matchId" element={<MatchPage />} />
        <Route path="match/matchdetail/:matchId" element={<MatchPage />} />
        <Route path="all-sports/:sportId" element={<AllSportsPage />} />
        <Route path="user" element={<UserPage />} />
        <Route path="report">
          <Route index element={<Navigate to="/report/account-statement" replace />} />
          <Route path="account-statement" element={<AccountStatementPage />} />
          <Route path="payment-withdraw" element={<PaymentStatementPage />} />
          <Route path="current-bet" element={<CurrentBetPage />} />
          <Route path="profit-loss" element={<ProfitLossPage />} />
          <Route path="bet-history" element={<BetHistoryPage />} />
          <Route path="casino-result" element={<CasinoResultPage />} />
          <Route path="live-casino-bets" element={<LiveCasinoBetsPage />} />
        </Route>
        <Route path="casino">
          <Route index element={<Navigate to="/casino/list" replace />} />
          <Route path="list" element={<CasinoListPage />} />
          <Route path="list/:seriesId" element={<CasinoListPage />} />
          <Route path="match/:matchId" element={<CasinoMatchPage />} />
          <Route path="round/:roundId" element={<CasinoRoundPage />} />
          <Route path="verify" element={<CasinoVerifyPage />} />
          <Route path="mac88" element={<Mac88LobbyPage />} />
        </Route>
        <Route path="CM/MD/:matchId" element={<MatchOrCasinoPage />} />
        <Route path="horse-racing" element={<HorseRacingPage />} />
        <Route path="horse-racing/:matchId/:date" element={<RaceCardPage />} />
        <Route path="setting">
          <Route index element={<Navigate to="/setting/change-password" replace />} />
          <Route path="change-password" element={<ChangePasswordPage />} />
          <Route path="d-w" element={<DepositWithdrawPage />} />
          <Route path="button-values" element={<ButtonValuesPage />} />
        </Route>
        <Route path="security-auth" element={<SecurityAuthPage />} />
        {/* Beyond the spec's routes (issue 33): the bettor's own limits and breaks, and their log-ins. */}
        <Route path="safer-gambling" element={<SaferGamblingPage />} />
        <Route path="login-history" element={<LoginHistoryPage />} />
        <Route path="world-casino" element={<WorldCasinoPage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
