import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useForm, useWatch, type Control, type UseFormRegister } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { assetUrl, GLOBAL_SETTING_KEY, useGlobalSetting, type GlobalSetting } from '../../hooks/useGlobalSetting';
import { applyServerErrors } from '../../lib/forms';
import { toastSuccess } from '../../lib/toast';
import { z } from '../../lib/zod';
import { saveSettings, uploadImage } from './api';

const colour = (label: string) => z.string().trim().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, `${label} must be a colour such as #1a2b3c.`);

const COLOURS = [
  ['bg_primary_color', 'Primary background'],
  ['bg_secondry_color', 'Secondary background'],
  ['text_primary_color', 'Primary text'],
  ['text_secondry_color', 'Secondary text (highlights)'],
  ['other_color', 'Other (back odds, links)'],
] as const;

const settingsSchema = z.object({
  site_title: z.string().trim().min(1, 'Site title cannot be empty.').max(60, 'Site title must be at most 60 characters.'),
  site_message: z.string().trim().max(500, 'Site message must be at most 500 characters.'),
  payment_gateway: z.boolean(),
  is_show_apk: z.boolean(),
  bg_primary_color: colour('Primary background'),
  bg_secondry_color: colour('Secondary background'),
  text_primary_color: colour('Primary text'),
  text_secondry_color: colour('Secondary text'),
  other_color: colour('Other colour'),
  casino_frame_origins: z.string().trim().max(2000, 'At most 20 origins.'),
});
type SettingsValues = z.infer<typeof settingsSchema>;
type SettingKey = keyof SettingsValues;
const SETTING_KEYS = Object.keys(settingsSchema.shape) as SettingKey[];

function formValues(setting: GlobalSetting): SettingsValues {
  return {
    site_title: setting.site_title ?? '',
    site_message: setting.site_message ?? '',
    payment_gateway: Number(setting.payment_gateway) === 1,
    is_show_apk: Number(setting.is_show_apk) === 1,
    bg_primary_color: setting.bg_primary_color ?? '',
    bg_secondry_color: setting.bg_secondry_color ?? '',
    text_primary_color: setting.text_primary_color ?? '',
    text_secondry_color: setting.text_secondry_color ?? '',
    other_color: setting.other_color ?? '',
    // The server adds its own origin (the built-in provider) to what the operator set.
    casino_frame_origins: (Array.isArray(setting.casino_frame_origins) ? setting.casino_frame_origins : [])
      .filter((origin) => origin !== window.location.origin)
      .join(', '),
  };
}

/** `#/console/settings` (admin): the site's look and switches, its logo and favicon. */
export function SiteSettingsPage() {
  const setting = useGlobalSetting();
  // The placeholder is this browser's stored copy: wait for the server's own answer.
  const loaded = setting.data && !setting.isPlaceholderData ? setting.data : null;
  return (
    <div className="page-stack">
      <PageCard title="Site settings" testId="site-settings-page">
        <QueryState isPending={!loaded && !setting.error} error={setting.error}>
          {loaded && <SettingsForm setting={loaded} />}
        </QueryState>
      </PageCard>
      <PageCard title="Logo and favicon" testId="site-images">
        <div className="form-grid">
          <ImageUpload settingKey="logo" label="Logo" current={setting.data?.logo} />
          <ImageUpload settingKey="favicon" label="Favicon" current={setting.data?.favicon} />
        </div>
      </PageCard>
    </div>
  );
}

