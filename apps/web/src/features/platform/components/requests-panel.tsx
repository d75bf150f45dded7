import type { ContactRequestItem } from '@qless/contract';
import {
  CONTACT_REQUEST_STATUSES,
  type ContactRequestStatus,
  DEFAULT_TIME_ZONE,
  normalizeCameroonMobile,
} from '@qless/contract/core';
import { useId, useState } from 'react';
import { InputField } from '../../../components/form/field';
import { FormNotice, type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useFormAction } from '../../../components/form/use-form-action';
import {
  type InvitationNotice,
  NoticeWithInvitation,
} from '../../../components/ui/invitation-result';
import { useI18n } from '../../../i18n/i18n';
import { apiErrorKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { approveContactRequest, listContactRequests, rejectContactRequest } from '../api/console';
import { formatInstant } from '../lib/format';
import { ListState, Pager } from './shared';

const PAGE_SIZE = 10;
type Filter = ContactRequestStatus | 'all';
type Invited = Omit<InvitationNotice, 'tone'>;
/** The panel's answer: a form's, or an approval's invitation (the link to copy or share). */
type PanelNotice = Notice | InvitationNotice;

function ApproveForm({
  request,
  onDone,
  onCancel,
}: {
  request: ContactRequestItem;
  onDone: (invited: Invited) => void;
  onCancel: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const { state, pending, onSubmit } = useFormAction<Notice | null>(async ({ data }) => {
    const field = (name: string) => formText(data, name, true);
    try {
      const created = await approveContactRequest(request.id, {
        name: field('name'),
        admin_email: field('admin_email'),
        ...(field('admin_name') ? { admin_name: field('admin_name') } : {}),
        city: field('city'),
        category: field('category'),
        time_zone: field('time_zone') || DEFAULT_TIME_ZONE,
        ...(field('admin_phone') ? { admin_phone: field('admin_phone') } : {}),
      });
      onDone({
        text: t('platform.approve.done', {
          name: created.organization.name,
          email: created.admin.email,
        }),
        delivery: created.invitation,
        email: created.admin.email,
        phone: field('admin_phone'),
      });
      return null;
    } catch (err) {
      return { tone: 'error', text: t(apiErrorKey(err)) };
    }
  }, null);

  return (
    <form className="approve-form" onSubmit={onSubmit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="console-subtitle">
        {t('platform.approve.title')}
      </h3>
      <InputField
        label={t('platform.approve.name')}
        name="name"
        required
        maxLength={200}
        defaultValue={request.user_name}
      />
      <InputField
        label={t('platform.approve.email')}
        name="admin_email"
        type="email"
        required
        maxLength={254}
        defaultValue={request.user_email}
      />
      <InputField
        label={t('platform.approve.adminName')}
        name="admin_name"
        maxLength={100}
        defaultValue={request.contact_name}
      />
      <InputField
        label={t('platform.approve.phone')}
        hint={t('platform.approve.phone.hint')}
        name="admin_phone"
        type="tel"
        inputMode="tel"
        maxLength={30}
        // The request's number when it is a mobile (an SMS cannot reach a landline).
        defaultValue={normalizeCameroonMobile(request.phone) ? request.phone : ''}
      />
      <InputField label={t('platform.approve.city')} name="city" maxLength={100} />
      <InputField
        label={t('platform.approve.category')}
        hint={t('platform.approve.category.hint')}
        name="category"
        maxLength={100}
      />
      <InputField
        label={t('platform.approve.timeZone')}
        name="time_zone"
        maxLength={64}
        defaultValue={DEFAULT_TIME_ZONE}
      />
      <FormNotice notice={state} />
      <div className="console-actions">
        <SubmitButton
          busy={pending}
          label={t('platform.approve.submit')}
          busyLabel={t('platform.approve.busy')}
        />
        <button type="button" className="btn btn--secondary" onClick={onCancel} disabled={pending}>
          {t('platform.approve.cancel')}
        </button>
      </div>
    </form>
  );
}

export function RequestsPanel() {
  const { t, intlLocale } = useI18n();
  const [filter, setFilter] = useState<Filter>('new');
  const [page, setPage] = useState(1);
  const [reload, setReload] = useState(0);
  const [approving, setApproving] = useState<string | null>(null);
  const [notice, setNotice] = useState<PanelNotice | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const state = useAsync(
    (signal) =>
      listContactRequests(
        { ...(filter === 'all' ? {} : { status: filter }), page, page_size: PAGE_SIZE },
        signal,
      ),
    [filter, page, reload],
  );

  const reject = async (request: ContactRequestItem) => {
    setBusy(request.id);
    setNotice(null);
    try {
      await rejectContactRequest(request.id);
      setNotice({
        tone: 'success',
        text: t('platform.requests.rejected', { name: request.user_name }),
      });
    } catch (err) {
      setNotice({ tone: 'error', text: t(apiErrorKey(err)) });
    } finally {
      setBusy(null);
      setReload((n) => n + 1);
    }
  };

  return (
    <div className="console-panel">
      <label className="console-filter">
        <span>{t('platform.status.label')}</span>
        <select
          className="input"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value as Filter);
            setPage(1);
          }}
        >
          {CONTACT_REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`platform.status.${s}`)}
            </option>
          ))}
          <option value="all">{t('platform.status.all')}</option>
        </select>
      </label>
      <NoticeWithInvitation notice={notice} />
      <ListState state={state}>
        {(data) =>
          data.contact_requests.length === 0 ? (
            <p className="empty-state">{t('platform.requests.empty')}</p>
          ) : (
            <>
              <ul className="console-list">
                {data.contact_requests.map((r) => (
                  <li key={r.id} className="console-card" data-request={r.user_email}>
                    <div className="console-card__head">
                      <strong>{r.user_name}</strong>
                      <span className={`console-tag console-tag--${r.status}`}>
                        {t(`platform.state.${r.status}`)}
                      </span>
                    </div>
                    <div className="console-card__meta">{r.user_email}</div>
                    {r.contact_name ? (
                      <div className="console-card__meta">
                        {t('platform.requests.contact', { name: r.contact_name })}
                      </div>
                    ) : null}
                    {r.phone ? (
                      <div className="console-card__meta">
                        <a href={`tel:${r.phone.replace(/[^\d+]/g, '')}`}>
                          {t('platform.requests.phone', { phone: r.phone })}
                        </a>
                      </div>
                    ) : null}
                    <div className="console-card__meta">
                      {t('platform.requests.received', {
                        date: formatInstant(r.created_at, intlLocale),
                      })}
                    </div>
                    <p className="console-card__message">
                      {r.message || t('platform.requests.noMessage')}
                    </p>
                    {r.status === 'new' && approving !== r.id ? (
                      <div className="console-actions">
                        <button
                          type="button"
                          className="btn btn--primary"
                          disabled={busy !== null}
                          onClick={() => {
                            setApproving(r.id);
                            setNotice(null);
                          }}
                        >
                          {t('platform.requests.approve')}
                        </button>
                        <button
                          type="button"
                          className="btn btn--secondary"
                          disabled={busy !== null}
                          onClick={() => reject(r)}
                        >
                          {t('platform.requests.reject')}
                        </button>
                      </div>
                    ) : null}
                    {approving === r.id ? (
                      <ApproveForm
                        request={r}
                        onCancel={() => setApproving(null)}
                        onDone={(invited) => {
                          setApproving(null);
                          setNotice({ tone: 'invitation', ...invited });
                          setReload((n) => n + 1);
                        }}
                      />
                    ) : null}
                  </li>
                ))}
              </ul>
              <Pager page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} />
            </>
          )
        }
      </ListState>
    </div>
  );
}
