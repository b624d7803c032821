import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { i18n } from '../i18n';
import { refreshSession } from '../lib/session';

// findBy…/waitFor give up after 15 s rather than 1 s: on a busy 2-core CI machine a render can
// take longer than a second (a first render of the reports took over 6 s beside the Rust tests
// and the fuzzer), and a slow pass is not a failure.
configure({ asyncUtilTimeout: 15_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  refreshSession();
  window.location.hash = '';
  // Tests read the English words unless one switches the language itself.
  if (i18n.language !== 'en') void i18n.changeLanguage('en');
});
