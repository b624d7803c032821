// `#/console/casino` (admin): the casino as the CLI runs it. The in-house tables (on/off and the
// image each tile shows), the categories the casino page's tabs show (add, rename, move, remove),
// the game providers (add, rotate the signing secret, which is shown once) and the world-casino
// catalogue per provider (add, on/off). One read of the whole screen; every action is checked,
// applied and audited by the server, and the screen reads again after it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import { dataOr, errorMessage } from '../../api/client';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { toastSuccess } from '../../lib/toast';
import { EmptyRow } from '../TableParts';
import {
  addCatalogueGame,
  addCategory,
  addProvider,
  CASINO_ADMIN_KEY,
  getCasinoAdmin,
  moveCategory,
  removeCategory,
  renameCategory,
  rotateProviderSecret,
  setCatalogueGameActive,
  setTableActive,
  setTableImage,
  uploadTileImage,
  type CasinoAdmin,
  type CasinoCategory,
  type CasinoProvider,
  type CasinoTable,
  type NewCatalogueGame,
  type NewProvider,
  type ProviderSecret,
} from './api';
import './casino.css';

export function CasinoPage() {
  const query = useQuery({ queryKey: CASINO_ADMIN_KEY, queryFn: async () => dataOr(await getCasinoAdmin(), null) });
  const casino = query.data;
  return (
    <div className="page-stack" data-testid="casino-admin-page">
      <QueryState isPending={query.isPending} error={query.error}>
        {casino && (
          <>
            <TablesCard casino={casino} />
            <CategoriesCard categories={casino.categories} />
            <ProvidersCard providers={casino.providers} />
            <CatalogueCard casino={casino} />
          </>
        )}
      </QueryState>
    </div>
  );
}

/** Runs one action: its message as a toast and the screen read again; a refusal as text. */
function useAction() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: () => Promise<{ status: boolean; message: string }>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      const answer = await action();
      if (!answer.status) return false;
      toastSuccess(answer.message);
      await queryClient.invalidateQueries({ queryKey: CASINO_ADMIN_KEY });
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, run };
}

/** Submits a form's call; the server's field messages go next to the fields, the rest above the button. */
async function submitForm<T extends FieldValues>(
  call: () => Promise<{ status: boolean; message: string }>,
  fields: readonly Path<T>[],
  setError: UseFormSetError<T>,
  setFormError: (message: string | null) => void,
  onDone: () => Promise<void> | void,
): Promise<boolean> {
  setFormError(null);
  try {
    const answer = await call();
    if (!answer.status) return false;
    toastSuccess(answer.message);
    await onDone();
    return true;
  } catch (error) {
    setFormError(applyServerErrors(error, fields, setError));
    return false;
  }
}

function OnOff({ on, label, disabled, onChange, testId }: { on: boolean; label: string; disabled: boolean; onChange: (on: boolean) => void; testId: string }) {
  return (
    <label className="casino-switch">
      <input type="checkbox" role="switch" aria-label={label} checked={on} disabled={disabled} onChange={(e) => onChange(e.target.checked)} data-testid={testId} />
      <span className={`status-chip${on ? '' : ' locked'}`}>{on ? 'On' : 'Off'}</span>
    </label>
  );
}

