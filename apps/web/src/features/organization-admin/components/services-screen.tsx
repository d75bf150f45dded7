import type { AdminService } from '@qless/contract';
import { localizedText } from '@qless/contract/core';
import { useId, useState } from 'react';
import { Modal } from '../../../components/ui/modal';
import { useI18n } from '../../../i18n/i18n';
import { updateService } from '../api/update-service';
import { formErrors } from '../lib/form-errors';
import { type Notice, NoticeArea } from './notices';
import { ServiceModal, type ServiceModalResult } from './service-modal';

type Editing = { kind: 'add' } | { kind: 'edit'; service: AdminService } | null;

/**
 * A service's names, the screen's language first (a French admin read English
 * first): in French the French name, then "In English: …"; in English the reverse. A
 * service with no French name shows its one name.
 */
export function ServiceNames({ service }: { service: AdminService }) {
  const { t, locale } = useI18n();
  const french = service.service_name_fr;
  if (!french) return <span lang="en">{service.service_name}</span>;
  if (locale === 'fr') {
    return (
      <span>
        <span lang="fr">{french}</span>
        <span className="cell-sub" lang="en">
          {t('adminServices.english', { text: service.service_name })}
        </span>
      </span>
    );
  }
  return (
    <span>
      <span lang="en">{service.service_name}</span>
      <span className="cell-sub" lang="fr">
        {t('adminServices.french', { text: french })}
      </span>
    </span>
  );
}

/** Services: Add Service, and the table Name, Description, Duration (In minutes) and more. */
export function ServicesScreen({
  organizationId,
  services,
  attentionHref,
  onChanged,
}: {
  organizationId: string;
  services: AdminService[];
  attentionHref: string;
  onChanged: () => Promise<void>;
}) {
  const { t, locale } = useI18n();
  const [editing, setEditing] = useState<Editing>(null);
  const [confirming, setConfirming] = useState<AdminService | null>(null);
  const [notice, setNotice] = useState<Notice>(null);

  const done = async ({ kind, change }: ServiceModalResult) => {
    setEditing(null);
    setNotice({
      tone: 'success',
      text: kind === 'added' ? t('serviceForm.added') : t('adminServices.updated'),
      flagged: change.flagged_bookings,
    });
    await onChanged();
  };

  return (
    <section aria-labelledby="services-title">
      <div className="screen-head">
        <h1 id="services-title" className="page-title">
          {t('adminServices.title')}
        </h1>
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => {
            setNotice(null);
            setEditing({ kind: 'add' });
          }}
        >
          {t('adminServices.add')}
        </button>
      </div>
      <NoticeArea notice={notice} attentionHref={attentionHref} />
      {services.length === 0 ? (
        <p className="empty-state">{t('adminServices.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">{t('adminServices.caption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('adminServices.col.name')}</th>
                <th scope="col">{t('adminServices.col.description')}</th>
                <th scope="col">{t('adminServices.col.duration')}</th>
                <th scope="col">{t('adminServices.col.capacity')}</th>
                <th scope="col">{t('adminServices.col.status')}</th>
                <th scope="col">{t('adminServices.col.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {services.map((service) => (
                <tr key={service.service_id} data-service-id={service.service_id}>
                  <td data-label={t('adminServices.col.name')}>
                    <ServiceNames service={service} />
                  </td>
                  <td data-label={t('adminServices.col.description')}>
                    {locale === 'fr' && service.service_description_fr ? (
                      <span lang="fr">{service.service_description_fr}</span>
                    ) : (
                      <span lang="en">{service.service_description}</span>
                    )}
                  </td>
                  <td data-label={t('adminServices.col.duration')} className="num">
                    {service.duration}
                  </td>
                  <td data-label={t('adminServices.col.capacity')} className="num">
                    {service.capacity}
                  </td>
                  <td data-label={t('adminServices.col.status')}>
                    <span>
                      <span className={service.active ? 'badge badge--good' : 'badge badge--off'}>
                        {service.active ? t('adminServices.active') : t('adminServices.inactive')}
                      </span>
                    </span>
                  </td>
                  <td data-label={t('adminServices.col.actions')}>
                    <span className="cell-actions">
                      <button
                        type="button"
                        className="btn btn--secondary btn--small"
                        aria-label={t('adminServices.editLabel', {
                          name: localizedText(
                            service.service_name,
                            service.service_name_fr,
                            locale,
                          ),
                        })}
                        onClick={() => {
                          setNotice(null);
                          setEditing({ kind: 'edit', service });
                        }}
                      >
                        {t('adminServices.edit')}
                      </button>
                      <button
                        type="button"
                        className="btn btn--secondary btn--small"
                        aria-label={t(
                          service.active
                            ? 'adminServices.deactivateLabel'
                            : 'adminServices.reactivateLabel',
                          {
                            name: localizedText(
                              service.service_name,
                              service.service_name_fr,
                              locale,
                            ),
                          },
                        )}
                        onClick={() => {
                          setNotice(null);
                          setConfirming(service);
                        }}
                      >
                        {service.active
                          ? t('adminServices.deactivate')
                          : t('adminServices.reactivate')}
                      </button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <ServiceModal
          organizationId={organizationId}
          {...(editing.kind === 'edit' ? { service: editing.service } : {})}
          onClose={() => setEditing(null)}
          onDone={done}
        />
      ) : null}
      {confirming ? (
        <ConfirmActive
          service={confirming}
          onClose={() => setConfirming(null)}
          onDone={async (result) => {
            setConfirming(null);
            setNotice(result);
            if (result.tone === 'success') await onChanged();
          }}
        />
      ) : null}
    </section>
  );
}

/** Deactivating hides a service from customers: asked once more, with what it does. */
function ConfirmActive({
  service,
  onClose,
  onDone,
}: {
  service: AdminService;
  onClose: () => void;
  onDone: (notice: NonNullable<Notice>) => void;
}) {
  const { t, locale } = useI18n();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const deactivate = service.active;
  const name = localizedText(service.service_name, service.service_name_fr, locale);

  const confirm = async () => {
    setBusy(true);
    try {
      const change = await updateService(service.service_id, { active: !deactivate });
      onDone({
        tone: 'success',
        text: deactivate ? t('adminServices.deactivated') : t('adminServices.reactivated'),
        flagged: change.flagged_bookings,
      });
    } catch (error) {
      const reasons = formErrors(error, {}).other.map((key) => t(key));
      onDone({ tone: 'error', text: [t('adminServices.changeFailed'), ...reasons].join(' ') });
    }
  };

  return (
    <Modal labelledBy={`${id}-title`} onClose={onClose} closeLabel={t('area.close')}>
      <h2 id={`${id}-title`} className="modal__title">
        {deactivate
          ? t('adminServices.confirmDeactivate', { name })
          : t('adminServices.confirmReactivate', { name })}
      </h2>
      <p>
        {deactivate
          ? t('adminServices.confirmDeactivateBody')
          : t('adminServices.confirmReactivateBody')}
      </p>
      <div className="modal__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          {t('area.cancel')}
        </button>
        <button type="button" className="btn btn--primary" onClick={confirm} disabled={busy}>
          {busy
            ? t('adminServices.working')
            : deactivate
              ? t('adminServices.deactivate')
              : t('adminServices.reactivate')}
        </button>
      </div>
    </Modal>
  );
}
