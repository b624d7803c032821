import { createRoot } from 'react-dom/client';
import './i18n';
import { App } from './app/App';
// The toasts' styles as a stylesheet: react-toastify's default entry injects them in a <style>
// element, which the page's Content-Security-Policy refuses.
import 'react-toastify/ReactToastify.css';
import './app/app.css';
import { clearSessionStorageIfLoggedOut } from './lib/session';

// Spec §4: session storage is cleared at start when not logged in.
clearSessionStorageIfLoggedOut();

createRoot(document.getElementById('root')!).render(<App />);