function TablesCard({ casino }: { casino: CasinoAdmin }) {
  const action = useAction();
  const categoryName = (id: string) => casino.categories.find((c) => c.sport_id === id)?.name ?? id;
  return (
    <PageCard title="Tables" testId="casino-tables">
      <p className="muted small">
        A table switched off leaves the players' lobby and takes no more bets; a round it has open still settles. A tile shows the game's own art or
        an uploaded image: upload one below, then pick it for the tile.
      </p>
      {action.error && <ErrorMessage>{action.error}</ErrorMessage>}
      <div className="table-wrap">
        <table className="data-table stack-on-phone">
          <thead>
            <tr>
              <th scope="col">Table</th>
              <th scope="col">Category</th>
              <th scope="col">On</th>
              <th scope="col">Tile</th>
            </tr>
          </thead>
          <tbody>
            {casino.tables.length === 0 ? (
              <EmptyRow colSpan={4}>No tables.</EmptyRow>
            ) : (
              casino.tables.map((table) => (
                <tr key={table.game_code} data-testid={`casino-table-${table.game_code}`}>
                  <td data-label="Table">
                    {table.title} <span className="muted small">({table.game_code})</span>
                  </td>
                  <td data-label="Category">{categoryName(table.category)}</td>
                  <td data-label="On">
                    <OnOff
                      on={table.is_active}
                      label={`${table.title} on`}
                      disabled={action.busy}
                      onChange={(on) => void action.run(() => setTableActive(table.game_code, on))}
                      testId={`table-active-${table.game_code}`}
                    />
                  </td>
                  <td data-label="Tile">
                    <TileImage table={table} images={casino.images} disabled={action.busy} onPick={(image) => void action.run(() => setTableImage(table.game_code, image))} />
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <TileUpload />
    </PageCard>
  );
}

/** Uploads an image under its file's name; it is then offered for every tile. */
function TileUpload() {
  const action = useAction();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const upload = async () => {
    if (!file) {
      action.setError('Choose an image file to upload.');
      return;
    }
    const done = await action.run(async () => {
      const answer = await uploadTileImage(file);
      // The server's message speaks of the logo and favicon; here the image is for a tile.
      return answer.status ? { status: true, message: `Stored as ${answer.data.name}: pick it for a tile.` } : answer;
    });
    if (done) {
      setFile(null);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="casino-form" data-testid="tile-upload">
      <h2>Upload a tile image</h2>
      <Field label="PNG, JPEG, GIF or WebP, at most 512 KiB; stored under its file's name" error={action.error ?? undefined}>
        <input
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp"
          onChange={(e) => {
            setFile(e.target.files?.[0] ?? null);
            action.setError(null);
          }}
          data-testid="tile-upload-file"
        />
      </Field>
      <button type="button" className="btn btn-sm" disabled={action.busy} onClick={() => void upload()} data-testid="tile-upload-submit">
        {action.busy ? 'Uploading…' : 'Upload image'}
      </button>
    </div>
  );
}

function TileImage({ table, images, disabled, onPick }: { table: CasinoTable; images: string[]; disabled: boolean; onPick: (image: string) => void }) {
  return (
    <span className="casino-tile">
      <img className="casino-tile-preview" src={table.image} alt="" />
      <select aria-label={`${table.title} tile image`} value={table.image_name} disabled={disabled} onChange={(e) => onPick(e.target.value)} data-testid={`table-image-${table.game_code}`}>
        <option value="">The game's own art</option>
        {images.map((name) => (
          <option key={name} value={name}>{name}</option>
        ))}
      </select>
    </span>
  );
}

interface CategoryValues { sport_id: string; name: string }
const CATEGORY_FIELDS = ['sport_id', 'name'] as const;

function CategoriesCard({ categories }: { categories: CasinoCategory[] }) {
  const action = useAction();
  const [renaming, setRenaming] = useState<CasinoCategory | null>(null);
  const [removing, setRemoving] = useState<CasinoCategory | null>(null);
  const last = categories.length - 1;
  return (
    <PageCard title="Categories" testId="casino-categories">
      <p className="muted small">The casino page's tabs, in this order. Players see a category once something in it is on.</p>
      {action.error && <ErrorMessage>{action.error}</ErrorMessage>}
      <div className="table-wrap">
        <table className="data-table stack-on-phone">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
              <th scope="col">Tables</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {categories.length === 0 ? (
              <EmptyRow colSpan={4}>No categories.</EmptyRow>
            ) : (
              categories.map((category, index) => (
                <tr key={category.sport_id} data-testid={`casino-category-${category.sport_id}`}>
                  <td data-label="Name">{category.name}</td>
                  <td data-label="Id"><code>{category.sport_id}</code></td>
                  <td data-label="Tables">{category.tables}</td>
                  <td data-label="Actions">
                    <span className="row-actions">
                      <button type="button" className="btn btn-sm" aria-label={`Move ${category.name} up`} disabled={action.busy || index === 0} onClick={() => void action.run(() => moveCategory(category.sport_id, 'up'))} data-testid={`category-up-${category.sport_id}`}>↑</button>
                      <button type="button" className="btn btn-sm" aria-label={`Move ${category.name} down`} disabled={action.busy || index === last} onClick={() => void action.run(() => moveCategory(category.sport_id, 'down'))} data-testid={`category-down-${category.sport_id}`}>↓</button>
                      <button type="button" className="btn btn-sm" onClick={() => setRenaming(category)} data-testid={`category-rename-${category.sport_id}`}>Rename</button>
                      <button type="button" className="btn btn-sm btn-danger" onClick={() => setRemoving(category)} data-testid={`category-remove-${category.sport_id}`}>Remove</button>
                    </span>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <AddCategoryForm nextOrder={(categories.at(-1)?.order ?? 0) + 10} />
      {renaming && <RenameCategoryDialog category={renaming} onClose={() => setRenaming(null)} />}
      {removing && <RemoveCategoryDialog category={removing} onClose={() => setRemoving(null)} />}
    </PageCard>
  );
}

function AddCategoryForm({ nextOrder }: { nextOrder: number }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<CategoryValues>({ defaultValues: { sport_id: '', name: '' } });
  const submit = handleSubmit(async (values) => {
    await submitForm(() => addCategory({ ...values, order: nextOrder }), CATEGORY_FIELDS, setError, setFormError, async () => {
      reset();
      await queryClient.invalidateQueries({ queryKey: CASINO_ADMIN_KEY });
    });
  });
  return (
    <form className="casino-form" onSubmit={(event) => void submit(event)} noValidate data-testid="category-add-form">
      <h2>Add a category (last in the list)</h2>
      <div className="form-grid">
        <Field label="Id (lower-case letters, digits, - or _)" error={errors.sport_id?.message}>
          <input placeholder="crash" {...register('sport_id')} data-testid="category-add-id" />
        </Field>
        <Field label="Name" error={errors.name?.message}>
          <input placeholder="Crash Games" {...register('name')} data-testid="category-add-name" />
        </Field>
      </div>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting} data-testid="category-add-submit">Add category</button>
    </form>
  );
}

function RenameCategoryDialog({ category, onClose }: { category: CasinoCategory; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<{ name: string }>({ defaultValues: { name: category.name } });
  const submit = handleSubmit(async ({ name }) => {
    await submitForm(() => renameCategory(category.sport_id, name), ['name'], setError, setFormError, async () => {
      await queryClient.invalidateQueries({ queryKey: CASINO_ADMIN_KEY });
      onClose();
    });
  });
  return (
    <Modal title={`Rename ${category.name}`} onClose={onClose} size="sm" testId="category-rename-dialog">
      <form className="stack-form" onSubmit={(event) => void submit(event)} noValidate>
        <Field label="Name" error={errors.name?.message}>
          <input autoFocus {...register('name')} data-testid="category-rename-name" />
        </Field>
        {formError && <ErrorMessage>{formError}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="category-rename-submit">Rename</button>
        </div>
      </form>
    </Modal>
  );
}

function RemoveCategoryDialog({ category, onClose }: { category: CasinoCategory; onClose: () => void }) {
  const action = useAction();
  return (
    <Modal title={`Remove ${category.name}?`} onClose={onClose} size="sm" testId="category-remove-dialog">
      <div className="stack-form">
        <p>
          Players lose the <b>{category.name}</b> tab. A category tables belong to is not removed: move its tables first.
        </p>
        {action.error && <ErrorMessage>{action.error}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={action.busy}
            onClick={() => void action.run(() => removeCategory(category.sport_id)).then((done) => done && onClose())}
            data-testid="category-remove-confirm"
          >
            Remove
          </button>
        </div>
      </div>
    </Modal>
  );
}

const PROVIDER_FIELDS = ['code', 'name', 'launch_url'] as const;

function ProvidersCard({ providers }: { providers: CasinoProvider[] }) {
  const [secret, setSecret] = useState<ProviderSecret | null>(null);
  const [rotating, setRotating] = useState<CasinoProvider | null>(null);
  return (
    <PageCard title="Providers" testId="casino-providers">
      <p className="muted small">
        Outside providers run games and sign the seamless wallet's calls with a secret shown only when it is made. Add a provider's launch origin
        to the casino frame origins on the Settings screen so its games can be framed.
      </p>
      <div className="table-wrap">
        <table className="data-table stack-on-phone">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Name</th>
              <th scope="col">Launch address</th>
              <th scope="col">State</th>
              <th scope="col">Secret</th>
            </tr>
          </thead>
          <tbody>
            {providers.map((provider) => (
              <tr key={provider.code} data-testid={`casino-provider-${provider.code}`}>
                <td data-label="Code"><code>{provider.code}</code></td>
                <td data-label="Name">{provider.name}</td>
                <td data-label="Launch address">{provider.is_builtin ? <span className="muted">This server (built in)</span> : provider.launch_url}</td>
                <td data-label="State"><span className={`status-chip${provider.is_active ? '' : ' locked'}`}>{provider.is_active ? 'On' : 'Off'}</span></td>
                <td data-label="Secret">
                  {provider.is_builtin ? (
                    <span className="muted small">Made at start</span>
                  ) : (
                    <button type="button" className="btn btn-sm" onClick={() => setRotating(provider)} data-testid={`provider-rotate-${provider.code}`}>
                      New secret
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <AddProviderForm onSecret={setSecret} />
      {rotating && (
        <RotateSecretDialog
          provider={rotating}
          onClose={() => setRotating(null)}
          onSecret={(made) => {
            setRotating(null);
            setSecret(made);
          }}
        />
      )}
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(null)} />}
    </PageCard>
  );
}

function AddProviderForm({ onSecret }: { onSecret: (secret: ProviderSecret) => void }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState: { errors, isSubmitting } } = useForm<NewProvider>({ defaultValues: { code: '', name: '', launch_url: '' } });
  const submit = handleSubmit(async (values) => {
    let made: ProviderSecret | null = null;
    const call = async () => {
      const answer = await addProvider(values);
      if (answer.status) made = answer.data;
      return answer;
    };
    await submitForm(call, PROVIDER_FIELDS, setError, setFormError, async () => {
      reset();
      if (made) onSecret(made);
      await queryClient.invalidateQueries({ queryKey: CASINO_ADMIN_KEY });
    });
  });
  return (
    <form className="casino-form" onSubmit={(event) => void submit(event)} noValidate data-testid="provider-add-form">
      <h2>Add a provider</h2>
      <div className="form-grid">
        <Field label="Code (what it signs as)" error={errors.code?.message}>
          <input placeholder="evo" {...register('code')} data-testid="provider-add-code" />
        </Field>
        <Field label="Name" error={errors.name?.message}>
          <input placeholder="Evolution" {...register('name')} data-testid="provider-add-name" />
        </Field>
        <Field label="Launch address" error={errors.launch_url?.message}>
          <input placeholder="https://games.example.com/launch" {...register('launch_url')} data-testid="provider-add-launch-url" />
        </Field>
      </div>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <button type="submit" className="btn btn-primary btn-sm" disabled={isSubmitting} data-testid="provider-add-submit">Add provider</button>
    </form>
  );
}

function RotateSecretDialog({ provider, onClose, onSecret }: { provider: CasinoProvider; onClose: () => void; onSecret: (secret: ProviderSecret) => void }) {
  const action = useAction();
  const rotate = () =>
    void action.run(async () => {
      const answer = await rotateProviderSecret(provider.code);
      if (answer.status) onSecret(answer.data);
      return answer;
    });
  return (
    <Modal title={`A new secret for ${provider.name}?`} onClose={onClose} size="sm" testId="provider-rotate-dialog">
      <div className="stack-form">
        <p>
          The old secret stops working at once: {provider.name}'s wallet calls are refused until it signs with the new one. The new secret is shown
          only once.
        </p>
        {action.error && <ErrorMessage>{action.error}</ErrorMessage>}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>Cancel</button>
          <button type="button" className="btn btn-danger" disabled={action.busy} onClick={rotate} data-testid="provider-rotate-confirm">
            Make a new secret
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** The secret, once: the server never answers it again, and closing the dialog forgets it. */
function SecretDialog({ secret, onClose }: { secret: ProviderSecret; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret.secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    // Not closed by a stray Escape or click beside it: the secret could not be shown again.
    <Modal title={`${secret.code}'s signing secret`} onClose={onClose} testId="provider-secret-dialog" closesByAccident={false}>
      <div className="stack-form">
        <p className="casino-warning" role="alert">
          This is the only time the secret is shown. Copy it now and hand it to the provider over a safe channel; it cannot be read again, only
          replaced.
        </p>
        <input className="casino-secret" readOnly value={secret.secret} aria-label="Signing secret" onFocus={(e) => e.target.select()} data-testid="provider-secret" />
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => void copy()} data-testid="provider-secret-copy">{copied ? 'Copied' : 'Copy'}</button>
          <button type="button" className="btn btn-primary" onClick={onClose} data-testid="provider-secret-done">I have kept it</button>
        </div>
      </div>
    </Modal>
  );
}

const GAME_FIELDS = ['provider', 'game_code', 'game_name', 'category', 'sub_provider_name', 'url_thumb'] as const;

function CatalogueCard({ casino }: { casino: CasinoAdmin }) {
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
