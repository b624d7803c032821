import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useFieldArray, useForm, useWatch, type Control, type FieldErrors, type Path, type UseFormRegister } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { assetUrl, GLOBAL_SETTING_KEY } from '../../api/global-setting';
import { Field } from '../../components/Field';
import { PageCard } from '../../components/PageCard';
import { ErrorMessage, QueryState } from '../../components/QueryState';
import { applyServerErrors } from '../../lib/forms';
import { BUTTON_NAME_MAX_CHARS, MAX_BUTTONS_PER_TYPE, stakeButtonSchema } from '../../lib/stake-buttons';
import { toastSuccess } from '../../lib/toast';
import { z } from '../../lib/zod';
import { getSettings, saveSettings, SITE_SETTINGS_KEY, uploadImage, type SiteSettings, type StakeButton } from './api';
import { SaferDefaultsCard } from './SaferDefaultsCard';

const colour = (label: string) => z.string().trim().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, `${label} must be a colour such as #1a2b3c.`);

const COLOURS = [
  ['bg_primary_color', 'Primary background'],
  ['bg_secondry_color', 'Secondary background'],
  ['text_primary_color', 'Primary text'],
  ['text_secondry_color', 'Secondary text (highlights)'],
  ['other_color', 'Other (back odds, links)'],
] as const;

const buttonList = z.array(stakeButtonSchema);

