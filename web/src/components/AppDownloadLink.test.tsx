import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../testing/fake-server';
import { renderApp, storeSession } from '../testing/render';

const APK = 'https://cdn.example.com/backlay.apk';

function withSetting(setting: Record<string, unknown>) {
  stubServer({
    ...EMPTY_CATALOGUE,
    'GET /api/globalSetting/getGlobalSetting': { data: { site_title: 'Exchange Nine', payment_gateway: 1, ...setting } },
  });
}

describe('the app download link', () => {
  it('shows on the log-in and sign-up pages when the operator shows the app and gives its link', async () => {
    withSetting({ is_show_apk: 1, apk_url: APK });
    renderApp('/login');
    const link = await screen.findByRole('link', { name: /Download the app/ });
    expect(link).toHaveAttribute('href', APK);
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');

    window.location.hash = '/sign-up';
    expect(await screen.findByTestId('signup-form')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Download the app/ })).toHaveAttribute('href', APK);
  });

  it("is in a client's sidebar", async () => {
    withSetting({ is_show_apk: 1, apk_url: APK });
    storeSession();
    renderApp('/');
    const sidebar = (await screen.findAllByTestId('sidebar'))[0];
    expect(await within(sidebar).findByTestId('app-download')).toHaveAttribute('href', APK);
  });

  it.each([
    ['the app is not shown', { is_show_apk: 0, apk_url: APK }],
    ['there is no link', { is_show_apk: 1, apk_url: '' }],
    ['the link is not https', { is_show_apk: 1, apk_url: 'http://cdn.example.com/backlay.apk' }],
    ['the server is older and sends no link', { is_show_apk: 1 }],
  ])('is not there when %s', async (_, setting) => {
    withSetting(setting);
    renderApp('/login');
    expect(await screen.findByTestId('login-submit')).toBeInTheDocument();
    // The setting has arrived: the title is the server's.
    expect(await screen.findByText('Exchange Nine')).toBeInTheDocument();
    expect(screen.queryByTestId('app-download')).not.toBeInTheDocument();
  });
});
