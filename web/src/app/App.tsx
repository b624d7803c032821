import { LoginScreen } from '../features/auth/LoginScreen';
import { SiteHeader } from '../features/site-settings/SiteHeader';

export function App() {
  return (
    <main className="app">
      <SiteHeader />
      <LoginScreen />
    </main>
  );
}
