import type { StaffMember, StaffRole } from '@qless/contract';
import { type FormEvent, useId, useState } from 'react';
import { InputField, SelectField } from '../../../components/form/field';
import { type Notice, SubmitButton } from '../../../components/form/form-status';
import { formText, useAction } from '../../../components/form/use-form-action';
import { Alert } from '../../../components/ui/alert';
import {
  type InvitationNotice,
  NoticeWithInvitation,
} from '../../../components/ui/invitation-result';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../i18n/i18n';
import { ApiError } from '../../../lib/api-client';
import { apiErrorKey } from '../../../lib/error-keys';
import { useAsync } from '../../../lib/use-async';
import { inviteStaff, listStaff, resendInvitation, setStaffActive } from '../api/staff';
import './account.css';

/** A form's answer, or an invitation's result: the link to copy or share when no e-mail went. */
type StaffNotice = Notice | InvitationNotice;

function statusKey(m: StaffMember) {
  if (!m.active) return 'staff.status.disabled' as const;
  return m.invitation_pending
    ? ('staff.status.invited' as const)
    : ('staff.status.active' as const);
}

/**
 * The organization's accounts: invite staff or administrators, disable or enable them,
 * re-send an invitation. Mounted by the organization area at /organization/staff.
 * `organizationId` is for operators (who belong to none); `currentUserId` hides the
 * disable button on the caller's own row (the server refuses it anyway). Only an operator
 * (`canManageAdmins`) invites admins or acts on admins' accounts; an admin manages staff.
 */
export function StaffScreen({
  organizationId,
  currentUserId,
  canManageAdmins = false,
  canManageBranchManagers = false,
}: {
  organizationId?: string;
  currentUserId?: string;
  canManageAdmins?: boolean;
  /** An organization admin: invites and manages this branch's managers (decision 024). */
  canManageBranchManagers?: boolean;
}) {
  const mayManage = (role: string) =>
    canManageAdmins || role === 'staff' || (canManageBranchManagers && role === 'branch_manager');
  const { t } = useI18n();
  const id = useId();
  const [reload, setReload] = useState(0);
  const list = useAsync((signal) => listStaff(organizationId, signal), [organizationId, reload]);
  const [acting, setActing] = useState<string | null>(null);
  const action = useAction<StaffNotice | null, () => Promise<string | StaffNotice>>(
    async (work) => {
      try {
        const done = await work();
        setReload((n) => n + 1);
        return typeof done === 'string' ? { tone: 'success', text: done } : done;
      } catch (error) {
        return { tone: 'error', text: t(apiErrorKey(error)) };
      }
    },
    null,
  );
  /** Which action runs (the invite, or a row's button): one at a time. */
  const busy = action.pending ? acting : null;
  const act = (key: string, work: () => Promise<string | StaffNotice>) => {
    setActing(key);
    action.run(work);
  };

  const notice = action.state;

  const invite = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const email = formText(data, 'email', true);
    const phone = formText(data, 'phone', true);
    act('invite', async () => {
      const made = await inviteStaff({
        email,
        name: formText(data, 'name', true),
        role: (formText(data, 'role') || 'staff') as StaffRole,
        ...(phone ? { phone } : {}),
        ...(organizationId ? { organization_id: organizationId } : {}),
      });
      form.reset();
      return {
        tone: 'invitation',
        text: t('staff.invited', { email: made.member.email }),
        delivery: made.invitation,
        email: made.member.email,
        phone,
      };
    });
  };

  const forbidden =
    list.status === 'error' && list.error instanceof ApiError && list.error.status === 403;

  return (
    <section className="account-screen" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`} className="page-title">
        {t('staff.title')}
      </h1>
      <p className="page-lead">{t('staff.lead')}</p>
      <NoticeWithInvitation notice={notice} />
      {forbidden ? (
        <Alert tone="error">{t('staff.forbidden')}</Alert>
      ) : (
        <>
          <form
            className="form-card staff-invite"
            onSubmit={invite}
            aria-labelledby={`${id}-invite`}
          >
            <h2 id={`${id}-invite`} className="account-subtitle">
              {t('staff.invite.title')}
            </h2>
            <InputField
              label={t('staff.invite.email')}
              name="email"
              type="email"
              required
              maxLength={254}
              autoComplete="off"
            />
            <InputField
              label={t('staff.invite.name')}
              name="name"
              maxLength={100}
              autoComplete="off"
            />
            <InputField
              label={t('staff.invite.phone')}
              hint={t('staff.invite.phone.hint')}
              name="phone"
              type="tel"
              inputMode="tel"
              maxLength={30}
              autoComplete="off"
            />
            {canManageAdmins || canManageBranchManagers ? (
              <SelectField label={t('staff.invite.role')} name="role" defaultValue="staff">
                <option value="staff">{t('staff.role.staff')}</option>
                <option value="branch_manager">{t('staff.role.branch_manager')}</option>
                {canManageAdmins ? (
                  <option value="org_admin">{t('staff.role.org_admin')}</option>
                ) : null}
              </SelectField>
            ) : null}
            <SubmitButton
              className="btn btn--primary btn--block"
              busy={busy === 'invite'}
              disabled={busy !== null}
              label={t('staff.invite.submit')}
              busyLabel={t('staff.invite.busy')}
            />
          </form>
          {list.status === 'loading' ? <Spinner label={t('staff.loading')} /> : null}
          {list.status === 'error' ? <Alert tone="error">{t('staff.loadFailed')}</Alert> : null}
          {list.status === 'success' && list.data.staff.length === 0 ? (
            <p className="empty-state">{t('staff.empty')}</p>
          ) : null}
          {list.status === 'success' && list.data.staff.length > 0 ? (
            <ul className="staff-list">
              {list.data.staff.map((m) => (
                <li key={m.id} className="staff-card" data-email={m.email}>
                  <div className="staff-card__who">
                    <strong>{m.name || m.email}</strong>
                    {m.id === currentUserId ? <span> {t('staff.you')}</span> : null}
                    {m.name ? <div className="staff-card__email">{m.email}</div> : null}
                  </div>
                  <div className="staff-card__tags">
                    <span className="account-tag">{t(`staff.role.${m.role}`)}</span>
                    <span
                      className={`account-tag account-tag--${m.active ? (m.invitation_pending ? 'wait' : 'ok') : 'off'}`}
                    >
                      {t(statusKey(m))}
                    </span>
                  </div>
                  <div className="staff-card__actions">
                    {m.invitation_pending && m.active && mayManage(m.role) ? (
                      <button
                        type="button"
                        className="btn btn--secondary"
                        disabled={busy !== null}
                        onClick={() =>
                          act(`resend-${m.id}`, async () => {
                            const again = await resendInvitation(m.id);
                            return {
                              tone: 'invitation',
                              text: t('staff.resent', { email: m.email }),
                              delivery: again.invitation,
                              email: m.email,
                              phone: '',
                            };
                          })
                        }
                      >
                        {t('staff.resend')}
                      </button>
                    ) : null}
                    {m.id !== currentUserId && mayManage(m.role) ? (
                      <button
                        type="button"
                        className="btn btn--secondary"
                        disabled={busy !== null}
                        onClick={() =>
                          act(`active-${m.id}`, async () => {
                            await setStaffActive(m.id, !m.active);
                            return t(m.active ? 'staff.disabled' : 'staff.enabled', {
                              email: m.email,
                            });
                          })
                        }
                      >
                        {m.active ? t('staff.disable') : t('staff.enable')}
                      </button>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  );
}
