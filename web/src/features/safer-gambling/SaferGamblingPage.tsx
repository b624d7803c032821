// /safer-gambling: the controls a bettor sets on their own gambling (docs/api.md "Safer
// gambling"): limits, how often the reality check reminds them, a time-out and self-exclusion.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client';
import { DEFAULT_REALITY_CHECK_MINUTES, REALITY_CHECK_MINUTES, type RealityCheckMinutes } from '../../api/preferences';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage } from '../../components/QueryState';
import { usePreferencesRead, useSetPreferences } from '../../hooks/usePreferences';
import { isConsoleUser, useSession } from '../../lib/session';
import { SESSION_SUMMARY_KEY } from './api';
import { BreakForm } from './BreakSection';
import { LimitsSection } from './LimitsSection';
import { durationText } from './words';

export function SaferGamblingPage() {
  const { t } = useTranslation('safety');
  const user = useSession();
  return (
    <PageCard title={t('title')} testId="safer-gambling-page">
      {isConsoleUser(user) ? (
        <p className="empty-state">{t('bettorsOnly')}</p>
      ) : (
        <div className="safety-page">
          <p>{t('intro')}</p>
          <LimitsSection />
          <RealityCheckSection />
          <BreakForm kind="timeOut" />
          <BreakForm kind="selfExclusion" />
        </div>
      )}
    </PageCard>
  );
}

/** How often the reminder of the time comes; saved with the bettor's preferences, so it follows them to any device. */
function RealityCheckSection() {
  const { t } = useTranslation('safety');
  const queryClient = useQueryClient();
  const { preferences, read } = usePreferencesRead();
  const save = useSetPreferences();
  // Shown as chosen while the save is on its way.
  const [chosen, setChosen] = useState<RealityCheckMinutes | null>(null);
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const shown = chosen ?? preferences.reality_check_minutes ?? DEFAULT_REALITY_CHECK_MINUTES;

  async function choose(minutes: RealityCheckMinutes) {
    setChosen(minutes);
    setSaid(null);
    try {
      const answer = await save({ reality_check_minutes: minutes });
      if (!answer.latest) return;
      setSaid({ ok: true, text: answer.message || t('reality.saved') });
      // The reminder running now follows the new interval.
      void queryClient.invalidateQueries({ queryKey: SESSION_SUMMARY_KEY });
    } catch (error) {
      setSaid({ ok: false, text: errorMessage(error) });
    } finally {
      setChosen(null);
    }
  }

  return (
    <section className="safety-section" aria-labelledby="safety-reality" data-testid="reality-section">
      <h2 id="safety-reality">{t('reality.title')}</h2>
      <p className="muted small">{t('reality.intro')}</p>
      <div className="stack-form">
        <Field label={t('reality.every')}>
          <select
            value={shown}
            disabled={!read}
            onChange={(event) => void choose(Number(event.target.value) as RealityCheckMinutes)}
            data-testid="reality-minutes"
          >
            {REALITY_CHECK_MINUTES.map((minutes) => (
              <option key={minutes} value={minutes}>
                {durationText(minutes)}
              </option>
            ))}
          </select>
        </Field>
        {said &&
          (said.ok ? (
            <p className="notice success" role="status" data-testid="reality-message">
              {said.text}
            </p>
          ) : (
            <ErrorMessage>{said.text}</ErrorMessage>
          ))}
      </div>
    </section>
  );
}
