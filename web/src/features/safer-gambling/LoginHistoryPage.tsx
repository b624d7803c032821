// /login-history: where the bettor is logged in now (with a way to end every other session) and
// every log-in of the past year, refused ones included, so a log-in they did not make stands out.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client';
import { PageCard } from '../../components/PageCard';
import { Pagination } from '../../components/Pagination';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { i18n } from '../../i18n';
import { formatIstDateTime } from '../../lib/format';
import { getLoginHistory, getSessions, LOGIN_HISTORY_LIMIT, LOGIN_RESULTS, logoutOthers, type LoginResult } from './api';

const SESSIONS_KEY = ['user', 'sessions'] as const;
const loginHistoryKey = (page: number) => ['user', 'loginHistory', page] as const;

/** A result in words; one the server may add later reads as it is sent. */
function resultWords(result: string): string {
  return (LOGIN_RESULTS as readonly string[]).includes(result) ? i18n.t(`safety:loginHistory.result.${result as LoginResult}`) : result;
}

export function LoginHistoryPage() {
  const { t } = useTranslation('safety');
  return (
    <PageCard title={t('loginHistory.title')} testId="login-history-page">
      <div className="safety-page">
        <LiveSessions />
        <LogIns />
      </div>
    </PageCard>
  );
}

function LiveSessions() {
  const { t } = useTranslation('safety');
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: SESSIONS_KEY, queryFn: getSessions, staleTime: 0 });
  const [ending, setEnding] = useState(false);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const others = (sessions.data ?? []).filter((s) => !s.current).length;

  async function endOthers() {
    setEnding(true);
    setSaid(null);
    try {
      const answer = await logoutOthers();
      if (!answer.status) return;
      setSaid({ ok: true, text: answer.data.ended > 0 ? t('sessions.ended', { count: answer.data.ended }) : t('sessions.noneEnded') });
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    } catch (error) {
      setSaid({ ok: false, text: errorMessage(error) });
    } finally {
      setEnding(false);
    }
  }

  return (
    <section className="safety-section" aria-labelledby="live-sessions" data-testid="live-sessions">
      <h2 id="live-sessions">{t('sessions.title')}</h2>
      <QueryState isPending={sessions.isPending} error={sessions.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="sessions-table">
            <thead>
              <tr>
                <th>{t('sessions.started')}</th>
                <th>{t('columns.device')}</th>
                <th>{t('columns.ip')}</th>
                <th>{t('sessions.kind')}</th>
              </tr>
            </thead>
            <tbody>
              {(sessions.data ?? []).map((session) => (
                <tr key={session.id} className={session.current ? 'current-session' : undefined} data-testid="session-row">
                  <td data-label={t('sessions.started')}>{formatIstDateTime(session.started_at)}</td>
                  <td data-label={t('columns.device')}>
                    {session.device}
                    {session.current && (
                      <>
                        {' '}
                        <span className="badge this-device" data-testid="current-session">
                          {t('sessions.current')}
                        </span>
                      </>
                    )}
                  </td>
                  <td data-label={t('columns.ip')}>{session.ip ?? '-'}</td>
                  <td data-label={t('sessions.kind')}>{session.kind === 'bot' ? t('sessions.bot') : t('sessions.web')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="form-actions">
          <button type="button" className="btn btn-primary" disabled={ending || others === 0} onClick={() => void endOthers()} data-testid="logout-others">
            {t('sessions.logoutOthers')}
          </button>
        </div>
        {said &&
          (said.ok ? (
            <p className="notice success" role="status" data-testid="logout-others-message">
              {said.text}
            </p>
          ) : (
            <ErrorMessage>{said.text}</ErrorMessage>
          ))}
      </QueryState>
    </section>
  );
}

function LogIns() {
  const { t } = useTranslation('safety');
  const [page, setPage] = useState(1);
  const history = useQuery({ queryKey: loginHistoryKey(page), queryFn: () => getLoginHistory(page), placeholderData: keepPreviousData, staleTime: 0 });
  const data = history.data;
  const limit = data?.limit || LOGIN_HISTORY_LIMIT;
  return (
    <section className="safety-section" aria-labelledby="log-ins" data-testid="log-ins">
      <h2 id="log-ins">{t('loginHistory.logIns')}</h2>
      <QueryState isPending={history.isPending} error={history.error}>
        <div className="table-wrap">
          <table className="data-table stack-on-phone" data-testid="login-history-table">
            <thead>
              <tr>
                <th>{t('columns.at')}</th>
                <th>{t('columns.result')}</th>
                <th>{t('columns.device')}</th>
                <th>{t('columns.ip')}</th>
              </tr>
            </thead>
            <tbody>
              {!data || data.rows.length === 0 ? (
                <tr>
                  <td colSpan={4} className="empty-cell">
                    {t('loginHistory.empty')}
                  </td>
                </tr>
              ) : (
                data.rows.map((row, index) => (
                  <tr key={`${row.at}-${index}`} data-testid="login-row">
                    <td data-label={t('columns.at')}>{formatIstDateTime(row.at)}</td>
                    <td data-label={t('columns.result')} className={row.result === 'ok' ? 'login-ok' : 'login-refused'}>
                      {resultWords(row.result)}
                    </td>
                    <td data-label={t('columns.device')}>{row.device}</td>
                    <td data-label={t('columns.ip')}>{row.ip ?? '-'}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {data && data.total > 0 && (
          <div className="report-footer">
            <span className="muted small">
              {t('loginHistory.showing', { from: (page - 1) * limit + 1, to: Math.min(page * limit, data.total), total: data.total })}
            </span>
            <Pagination page={page} total={data.total} limit={limit} onPage={setPage} />
          </div>
        )}
      </QueryState>
    </section>
  );
}
