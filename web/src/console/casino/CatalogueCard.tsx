// The casino screen's World casino catalogue card: the games each provider lists (on or off),
// and a form to list one more.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage } from '../../components/QueryState';
import { EmptyRow } from '../TableParts';
import { addCatalogueGame, CASINO_ADMIN_KEY, setCatalogueGameActive, type CasinoAdmin, type CasinoProvider, type NewCatalogueGame } from './api';
import { OnOff, submitForm, useAction } from './CasinoParts';

const GAME_FIELDS = ['provider', 'game_code', 'game_name', 'category', 'sub_provider_name', 'url_thumb'] as const;

export function CatalogueCard({ casino }: { casino: CasinoAdmin }) {
  const action = useAction();
  return (
    <PageCard title="World casino catalogue" testId="casino-catalogue">
      <p className="muted small">The games the world casino lists, per provider. A game switched off is listed without status and cannot be launched.</p>
      {action.error && <ErrorMessage>{action.error}</ErrorMessage>}
      {casino.providers.map((provider) => {
        const games = casino.catalogue.filter((g) => g.provider === provider.code);
        return (
          <section key={provider.code} className="casino-catalogue-provider" data-testid={`catalogue-provider-${provider.code}`}>
            <h2>{provider.name}</h2>
            <div className="table-wrap">
              <table className="data-table stack-on-phone">
                <thead>
                  <tr>
                    <th scope="col">Game</th>
                    <th scope="col">Id</th>
                    <th scope="col">Category</th>
                    <th scope="col">On</th>
                  </tr>
                </thead>
                <tbody>
                  {games.length === 0 ? (
                    <EmptyRow colSpan={4}>No games listed.</EmptyRow>
                  ) : (
                    games.map((game) => (
                      <tr key={game.game_id} data-testid={`catalogue-game-${game.game_id}`}>
                        <td data-label="Game">
                          {game.game_name}
                          {game.sub_provider_name && <span className="muted small"> ({game.sub_provider_name})</span>}
                        </td>
                        <td data-label="Id"><code>{game.game_id}</code></td>
                        <td data-label="Category">{game.category}</td>
                        <td data-label="On">
                          <OnOff
                            on={game.is_active}
                            label={`${game.game_name} on`}
                            disabled={action.busy}
                            onChange={(on) => void action.run(() => setCatalogueGameActive(game.game_id, on))}
                            testId={`catalogue-active-${game.game_id}`}
                          />
                        </td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
          </section>
        );
      })}
      <AddGameForm providers={casino.providers} categories={casino.catalogue_categories} />
    </PageCard>
  );
}

function AddGameForm({ providers, categories }: { providers: CasinoProvider[]; categories: string[] }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const blank: NewCatalogueGame = { provider: providers.find((p) => !p.is_builtin)?.code ?? providers[0]?.code ?? '', game_code: '', game_name: '', category: categories[0] ?? '', sub_provider_name: '', url_thumb: '' };
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<NewCatalogueGame>({ defaultValues: blank });
  const submit = handleSubmit(async (values) => {
    await submitForm(() => addCatalogueGame(values), GAME_FIELDS, setError, setFormError, async () => {
      reset({ ...values, game_code: '', game_name: '', sub_provider_name: '', url_thumb: '' });
      await queryClient.invalidateQueries({ queryKey: CASINO_ADMIN_KEY });
    });
  });
  return (
    <form className="casino-form" onSubmit={(event) => void submit(event)} noValidate data-testid="catalogue-add-form">
      <h2>List a game</h2>
      <div className="form-grid">
        <Field label="Provider" error={errors.provider?.message}>
          <select {...register('provider')} data-testid="catalogue-add-provider">
            {providers.map((p) => (
              <option key={p.code} value={p.code}>{p.name}</option>
            ))}
          </select>
        </Field>
        <Field label="The provider's game code" error={errors.game_code?.message}>
          <input placeholder="lightning" {...register('game_code')} data-testid="catalogue-add-code" />
        </Field>
        <Field label="Name" error={errors.game_name?.message}>
          <input placeholder="Lightning Roulette" {...register('game_name')} data-testid="catalogue-add-name" />
        </Field>
        <Field label="Category" error={errors.category?.message}>
          <select {...register('category')} data-testid="catalogue-add-category">
            {categories.map((c) => (
              <option key={c} value={c}>{c}</option>
            ))}
          </select>
        </Field>
        <Field label="Sub-provider (optional)" error={errors.sub_provider_name?.message}>
          <input {...register('sub_provider_name')} data-testid="catalogue-add-sub-provider" />
        </Field>
        <Field label="Thumbnail address (https, optional)" error={errors.url_thumb?.message}>
          <input placeholder="https://games.example.com/lightning.png" {...register('url_thumb')} data-testid="catalogue-add-thumb" />
        </Field>
      </div>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting} data-testid="catalogue-add-submit">List game</button>
    </form>
  );
}
