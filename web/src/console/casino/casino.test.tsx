import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { EMPTY_CATALOGUE, stubServer, type Answers, type Call } from '../../testing/fake-server';
import { demoUser, renderApp, storeSession } from '../../testing/render';

const admin = { ...demoUser, user_id: 1, user_name: 'admin', role: 'admin' as const, parent_id: -1 };
const SECRET = 'a1'.repeat(32);

const table = (game_code: string, title: string, category: string, is_active = true) => ({
  game_code,
  kind: game_code,
  name: title.toUpperCase(),
  title,
  category,
  is_active,
  image_name: '',
  image: `/casino/art/${game_code}.svg`,
});

const casino = {
  tables: [table('dt6', 'Dragon Tiger 1 Day', 'cardgames'), table('worli', 'Worli Matka', 'matka', false)],
  categories: [
    { sport_id: 'cardgames', name: 'Card Games', order: 10, tables: 1 },
    { sport_id: 'matka', name: 'Matka', order: 20, tables: 1 },
    { sport_id: 'worldcasino', name: 'World Casino', order: 30, tables: 0 },
  ],
  providers: [
    { code: 'backlay', name: 'Backlay', launch_url: '', is_builtin: true, is_active: true },
    { code: 'evo', name: 'Evolution', launch_url: 'https://games.example.com/launch', is_builtin: false, is_active: true },
  ],
  catalogue: [
    { game_id: 'backlay-dt1day', provider: 'backlay', game_code: 'dt1day', game_name: 'Dragon Tiger Instant', category: 'Virtual', sub_provider_name: '', url_thumb: '', is_active: true, is_playable: true },
    { game_id: 'evo-lightning', provider: 'evo', game_code: 'lightning', game_name: 'Lightning Roulette', category: 'Live', sub_provider_name: '', url_thumb: '', is_active: false, is_playable: false },
  ],
  catalogue_categories: ['Crash Games', 'Live Game Shows', 'Live', 'Poker', 'Virtual', 'Live Dealer'],
  images: ['dragon-tiger.png'],
};

function server(extra: Answers = {}): Call[] {
  return stubServer({ ...EMPTY_CATALOGUE, 'GET /api/admin/casino/list': { data: casino }, ...extra });
}

const posted = (calls: Call[], path: string) => calls.filter((c) => c.method === 'POST' && c.path === `/api/admin/casino/${path}`).map((c) => c.body);
const reads = (calls: Call[]) => calls.filter((c) => c.path === '/api/admin/casino/list').length;

async function openScreen(extra: Answers = {}) {
  const calls = server(extra);
  storeSession(admin);
  renderApp('/console/casino');
  await screen.findByTestId('casino-table-dt6');
  return calls;
}

