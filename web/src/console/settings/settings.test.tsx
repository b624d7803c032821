import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };

const SETTINGS = {
  site_title: 'Backlay',
  site_message: 'Welcome',
  logo: 'logo.png',
  favicon: '',
  payment_gateway: 1,
  is_show_apk: 0,
  apk_url: '',
  bg_primary_color: '#0b3d2e',
  bg_secondry_color: '#145c45',
  text_primary_color: '#ffffff',
  text_secondry_color: '#f5c542',
  other_color: '#72bbef',
  casino_frame_origins: 'https://games.example.com,https://live.example.org',
  signup_enabled: 1,
  default_parent: 'agent',
  agent_levels: 3,
  default_buttons_game: [
    { button_name: '100', button_value: 100 },
    { button_name: '1k', button_value: 1000 },
  ],
  default_buttons_casino: [{ button_name: '25', button_value: 25 }],
};

const SAFER_DEFAULTS = { default_loss_limit_day: 2500, max_stake: null };

function renderSettings(answers: Answers = {}) {
  const calls = stubServer({
    ...EMPTY_CATALOGUE,
    'GET /api/admin/settings': { data: SETTINGS },
    'GET /api/admin/saferDefaults': { data: SAFER_DEFAULTS },
    ...answers,
  });
  storeSession(admin);
  renderApp('/console/settings');
  return calls;
}

const saferSaves = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.path === '/api/admin/saferDefaults').map((c) => c.body);
const saves = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.path === '/api/admin/settings').map((c) => c.body);
const field = (name: string) => screen.getByTestId(`setting-${name}`);

