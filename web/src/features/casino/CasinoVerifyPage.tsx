import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { z } from '../../lib/zod';
import { GAMES, MAX_ROUND_ID_BYTES, isGameCode } from './fair-deal';
import { parseTypedDeal, type RoundToCheck } from './fairness';
import { FairnessSteps, RoundVerdict } from './RoundCheck';

const HEX_64 = /^[0-9a-fA-F]{64}$/;

const verifySchema = z
  .object({
    game: z.string().refine(isGameCode, 'Choose the game the round was played at.'),
    roundId: z
      .string()
      .trim()
      .min(1, 'Enter the round id, as the round page shows it (e.g. dt1day-1795356000000).')
      .refine((id) => new TextEncoder().encode(id).length <= MAX_ROUND_ID_BYTES, `A round id has at most ${MAX_ROUND_ID_BYTES} characters.`),
    seed: z
      .string()
      .trim()
      .min(1, 'Enter the seed revealed after the deal.')
      .regex(HEX_64, 'The seed is 64 hex digits (0–9 and a–f), as the round page shows it after the deal.'),
    commitment: z
      .string()
      .trim()
      .refine((text) => text === '' || HEX_64.test(text), 'The commitment is 64 hex digits (0–9 and a–f); leave it blank if you have none.'),
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
function dealtHint(game: string): string {
  if (game === 'roulette') return 'The pocket, 0 to 36.';
  if (game === 'worli') return 'The six digits drawn, open then close, e.g. 169 062.';
  return 'The cards in dealing order, e.g. 7C TS QS KS 3D TH (T is 10).';
}

/**
 * /casino/verify: a player checks any round by hand, from the seed and round id they copied,
 * in this browser and without asking the server (it works offline once the site is loaded).
 * The round page links here with its figures filled in (`?game=&round=&seed=&commitment=`).
 */
export function CasinoVerifyPage() {
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
    <PageCard title="Check a casino round" testId="casino-verify-page">
      <div className="casino-round">
        <p>Paste a round's figures from its page (or from anywhere you noted them) and this page checks the round in your browser.</p>
        <form className="stack-form verify-form" onSubmit={(event) => void submit(event)} noValidate data-testid="verify-form">
          <Field label="Game" error={errors.game?.message}>
            <select data-testid="verify-game" {...register('game')}>
              <option value="">Choose the game</option>
              {GAMES.map((g) => (
                <option key={g.code} value={g.code}>
                  {g.title}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Round id" error={errors.roundId?.message}>
            <input autoComplete="off" spellCheck={false} data-testid="verify-round-id" {...register('roundId')} />
          </Field>
          <Field label="Seed (revealed after the deal)" error={errors.seed?.message}>
            <input autoComplete="off" spellCheck={false} data-testid="verify-seed" {...register('seed')} />
          </Field>
          <Field label="Commitment (published before betting; optional)" error={errors.commitment?.message}>
            <input autoComplete="off" spellCheck={false} data-testid="verify-commitment" {...register('commitment')} />
          </Field>
          <Field label="What the table dealt (optional)" error={errors.dealt?.message}>
            <input autoComplete="off" spellCheck={false} placeholder={dealtHint(game)} data-testid="verify-dealt" {...register('dealt')} />
          </Field>
          <button type="submit" className="btn btn-primary" data-testid="verify-submit">
            Check this round
          </button>
        </form>
        {round && (
          <section className="casino-panel" data-testid="verify-result" ref={result}>
            <h2>
              {GAMES.find((g) => g.code === round.game)?.title} round {round.roundId}
            </h2>
            <RoundVerdict round={round} />
          </section>
        )}
        <section className="casino-panel">
          <h2>How a round is checked</h2>
          <FairnessSteps />
        </section>
      </div>
    </PageCard>
  );
}
