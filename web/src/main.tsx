import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { AppProvider } from './app/provider';
import './app/app.css';

createRoot(document.getElementById('root')!).render(
  <AppProvider>
    <App />
  </AppProvider>,
);