describe('the settings screen', () => {
  it('shows every setting as the server holds it', async () => {
    renderSettings();
    expect(await screen.findByTestId('setting-site_title')).toHaveValue('Backlay');
    expect(field('site_message')).toHaveValue('Welcome');
    expect(field('payment_gateway')).toBeChecked();
    expect(field('is_show_apk')).not.toBeChecked();
    expect(field('apk_url')).toHaveValue('');
    expect(field('bg_primary_color')).toHaveValue('#0b3d2e');
    expect(field('casino_frame_origins')).toHaveValue('https://games.example.com, https://live.example.org');
    const operation = screen.getByTestId('settings-operation');
    expect(within(operation).getByTestId('setting-signup_enabled')).toBeChecked();
    expect(within(operation).getByTestId('setting-default_parent')).toHaveValue('agent');
    expect(within(operation).getByTestId('setting-agent_levels')).toHaveValue(3);
    const game = field('default_buttons_game');
    expect(within(game).getAllByTestId('stake-button-label').map((i) => (i as HTMLInputElement).value)).toEqual(['100', '1k']);
    expect(within(game).getAllByTestId('stake-button-value').map((i) => (i as HTMLInputElement).value)).toEqual(['100', '1000']);
    expect(within(field('default_buttons_casino')).getAllByTestId('stake-button-row')).toHaveLength(1);
    expect(screen.getByAltText('Current logo')).toHaveAttribute('src', '/upload/image/logo.png');
  });

  it('sends only what changed, as the server takes it', async () => {
    const calls = renderSettings({ 'POST /api/admin/settings': { message: 'Settings saved.' } });
    const user = userEvent.setup();
    await user.clear(await screen.findByTestId('setting-site_title'));
    await user.type(field('site_title'), ' Exchange Two ');
    await user.click(field('signup_enabled'));
    await user.clear(field('agent_levels'));
    await user.type(field('agent_levels'), '5');
    await user.click(field('is_show_apk'));
    await user.type(field('apk_url'), 'https://cdn.example.com/app.apk');
    const casino = field('default_buttons_casino');
    await user.click(within(casino).getByTestId('stake-button-add'));
    const labels = within(casino).getAllByTestId('stake-button-label');
    await user.type(labels[1], '5k');
    await user.type(within(casino).getAllByTestId('stake-button-value')[1], '5000');
    await user.click(screen.getByTestId('settings-save'));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(saves(calls)[0]).toEqual({
      site_title: 'Exchange Two',
      is_show_apk: 1,
      apk_url: 'https://cdn.example.com/app.apk',
      signup_enabled: 0,
      agent_levels: 5,
      default_buttons_casino: [
        { button_name: '25', button_value: 25 },
        { button_name: '5k', button_value: 5000 },
      ],
    });
    // Saved: a second save has nothing to send.
    await user.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText('Nothing has changed.')).toBeInTheDocument();
    expect(saves(calls)).toHaveLength(1);
  });

  it('stops a bad colour, link, level or stake at its field before sending', async () => {
    const calls = renderSettings();
    const user = userEvent.setup();
    await user.clear(await screen.findByTestId('setting-bg_primary_color'));
    await user.type(field('bg_primary_color'), 'red');
    await user.type(field('apk_url'), 'http://cdn.example.com/app.apk');
    await user.clear(field('agent_levels'));
    await user.type(field('agent_levels'), '9');
    const game = field('default_buttons_game');
    await user.clear(within(game).getAllByTestId('stake-button-value')[1]);
    await user.type(within(game).getAllByTestId('stake-button-value')[1], '0');
    await user.click(within(field('default_buttons_casino')).getByTestId('stake-button-remove'));
    await user.click(screen.getByTestId('settings-save'));
    expect(await screen.findByText('Primary background must be a colour such as #1a2b3c.')).toBeInTheDocument();
    expect(screen.getByText('App link must be an https:// address such as https://example.com/app.apk.')).toBeInTheDocument();
    expect(screen.getByText('Agent levels must be a whole number from 1 to 8.')).toBeInTheDocument();
    expect(within(game).getByText('Value must be more than 0.')).toBeInTheDocument();
    expect(within(field('default_buttons_casino')).getByText('Give at least one Casino button.')).toBeInTheDocument();
    expect(saves(calls)).toEqual([]);
  });

  it("puts the server's refusals at their fields, a button's at its row", async () => {
    renderSettings({
      'POST /api/admin/settings': {
        httpStatus: 400,
        message: 'default_parent must be an agent\'s or admin\'s user name: no agent or admin is called demo.',
        data: {
          errors: {
            default_parent: "default_parent must be an agent's or admin's user name: no agent or admin is called demo.",
            'default_buttons_game[1].button_name': 'Label must be at most 10 characters.',
          },
        },
      },
    });
    const user = userEvent.setup();
    await user.clear(await screen.findByTestId('setting-default_parent'));
    await user.type(field('default_parent'), 'demo');
    await user.click(screen.getByTestId('settings-save'));
    const operation = screen.getByTestId('settings-operation');
    expect(await within(operation).findByText(/no agent or admin is called demo/)).toBeInTheDocument();
    const rows = within(field('default_buttons_game')).getAllByTestId('stake-button-row');
    expect(within(rows[1]).getByText('Label must be at most 10 characters.')).toBeInTheDocument();
  });

  it('uploads a logo, then points the setting at the stored name', async () => {
    const calls = renderSettings({
      'POST /api/admin/upload/image?name=logo.png': { data: { name: 'logo.png', url: '/upload/image/logo.png' } },
      'POST /api/admin/settings': { message: 'Settings saved.' },
    });
    const user = userEvent.setup();
    const upload = await screen.findByTestId('upload-logo');
    await user.click(within(upload).getByTestId('upload-logo-submit'));
    expect(await within(upload).findByText('Choose an image file for the logo.')).toBeInTheDocument();
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'My Logo.PNG', { type: 'image/png' });
    await user.upload(within(upload).getByTestId('upload-logo-file'), file);
    await user.click(within(upload).getByTestId('upload-logo-submit'));
    await waitFor(() => expect(saves(calls)).toEqual([{ logo: 'logo.png' }]));
    const stored = calls.find((c) => c.path.startsWith('/api/admin/upload/image'));
    expect(stored?.method).toBe('POST');
    // The settings are read again, so the preview shows what the server holds.
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET' && c.path === '/api/admin/settings')).toHaveLength(2));
  });

  it('shows a refused upload at its field', async () => {
    renderSettings({
      'POST /api/admin/upload/image?name=favicon.ico': { httpStatus: 400, message: 'The file is not a PNG, JPEG, GIF, WebP or ICO image.' },
    });
    const user = userEvent.setup();
    const upload = await screen.findByTestId('upload-favicon');
    await user.upload(within(upload).getByTestId('upload-favicon-file'), new File(['<svg/>'], 'icon.ico', { type: 'image/x-icon' }));
    await user.click(within(upload).getByTestId('upload-favicon-submit'));
    expect(await within(upload).findByText('The file is not a PNG, JPEG, GIF, WebP or ICO image.')).toBeInTheDocument();
  });
});

