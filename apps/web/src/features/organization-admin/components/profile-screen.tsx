import type { OrganizationProfile } from '@qless/contract';
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Field } from '../../../components/ui/field';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { updateProfile } from '../api/update-profile';
import { uploadLogo } from '../api/upload-logo';
import { formErrors } from '../lib/form-errors';
import { WEEK, weekdayName } from '../lib/labels';
import { LOGO_TYPES, logoFileProblem } from '../lib/logo-file';
import {
  PROFILE_FIELD_KEYS,
  type ProfileField,
  type ProfileFormValues,
  profileFormValues,
  readProfileForm,
} from '../lib/profile-form';
import { timeZoneLabel, timeZoneOptions } from '../lib/time-zones';
import { ClosuresEditor } from './closures-editor';
import { FlaggedLine } from './notices';

/**
 * `times`: a time was refused. Only then the spec's failure text (which speaks of the time
 * format) is the right one; a refused day or field gets words that do not contradict the
 * time pickers (issue 18, point 8).
 */
type Result =
  | { tone: 'success'; flagged: number }
  | { tone: 'error'; other: MessageKey[]; times: boolean }
  | null;

type Logo =
  | { status: 'idle' }
  | { status: 'uploading'; preview: string }
  | { status: 'uploaded' }
  | { status: 'failed'; reason: MessageKey };

