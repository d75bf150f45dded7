import type { MessageKey } from '../../../i18n/en';

/**
 * The audit log's action keys (the server's "METHOD /route", decision 032) and their texts.
 * A key not listed here (a route added later) is shown as it is: never a blank.
 */
export const AUDIT_ACTIONS: Readonly<Record<string, MessageKey>> = {
  'POST /auth/login': 'audit.action.signIn',
  'POST /auth/logout': 'audit.action.signOut',
  'POST /auth/password': 'audit.action.passwordChange',
  'POST /auth/password-reset': 'audit.action.passwordResetAsk',
  'POST /auth/password-reset/confirm': 'audit.action.passwordReset',
  'POST /auth/invitations/accept': 'audit.action.invitationAccept',
  'PATCH /organization/update/profile': 'audit.action.profileUpdate',
  'POST /:organization_id/services': 'audit.action.serviceCreate',
  'PATCH /organization/services/:service_id': 'audit.action.serviceUpdate',
  'POST /organization/services/:service_id/copy': 'audit.action.serviceCopy',
  'POST /organization/closures': 'audit.action.closureAdd',
  'DELETE /organization/closures/:date': 'audit.action.closureRemove',
  'POST /organization/branches': 'audit.action.branchCreate',
  'PATCH /organization/branch': 'audit.action.branchUpdate',
  'POST /organization/staff': 'audit.action.staffInvite',
  'PATCH /organization/staff/:id': 'audit.action.staffUpdate',
  'POST /organization/staff/:id/resend': 'audit.action.staffResend',
  'POST /uploads': 'audit.action.upload',
  'POST /organization/checkins': 'audit.action.checkIn',
  'POST /organization/checkins/sync': 'audit.action.checkInSync',
  'POST /tickets/verify': 'audit.action.ticketVerify',
  'GET /organization/insight/export.csv': 'audit.action.insightExport',
  'POST /queue/visits': 'audit.action.walkIn',
  'POST /queue/counters': 'audit.action.counterCreate',
  'PATCH /queue/counters/:id': 'audit.action.counterUpdate',
  'POST /queue/counters/:id/open': 'audit.action.counterOpen',
  'POST /queue/counters/:id/pause': 'audit.action.counterPause',
  'POST /queue/counters/:id/close': 'audit.action.counterClose',
  'POST /queue/counters/:id/call-next': 'audit.action.callNext',
  'POST /queue/counters/:id/recall': 'audit.action.recall',
  'POST /queue/counters/:id/start': 'audit.action.start',
  'POST /queue/counters/:id/done': 'audit.action.done',
  'POST /queue/counters/:id/no-show': 'audit.action.noShow',
  'POST /queue/counters/:id/transfer': 'audit.action.transfer',
  'PUT /queue/settings': 'audit.action.queueSettings',
  'PUT /queue/services/:serviceId/letter': 'audit.action.serviceLetter',
  'POST /queue/boards': 'audit.action.boardCreate',
  'DELETE /queue/boards/:boardId': 'audit.action.boardRemove',
  'POST /queue/kiosks': 'audit.action.kioskCreate',
  'DELETE /queue/kiosks/:kioskId': 'audit.action.kioskRemove',
  'PUT /queue/sms-join': 'audit.action.smsJoin',
  'POST /platform/sms/inbound': 'audit.action.smsReceived',
  'POST /platform/contact-requests/:id/approve': 'audit.action.requestApprove',
  'POST /platform/contact-requests/:id/reject': 'audit.action.requestReject',
  'POST /platform/organizations/:id/verify': 'audit.action.organizationVerify',
  'POST /platform/organizations/:id/unverify': 'audit.action.organizationUnverify',
  'GET /platform/personal-data': 'audit.action.personalDataExport',
  'POST /platform/personal-data/erase': 'audit.action.personalDataErase',
};

/** Actions an organization's people can take (the area's "what" filter offers these). */
export function areaActions(): string[] {
  return Object.keys(AUDIT_ACTIONS).filter((key) => !key.includes(' /platform/'));
}

/** The text of an action key, or the key itself when it has none. */
export function actionText(key: string, t: (key: MessageKey) => string): string {
  const known = AUDIT_ACTIONS[key];
  return known ? t(known) : key;
}

/** "Done" for 1xx–3xx answers, "refused" for 4xx, "failed" for 5xx. */
export function outcomeKind(status: number): 'done' | 'refused' | 'failed' {
  if (status >= 500) return 'failed';
  return status >= 400 ? 'refused' : 'done';
}