describe("the settings screen's safer-gambling defaults", () => {
  it('shows them as the server holds them, empty for none, and saves both as typed', async () => {
    const calls = renderSettings({
      'POST /api/admin/saferDefaults': (call) => ({ message: 'Safer-gambling defaults saved.', data: { default_loss_limit_day: null, max_stake: Number((call.body as { max_stake: string }).max_stake) } }),
    });
    const card = await screen.findByTestId('safer-defaults');
    expect(within(card).getByRole('heading', { name: 'Safer gambling defaults' })).toBeInTheDocument();
    const loss = await within(card).findByTestId('safer-default-loss');
    expect(loss).toHaveValue('2500.00');
    expect(within(card).getByTestId('safer-max-stake')).toHaveValue('');
    const user = userEvent.setup();
    await user.click(within(card).getByTestId('safer-defaults-save'));
    expect(await within(card).findByText('Nothing has changed.')).toBeInTheDocument();
    // Cleared: none; the stake cap as typed.
    await user.clear(loss);
    await user.type(within(card).getByTestId('safer-max-stake'), ' 50000.50 ');
    await user.click(within(card).getByTestId('safer-defaults-save'));
    await waitFor(() => expect(saferSaves(calls)).toEqual([{ default_loss_limit_day: null, max_stake: '50000.50' }]));
    // The form holds what the server answered.
    await waitFor(() => expect(within(card).getByTestId('safer-max-stake')).toHaveValue('50000.50'));
    expect(loss).toHaveValue('');
    // Saving apart from the site settings: those were not sent.
    expect(saves(calls)).toEqual([]);
  });

  it('stops an amount of 0 before sending, and puts the server\'s refusal at its field', async () => {
    const calls = renderSettings({
      'POST /api/admin/saferDefaults': {
        httpStatus: 400,
        message: 'Give an amount more than 0, or null for none.',
        data: { errors: { max_stake: 'Give an amount more than 0, or null for none.' } },
      },
    });
    const card = await screen.findByTestId('safer-defaults');
    const stake = await within(card).findByTestId('safer-max-stake');
    const user = userEvent.setup();
    await user.type(stake, '0.00');
    await user.click(within(card).getByTestId('safer-defaults-save'));
    expect(await within(card).findByText('Maximum stake must be more than 0, or empty for none.')).toBeInTheDocument();
    expect(saferSaves(calls)).toEqual([]);

    await user.clear(stake);
    await user.type(stake, '99999999999');
    await user.click(within(card).getByTestId('safer-defaults-save'));
    expect(await within(card).findByText('Maximum stake must be a number with at most 2 decimals, or empty for none.')).toBeInTheDocument();

    await user.clear(stake);
    await user.type(stake, '100');
    await user.click(within(card).getByTestId('safer-defaults-save'));
    const field = stake.closest('label')!;
    expect(await within(field).findByText('Give an amount more than 0, or null for none.')).toBeInTheDocument();
    expect(saferSaves(calls)).toEqual([{ default_loss_limit_day: '2500.00', max_stake: '100' }]);
    // Placed at its field, not repeated for the form.
    expect(within(card).queryByTestId('error-message')).not.toBeInTheDocument();
  });
});