/** Update Profile: the organization's details, hours, days, closures and logo. */
export function ProfileScreen({
  profile,
  attentionHref,
  onSaved,
}: {
  profile: OrganizationProfile;
  attentionHref: string;
  onSaved: () => Promise<void>;
}) {
  const { t, intlLocale } = useI18n();
  const id = useId();
  const [values, setValues] = useState<ProfileFormValues>(() => profileFormValues(profile));
  const [errors, setErrors] = useState<Partial<Record<ProfileField, MessageKey>>>({});
  const [result, setResult] = useState<Result>(null);
  const [busy, setBusy] = useState(false);
  const [logo, setLogo] = useState<Logo>({ status: 'idle' });
  const fileInput = useRef<HTMLInputElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  const preview = logo.status === 'uploading' ? logo.preview : null;
  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  const set =
    <F extends ProfileField>(field: F) =>
    (value: ProfileFormValues[F]) =>
      setValues((v) => ({ ...v, [field]: value }));

  const chooseLogo = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    const problem = logoFileProblem(file);
    if (problem) {
      setLogo({ status: 'failed', reason: problem });
      event.target.value = '';
      return;
    }
    setLogo({ status: 'uploading', preview: URL.createObjectURL(file) });
    try {
      const url = await uploadLogo(file);
      setValues((v) => ({ ...v, image_url: url }));
      setLogo({ status: 'uploaded' });
    } catch (error) {
      const found = formErrors(error, { file: null });
      setLogo({
        status: 'failed',
        reason: found.fields.file ?? found.other[0] ?? 'error.generic',
      });
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const read = readProfileForm(values);
    if (!read.ok) {
      setErrors(read.errors);
      setResult({
        tone: 'error',
        other: [],
        times: Boolean(read.errors.start_time || read.errors.end_time),
      });
      resultRef.current?.scrollIntoView({ block: 'nearest' });
      return;
    }
    setBusy(true);
    setErrors({});
    setResult(null);
    try {
      const saved = await updateProfile(read.request);
      setValues(profileFormValues(saved.organizationData));
      setLogo({ status: 'idle' });
      setResult({ tone: 'success', flagged: saved.flagged_bookings });
      await onSaved();
    } catch (error) {
      const found = formErrors(error, PROFILE_FIELD_KEYS);
      setErrors(found.fields);
      const times =
        Boolean(found.fields.start_time || found.fields.end_time) ||
        found.other.some((key) => key === 'error.INVALID_TIME' || key === 'error.INVALID_HOURS');
      setResult({ tone: 'error', other: found.other, times });
    } finally {
      setBusy(false);
      resultRef.current?.scrollIntoView({ block: 'nearest' });
    }
  };

  const error = (field: ProfileField) => (errors[field] ? t(errors[field]) : undefined);
  // A new organization's Monday to Friday waits for the admin's word (issue 18, point 8).
  const daysToConfirm = profile.missing_fields.includes('open_days');
  const shownLogo = preview ?? values.image_url;

  return (
    <section aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="page-title">
        {t('profile.title')}
      </h1>
      <p className="page-lead">{t('profile.intro')}</p>
      <div ref={resultRef} aria-live="polite">
        {result?.tone === 'success' ? (
          <Alert tone="success">
            <p>{t('profile.saved')}</p>
            <FlaggedLine count={result.flagged} href={attentionHref} />
          </Alert>
        ) : null}
        {result?.tone === 'error' ? (
          <Alert tone="error">
            <p>{t(result.times ? 'profile.failed' : 'profile.failedFields')}</p>
            {result.other.length > 0 ? (
              <ul>
                {result.other.map((key) => (
                  <li key={key}>{t(key)}</li>
                ))}
              </ul>
            ) : null}
          </Alert>
        ) : null}
      </div>
      <form className="form-card" onSubmit={submit} noValidate>
        <Field label={t('profile.name')} error={error('name')}>
          {(ids) => (
            <input
              {...ids}
              name="name"
              className="input"
              required
              maxLength={200}
              autoComplete="organization"
              value={values.name}
              onChange={(e) => set('name')(e.target.value)}
            />
          )}
        </Field>
        <div className="form-grid form-grid--2">
          <Field
            label={t('profile.startTime')}
            hint={t('profile.timeHint')}
            error={error('start_time')}
          >
            {(ids) => (
              <input
                {...ids}
                name="start_time"
                className="input"
                required
                type="time"
                step={60}
                value={values.start_time}
                onChange={(e) => set('start_time')(e.target.value)}
              />
            )}
          </Field>
          <Field
            label={t('profile.endTime')}
            hint={t('profile.timeHint')}
            error={error('end_time')}
          >
            {(ids) => (
              <input
                {...ids}
                name="end_time"
                className="input"
                required
                type="time"
                step={60}
                value={values.end_time}
                onChange={(e) => set('end_time')(e.target.value)}
              />
            )}
          </Field>
        </div>
        <Field
          label={t('profile.location')}
          hint={t('profile.locationHint')}
          error={error('location')}
        >
          {(ids) => (
            <input
              {...ids}
              name="location"
              className="input"
              maxLength={300}
              autoComplete="street-address"
              value={values.location}
              onChange={(e) => set('location')(e.target.value)}
            />
          )}
        </Field>
        <div className="form-grid form-grid--2">
          <Field label={t('profile.city')} error={error('city')}>
            {(ids) => (
              <input
                {...ids}
                name="city"
                className="input"
                maxLength={100}
                autoComplete="address-level2"
                value={values.city}
                onChange={(e) => set('city')(e.target.value)}
              />
            )}
          </Field>
          <Field
            label={t('profile.category')}
            hint={t('profile.categoryHint')}
            error={error('category')}
          >
            {(ids) => (
              <input
                {...ids}
                name="category"
                className="input"
                maxLength={100}
                value={values.category}
                onChange={(e) => set('category')(e.target.value)}
              />
            )}
          </Field>
        </div>
        <Field label={t('profile.timeZone')} error={error('time_zone')}>
          {(ids) => (
            <select
              {...ids}
              name="time_zone"
              className="input"
              value={values.time_zone}
              onChange={(e) => set('time_zone')(e.target.value)}
            >
              {timeZoneOptions(values.time_zone).map((zone) => (
                <option key={zone} value={zone}>
                  {timeZoneLabel(zone)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <fieldset
          className={errors.open_days ? 'field field--invalid' : 'field'}
          aria-describedby={`${id}-days-hint`}
        >
          <legend>{t('profile.openDays')}</legend>
          <p id={`${id}-days-hint`} className="field__hint">
            {t('profile.openDaysHint')}
          </p>
          <div className="day-grid">
            {WEEK.map((day) => (
              <label key={day} className="check">
                <input
                  type="checkbox"
                  name="open_days"
                  value={day}
                  checked={values.open_days.includes(day)}
                  onChange={(e) =>
                    set('open_days')(
                      e.target.checked
                        ? [...values.open_days, day]
                        : values.open_days.filter((d) => d !== day),
                    )
                  }
                />
                {weekdayName(day, intlLocale, 'long')}
              </label>
            ))}
          </div>
          {errors.open_days ? <p className="field__error">{t(errors.open_days)}</p> : null}
          {daysToConfirm ? (
            <div className={errors.days_confirmed ? 'confirm-days field--invalid' : 'confirm-days'}>
              <Alert tone="warning">{t('profile.daysToConfirm')}</Alert>
              <label className="check">
                <input
                  type="checkbox"
                  name="days_confirmed"
                  checked={values.days_confirmed}
                  aria-describedby={errors.days_confirmed ? `${id}-days-error` : undefined}
                  onChange={(e) => set('days_confirmed')(e.target.checked)}
                />
                {t('profile.confirmDays')}
              </label>
              {errors.days_confirmed ? (
                <p id={`${id}-days-error`} className="field__error">
                  {t(errors.days_confirmed)}
                </p>
              ) : null}
            </div>
          ) : null}
        </fieldset>
        <Field
          label={t('profile.cutoff')}
          hint={t('profile.cutoffHint')}
          error={error('change_cutoff_minutes')}
        >
          {(ids) => (
            <input
              {...ids}
              name="change_cutoff_minutes"
              className="input"
              inputMode="numeric"
              maxLength={5}
              value={values.change_cutoff_minutes}
              onChange={(e) => set('change_cutoff_minutes')(e.target.value)}
            />
          )}
        </Field>
        <Field label={t('profile.email')} hint={t('profile.emailHint')}>
          {(ids) => (
            <input {...ids} name="email" className="input" readOnly value={profile.email} />
          )}
        </Field>
        <Field
          label={t('profile.logo')}
          hint={t('profile.logoHint')}
          error={
            logo.status === 'failed'
              ? t('profile.logoFailed', { reason: t(logo.reason) })
              : error('image_url')
          }
        >
          {(ids) => (
            <div className="logo-field">
              {shownLogo ? (
                <img
                  className="logo-field__preview"
                  src={shownLogo}
                  alt={t('profile.logoPreview')}
                  width={96}
                  height={96}
                />
              ) : (
                <span className="hint">{t('profile.logoNone')}</span>
              )}
              <input
                {...ids}
                ref={fileInput}
                name="file"
                type="file"
                className="visually-hidden logo-field__input"
                accept={LOGO_TYPES.join(',')}
                onChange={chooseLogo}
              />
              <label htmlFor={ids.id} className="btn btn--secondary btn--small logo-field__pick">
                {t('profile.logoChoose')}
              </label>
              {values.image_url && logo.status !== 'uploading' ? (
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  onClick={() => {
                    set('image_url')(null);
                    setLogo({ status: 'idle' });
                    if (fileInput.current) fileInput.current.value = '';
                  }}
                >
                  {t('profile.logoRemove')}
                </button>
              ) : null}
            </div>
          )}
        </Field>
        <p className="hint" aria-live="polite">
          {logo.status === 'uploading' ? t('profile.logoUploading') : null}
          {logo.status === 'uploaded' ? t('profile.logoReady') : null}
        </p>
        <div className="form-actions">
          <button
            type="submit"
            className="btn btn--primary"
            disabled={busy || logo.status === 'uploading'}
          >
            {busy ? t('profile.saving') : t('profile.save')}
          </button>
        </div>
      </form>
      <ClosuresEditor
        closures={profile.closures}
        attentionHref={attentionHref}
        onChanged={onSaved}
      />
    </section>
  );
}