describe('the casino screen', () => {
  it('shows the tables, categories in order, providers and each provider’s games from the server', async () => {
    await openScreen();
    const dt6 = screen.getByTestId('casino-table-dt6');
    expect(dt6).toHaveTextContent('Dragon Tiger 1 Day');
    expect(dt6).toHaveTextContent('Card Games');
    expect(within(dt6).getByRole('switch')).toBeChecked();
    expect(within(screen.getByTestId('casino-table-worli')).getByRole('switch')).not.toBeChecked();
    expect(within(dt6).getByRole('combobox')).toHaveValue('');
    expect(within(dt6).getByRole('option', { name: 'dragon-tiger.png' })).toBeInTheDocument();
    const rows = within(screen.getByTestId('casino-categories')).getAllByTestId(/^casino-category-/);
    expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual(['casino-category-cardgames', 'casino-category-matka', 'casino-category-worldcasino']);
    expect(screen.getByTestId('category-up-cardgames')).toBeDisabled();
    expect(screen.getByTestId('category-down-worldcasino')).toBeDisabled();
    expect(screen.getByTestId('casino-provider-evo')).toHaveTextContent('https://games.example.com/launch');
    // The built-in provider's secret is the server's own: nothing to rotate here.
    expect(screen.queryByTestId('provider-rotate-backlay')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('catalogue-provider-evo')).getByTestId('catalogue-game-evo-lightning')).toHaveTextContent('Lightning Roulette');
    expect(within(screen.getByTestId('catalogue-provider-backlay')).queryByTestId('catalogue-game-evo-lightning')).not.toBeInTheDocument();
  });

  it('switches a table off with one call and reads the screen again', async () => {
    const calls = await openScreen({ 'POST /api/admin/casino/table/active': { message: 'Dragon Tiger 1 Day is off.' } });
    expect(reads(calls)).toBe(1);
    await userEvent.click(screen.getByTestId('table-active-dt6'));
    await waitFor(() => expect(posted(calls, 'table/active')).toEqual([{ game_code: 'dt6', active: 0 }]));
    await waitFor(() => expect(reads(calls)).toBe(2));
    await userEvent.click(screen.getByTestId('table-active-worli'));
    await waitFor(() => expect(posted(calls, 'table/active')).toContainEqual({ game_code: 'worli', active: 1 }));
  });

  it('sets a tile image from the uploaded ones, and the catalogue switch sends the game id', async () => {
    const calls = await openScreen({ 'POST /api/admin/casino/gameImage': { message: 'ok' }, 'POST /api/admin/casino/catalogue/active': { message: 'ok' } });
    await userEvent.selectOptions(screen.getByTestId('table-image-dt6'), 'dragon-tiger.png');
    await waitFor(() => expect(posted(calls, 'gameImage')).toEqual([{ game_code: 'dt6', image: 'dragon-tiger.png' }]));
    await userEvent.click(screen.getByTestId('catalogue-active-evo-lightning'));
    await waitFor(() => expect(posted(calls, 'catalogue/active')).toEqual([{ game_id: 'evo-lightning', active: 1 }]));
  });

  it('uploads a tile image under its file name and reads the screen again, a refusal shown at the field', async () => {
    const calls = await openScreen({
      'POST /api/admin/upload/image?name=dragon.png': { message: 'Stored as dragon.png.', data: { name: 'dragon.png', url: '/upload/image/dragon.png' } },
      'POST /api/admin/upload/image?name=notes.png': { httpStatus: 400, message: 'The file is not a PNG, JPEG, GIF, WebP or ICO image.' },
    });
    const upload = screen.getByTestId('tile-upload');
    await userEvent.click(within(upload).getByTestId('tile-upload-submit'));
    expect(await within(upload).findByText('Choose an image file to upload.')).toBeInTheDocument();
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'dragon.png', { type: 'image/png' });
    await userEvent.upload(within(upload).getByTestId('tile-upload-file'), png);
    await userEvent.click(within(upload).getByTestId('tile-upload-submit'));
    await waitFor(() => expect(reads(calls)).toBe(2));
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/upload/image?name=dragon.png')).toBe(true);
    const text = new File([new Uint8Array([0x68, 0x69])], 'notes.png', { type: 'image/png' });
    await userEvent.upload(within(upload).getByTestId('tile-upload-file'), text);
    await userEvent.click(within(upload).getByTestId('tile-upload-submit'));
    const field = within(upload).getByTestId('tile-upload-file').closest('.field') as HTMLElement;
    expect(await within(field).findByRole('alert')).toHaveTextContent('not a PNG, JPEG, GIF, WebP or ICO image');
  });

  it("shows the server's refusal next to the field it names", async () => {
    const calls = await openScreen({
      'POST /api/admin/casino/category/add': {
        httpStatus: 400,
        message: 'A category id is 1 to 32 lower-case letters, digits, - or _, e.g. cardgames.',
        data: { errors: { sport_id: 'A category id is 1 to 32 lower-case letters, digits, - or _, e.g. cardgames.' } },
      },
    });
    const form = screen.getByTestId('category-add-form');
    await userEvent.type(within(form).getByTestId('category-add-id'), 'Crash Games');
    await userEvent.type(within(form).getByTestId('category-add-name'), 'Crash');
    await userEvent.click(within(form).getByTestId('category-add-submit'));
    const field = within(form).getByTestId('category-add-id').closest('.field') as HTMLElement;
    expect(await within(field).findByRole('alert')).toHaveTextContent('A category id is 1 to 32 lower-case letters');
    // Added last: after the last category's order.
    expect(posted(calls, 'category/add')).toEqual([{ sport_id: 'Crash Games', name: 'Crash', order: 40 }]);
  });

  it('moves a category with one call and shows why a removal was refused', async () => {
    const calls = await openScreen({
      'POST /api/admin/casino/category/move': { message: 'matka moved up.' },
      'POST /api/admin/casino/category/remove': { httpStatus: 409, message: '1 casino games belong to the category matka' },
    });
    await userEvent.click(screen.getByTestId('category-up-matka'));
    await waitFor(() => expect(posted(calls, 'category/move')).toEqual([{ sport_id: 'matka', direction: 'up' }]));
    await userEvent.click(screen.getByTestId('category-remove-matka'));
    const dialog = await screen.findByTestId('category-remove-dialog');
    expect(posted(calls, 'category/remove')).toEqual([]);
    await userEvent.click(within(dialog).getByTestId('category-remove-confirm'));
    expect(await within(dialog).findByTestId('error-message')).toHaveTextContent('1 casino games belong to the category matka');
    expect(posted(calls, 'category/remove')).toEqual([{ sport_id: 'matka' }]);
  });

  it('shows a new provider’s secret once, with a warning and a copy button, and forgets it when closed', async () => {
    const calls = await openScreen({ 'POST /api/admin/casino/provider/add': { message: 'pragma added.', data: { code: 'pragma', secret: SECRET } } });
    const form = screen.getByTestId('provider-add-form');
    await userEvent.type(within(form).getByTestId('provider-add-code'), 'pragma');
    await userEvent.type(within(form).getByTestId('provider-add-name'), 'Pragmatic');
    await userEvent.type(within(form).getByTestId('provider-add-launch-url'), 'https://play.example.com');
    await userEvent.click(within(form).getByTestId('provider-add-submit'));
    const dialog = await screen.findByTestId('provider-secret-dialog');
    expect(within(dialog).getByTestId('provider-secret')).toHaveValue(SECRET);
    expect(dialog).toHaveTextContent('only time the secret is shown');
    expect(posted(calls, 'provider/add')).toEqual([{ code: 'pragma', name: 'Pragmatic', launch_url: 'https://play.example.com' }]);
    expect(within(dialog).getByTestId('provider-secret-copy')).toBeInTheDocument();
    // A stray Escape does not lose it.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByTestId('provider-secret')).toHaveValue(SECRET);
    await userEvent.click(within(dialog).getByTestId('provider-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('provider-secret-dialog')).not.toBeInTheDocument());
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(within(form).getByTestId('provider-add-code')).toHaveValue('');
  });

  it('asks before rotating a secret, then shows the new one once', async () => {
    const calls = await openScreen({ 'POST /api/admin/casino/provider/rotateSecret': { message: 'evo has a new secret.', data: { code: 'evo', secret: SECRET } } });
    await userEvent.click(screen.getByTestId('provider-rotate-evo'));
    const confirm = await screen.findByTestId('provider-rotate-dialog');
    expect(confirm).toHaveTextContent('The old secret stops working at once');
    expect(posted(calls, 'provider/rotateSecret')).toEqual([]);
    await userEvent.click(within(confirm).getByTestId('provider-rotate-confirm'));
    expect(await screen.findByTestId('provider-secret')).toHaveValue(SECRET);
    expect(posted(calls, 'provider/rotateSecret')).toEqual([{ code: 'evo' }]);
    expect(screen.queryByTestId('provider-rotate-dialog')).not.toBeInTheDocument();
  });

  it('lists a catalogue game with the provider and category chosen, and shows a refusal at its field', async () => {
    const calls = await openScreen({
      'POST /api/admin/casino/catalogue/add': {
        httpStatus: 400,
        message: 'The thumbnail is an https address, or empty.',
        data: { errors: { url_thumb: 'The thumbnail is an https address, or empty.' } },
      },
    });
    const form = screen.getByTestId('catalogue-add-form');
    expect(within(form).getByTestId('catalogue-add-provider')).toHaveValue('evo');
    await userEvent.type(within(form).getByTestId('catalogue-add-code'), 'crazy');
    await userEvent.type(within(form).getByTestId('catalogue-add-name'), 'Crazy Time');
    await userEvent.selectOptions(within(form).getByTestId('catalogue-add-category'), 'Live Game Shows');
    await userEvent.type(within(form).getByTestId('catalogue-add-thumb'), 'http://x/y.png');
    await userEvent.click(within(form).getByTestId('catalogue-add-submit'));
    const field = within(form).getByTestId('catalogue-add-thumb').closest('.field') as HTMLElement;
    expect(await within(field).findByRole('alert')).toHaveTextContent('The thumbnail is an https address');
    expect(posted(calls, 'catalogue/add')).toEqual([
      { provider: 'evo', game_code: 'crazy', game_name: 'Crazy Time', category: 'Live Game Shows', sub_provider_name: '', url_thumb: 'http://x/y.png' },
    ]);
  });

  it('is not in an agent’s console', async () => {
    const calls = stubServer({ ...EMPTY_CATALOGUE }, { data: { rows: [], total: 0, page: 1, limit: 25 } });
    storeSession({ ...admin, user_name: 'agent', role: 'agent' });
    renderApp('/console/casino');
    expect(await screen.findByTestId('console-not-found')).toBeInTheDocument();
    expect(calls.some((c) => c.path.startsWith('/api/admin/casino/'))).toBe(false);
  });
});
