// The casino screen's Categories card: the tabs of the players' casino page, in order (add,
// rename, move, remove).
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage } from '../../components/QueryState';
import { EmptyRow } from '../TableParts';
import { addCategory, CASINO_ADMIN_KEY, moveCategory, removeCategory, renameCategory, type CasinoCategory } from './api';
import { submitForm, useAction } from './CasinoParts';

interface CategoryValues { sport_id: string; name: string }
const CATEGORY_FIELDS = ['sport_id', 'name'] as const;

export function CategoriesCard({ categories }: { categories: CasinoCategory[] }) {
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
