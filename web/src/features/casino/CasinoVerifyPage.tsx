import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { i18n } from '../../i18n';
import { z } from '../../lib/zod';
import { GAMES, MAX_ROUND_ID_BYTES, isGameCode } from './fair-deal';
import { parseTypedDeal, type RoundToCheck } from './fairness';
import { FairnessSteps, RoundVerdict } from './RoundCheck';

const HEX_64 = /^[0-9a-fA-F]{64}$/;

// Each message is a function, so it is written in the app's language when the form is checked,
// not frozen in the one of the moment this module was loaded.

const verifySchema = z
  .object({
    game: z.string().refine(isGameCode, { error: () => i18n.t('casino:verify.errorGame') }),
    roundId: z
      .string()
      .trim()
      .min(1, { error: () => i18n.t('casino:verify.errorRoundId') })
      .refine((id) => new TextEncoder().encode(id).length <= MAX_ROUND_ID_BYTES, { error: () => i18n.t('casino:verify.errorRoundIdLength', { max: MAX_ROUND_ID_BYTES }) }),
    seed: z
      .string()
      .trim()
      .min(1, { error: () => i18n.t('casino:verify.errorSeed') })
      .regex(HEX_64, { error: () => i18n.t('casino:verify.errorSeedHex') }),
    commitment: z
      .string()
      .trim()
      .refine((text) => text === '' || HEX_64.test(text), { error: () => i18n.t('casino:verify.errorCommitment') }),
    dealt: z.string().trim(),
  })
  .superRefine((values, ctx) => {
    if (values.dealt === '') return;
    const typed = parseTypedDeal(values.game, values.dealt);
    if ('problem' in typed) ctx.addIssue({ code: 'custom', path: ['dealt'], message: typed.problem });
  });

/** The form's fields as typed, and as read once valid (the game is then one of {@link GAMES}). */
type VerifyFields = z.input<typeof verifySchema>;
type VerifyValues = z.output<typeof verifySchema>;

/** What the deal field asks for, by game: a pocket, six digits, or cards. */
function dealtHint(game: string): 'verify.hintPocket' | 'verify.hintMatka' | 'verify.hintCards' {
  if (game === 'roulette') return 'verify.hintPocket';
  if (game === 'worli') return 'verify.hintMatka';
  return 'verify.hintCards';
}

/**
 * /casino/verify: a player checks any round by hand, from the seed and round id they copied,
 * in this browser and without asking the server (it works offline once the site is loaded).
 * The round page links here with its figures filled in (`?game=&round=&seed=&commitment=`).
 */
export function CasinoVerifyPage() {
  const { t } = useTranslation('casino');
  const [params] = useSearchParams();
  const [round, setRound] = useState<RoundToCheck | null>(null);
  const result = useRef<HTMLElement>(null);
  // Each check brings its verdict into view: on a phone it is below the form.
  useEffect(() => {
    if (round) result.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [round]);
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm<VerifyFields, unknown, VerifyValues>({
    resolver: zodResolver(verifySchema),
    defaultValues: {
      game: params.get('game') ?? '',
      roundId: params.get('round') ?? '',
      seed: params.get('seed') ?? '',
      commitment: params.get('commitment') ?? '',
      dealt: params.get('dealt') ?? '',
    },
  });
  const game = useWatch({ control, name: 'game' });

  const submit = handleSubmit((values) => {
    const typed = values.dealt === '' ? null : parseTypedDeal(values.game, values.dealt);
    setRound({
      seed: values.seed,
      commitment: values.commitment,
      roundId: values.roundId,
      game: values.game,
      shown: typed && 'deal' in typed ? typed.deal : null,
    });
  });

  return (
    <PageCard title={t('verify.title')} testId="casino-verify-page">
      <div className="casino-round">
        <p>{t('verify.intro')}</p>
        <form className="stack-form verify-form" onSubmit={(event) => void submit(event)} noValidate data-testid="verify-form">
          <Field label={t('verify.game')} error={errors.game?.message}>
            <select data-testid="verify-game" {...register('game')}>
              <option value="">{t('verify.chooseGame')}</option>
              {GAMES.map((g) => (
                <option key={g.code} value={g.code}>
                  {g.title}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t('verify.roundId')} error={errors.roundId?.message}>
            <input autoComplete="off" spellCheck={false} data-testid="verify-round-id" {...register('roundId')} />
          </Field>
          <Field label={t('verify.seed')} error={errors.seed?.message}>
            <input autoComplete="off" spellCheck={false} data-testid="verify-seed" {...register('seed')} />
          </Field>
          <Field label={t('verify.commitment')} error={errors.commitment?.message}>
            <input autoComplete="off" spellCheck={false} data-testid="verify-commitment" {...register('commitment')} />
          </Field>
          <Field label={t('verify.dealt')} error={errors.dealt?.message}>
            <input autoComplete="off" spellCheck={false} placeholder={t(dealtHint(game))} data-testid="verify-dealt" {...register('dealt')} />
          </Field>
          <button type="submit" className="btn btn-primary" data-testid="verify-submit">
            {t('verify.submit')}
          </button>
        </form>
        {round && (
          <section className="casino-panel" data-testid="verify-result" ref={result}>
            <h2>{t('verify.resultTitle', { game: GAMES.find((g) => g.code === round.game)?.title ?? round.game, round: round.roundId })}</h2>
            <RoundVerdict round={round} />
          </section>
        )}
        <section className="casino-panel">
          <h2>{t('verify.howTitle')}</h2>
          <FairnessSteps />
        </section>
      </div>
    </PageCard>
  );
}
