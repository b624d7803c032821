// The slip's quick-betting settings: one-click betting (a click on a price places a bet at the
// chosen stake, after a short undo) and which rate moves on bookmaker and fancy markets are
// taken without asking. Saved on the server at each change (preferences.ts).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client';
import { decimalText, parseStake, toMinor } from '../../lib/money';
import { toastError } from '../../lib/toast';
import { useSetPreferences, type Preferences, type RateChanges } from './preferences';

/** The choices, each worded by its own key (quickBet.exact, .better, .any). */
const RATE_CHOICES: readonly RateChanges[] = ['exact', 'better', 'any'];

export function QuickBetSettings({ preferences }: { preferences: Preferences }) {
  const { t } = useTranslation('betting');
  const save = useSetPreferences();
  const [stakeText, setStakeText] = useState(preferences.one_click_stake === null ? '' : decimalText(toMinor(preferences.one_click_stake)));
  const [problem, setProblem] = useState<string | null>(null);
  // Shown at once as the bettor set it; put back if the server refuses it.
  const [oneClick, setOneClick] = useState(preferences.one_click);

  async function send(input: Parameters<typeof save>[0]) {
    try {
      const answer = await save(input);
      setProblem(null);
      if (answer.data && answer.latest) setOneClick(answer.data.one_click);
    } catch (error) {
      setProblem(errorMessage(error));
      toastError(errorMessage(error));
      setOneClick(preferences.one_click);
    }
  }

  const stake = parseStake(stakeText);
  return (
    <div className="quick-bet" data-testid="quick-bet">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={oneClick}
          onChange={(event) => {
            if (event.target.checked && (stake === null || stake <= 0)) {
              setProblem(t('quickBet.enterStake'));
              return;
            }
            setOneClick(event.target.checked);
            void send(event.target.checked && stake !== null ? { one_click: true, one_click_stake: decimalText(stake) } : { one_click: false });
          }}
          data-testid="one-click-toggle"
        />
        {t('quickBet.oneClick')}
      </label>
      <label className="quick-bet-stake">
        {t('quickBet.stake')}
        <input
          value={stakeText}
          inputMode="decimal"
          placeholder="0.00"
          onChange={(event) => setStakeText(event.target.value)}
          onBlur={() => {
            if (stake !== null && stake > 0 && stake !== toMinor(preferences.one_click_stake ?? 0)) {
              void send({ one_click_stake: decimalText(stake) });
            }
          }}
          data-testid="one-click-stake"
        />
      </label>
      <label className="quick-bet-rates">
        {t('quickBet.rateChanges')}
        <select
          value={preferences.accept_rate_changes}
          onChange={(event) => void send({ accept_rate_changes: event.target.value as RateChanges })}
          data-testid="rate-changes"
        >
          {RATE_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {t(`quickBet.${choice}`)}
            </option>
          ))}
        </select>
      </label>
      {problem && (
        <p className="field-error" role="alert" data-testid="quick-bet-problem">
          {problem}
        </p>
      )}
    </div>
  );
}
