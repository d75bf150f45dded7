import type { AdminService } from '@qless/contract';
import { useId } from 'react';
import { InputField, TextAreaField } from '../../../components/form/field';
import { FormNotice, SubmitButton } from '../../../components/form/form-status';
import { Modal } from '../../../components/ui/modal';
import { useI18n } from '../../../i18n/i18n';
import { createService } from '../api/create-service';
import { type ServiceChange, updateService } from '../api/update-service';
import {
  EMPTY_SERVICE,
  readServiceForm,
  SERVICE_FIELD_KEYS,
  serviceFormValues,
} from '../lib/service-form';
import { FailureList } from './notices';
import { useSaveForm } from './use-save-form';

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
  const form = useSaveForm({
    initial: () => (service ? serviceFormValues(service) : EMPTY_SERVICE),
    read: (values) => readServiceForm(values, locale),
    fieldKeys: SERVICE_FIELD_KEYS,
    save: async (request) => {
      const change = service
        ? await updateService(service.service_id, request)
        : await createService(organizationId, request);
      onDone({ kind: editing ? 'updated' : 'added', change });
      return change;
    },
  });
  const { state, values, errors, bind } = form;
  // Once saved, the modal is on its way out: the button stays busy.
  const busy = form.pending || state.status === 'saved';
  const failed = editing ? 'adminServices.updateFailed' : 'serviceForm.addFailed';
  // In French the French texts come first and are what is asked for; English is optional
  //. In English, the reverse, as before.
  const frenchFirst = locale === 'fr';
  const frenchFields = (nameLabel: string, descriptionLabel: string) => (
    <>
      <InputField label={nameLabel} {...bind('service_name_fr')} lang="fr" maxLength={200} />
      <TextAreaField
        label={descriptionLabel}
        {...bind('service_description_fr')}
        lang="fr"
        rows={3}
        maxLength={2000}
      />
    </>
  );
  const englishFields = (nameLabel: string, descriptionLabel: string, required: boolean) => (
    <>
      <InputField
        label={nameLabel}
        {...bind('service_name')}
        lang="en"
        required={required}
        maxLength={200}
      />
      <TextAreaField
        label={descriptionLabel}
        {...bind('service_description')}
        lang="en"
        rows={3}
        required={required}
        maxLength={2000}
      />
    </>
  );
  const numbers = (
    <>
      <InputField
        label={t('serviceForm.duration')}
        hint={t('serviceForm.durationHint')}
        {...bind('duration')}
        type="number"
        inputMode="numeric"
        min={5}
        max={720}
        step={1}
        required
      />
      <InputField
        label={t('serviceForm.capacity')}
        hint={t('serviceForm.capacityHint')}
        {...bind('capacity')}
        type="number"
        inputMode="numeric"
        min={1}
        max={100}
        step={1}
      />
    </>
  );

  return (
    <Modal labelledBy={`${id}-title`} onClose={onClose} closeLabel={t('area.close')}>
      <form onSubmit={form.onSubmit} noValidate>
        <h2 id={`${id}-title`} className="modal__title">
          {editing ? t('serviceForm.editTitle') : t('serviceForm.addTitle')}
        </h2>
        <FormNotice
          notice={
            state.status === 'refused'
              ? { tone: 'error', text: <FailureList title={t(failed)} reasons={state.other} /> }
              : null
          }
        />
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
          <SubmitButton
            busy={busy}
            label={editing ? t('serviceForm.save') : t('serviceForm.create')}
            busyLabel={editing ? t('serviceForm.saving') : t('serviceForm.creating')}
          />
        </div>
      </form>
    </Modal>
  );
}
