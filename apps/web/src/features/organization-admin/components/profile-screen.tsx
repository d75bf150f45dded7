import type { OrganizationProfile } from '@qless/contract';
import { useId, useRef } from 'react';
import { InputField, SelectField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { Alert } from '../../../components/ui/alert';
import { useI18n } from '../../../i18n/i18n';
import { updateProfile } from '../api/update-profile';
import { PROFILE_FIELD_KEYS, profileFormValues, readProfileForm } from '../lib/profile-form';
import { timeZoneLabel, timeZoneOptions } from '../lib/time-zones';
import { ClosuresEditor } from './closures-editor';
import { LogoField, useLogoUpload } from './logo-field';
import { FailureList, FlaggedLine } from './notices';
import { OpenDaysField } from './open-days-field';
import { useSaveForm } from './use-save-form';

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
  const { t } = useI18n();
  const id = useId();
  const resultRef = useRef<HTMLDivElement>(null);
  const upload = useLogoUpload();
  const form = useSaveForm({
    initial: () => profileFormValues(profile),
    read: readProfileForm,
    fieldKeys: PROFILE_FIELD_KEYS,
    save: async (request, setValues) => {
      const saved = await updateProfile(request);
      setValues(profileFormValues(saved.organizationData));
      upload.reset();
      await onSaved();
      return saved;
    },
    settled: () => resultRef.current?.scrollIntoView({ block: 'nearest' }),
  });
  const { state, values, set, error, errors, bind } = form;
  // A new organization's Monday to Friday waits for the admin's word.
  const daysToConfirm = profile.missing_fields.includes('open_days');
  /**
   * A time was refused: only then the spec's failure text (which speaks of the time format)
   * is the right one; a refused day or field gets words that do not contradict the time
   * pickers.
   */
  const timesRefused =
    state.status === 'refused' &&
    (Boolean(state.errors.start_time || state.errors.end_time) ||
      state.other.some((key) => key === 'error.INVALID_TIME' || key === 'error.INVALID_HOURS'));

  const notice: Notice | null =
    state.status === 'saved'
      ? {
          tone: 'success',
          text: (
            <>
              <p>{t('profile.saved')}</p>
              <FlaggedLine count={state.saved.flagged_bookings} href={attentionHref} />
            </>
          ),
        }
      : state.status === 'refused'
        ? {
            tone: 'error',
            text: (
              <FailureList
                title={t(timesRefused ? 'profile.failed' : 'profile.failedFields')}
                reasons={state.other}
              />
            ),
          }
        : null;

  return (
    <section aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="page-title">
        {t('profile.title')}
      </h1>
      <p className="page-lead">{t('profile.intro')}</p>
      <FormNotice ref={resultRef} notice={notice} />
      <form className="form-card" onSubmit={form.onSubmit} noValidate>
        <InputField
          label={t('profile.name')}
          {...bind('name')}
          required
          maxLength={200}
          autoComplete="organization"
        />
        <div className="form-grid form-grid--2">
          <InputField
            label={t('profile.startTime')}
            hint={t('profile.timeHint')}
            {...bind('start_time')}
            required
            type="time"
            step={60}
          />
          <InputField
            label={t('profile.endTime')}
            hint={t('profile.timeHint')}
            {...bind('end_time')}
            required
            type="time"
            step={60}
          />
        </div>
        <InputField
          label={t('profile.location')}
          hint={t('profile.locationHint')}
          {...bind('location')}
          maxLength={300}
          autoComplete="street-address"
        />
        <div className="form-grid form-grid--2">
          <InputField
            label={t('profile.city')}
            {...bind('city')}
            maxLength={100}
            autoComplete="address-level2"
          />
          <InputField
            label={t('profile.category')}
            hint={t('profile.categoryHint')}
            {...bind('category')}
            maxLength={100}
          />
        </div>
        <SelectField
          label={t('profile.timeZone')}
          error={error('time_zone')}
          name="time_zone"
          value={values.time_zone}
          onChange={(e) => set('time_zone')(e.target.value)}
        >
          {timeZoneOptions(values.time_zone).map((zone) => (
            <option key={zone} value={zone}>
              {timeZoneLabel(zone)}
            </option>
          ))}
        </SelectField>
        <OpenDaysField
          days={values.open_days}
          error={error('open_days')}
          onChange={set('open_days')}
        >
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
        </OpenDaysField>
        <InputField
          label={t('profile.cutoff')}
          hint={t('profile.cutoffHint')}
          {...bind('change_cutoff_minutes')}
          inputMode="numeric"
          maxLength={5}
        />
        <InputField
          label={t('profile.waitlistHold')}
          hint={t('profile.waitlistHoldHint')}
          {...bind('waitlist_hold_minutes')}
          inputMode="numeric"
          maxLength={3}
        />
        <InputField
          label={t('profile.email')}
          hint={t('profile.emailHint')}
          name="email"
          readOnly
          value={profile.email}
        />
        <LogoField
          upload={upload}
          imageUrl={values.image_url}
          onImage={set('image_url')}
          error={error('image_url')}
        />
        <div className="form-actions">
          <SubmitButton
            busy={form.pending}
            disabled={upload.uploading}
            label={t('profile.save')}
            busyLabel={t('profile.saving')}
          />
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
