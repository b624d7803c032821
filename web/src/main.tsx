import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './app/app.css';
import { clearSessionStorageIfLoggedOut } from './lib/session';

// Spec §4: session storage is cleared at start when not logged in.
clearSessionStorageIfLoggedOut();

createRoot(document.getElementById('root')!).render(<App />);