const settingsSchema = z.object({
  site_title: z.string().trim().min(1, 'Site title cannot be empty.').max(60, 'Site title must be at most 60 characters.'),
  site_message: z.string().trim().max(500, 'Site message must be at most 500 characters.'),
  payment_gateway: z.boolean(),
  is_show_apk: z.boolean(),
  apk_url: z
    .string()
    .trim()
    .max(500, 'App link must be at most 500 characters.')
    .refine((v) => v === '' || /^https:\/\/[A-Za-z0-9.-]+\.[A-Za-z0-9.-]+(:\d+)?([/?#]\S*)?$/.test(v), 'App link must be an https:// address such as https://example.com/app.apk.'),
  bg_primary_color: colour('Primary background'),
  bg_secondry_color: colour('Secondary background'),
  text_primary_color: colour('Primary text'),
  text_secondry_color: colour('Secondary text'),
  other_color: colour('Other colour'),
  casino_frame_origins: z.string().trim().max(2000, 'At most 20 origins.'),
  signup_enabled: z.boolean(),
  default_parent: z.string().trim().max(20, 'Default parent must be at most 20 characters.'),
  agent_levels: z.string().trim().regex(/^[1-8]$/, 'Agent levels must be a whole number from 1 to 8.'),
  default_buttons_game: buttonList
    .min(1, 'Give at least one Game button.')
    .max(MAX_BUTTONS_PER_TYPE, `At most ${MAX_BUTTONS_PER_TYPE} Game buttons.`),
  default_buttons_casino: buttonList
    .min(1, 'Give at least one Casino button.')
    .max(MAX_BUTTONS_PER_TYPE, `At most ${MAX_BUTTONS_PER_TYPE} Casino buttons.`),
});
type SettingsValues = z.infer<typeof settingsSchema>;
type SettingKey = keyof SettingsValues;
type ButtonListKey = 'default_buttons_game' | 'default_buttons_casino';
const SETTING_KEYS = Object.keys(settingsSchema.shape) as SettingKey[];
const BUTTON_LISTS: { key: ButtonListKey; label: string; note: string }[] = [
  { key: 'default_buttons_game', label: 'Game buttons', note: 'the bet slip' },
  { key: 'default_buttons_casino', label: 'Casino buttons', note: 'the casino tables' },
];

function formValues(setting: SiteSettings): SettingsValues {
  const buttons = (list: StakeButton[]) => list.map((b) => ({ button_name: b.button_name, button_value: String(b.button_value) }));
  return {
    site_title: setting.site_title,
    site_message: setting.site_message,
    payment_gateway: setting.payment_gateway === 1,
    is_show_apk: setting.is_show_apk === 1,
    apk_url: setting.apk_url,
    bg_primary_color: setting.bg_primary_color,
    bg_secondry_color: setting.bg_secondry_color,
    text_primary_color: setting.text_primary_color,
    text_secondry_color: setting.text_secondry_color,
    other_color: setting.other_color,
    casino_frame_origins: setting.casino_frame_origins.split(',').filter(Boolean).join(', '),
    signup_enabled: setting.signup_enabled === 1,
    default_parent: setting.default_parent,
    agent_levels: String(setting.agent_levels),
    default_buttons_game: buttons(setting.default_buttons_game),
    default_buttons_casino: buttons(setting.default_buttons_casino),
  };
}

/** A form value as `admin/settings` takes it: 0/1 for a switch, a number for the levels, a list of stakes. */
function wireValue(key: SettingKey, values: SettingsValues): string | number | StakeButton[] {
  const value = values[key];
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (key === 'agent_levels') return Number(value);
  if (Array.isArray(value)) return value.map((b) => ({ button_name: b.button_name, button_value: Number(b.button_value) }));
  return value;
}

/** Every field a server message may name, a button's label and stake included. */
const FIELD_PATHS: Path<SettingsValues>[] = [
  ...SETTING_KEYS,
  ...BUTTON_LISTS.flatMap(({ key }) =>
    Array.from({ length: MAX_BUTTONS_PER_TYPE }, (_, i) => [`${key}.${i}.button_name`, `${key}.${i}.button_value`] as const).flat(),
  ),
];

/** The server names a button's problem `default_buttons_game[2].button_value`; the form, `default_buttons_game.2.button_value`. */
function formPath(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1');
}

/**
 * `#/console/settings` (admin): the site's look and switches, sign-up and the agent tree, the
 * default stake buttons, the safer-gambling defaults, the logo and favicon.
 */
export function SiteSettingsPage() {
  const settings = useQuery({ queryKey: SITE_SETTINGS_KEY, queryFn: getSettings, staleTime: 0 });
  return (
    <div className="page-stack">
      <PageCard title="Site settings" testId="site-settings-page">
        <QueryState isPending={settings.isPending} error={settings.error}>
          {settings.data && <SettingsForm setting={settings.data} />}
        </QueryState>
      </PageCard>
      <SaferDefaultsCard />
      <PageCard title="Logo and favicon" testId="site-images">
        <div className="form-grid">
          <ImageUpload settingKey="logo" label="Logo" current={settings.data?.logo} />
          <ImageUpload settingKey="favicon" label="Favicon" current={settings.data?.favicon} />
        </div>
      </PageCard>
    </div>
  );
}

function SettingsForm({ setting }: { setting: SiteSettings }) {
  const queryClient = useQueryClient();
  const [formError, setFormError] = useState<string | null>(null);
  // What the server holds, to send only what differs from it.
  const [saved, setSaved] = useState(() => formValues(setting));
  const { register, control, handleSubmit, setError, reset, setValue, formState: { errors, isSubmitting } } = useForm<SettingsValues>({
    resolver: zodResolver(settingsSchema),
    defaultValues: saved,
  });
  const submit = handleSubmit(async (values) => {
    setFormError(null);
    // Only what was changed is sent: a setting another admin saved meanwhile stays theirs.
    const changes: Record<string, string | number | StakeButton[]> = {};
    for (const key of SETTING_KEYS) {
      if (JSON.stringify(values[key]) !== JSON.stringify(saved[key])) changes[key] = wireValue(key, values);
    }
    if (Object.keys(changes).length === 0) {
      setFormError('Nothing has changed.');
      return;
    }
    try {
      const answer = await saveSettings(changes);
      if (!answer.status) return;
      toastSuccess(answer.message);
      setSaved(values);
      reset(values);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: SITE_SETTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: GLOBAL_SETTING_KEY }),
      ]);
    } catch (error) {
      setFormError(applyServerErrors(error, FIELD_PATHS, setError, formPath));
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
          <input type="checkbox" data-testid="setting-is_show_apk" {...register('is_show_apk')} /> Show the app download (needs the app link)
        </label>
        <div className="form-grid">
          <div className="wide">
            <Field label="App link (https address of the Android app)" error={errors.apk_url?.message}>
              <input placeholder="https://example.com/app.apk" data-testid="setting-apk_url" {...register('apk_url')} />
            </Field>
          </div>
        </div>
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
      <section className="settings-section" data-testid="settings-operation">
        <h2>Operation</h2>
        <label className="menu-toggle-row">
          <input type="checkbox" data-testid="setting-signup_enabled" {...register('signup_enabled')} /> Sign-up open: visitors may make their own client account
        </label>
        <div className="form-grid">
          <Field label="Default parent (the agent sign-ups go under; empty: none)" error={errors.default_parent?.message}>
            <input autoComplete="off" placeholder="agent name" data-testid="setting-default_parent" {...register('default_parent')} />
          </Field>
          <Field label="Agent levels between the operator and a client (1 to 8)" error={errors.agent_levels?.message}>
            <input type="number" min={1} max={8} step={1} data-testid="setting-agent_levels" {...register('agent_levels')} />
          </Field>
        </div>
      </section>
      <section className="settings-section">
        <h2>Default stake buttons</h2>
        <p className="muted small">What every user sees until they set their own.</p>
        <div className="form-grid stake-lists">
          {BUTTON_LISTS.map((list) => (
            <ButtonListField key={list.key} name={list.key} label={list.label} note={list.note} control={control} register={register} errors={errors} />
          ))}
        </div>
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

/** One list of default stake buttons: a label and a stake per row, rows added and removed. */
function ButtonListField({
  name,
  label,
  note,
  control,
  register,
  errors,
}: {
  name: ButtonListKey;
  label: string;
  note: string;
  control: Control<SettingsValues>;
  register: UseFormRegister<SettingsValues>;
  errors: FieldErrors<SettingsValues>;
}) {
  const { fields, append, remove } = useFieldArray({ control, name });
  const listErrors = errors[name];
  const listMessage = listErrors?.message ?? listErrors?.root?.message;
  return (
    <fieldset className="stake-list" data-testid={`setting-${name}`}>
      <legend>
        {label} <span className="muted small">({note})</span>
      </legend>
      <div className="stake-list-head" aria-hidden="true">
        <span>Label</span>
        <span>Stake</span>
        <span />
      </div>
      {fields.map((field, index) => (
        <div className="stake-list-row" key={field.id} data-testid="stake-button-row">
          <span className="cell">
            <input aria-label={`${label} ${index + 1} label`} maxLength={BUTTON_NAME_MAX_CHARS} data-testid="stake-button-label" {...register(`${name}.${index}.button_name`)} />
            {listErrors?.[index]?.button_name && <span className="field-error" role="alert">{listErrors[index]?.button_name?.message}</span>}
          </span>
          <span className="cell">
            <input aria-label={`${label} ${index + 1} stake`} inputMode="decimal" data-testid="stake-button-value" {...register(`${name}.${index}.button_value`)} />
            {listErrors?.[index]?.button_value && <span className="field-error" role="alert">{listErrors[index]?.button_value?.message}</span>}
          </span>
          <button type="button" className="btn btn-sm" aria-label={`Remove ${label.toLowerCase()} ${index + 1}`} onClick={() => remove(index)} data-testid="stake-button-remove">
            ✕
          </button>
        </div>
      ))}
      {listMessage && <span className="field-error" role="alert">{listMessage}</span>}
      <button
        type="button"
        className="btn btn-sm"
        disabled={fields.length >= MAX_BUTTONS_PER_TYPE}
        onClick={() => append({ button_name: '', button_value: '' })}
        data-testid="stake-button-add"
      >
        Add a button
      </button>
    </fieldset>
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
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: SITE_SETTINGS_KEY }),
        queryClient.invalidateQueries({ queryKey: GLOBAL_SETTING_KEY }),
      ]);
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
