// The casino screen's Providers card: the outside game providers (add one, give one a new
// signing secret), and the secret shown the one time it is made.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Field } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage } from '../../components/QueryState';
import { addProvider, CASINO_ADMIN_KEY, rotateProviderSecret, type CasinoProvider, type NewProvider, type ProviderSecret } from './api';
import { submitForm, useAction } from './CasinoParts';

const PROVIDER_FIELDS = ['code', 'name', 'launch_url'] as const;

export function ProvidersCard({ providers }: { providers: CasinoProvider[] }) {
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
