// "Download CSV" on the bettor's reports: the same call with the filters on screen and
// `format: 'csv'`, the file saved under the server's name; a refusal shows its message.
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_CATALOGUE, stubServer } from '../../testing/fake-server';
import { renderApp, storeSession } from '../../testing/render';

const EMPTY_PAGE = { data: { rows: [], total: 0, page: 1, limit: 20 } };

describe('Download CSV', () => {
  let saved: { name: string; text: Promise<string> }[];
  beforeEach(() => {
    saved = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push({ name: '', text: (blob as Blob).text() });
      return 'blob:saved';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      const last = saved[saved.length - 1];
      if (last) last.name = this.download;
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it('downloads the statement with the applied filters and saves the server’s file', async () => {
    const calls = stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/accountStatement': (call) =>
        (call.body as { format?: string }).format === 'csv'
          ? { csv: { text: 'date,description\r\n2026-11-27T10:00:00.000Z,won\r\n', fileName: 'statement-2026-11-27.csv' } }
          : EMPTY_PAGE,
    });
    storeSession();
    renderApp('/report/account-statement');
    await userEvent.click(await screen.findByTestId('download-csv'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]?.name).toBe('statement-2026-11-27.csv');
    expect(await saved[0]?.text).toBe('date,description\r\n2026-11-27T10:00:00.000Z,won\r\n');
    const download = calls.find((c) => (c.body as { format?: string } | undefined)?.format === 'csv');
    expect(download?.body).toMatchObject({ type: 'all', format: 'csv' });
    expect(download?.body).not.toHaveProperty('page');
    expect(download?.headers.get('Authorization')).toMatch(/^Bearer /);
  });

  it('shows why a download was refused', async () => {
    stubServer({
      ...EMPTY_CATALOGUE,
      'POST /api/report/currentBets': (call) =>
        (call.body as { format?: string }).format === 'csv'
          ? { httpStatus: 400, message: 'from_date: from_date must be a date such as 2026-11-22.' }
          : EMPTY_PAGE,
    });
    storeSession();
    renderApp('/report/current-bet');
    await userEvent.click(await screen.findByTestId('download-csv'));
    expect(await screen.findByTestId('download-csv-error')).toHaveTextContent('from_date must be a date');
    expect(saved).toHaveLength(0);
  });
});
