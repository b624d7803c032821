import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { dealText } from './fair-deal';
import { checkRound, type RoundCheck, type RoundToCheck } from './fairness';

/**
 * How a player checks a round, in plain words, then the algorithm exactly (docs/casino.md
 * "The algorithm, exactly", which the web does not serve, so it is stated here).
 */
export function FairnessSteps() {
  const { t } = useTranslation('casino');
  const bold = [<b key="0" />, <b key="1" />];
  return (
    <div className="fair-steps" data-testid="fairness-steps">
      <ol>
        <li>
          <Trans t={t} i18nKey="steps.commitment" components={bold} />
        </li>
        <li>{t('steps.revealed')}</li>
        <li>{t('steps.hash')}</li>
        <li>{t('steps.deal')}</li>
      </ol>
      <p className="small">{t('steps.inBrowser')}</p>
      <details>
        <summary>{t('steps.exactly')}</summary>
        <ol className="small">
          {ALGORITHM_STEPS.map((step) => (
            <li key={step}>
              <Trans t={t} i18nKey={`steps.${step}`} components={bold} />
            </li>
          ))}
        </ol>
        <p className="small">{t('steps.notation')}</p>
      </details>
    </div>
  );
}

/** The algorithm's steps, in order: keys of `casino:steps`, each opening with its name in bold. */
const ALGORITHM_STEPS = ['stream', 'numbers', 'below', 'shuffle', 'packs', 'dealing', 'draws'] as const;

/** The query of /casino/verify that fills its form: `game`, `round`, `seed`, `commitment`, `dealt`. */
export interface VerifyQuery {
  game: string;
  roundId: string;
  seed: string;
  commitment: string;
  dealt?: string;
}

/** /casino/verify with its form filled in from `query` (blank values left out). */
export function verifyPath(query: VerifyQuery): string {
  const params = new URLSearchParams();
  const pairs: [string, string | undefined][] = [
    ['game', query.game],
    ['round', query.roundId],
    ['seed', query.seed],
    ['commitment', query.commitment],
    ['dealt', query.dealt],
  ];
  for (const [name, value] of pairs) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `/casino/verify?${text}` : '/casino/verify';
}

/** {@link checkRound} of `round` in this browser, again whenever the round changes; null while it runs. */
export function useRoundCheck(round: RoundToCheck): RoundCheck | null {
  const [check, setCheck] = useState<{ key: string; result: RoundCheck } | null>(null);
  const key = JSON.stringify(round);
  useEffect(() => {
    let live = true;
    const asked = JSON.parse(key) as RoundToCheck;
    checkRound(asked).then(
      (result) => live && setCheck({ key, result }),
      (error: unknown) => live && setCheck({ key, result: { kind: 'cannot-check', reason: error instanceof Error ? error.message : String(error) } }),
    );
    return () => {
      live = false;
    };
  }, [key]);
  return check?.key === key ? check.result : null;
}

/** The verdicts of a round checked in this browser: the commitment, then the deal. */
export function RoundVerdict({ round }: { round: RoundToCheck }) {
  const { t } = useTranslation('casino');
  const check = useRoundCheck(round);
  if (!check) {
    return (
      <p className="notice" data-testid="commitment-check" data-state="checking">
        {t('verdict.checking')}
      </p>
    );
  }
  switch (check.kind) {
    case 'cannot-check':
      return (
        <p className="notice error" role="alert" data-testid="commitment-check" data-state="cannot-check">
          {t('verdict.cannotCheck', { reason: check.reason })}
        </p>
      );
    case 'unsupported':
      return (
        <p className="notice" data-testid="commitment-check" data-state="unsupported">
          {t('verdict.unsupported')}
        </p>
      );
    case 'checked':
      return (
        <div className="round-verdicts">
          <CommitmentVerdict check={check} commitment={round.commitment.trim()} />
          <DealVerdict check={check} shown={round.shown !== null} />
        </div>
      );
  }
}

type Checked = Extract<RoundCheck, { kind: 'checked' }>;

function CommitmentVerdict({ check, commitment }: { check: Checked; commitment: string }) {
  const { t } = useTranslation('casino');
  if (check.commitmentMatches === null) {
    return (
      <div className="notice" data-testid="commitment-check" data-state="no-commitment">
        <p>{t('verdict.hashIs')}</p>
        <code>{check.actualCommitment}</code>
        <p>{t('verdict.mustBeCommitment')}</p>
      </div>
    );
  }
  if (check.commitmentMatches) {
    return (
      <p className="notice success" data-testid="commitment-check" data-state="match">
        {t('verdict.commitmentMatches')}
      </p>
    );
  }
  return (
    <div className="notice error" role="alert" data-testid="commitment-check" data-state="mismatch">
      <p>{t('verdict.commitmentMismatch')}</p>
      <code>{check.actualCommitment}</code>
      <p>{t('verdict.publishedIs')}</p>
      <code>{commitment}</code>
    </div>
  );
}

function DealVerdict({ check, shown }: { check: Checked; shown: boolean }) {
  const { t } = useTranslation('casino');
  const dealt = dealText(check.deal);
  const bold = [<b key="0" data-testid="recomputed-deal" />];
  if (!shown) {
    return (
      <p className="notice" data-testid="deal-check" data-state="recomputed">
        <Trans t={t} i18nKey="verdict.seedDeals" values={{ dealt }} components={bold} />
      </p>
    );
  }
  if (check.difference === null) {
    return (
      <p className="notice success" data-testid="deal-check" data-state="match">
        <Trans t={t} i18nKey="verdict.dealMatches" values={{ dealt }} components={bold} />
      </p>
    );
  }
  return (
    <div className="notice error" role="alert" data-testid="deal-check" data-state="mismatch">
      <p>{t('verdict.dealMismatch', { difference: check.difference })}</p>
      <p>
        <Trans t={t} i18nKey="verdict.seedAndRoundDeal" values={{ dealt }} components={bold} />
      </p>
    </div>
  );
}
