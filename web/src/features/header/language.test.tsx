import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { currentLanguage, i18n, LANGUAGE_KEY } from '../../i18n';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

/**
 * Loads the i18n module again, as a reload of the page does: it starts in the language kept in
 * localStorage. (A second instance of the module, by its own address, on the one i18next.)
 */
async function reloadLanguage() {
  await act(async () => {
    await i18n.changeLanguage('en');
    const fresh = `../../i18n/index.ts?reload=${Date.now()}`;
    await import(/* @vite-ignore */ fresh);
  });
}

describe('the language switch', () => {
  it('turns the header into Hindi at once from the user menu, and the choice outlives a reload', async () => {
    stubServer(EMPTY_CATALOGUE);
    storeSession();
    const first = renderApp('/');
    const user = userEvent.setup();

    const header = await screen.findByTestId('site-header');
    expect(within(header).getByTestId('rules-link')).toHaveTextContent('Rules');
    await user.click(within(header).getByTestId('user-menu-toggle'));
    const english = screen.getByTestId('language-en');
    expect(english).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('language-hi')).toHaveTextContent('हिन्दी');
    await user.click(screen.getByTestId('language-hi'));

    // At once, without a reload: the header, the open menu and the navigation.
    expect(within(header).getByTestId('rules-link')).toHaveTextContent('नियम');
    expect(within(header).queryByText('Rules')).toBeNull();
    expect(within(header).getByText('बैलेंस:')).toBeInTheDocument();
    expect(within(header).queryByText(/Balance:/)).toBeNull();
    expect(screen.getByTestId('menu-account-statement')).toHaveTextContent('खाता विवरण');
    expect(screen.getByTestId('logout')).toHaveTextContent('लॉग आउट');
    expect(screen.getByTestId('language-hi')).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('language-en')).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByTestId('top-nav')).toHaveTextContent('होम');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('hi');
    expect(document.documentElement.lang).toBe('hi');
    first.unmount();

    // A reload reads the stored choice: the app opens in Hindi.
    await reloadLanguage();
    expect(currentLanguage()).toBe('hi');
    renderApp('/');
    const again = await screen.findByTestId('site-header');
    expect(within(again).getByTestId('rules-link')).toHaveTextContent('नियम');
    await user.click(within(again).getByTestId('user-menu-toggle'));
    expect(screen.getByTestId('menu-current-bet')).toHaveTextContent('मौजूदा बेट');
    expect(screen.queryByText('Current Bet')).toBeNull();

    // And back to English from the same menu.
    await user.click(screen.getByTestId('language-en'));
    expect(within(again).getByTestId('rules-link')).toHaveTextContent('Rules');
    expect(localStorage.getItem(LANGUAGE_KEY)).toBe('en');
  });

  it('is on the log-in page, before anyone has logged in', async () => {
    stubServer(EMPTY_CATALOGUE);
    renderApp('/login');
    const user = userEvent.setup();
    expect(await screen.findByTestId('login-submit')).toHaveTextContent('Login');
    await user.click(screen.getByTestId('language-hi'));
    expect(screen.getByTestId('login-submit')).toHaveTextContent('लॉग इन');
    expect(screen.getByTestId('login-user-name')).toHaveAttribute('placeholder', 'यूज़रनेम');
    expect(screen.getByTestId('language-hi')).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(localStorage.getItem(LANGUAGE_KEY)).toBe('hi'));
  });
});
