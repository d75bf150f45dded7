import type { AdminService } from '@qless/contract';
import { type FormEvent, useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Field } from '../../../components/ui/field';
import { Modal } from '../../../components/ui/modal';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { createService } from '../api/create-service';
import { type ServiceChange, updateService } from '../api/update-service';
import { formErrors } from '../lib/form-errors';
import {
  EMPTY_SERVICE,
  readServiceForm,
  SERVICE_FIELD_KEYS,
  type ServiceField,
  type ServiceFormValues,
  serviceFormValues,
} from '../lib/service-form';

export type ServiceModalResult = { kind: 'added' | 'updated'; change: ServiceChange };

/**
 * Add New Service (spec: name, description, duration; Create and Cancel), and the same form
 * to edit a service. Failure stays in the modal with each refused field marked.
 */
export function ServiceModal({
  organizationId,
  service,
  onClose,
  onDone,
}: {
  organizationId: string;
  /** The service to edit; none to add one. */
  service?: AdminService;
  onClose: () => void;
  onDone: (result: ServiceModalResult) => void;
}) {
  const { t, locale } = useI18n();
  const id = useId();
  const editing = service !== undefined;
  const [values, setValues] = useState<ServiceFormValues>(() =>
    service ? serviceFormValues(service) : EMPTY_SERVICE,
  );
  const [errors, setErrors] = useState<Partial<Record<ServiceField, MessageKey>>>({});
  const [failure, setFailure] = useState<MessageKey[] | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (field: ServiceField) => (value: string) =>
    setValues((v) => ({ ...v, [field]: value }));
  const failed = editing ? 'adminServices.updateFailed' : 'serviceForm.addFailed';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const read = readServiceForm(values, locale);
    if (!read.ok) {
      setErrors(read.errors);
      setFailure([]);
      return;
    }
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      const change = service
        ? await updateService(service.service_id, read.request)
        : await createService(organizationId, read.request);
      onDone({ kind: editing ? 'updated' : 'added', change });
    } catch (error) {
      const found = formErrors(error, SERVICE_FIELD_KEYS);
      setErrors(found.fields);
      setFailure(found.other);
      setBusy(false);
    }
  };

  const field = (name: ServiceField) => (errors[name] ? t(errors[name]) : undefined);
  // In French the French texts come first and are what is asked for; English is optional
  // (issue 18, point 8). In English, the reverse, as before.
  const frenchFirst = locale === 'fr';
  const frenchFields = (nameLabel: string, descriptionLabel: string) => (
    <>
      <Field label={nameLabel} error={field('service_name_fr')}>
        {(ids) => (
          <input
            {...ids}
            name="service_name_fr"
            lang="fr"
            className="input"
            maxLength={200}
            value={values.service_name_fr}
            onChange={(e) => set('service_name_fr')(e.target.value)}
          />
        )}
      </Field>
      <Field label={descriptionLabel} error={field('service_description_fr')}>
        {(ids) => (
          <textarea
            {...ids}
            name="service_description_fr"
            lang="fr"
            className="input"
            rows={3}
            maxLength={2000}
            value={values.service_description_fr}
            onChange={(e) => set('service_description_fr')(e.target.value)}
          />
        )}
      </Field>
    </>
  );
  const englishFields = (nameLabel: string, descriptionLabel: string, required: boolean) => (
    <>
      <Field label={nameLabel} error={field('service_name')}>
        {(ids) => (
          <input
            {...ids}
            name="service_name"
            lang="en"
            className="input"
            required={required}
            maxLength={200}
            value={values.service_name}
            onChange={(e) => set('service_name')(e.target.value)}
          />
        )}
      </Field>
      <Field label={descriptionLabel} error={field('service_description')}>
        {(ids) => (
          <textarea
            {...ids}
            name="service_description"
            lang="en"
            className="input"
            rows={3}
            required={required}
            maxLength={2000}
            value={values.service_description}
            onChange={(e) => set('service_description')(e.target.value)}
          />
        )}
      </Field>
    </>
  );
  const numbers = (
    <>
      <Field
        label={t('serviceForm.duration')}
        hint={t('serviceForm.durationHint')}
        error={field('duration')}
      >
        {(ids) => (
          <input
            {...ids}
            name="duration"
            className="input"
            type="number"
            inputMode="numeric"
            min={5}
            max={720}
            step={1}
            required
            value={values.duration}
            onChange={(e) => set('duration')(e.target.value)}
          />
        )}
      </Field>
      <Field
        label={t('serviceForm.capacity')}
        hint={t('serviceForm.capacityHint')}
        error={field('capacity')}
      >
        {(ids) => (
          <input
            {...ids}
            name="capacity"
            className="input"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            value={values.capacity}
            onChange={(e) => set('capacity')(e.target.value)}
          />
        )}
      </Field>
    </>
  );

  return (
    <Modal labelledBy={`${id}-title`} onClose={onClose} closeLabel={t('area.close')}>
      <form onSubmit={submit} noValidate>
        <h2 id={`${id}-title`} className="modal__title">
          {editing ? t('serviceForm.editTitle') : t('serviceForm.addTitle')}
        </h2>
        <div aria-live="polite">
          {failure ? (
            <Alert tone="error">
              <p>{t(failed)}</p>
              {failure.length > 0 ? (
                <ul>
                  {failure.map((key) => (
                    <li key={key}>{t(key)}</li>
                  ))}
                </ul>
              ) : null}
            </Alert>
          ) : null}
        </div>
        {frenchFirst ? (
          <>
            {frenchFields(t('serviceForm.name'), t('serviceForm.description'))}
            {numbers}
            <details
              className="more"
              open={Boolean(
                values.service_name ||
                  values.service_description ||
                  errors.service_name ||
                  errors.service_description,
              )}
            >
              <summary>{t('serviceForm.english')}</summary>
              <p className="hint">{t('serviceForm.englishHint')}</p>
              {englishFields(t('serviceForm.nameEn'), t('serviceForm.descriptionEn'), false)}
            </details>
          </>
        ) : (
          <>
            {englishFields(t('serviceForm.name'), t('serviceForm.description'), true)}
            {numbers}
            <details
              className="more"
              open={Boolean(
                values.service_name_fr ||
                  values.service_description_fr ||
                  errors.service_name_fr ||
                  errors.service_description_fr,
              )}
            >
              <summary>{t('serviceForm.french')}</summary>
              <p className="hint">{t('serviceForm.frenchHint')}</p>
              {frenchFields(t('serviceForm.nameFr'), t('serviceForm.descriptionFr'))}
            </details>
          </>
        )}
        <div className="modal__actions">
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            {t('area.cancel')}
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {editing
              ? busy
                ? t('serviceForm.saving')
                : t('serviceForm.save')
              : busy
                ? t('serviceForm.creating')
                : t('serviceForm.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