function SettingsForm({ setting }: { setting: GlobalSetting }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, control, handleSubmit, setError, reset, setValue, formState: { errors, isSubmitting, dirtyFields } } = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaultValues: formValues(setting),
  });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    // Only what was changed is sent: a setting another admin saved meanwhile stays theirs.
    const changes: Record<string, string | number> = {};
    for (const key of SETTING_KEYS) {
      if (!dirtyFields[key]) continue;
      const value = values[key];
      changes[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
    }
    if (Object.keys(changes).length === 0) {
      setFormError('Nothing has changed.');
      return;
    }
    try {
      const answer = await saveSettings(changes);
      if (!answer.status) return;
      toastSuccess(answer.message);
      reset(values);
      await queryClient.invalidateQueries({ queryKey: GLOBAL_SETTING_KEY });
    } catch (error) {
      setFormError(applyServerErrors(error, SETTING_KEYS, setError));
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="settings-form">
      <section className="settings-section">
        <h2>Text</h2>
        <div className="form-grid">
          <Field label="Site title" error={errors.site_title?.message}>
            <input data-testid="setting-site_title" {...register('site_title')} />
          </Field>
          <div className="wide">
            <Field label="Site message (scrolls under the header)" error={errors.site_message?.message}>
              <input data-testid="setting-site_message" {...register('site_message')} />
            </Field>
          </div>
        </div>
      </section>
      <section className="settings-section">
        <h2>Switches</h2>
        <label className="menu-toggle-row">
          <input type="checkbox" data-testid="setting-payment_gateway" {...register('payment_gateway')} /> Payment gateway: clients send deposit and
          withdraw requests
        </label>
        <label className="menu-toggle-row">
          <input type="checkbox" data-testid="setting-is_show_apk" {...register('is_show_apk')} /> Show the app download
        </label>
      </section>
      <section className="settings-section">
        <h2>Colours</h2>
        <div className="form-grid">
          {COLOURS.map(([key, label]) => (
            <ColourField key={key} name={key} label={label} error={errors[key]?.message} register={register} control={control} onPick={(value) => setValue(key, value, { shouldDirty: true, shouldValidate: true })} />
          ))}
        </div>
      </section>
      <section className="settings-section">
        <h2>Casino providers</h2>
        <Field label="Origins whose game pages may be framed, separated by commas" error={errors.casino_frame_origins?.message}>
          <input placeholder="https://games.example.com" data-testid="setting-casino_frame_origins" {...register('casino_frame_origins')} />
        </Field>
      </section>
      {formError && <ErrorMessage>{formError}</ErrorMessage>}
      <div className="modal-actions">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting} data-testid="settings-save">
          Save settings
        </button>
      </div>
    </form>
  );
}

type ColourKey = (typeof COLOURS)[number][0];

/** A colour as text (what is saved) beside the browser's picker. */
function ColourField({
  name,
  label,
  error,
  register,
  control,
  onPick,
}: {
  name: ColourKey;
  label: string;
  error?: string;
  register: UseFormRegister<SettingsValues>;
  control: Control<SettingsValues>;
  onPick: (value: string) => void;
}) {
  const value = useWatch({ control, name });
  // The picker takes only #rrggbb: a short #rgb is spelled out for it.
  const full = /^#[0-9a-fA-F]{3}$/.test(value) ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value;
  return (
    <Field label={label} error={error}>
      <span className="colour-input">
        <input type="color" aria-label={`${label} picker`} value={/^#[0-9a-fA-F]{6}$/.test(full) ? full : '#000000'} onChange={(e) => onPick(e.target.value)} />
        <input type="text" data-testid={`setting-${name}`} {...register(name)} />
      </span>
    </Field>
  );
}

/** Uploads an image and points the setting at it, in two calls: the image is stored first. */
function ImageUpload({ settingKey, label, current }: { settingKey: 'logo' | 'favicon'; label: string; current: string | undefined }) {
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const src = assetUrl(current);
  const upload = async () => {
    if (!file) {
      setError(`Choose an image file for the ${label.toLowerCase()}.`);
      return;
    }
    setBusy(true);
    try {
      const extension = /\.[A-Za-z0-9]+$/.exec(file.name)?.[0] ?? '.png';
      const stored = await uploadImage(file, `${settingKey}${extension.toLowerCase()}`);
      if (!stored.status) return;
      const saved = await saveSettings({ [settingKey]: stored.data.name });
      if (!saved.status) return;
      toastSuccess(`${label} updated.`);
      setFile(null);
      if (input.current) input.current.value = '';
      await queryClient.invalidateQueries({ queryKey: GLOBAL_SETTING_KEY });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="stack-form" data-testid={`upload-${settingKey}`}>
      <Field label={label} error={error ?? undefined}>
        <input ref={input} type="file" accept="image/png,image/jpeg,image/gif,image/webp,image/x-icon,.ico" onChange={(e) => {
          setFile(e.target.files?.[0] ?? null);
          setError(null);
        }} data-testid={`upload-${settingKey}-file`} />
      </Field>
      <p className="muted small">
        {src ? <>Now: <img className="image-preview" src={src} alt={`Current ${label.toLowerCase()}`} /></> : 'None set.'} PNG, JPEG, GIF, WebP or ICO, at most 512 KiB.
      </p>
      <button type="button" className="btn" disabled={busy} onClick={() => void upload()} data-testid={`upload-${settingKey}-submit`}>
        {busy ? 'Uploading…' : `Upload ${label.toLowerCase()}`}
      </button>
    </div>
  );
}
