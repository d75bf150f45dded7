import type { InjectOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashToken, newToken } from '../../src/core/access/sessions.js';
import type { DB } from '../../src/db/schema.js';
import { useStack } from '../support/app-fixture.js';
import { bearer, createUser, signIn } from '../support/auth-helpers.js';
import { TODAY, useCounterApp } from '../support/checkin-helpers.js';
import { initiateBody } from '../support/fixtures.js';
import { NO_LIMITS } from '../support/payment-helpers.js';
import { collectRoute, type DeclaredRoute } from '../support/route-fuzz.js';
import { PINNED_NOW } from '../support/test-app.js';

/**
 * Routes anyone may call. Every other route the server declares, including any added
 * later, must refuse a caller with no live session: nothing is public by omission.
 */
const PUBLIC = new Set([
  'GET /api/v1/health',
  // Probes of load balancers and supervisors (decision 028): nothing but up/ready.
  'GET /api/v1/health/live',
  'GET /api/v1/health/ready',
  'GET /api/v1/organizations',
  'GET /api/v1/organizations/:orgId',
  'GET /api/v1/organizations/:orgId/services',
  // The branch picker (issue 20): an organization's listed branches.
  'GET /api/v1/organizations/:orgId/branches',
  'GET /api/v1/service/:serviceId',
  'GET /api/v1/service/:serviceId/slots',
  'GET /api/v1/service/:serviceId/bookings',
  'POST /api/v1/payment/initiate',
  'GET /api/v1/payment/:paymentId',
  'GET /api/v1/payment/callback/simulator',
  'POST /api/v1/payment/callback/simulator',
  'GET /api/v1/payment/callback/campay',
  'POST /api/v1/payment/callback/campay',
  'POST /api/v1/contact',
  'GET /api/v1/tickets/:code',
  'POST /api/v1/auth/login',
  // Logos appear on public pages; the verifying key of tickets is public by nature.
  'GET /api/v1/uploads/:file',
  'GET /api/v1/tickets/public-key',
  // The links mailed for a forgotten password and an invitation: their token is the credential.
  'POST /api/v1/auth/password-reset',
  'POST /api/v1/auth/password-reset/confirm',
  'GET /api/v1/auth/invitations/:token',
  'POST /api/v1/auth/invitations/accept',
  // A customer's own booking: no session, the booking's access key (X-Booking-Key) is the
  // credential (KEY_PROTECTED below); /access trades a ticket code + phone digits for it.
  'GET /api/v1/bookings/:bookingId',
  'POST /api/v1/bookings/:bookingId/cancel',
  'POST /api/v1/bookings/:bookingId/reschedule',
  'POST /api/v1/bookings/:bookingId/whatsapp',
  'POST /api/v1/payment/:paymentId/cancel',
  'POST /api/v1/tickets/:code/access',
  // The queue (issue 19): the poster's join page, a visitor's own turn (its key is the
  // credential, QUEUE_KEYED below) and the board on the wall (its token is the credential).
  'GET /api/v1/join/:organizationId',
  'POST /api/v1/join/:organizationId',
  'GET /api/v1/visits/:visitId',
  // Leaving the line and the visit-over page's feedback link (issue 30): the visit's key too.
  'POST /api/v1/visits/:visitId/leave',
  'GET /api/v1/visits/:visitId/feedbackLink',
  'GET /api/v1/board/:token',
  // The code the board shows in the hall (decision 125): the board's token too.
  'GET /api/v1/board/:token/join-code',
  // A word after the visit (issue 20): the SMS link's signed token is the credential.
  'GET /api/v1/feedback/:token',
  'POST /api/v1/feedback/:token',
  // The waitlist of a full day (issue 20): joining is public (it sends nothing); leaving
  // takes the key answered at join (`?key=`), which only its joiner saw.
  'POST /api/v1/service/:serviceId/waitlist',
  'DELETE /api/v1/service/:serviceId/waitlist/:entryId',
  // The periods the privacy page states (decision 031): two numbers from the settings.
  'GET /api/v1/privacy',
  // The kiosk at the door (decision 135): its token is the credential; and a slip's short
  // code, which answers the visit's key (counted per address).
  'GET /api/v1/kiosk/:token',
  'POST /api/v1/kiosk/:token/visits',
  'GET /api/v1/follow/:code',
  // The SMS gateway's webhook (decision 136): the secret in its path is the credential.
  'POST /api/v1/sms/inbound/:secret',
  // Its delivery reports (decision 142): likewise a secret path of its own.
  'POST /api/v1/sms/delivery/:secret',
  // Web push (decision 142): the public key; subscribing and stopping take the booking's or
  // visit's key;
  // the service worker's receipt is signed by the server (an HMAC of the push's id).
  'GET /api/v1/push/key',
  'POST /api/v1/push/subscriptions',
  'POST /api/v1/push/unsubscribe',
  'POST /api/v1/push/shown',
]);

/** The WebSockets the server declares; each must check its own credential on upgrade. */
const SOCKETS = new Set([
  '/api/v1/payment/:paymentId/statusSocket',
  '/api/v1/visits/:visitId/turnSocket',
  '/api/v1/board/:token/socket',
]);

/**
 * Public routes whose credential is a booking's access key: each must refuse (403) a
 * missing key, a wrong one, another booking's and a staff session, and change nothing.
 */
const KEY_PROTECTED: Record<
  string,
  (target: { bookingId: string; paymentId: string; slotId: string; date: string }) => InjectOptions
> = {
  'GET /api/v1/bookings/:bookingId': (t) => ({
    method: 'GET',
    url: `/api/v1/bookings/${t.bookingId}`,
  }),
  'POST /api/v1/bookings/:bookingId/cancel': (t) => ({
    method: 'POST',
    url: `/api/v1/bookings/${t.bookingId}/cancel`,
  }),
  'POST /api/v1/bookings/:bookingId/reschedule': (t) => ({
    method: 'POST',
    url: `/api/v1/bookings/${t.bookingId}/reschedule`,
    payload: { slot_id: t.slotId, date: t.date },
  }),
  'POST /api/v1/bookings/:bookingId/whatsapp': (t) => ({
    method: 'POST',
    url: `/api/v1/bookings/${t.bookingId}/whatsapp`,
    payload: { on: true },
  }),
  'POST /api/v1/payment/:paymentId/cancel': (t) => ({
    method: 'POST',
    url: `/api/v1/payment/${t.paymentId}/cancel`,
  }),
};

/** Routes counter staff may call; every other guarded route is for admins or operators. */
const STAFF_ALLOWED = new Set([
  'POST /api/v1/auth/logout',
  'GET /api/v1/auth/me',
  'POST /api/v1/auth/password',
  'GET /api/v1/organization/data',
  'GET /api/v1/organization/today',
  'POST /api/v1/tickets/verify',
  'POST /api/v1/organization/checkins',
  'POST /api/v1/organization/checkins/sync',
  'POST /api/v1/organization/bookings/:id/no-show',
  'POST /api/v1/organization/bookings/:id/cancel',
  // The counter screen (issue 19): the line, walk-ins and the counter's own actions.
  'GET /api/v1/queue/today',
  'POST /api/v1/queue/visits',
  // The counters' names and services (also in /queue/today): the clerk picks theirs.
  'GET /api/v1/queue/counters',
  ...[
    'open',
    'pause',
    'close',
    'call-next',
    'recall',
    'start',
    'done',
    'no-show',
    'transfer',
    'call-visit',
    'undo',
  ].map((action) => `POST /api/v1/queue/counters/:id/${action}`),
  // A no-show of today put back in line (issue 30).
  'POST /api/v1/queue/visits/:id/return',
  // A flood of joins from the poster cleared in one act (issue 31, decision 125).
  'POST /api/v1/queue/self-joins/clear',
  // A walk-in's slip printed again at the counter (decision 135).
  'GET /api/v1/queue/visits/:visitId/slip',
]);

/** Routes for the platform team alone. */
const OPERATOR_ONLY = (route: string) => / \/api\/v1\/platform\//.test(route);

/** Routes that act only on the caller's own account: no other organization can be named. */
const OWN_ACCOUNT_ONLY = new Set([
  'POST /api/v1/auth/logout',
  'GET /api/v1/auth/me',
  'POST /api/v1/auth/password',
]);

/**
 * How an admin of organization A names organization B's things on each route (B's id in
 * the path, the query or the body). The walk below fails when a guarded route is missing
 * here, so a new route cannot skip the check.
 */
interface CrossCase {
  route: string;
  request: (b: OtherOrganization) => InjectOptions;
  /** What a refusal may be: 403/404 by default; verify answers 200 with valid=false. */
  accept?: (status: number, body: Record<string, unknown>) => boolean;
  /** The same, when it depends on B's ids. */
  acceptFor?: (b: OtherOrganization) => (status: number, body: Record<string, unknown>) => boolean;
}
interface OtherOrganization {
  orgId: string;
  /** An account of B (its counter staff). */
  userId: string;
  serviceId: string;
  bookingId: string;
  code: string;
  token: string;
  /** B's open counter, holding B's called visit; B's waiting visit; B's live board. */
  counterId: string;
  calledVisitId: string;
  waitingVisitId: string;
  boardId: string;
  kioskId: string;
}

/** Reads of the organization's own things: refused, or answered with A's, never B's. */
const notB =
  (path: (body: Record<string, unknown>) => unknown) =>
  (b: OtherOrganization) =>
  (status: number, body: Record<string, unknown>) =>
    status === 403 ||
    status === 404 ||
    (status === 200 && !JSON.stringify(body).includes(b.orgId) && path(body) !== undefined);

const COUNTER_ACTIONS = [
  'open',
  'pause',
  'close',
  'call-next',
  'recall',
  'start',
  'done',
  'no-show',
  'undo',
] as const;

/** The queue's routes (issue 19), B's things named by A's staff and admin. */
const QUEUE_CROSS_CASES = (): CrossCase[] => [
  {
    route: 'GET /api/v1/queue/today',
    request: (b) => ({ method: 'GET', url: `/api/v1/queue/today?organization_id=${b.orgId}` }),
    acceptFor: notB((body) => body.organization),
  },
  {
    route: 'POST /api/v1/queue/visits',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/queue/visits',
      payload: { service_id: b.serviceId, name: 'Hijack Walk-in' },
    }),
  },
  {
    route: 'POST /api/v1/queue/visits',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/queue/visits',
      payload: { organization_id: b.orgId, service_id: b.serviceId, name: 'Hijack Walk-in' },
    }),
    accept: (status) => status === 400 || status === 403 || status === 404,
  },
  ...COUNTER_ACTIONS.map(
    (action): CrossCase => ({
      route: `POST /api/v1/queue/counters/:id/${action}`,
      request: (b) => ({ method: 'POST', url: `/api/v1/queue/counters/${b.counterId}/${action}` }),
    }),
  ),
  {
    route: 'POST /api/v1/queue/visits/:id/return',
    request: (b) => ({ method: 'POST', url: `/api/v1/queue/visits/${b.waitingVisitId}/return` }),
  },
  {
    route: 'POST /api/v1/queue/self-joins/clear',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/queue/self-joins/clear?organization_id=${b.orgId}`,
      payload: {},
    }),
  },
  {
    route: 'POST /api/v1/queue/counters/:id/call-visit',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/queue/counters/${b.counterId}/call-visit`,
      payload: { visit_id: b.serviceId, reason: 'returning' },
    }),
  },
  {
    route: 'POST /api/v1/queue/counters/:id/transfer',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/queue/counters/${b.counterId}/transfer`,
      payload: { service_id: b.serviceId },
    }),
  },
  {
    route: 'GET /api/v1/queue/calls-record',
    request: (b) => ({
      method: 'GET',
      url: `/api/v1/queue/calls-record?date=2026-11-30&organization_id=${b.orgId}`,
    }),
    acceptFor: notB((body) => body.record),
  },
  {
    route: 'GET /api/v1/queue/settings',
    request: (b) => ({ method: 'GET', url: `/api/v1/queue/settings?organization_id=${b.orgId}` }),
    acceptFor: notB((body) => body.settings),
  },
  {
    route: 'PUT /api/v1/queue/settings',
    request: (b) => ({
      method: 'PUT',
      url: `/api/v1/queue/settings?organization_id=${b.orgId}`,
      payload: {
        organization_id: b.orgId,
        grace_early_minutes: 1,
        grace_late_minutes: 1,
        notify_position: 9,
        max_recalls: 0,
        join_enabled: true,
      },
    }),
    // Refused, or A's own settings changed (B's are checked by the snapshot).
    accept: (status) => status === 200 || status === 400 || status === 403 || status === 404,
  },
  {
    route: 'GET /api/v1/queue/counters',
    request: (b) => ({ method: 'GET', url: `/api/v1/queue/counters?organization_id=${b.orgId}` }),
    acceptFor: notB((body) => body.counters),
  },
  {
    route: 'POST /api/v1/queue/counters',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/queue/counters',
      payload: { name: 'Hijack', service_ids: [b.serviceId] },
    }),
    accept: (status) => status === 400 || status === 403 || status === 404,
  },
  {
    route: 'PATCH /api/v1/queue/counters/:id',
    request: (b) => ({
      method: 'PATCH',
      url: `/api/v1/queue/counters/${b.counterId}`,
      payload: { name: 'Hijack', active: false },
    }),
  },
  {
    route: 'GET /api/v1/queue/boards',
    request: (b) => ({ method: 'GET', url: `/api/v1/queue/boards?organization_id=${b.orgId}` }),
    acceptFor: notB((body) => body.boards),
  },
  {
    route: 'POST /api/v1/queue/boards',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/queue/boards?organization_id=${b.orgId}`,
      payload: { organization_id: b.orgId, name: 'Hijack board' },
    }),
    // Refused, or a board of A's own (B's boards are checked by the snapshot).
    accept: (status) => status === 201 || status === 400 || status === 403 || status === 404,
  },
  {
    route: 'DELETE /api/v1/queue/boards/:boardId',
    request: (b) => ({ method: 'DELETE', url: `/api/v1/queue/boards/${b.boardId}` }),
  },
  {
    route: 'GET /api/v1/queue/sms-join',
    request: (b) => ({ method: 'GET', url: `/api/v1/queue/sms-join?organization_id=${b.orgId}` }),
  },
  {
    route: 'PUT /api/v1/queue/sms-join',
    request: (b) => ({
      method: 'PUT',
      url: `/api/v1/queue/sms-join?organization_id=${b.orgId}`,
      payload: { keyword: 'HIJACK' },
    }),
  },
  {
    route: 'GET /api/v1/queue/kiosks',
    request: (b) => ({ method: 'GET', url: `/api/v1/queue/kiosks?organization_id=${b.orgId}` }),
    acceptFor: notB((body) => body.kiosks),
  },
  {
    route: 'POST /api/v1/queue/kiosks',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/queue/kiosks?organization_id=${b.orgId}`,
      payload: { name: 'Hijack kiosk' },
    }),
    accept: (status) => status === 403 || status === 404,
  },
  {
    route: 'DELETE /api/v1/queue/kiosks/:kioskId',
    request: (b) => ({ method: 'DELETE', url: `/api/v1/queue/kiosks/${b.kioskId}` }),
  },
  {
    route: 'GET /api/v1/queue/visits/:visitId/slip',
    request: (b) => ({ method: 'GET', url: `/api/v1/queue/visits/${b.waitingVisitId}/slip` }),
  },
  {
    route: 'PUT /api/v1/queue/services/:serviceId/letter',
    request: (b) => ({
      method: 'PUT',
      url: `/api/v1/queue/services/${b.serviceId}/letter`,
      payload: { letter: 'Z' },
    }),
  },
];

const CROSS_CASES: CrossCase[] = [
  {
    route: 'GET /api/v1/organization/data',
    request: (b) => ({
      method: 'GET',
      url: `/api/v1/organization/data?organization_id=${b.orgId}`,
    }),
  },
  {
    route: 'GET /api/v1/organization/:id/bookings',
    request: (b) => ({ method: 'GET', url: `/api/v1/organization/${b.orgId}/bookings` }),
  },
  {
    route: 'POST /api/v1/:organization_id/services',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/${b.orgId}/services`,
      payload: { service_name: 'Hijack', service_description: 'Not yours', duration: 15 },
    }),
  },
  {
    route: 'PATCH /api/v1/organization/services/:service_id',
    request: (b) => ({
      method: 'PATCH',
      url: `/api/v1/organization/services/${b.serviceId}`,
      payload: { service_name: 'Hijack', active: false },
    }),
  },
  {
    route: 'PATCH /api/v1/organization/update/profile',
    request: (b) => ({
      method: 'PATCH',
      url: '/api/v1/organization/update/profile',
      payload: { organization_id: b.orgId, name: 'Hijack', start_time: '01:00', end_time: '02:00' },
    }),
  },
  {
    route: 'POST /api/v1/organization/closures',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/organization/closures',
      payload: { organization_id: b.orgId, date: '2026-03-10', reason: 'Hijack' },
    }),
  },
  {
    route: 'DELETE /api/v1/organization/closures/:date',
    request: (b) => ({
      method: 'DELETE',
      url: `/api/v1/organization/closures/2026-03-11?organization_id=${b.orgId}`,
    }),
  },
  {
    route: 'POST /api/v1/uploads',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/uploads?organization_id=${b.orgId}`,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload:
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot really\r\n--x--\r\n',
    }),
  },
  {
    route: 'GET /api/v1/organization/today',
    request: (b) => ({
      method: 'GET',
      url: `/api/v1/organization/today?organization_id=${b.orgId}`,
    }),
  },
  {
    route: 'POST /api/v1/tickets/verify',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/tickets/verify',
      payload: { token: b.token },
    }),
    accept: (status, body) =>
      status === 200 && body.valid === false && body.reason === 'WRONG_ORGANIZATION',
  },
  {
    route: 'POST /api/v1/organization/checkins',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/organization/checkins',
      payload: { code: b.code },
    }),
    accept: (status) => status === 403 || status === 404 || status === 409,
  },
  {
    route: 'POST /api/v1/organization/checkins',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/organization/checkins',
      payload: { token: b.token },
    }),
    accept: (status) => status === 403 || status === 404 || status === 409,
  },
  {
    route: 'POST /api/v1/organization/checkins/sync',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/organization/checkins/sync',
      payload: {
        items: [
          {
            code: b.code,
            scanned_at: '2026-03-04T08:29:00.000Z',
            client_id: '11111111-1111-4111-8111-111111111111',
          },
        ],
      },
    }),
    // Per-item answers: the request succeeds, the item is refused as an unknown code (a typed
    // code of another organization is not said to exist; checked below: B unchanged).
    accept: (status, body) =>
      status === 200 &&
      JSON.stringify(body).includes('"result":"refused"') &&
      JSON.stringify(body).includes('UNKNOWN_TICKET'),
  },
  {
    route: 'POST /api/v1/organization/checkins/sync',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/organization/checkins/sync',
      payload: {
        organization_id: b.orgId,
        items: [
          {
            code: b.code,
            scanned_at: '2026-03-04T08:29:00.000Z',
            client_id: '22222222-2222-4222-8222-222222222222',
          },
        ],
      },
    }),
  },
  {
    route: 'POST /api/v1/organization/bookings/:id/no-show',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/organization/bookings/${b.bookingId}/no-show`,
    }),
  },
  {
    route: 'POST /api/v1/organization/bookings/:id/cancel',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/organization/bookings/${b.bookingId}/cancel`,
    }),
  },
  {
    route: 'GET /api/v1/organization/staff',
    request: (b) => ({
      method: 'GET',
      url: `/api/v1/organization/staff?organization_id=${b.orgId}`,
    }),
  },
  {
    route: 'POST /api/v1/organization/staff',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/organization/staff',
      payload: { organization_id: b.orgId, email: 'hijack@example.cm', role: 'org_admin' },
    }),
  },
  {
    route: 'PATCH /api/v1/organization/staff/:id',
    request: (b) => ({
      method: 'PATCH',
      url: `/api/v1/organization/staff/${b.userId}`,
      payload: { active: false },
    }),
  },
  {
    route: 'POST /api/v1/organization/staff/:id/resend',
    request: (b) => ({ method: 'POST', url: `/api/v1/organization/staff/${b.userId}/resend` }),
  },
  ...QUEUE_CROSS_CASES(),
  // Insight (issue 20): B's figures and B's rows in a CSV.
  {
    route: 'GET /api/v1/organization/insight',
    request: (b) => ({
      method: 'GET',
      url: `/api/v1/organization/insight?from=${TODAY}&to=${TODAY}&organization_id=${b.orgId}`,
    }),
  },
  // B's monthly SMS budget (decision 143): an admin of A cannot set it.
  {
    route: 'PUT /api/v1/organization/sms-budget',
    request: (b) => ({
      method: 'PUT',
      url: '/api/v1/organization/sms-budget',
      payload: { organization_id: b.orgId, monthly_sms_xaf: 0 },
    }),
  },
  {
    route: 'GET /api/v1/organization/insight/export.csv',
    request: (b) => ({
      method: 'GET',
      url: `/api/v1/organization/insight/export.csv?kind=visits&from=${TODAY}&to=${TODAY}&organization_id=${b.orgId}`,
    }),
  },
  // The audit log (issue 21, decision 032): B's entries, named or not.
  {
    route: 'GET /api/v1/organization/audit',
    request: (b) => ({
      method: 'GET',
      url: `/api/v1/organization/audit?organization_id=${b.orgId}`,
    }),
  },
  {
    route: 'GET /api/v1/organization/audit',
    request: () => ({ method: 'GET', url: '/api/v1/organization/audit?limit=100' }),
    acceptFor: (b) => (status, body) =>
      status === 403 ||
      (status === 200 &&
        Array.isArray(body.entries) &&
        (body.entries as { organization_id: string | null }[]).every(
          (e) => e.organization_id !== b.orgId,
        )),
  },
  // Branches (issue 20, decision 024): B's branches listed, B grown or renamed, B's service
  // copied, B named as the acting branch.
  {
    route: 'GET /api/v1/organization/branches',
    request: (b) => ({
      method: 'GET',
      url: `/api/v1/organization/branches?organization_id=${b.orgId}`,
    }),
  },
  {
    route: 'GET /api/v1/organization/branches',
    request: () => ({ method: 'GET', url: '/api/v1/organization/branches' }),
    acceptFor: notB((body) => body.branches),
  },
  {
    route: 'POST /api/v1/organization/branches',
    request: (b) => ({
      method: 'POST',
      url: '/api/v1/organization/branches',
      payload: { organization_id: b.orgId, branch_name: 'Hijack', city: 'Douala', location: 'x' },
    }),
  },
  {
    route: 'PATCH /api/v1/organization/branch',
    request: (b) => ({
      method: 'PATCH',
      url: '/api/v1/organization/branch',
      payload: { organization_id: b.orgId, branch_name: 'Hijack' },
    }),
  },
  {
    route: 'PATCH /api/v1/organization/branch',
    request: (b) => ({
      method: 'PATCH',
      url: '/api/v1/organization/branch',
      headers: { 'x-qless-branch': b.orgId },
      payload: { branch_name: 'Hijack' },
    }),
  },
  {
    route: 'POST /api/v1/organization/services/:service_id/copy',
    request: (b) => ({
      method: 'POST',
      url: `/api/v1/organization/services/${b.serviceId}/copy`,
      payload: { organization_ids: [b.orgId] },
    }),
    accept: (status) => status === 400 || status === 403 || status === 404,
  },
  {
    route: 'GET /api/v1/organization/data',
    request: (b) => ({
      method: 'GET',
      url: '/api/v1/organization/data',
      headers: { 'x-qless-branch': b.orgId },
    }),
  },
];

/** The name of B's walk-in: no refusal may show it. */
const QUEUE_NAME_OF_B = 'Walk-in Of B';

/**
 * B's queue this morning, as its own staff left it: an open counter holding a called
 * visit, another visit waiting, and a live board (its token never leaves this function).
 */
async function queueOfB(db: Kysely<DB>, orgId: string, serviceId: string, staffId: string) {
  const at = new Date(PINNED_NOW);
  const counter = await db
    .insertInto('counters')
    .values({
      organization_id: orgId,
      name: 'Guichet B',
      state: 'open',
      opened_by: staffId,
      state_changed_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('counter_services')
    .values({ counter_id: counter.id, service_id: serviceId })
    .execute();
  await db.updateTable('services').set({ queue_letter: 'A' }).where('id', '=', serviceId).execute();
  const visit = (number: number, called: boolean) =>
    db
      .insertInto('visits')
      .values({
        organization_id: orgId,
        service_id: serviceId,
        visit_date: TODAY,
        letter: 'A',
        number,
        source: 'staff',
        customer_name: QUEUE_NAME_OF_B,
        phone: '+237677099001',
        arrived_at: at,
        queued_at: at,
        state: called ? 'called' : 'waiting',
        counter_id: called ? counter.id : null,
        called_at: called ? at : null,
        created_by: staffId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  const called = await visit(1, true);
  const waiting = await visit(2, false);
  await db
    .insertInto('visit_numbers')
    .values({ organization_id: orgId, visit_date: TODAY, letter: 'A', last_number: 2 })
    .execute();
  const board = await db
    .insertInto('boards')
    .values({
      organization_id: orgId,
      name: 'Hall B',
      token_hash: newToken().hash,
      created_by: staffId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const kiosk = await db
    .insertInto('kiosks')
    .values({
      organization_id: orgId,
      name: 'Door B',
      token_hash: newToken().hash,
      created_by: staffId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    counterId: counter.id,
    calledVisitId: called.id,
    waitingVisitId: waiting.id,
    boardId: board.id,
    kioskId: kiosk.id,
  };
}

const key = (r: DeclaredRoute) => `${r.method} ${r.url}`;
const ANY_ID = '00000000-0000-4000-8000-000000000000';

function concreteUrl(template: string): string {
  return template.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'code') return 'QL-7K4M-2QAB-XC9D';
    if (name === 'date') return '2026-03-10';
    if (name === 'token') return 'x'.repeat(43);
    if (name === 'file') return 'logo.png';
    return ANY_ID;
  });
}

describe('authorization of every route', () => {
  const routes: DeclaredRoute[] = [];
  const sockets: string[] = [];
  const s = useStack({
    env: { ...NO_LIMITS, LOGIN_FAILURES_PER_IP: '100000' },
    onRoute: (route) => {
      collectRoute(routes, route);
      if ((route as { websocket?: boolean }).websocket) sockets.push(route.url);
    },
  });
  let staff: string;
  let adminA: string;
  let expired: string;
  let revoked: string;
  /** A live board link of the organization: it reads the board, and nothing else. */
  let boardToken: string;

  beforeAll(async () => {
    const now = new Date(PINNED_NOW);
    const a = s.fx;
    const db = s.database.db;
    await createUser(db, { email: 'admin@a.cm', role: 'org_admin', organizationId: a.orgId });
    await createUser(db, { email: 'staff@a.cm', role: 'staff', organizationId: a.orgId });
    adminA = await signIn(s.app, 'admin@a.cm');
    staff = await signIn(s.app, 'staff@a.cm');
    // Sessions that existed and no longer count: one past its end, one revoked.
    const { id } = await createUser(db, {
      email: 'old@a.cm',
      role: 'org_admin',
      organizationId: a.orgId,
    });
    const past = new Date(now.getTime() - 3_600_000);
    const expiredToken = newToken();
    const revokedToken = newToken();
    await db
      .insertInto('sessions')
      .values([
        {
          token_hash: expiredToken.hash,
          user_id: id,
          created_at: past,
          last_seen_at: past,
          expires_at: new Date(now.getTime() - 1000),
          absolute_expires_at: new Date(now.getTime() + 3_600_000),
          revoked_at: null,
          user_agent: null,
        },
        {
          token_hash: revokedToken.hash,
          user_id: id,
          created_at: past,
          last_seen_at: past,
          expires_at: new Date(now.getTime() + 3_600_000),
          absolute_expires_at: new Date(now.getTime() + 3_600_000),
          revoked_at: past,
          user_agent: null,
        },
      ])
      .execute();
    expect(hashToken(expiredToken.token)).toBe(expiredToken.hash);
    expired = expiredToken.token;
    revoked = revokedToken.token;
    const board = await s.app.inject({
      method: 'POST',
      url: '/api/v1/queue/boards',
      headers: bearer(adminA),
      payload: { name: 'Hall' },
    });
    expect(board.statusCode, board.body).toBe(201);
    boardToken = board.json<{ token: string }>().token;
  }, 60_000);

  const guarded = () => routes.filter((r) => !PUBLIC.has(key(r)));

  function request(route: DeclaredRoute, headers: Record<string, string>): InjectOptions {
    const base: InjectOptions = {
      method: route.method as InjectOptions['method'],
      url: concreteUrl(route.url),
      headers,
    };
    return route.method === 'GET' || route.method === 'DELETE' ? base : { ...base, payload: {} };
  }

  it('sees the routes (the Campay callbacks exist only when Campay is configured)', () => {
    const names = new Set(routes.map(key));
    for (const name of PUBLIC) {
      if (!name.includes('campay')) expect(names, name).toContain(name);
    }
    expect(names).toContain('GET /api/v1/auth/me');
  });

  const alg = (header: object, claims: object) =>
    `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
  const callers: [string, () => Record<string, string>][] = [
    ['no credentials', () => ({})],
    ['a garbage bearer token', () => bearer('garbage')],
    ['a well-formed unknown token', () => bearer('Z'.repeat(43))],
    [
      'an alg=none JWT',
      () => bearer(alg({ alg: 'none', typ: 'JWT' }, { sub: 'admin', role: 'operator' })),
    ],
    ['an expired session', () => bearer(expired)],
    ['a revoked session', () => bearer(revoked)],
    ['a garbage cookie', () => ({ cookie: 'qless_session=garbage' })],
    ['an expired session cookie', () => ({ cookie: `qless_session=${expired}` })],
    // A board link is a public page's read credential, never a session.
    ['a board token as a bearer token', () => bearer(boardToken)],
    ['a board token as the session cookie', () => ({ cookie: `qless_session=${boardToken}` })],
    ['a board token in a header of its own', () => ({ 'x-board-token': boardToken })],
  ];

  it.each(callers)('answers 401 to %s on every non-public route', async (_name, headers) => {
    const failures: string[] = [];
    for (const route of guarded()) {
      const res = await s.app.inject(request(route, headers()));
      if (res.statusCode !== 401 || res.json().code !== 'UNAUTHORIZED') {
        failures.push(`${key(route)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('changes nothing when a board token is sent to any write, however it is carried', async () => {
    const db = s.database.db;
    const snapshot = async () =>
      JSON.stringify(
        await Promise.all(
          (['counters', 'counter_services', 'visits', 'visit_events', 'boards'] as const).map(
            (table) => db.selectFrom(table).selectAll().execute(),
          ),
        ),
      ) + JSON.stringify(await db.selectFrom('organizations').selectAll().orderBy('id').execute());
    const before = await snapshot();
    const failures: string[] = [];
    const writes = guarded().filter((r) => r.method !== 'GET');
    for (const route of writes) {
      const carriers: Record<string, string>[] = [
        bearer(boardToken),
        { cookie: `qless_session=${boardToken}` },
        { 'x-board-token': boardToken },
      ];
      for (const headers of carriers) {
        const req = request(route, headers);
        const url = `${req.url as string}${(req.url as string).includes('?') ? '&' : '?'}token=${boardToken}`;
        const res = await s.app.inject({ ...req, url });
        if (res.statusCode !== 401) failures.push(`${key(route)} → ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    expect(writes.filter((r) => r.url.includes('/queue/')).length).toBeGreaterThanOrEqual(15);
    expect(await snapshot()).toBe(before);
    // The token itself is live: it opens its board (the refusals above were about the route).
    const board = await s.app.inject({ method: 'GET', url: `/api/v1/board/${boardToken}` });
    expect(board.statusCode, board.body).toBe(200);
  });

  it('declares no WebSocket beyond the known ones', () => {
    expect([...new Set(sockets)].sort()).toEqual([...SOCKETS].sort());
  });

  it('answers 403 to counter staff on every route that is not theirs', async () => {
    const failures: string[] = [];
    for (const route of guarded().filter((r) => !STAFF_ALLOWED.has(key(r)))) {
      const res = await s.app.inject(request(route, bearer(staff)));
      if (res.statusCode !== 403 || res.json().code !== 'FORBIDDEN') {
        failures.push(`${key(route)} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('has a cross-organization case for every guarded route an organization can call', () => {
    const covered = new Set(CROSS_CASES.map((c) => c.route));
    const missing = guarded()
      .map(key)
      .filter((r) => !OPERATOR_ONLY(r) && !OWN_ACCOUNT_ONLY.has(r) && !covered.has(r));
    expect(missing).toEqual([]);
  });

  it('answers 403 to an organization admin on every operator route', async () => {
    const failures: string[] = [];
    for (const route of guarded().filter((r) => OPERATOR_ONLY(key(r)))) {
      const res = await s.app.inject(request(route, bearer(adminA)));
      if (res.statusCode !== 403) failures.push(`${key(route)} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses a cookie-authenticated write from a foreign page on every guarded write', async () => {
    const failures: string[] = [];
    for (const route of guarded().filter((r) => r.method !== 'GET')) {
      const res = await s.app.inject(
        request(route, { cookie: `qless_session=${adminA}`, origin: 'https://evil.example' }),
      );
      if (res.statusCode !== 403 || res.json().code !== 'ORIGIN_NOT_ALLOWED') {
        failures.push(`${key(route)} → ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

/**
 * Every cross case, called by `callers` of A on B's things. `prepare` shapes A and B first
 * (B as a sibling branch of A's, for the branch walk).
 */
function walkCrossCases(
  title: string,
  options: {
    callers: (h: ReturnType<typeof useCounterApp>) => Promise<Record<string, string>[]>;
    prepare?: (h: ReturnType<typeof useCounterApp>) => Promise<void>;
  },
) {
  describe(title, () => {
    const h = useCounterApp();
    let callers: Record<string, string>[] = [];
    let other: OtherOrganization;
    let bName: string;

    /** Everything of B a refused request must leave as it was. */
    async function snapshotOfB(): Promise<string> {
      const db = h.db;
      const [org, services, bookings, closures, slots, users] = await Promise.all([
        db.selectFrom('organizations').selectAll().where('id', '=', other.orgId).execute(),
        db
          .selectFrom('services')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('bookings')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('organization_closures')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .execute(),
        db
          .selectFrom('slots')
          .select(['id', 'retired_at'])
          .where('service_id', '=', other.serviceId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('users')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .orderBy('id')
          .execute(),
      ]);
      const queue = await Promise.all([
        db
          .selectFrom('counters')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('counter_services')
          .innerJoin('counters', 'counters.id', 'counter_services.counter_id')
          .select(['counter_services.counter_id', 'counter_services.service_id'])
          .where('counters.organization_id', '=', other.orgId)
          .orderBy('counter_services.counter_id')
          .orderBy('counter_services.service_id')
          .execute(),
        db
          .selectFrom('visits')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('visit_events')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .orderBy('id')
          .execute(),
        db
          .selectFrom('visit_numbers')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .orderBy('letter')
          .execute(),
        db
          .selectFrom('boards')
          .selectAll()
          .where('organization_id', '=', other.orgId)
          .orderBy('id')
          .execute(),
      ]);
      return JSON.stringify({ org, services, bookings, closures, slots, users, queue });
    }

    beforeAll(async () => {
      await options.prepare?.(h);
      callers = await options.callers(h);
      const booking = await h.book(h.ctx.b, { name: 'Customer Of B' });
      bName = booking.name;
      const queue = await queueOfB(h.db, h.ctx.b.orgId, h.ctx.b.serviceId, h.ctx.staffB.id);
      other = {
        orgId: h.ctx.b.orgId,
        userId: h.ctx.staffB.id,
        serviceId: h.ctx.b.serviceId,
        bookingId: booking.id,
        code: booking.code,
        token: await h.token(booking),
        ...queue,
      };
      await h.db
        .insertInto('organization_closures')
        .values({ organization_id: other.orgId, closed_on: '2026-03-11', reason: 'B holiday' })
        .execute();
    });

    it.each(CROSS_CASES.map((c, i) => [c.route, i] as const))(
      'refuses %s (case %#) and leaves B as it was',
      async (_route, i) => {
        const c = CROSS_CASES[i] as CrossCase;
        const before = await snapshotOfB();
        for (const caller of callers) {
          const req = c.request(other);
          const res = await h.app.inject({
            ...req,
            headers: { ...(req.headers ?? {}), ...caller },
          });
          const body = res.json() as Record<string, unknown>;
          const accept = c.acceptFor ? c.acceptFor(other) : c.accept;
          const accepted = accept
            ? accept(res.statusCode, body)
            : res.statusCode === 403 || res.statusCode === 404;
          expect(accepted, `${res.statusCode} ${res.body.slice(0, 200)}`).toBe(true);
          expect(res.body).not.toContain(bName);
          expect(res.body).not.toMatch(/\+2376770/);
          expect(res.body).not.toContain(QUEUE_NAME_OF_B);
        }
        expect(await snapshotOfB()).toBe(before);
      },
    );
  });
}

walkCrossCases("an admin of one organization naming another's things", {
  callers: async (h) => [h.ctx.adminA.headers, h.ctx.staffA.headers],
});

// Issue 20: "a branch manager of branch A is refused branch B". B becomes another branch of
// A's organization; A's branch manager and A's staff are refused every one of B's things.
walkCrossCases("a branch manager naming a sibling branch's things (decision 024)", {
  prepare: async (h) => {
    await h.db
      .updateTable('organizations')
      .set({ parent_id: h.ctx.a.orgId, branch_name: 'B' })
      .where('id', '=', h.ctx.b.orgId)
      .execute();
  },
  callers: async (h) => {
    await createUser(h.db, {
      email: 'manager@a.cm',
      role: 'branch_manager',
      organizationId: h.ctx.a.orgId,
    });
    return [bearer(await signIn(h.app, 'manager@a.cm')), h.ctx.staffA.headers];
  },
});

describe('routes opened by a booking’s access key', () => {
  const routes: DeclaredRoute[] = [];
  const s = useStack({
    env: { ...NO_LIMITS, SIMULATOR_DELAY_MS: '600000' },
    onRoute: (route) => collectRoute(routes, route),
  });
  const bookings: { bookingId: string; paymentId: string; key: string }[] = [];
  let staff: string;
  let slotId = '';

  beforeAll(async () => {
    const fx = s.fx;
    slotId = fx.slotIds[20] ?? '';
    for (const phone of ['+237677000101', '+237677000102']) {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/v1/payment/initiate',
        payload: initiateBody(fx, { phone_number: phone, slotIndex: bookings.length }),
      });
      const { payment } = res.json();
      bookings.push({
        bookingId: payment.booking_id,
        paymentId: payment.payment_id,
        key: payment.access_key,
      });
    }
    await createUser(s.database.db, {
      email: 'staff@keys.cm',
      role: 'staff',
      organizationId: fx.orgId,
    });
    staff = await signIn(s.app, 'staff@keys.cm');
  }, 60_000);

  it('lists every public route under /bookings and every customer cancel as key-protected', () => {
    const keyed = routes
      .map(key)
      .filter((r) => PUBLIC.has(r) && (/ \/api\/v1\/bookings\//.test(r) || r.endsWith('/cancel')));
    expect(keyed.sort()).toEqual(Object.keys(KEY_PROTECTED).sort());
  });

  it('reads and changes nothing without the booking’s own key', async () => {
    const [mine, other] = bookings;
    if (!mine || !other) throw new Error('fixture bookings');
    const snapshot = async () =>
      JSON.stringify(
        await Promise.all([
          s.database.db.selectFrom('bookings').selectAll().orderBy('id').execute(),
          s.database.db.selectFrom('payments').selectAll().orderBy('id').execute(),
        ]),
      );
    const before = await snapshot();
    const wrongKeys: [string, Record<string, string>][] = [
      ['no key', {}],
      ['an empty key', { 'x-booking-key': '' }],
      ['another booking’s key', { 'x-booking-key': other.key }],
      ['a key in another case', { 'x-booking-key': mine.key.toUpperCase() }],
      ['a staff session instead of a key', bearer(staff)],
    ];
    const failures: string[] = [];
    for (const [route, build] of Object.entries(KEY_PROTECTED)) {
      for (const [name, headers] of wrongKeys) {
        const req = build({ ...mine, slotId, date: '2026-03-06' });
        const res = await s.app.inject({ ...req, headers });
        if (res.statusCode !== 403 || res.json().code !== 'BOOKING_ACCESS_DENIED') {
          failures.push(`${route} with ${name} → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
        if (res.body.includes('Ngono') || res.body.includes('677000101')) {
          failures.push(`${route} with ${name} leaks the customer`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
    // The right key opens it (the refusals above were about the key, nothing else).
    const own = await s.app.inject({
      method: 'GET',
      url: `/api/v1/bookings/${mine.bookingId}`,
      headers: { 'x-booking-key': mine.key },
    });
    expect(own.statusCode).toBe(200);
  });
});

describe('a visitor’s own turn, opened by its key', () => {
  const s = useStack({ env: { ...NO_LIMITS } });
  const joined: { visitId: string; key: string }[] = [];
  let staff: string;
  let boardToken: string;
  let booked: { bookingId: string; key: string };

  beforeAll(async () => {
    const db = s.database.db;
    await db
      .updateTable('organizations')
      .set({ queue_join_enabled: true })
      .where('id', '=', s.fx.orgId)
      .execute();
    for (const [i, name] of ['Walk-in One', 'Walk-in Two'].entries()) {
      const res = await s.app.inject({
        method: 'POST',
        url: `/api/v1/join/${s.fx.orgId}`,
        payload: { service_id: s.fx.serviceId, name },
        remoteAddress: `10.1.1.${i + 1}`,
      });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json<{ turn: { visit_id: string }; key: string }>();
      joined.push({ visitId: body.turn.visit_id, key: body.key });
    }
    const paid = await s.app.inject({
      method: 'POST',
      url: '/api/v1/payment/initiate',
      payload: initiateBody(s.fx, { phone_number: '+237677000301' }),
    });
    const { payment } = paid.json<{ payment: { booking_id: string; access_key: string } }>();
    booked = { bookingId: payment.booking_id, key: payment.access_key };
    await createUser(db, {
      email: 'admin@turns.cm',
      role: 'org_admin',
      organizationId: s.fx.orgId,
    });
    staff = await signIn(s.app, 'admin@turns.cm');
    const board = await s.app.inject({
      method: 'POST',
      url: '/api/v1/queue/boards',
      headers: bearer(staff),
      payload: { name: 'Hall' },
    });
    boardToken = board.json<{ token: string }>().token;
  }, 60_000);

  it('reads nothing without the visit’s own key, and nothing else with it', async () => {
    const [mine, other] = joined;
    if (!mine || !other) throw new Error('fixture visits');
    const wrong: [string, string, Record<string, string>][] = [
      ['no key', '', {}],
      ['an empty key', '?key=', {}],
      ['another visit’s key', `?key=${other.key}`, {}],
      ['a key in another case', `?key=${mine.key.toUpperCase()}`, {}],
      ['a booking’s key (not this visit’s booking)', `?key=${booked.key}`, {}],
      ['the board token', `?key=${boardToken}`, {}],
      ['an admin session instead of a key', '', bearer(staff)],
      ['the key as a header', '', { 'x-booking-key': mine.key }],
    ];
    const failures: string[] = [];
    for (const [name, query, headers] of wrong) {
      const res = await s.app.inject({
        method: 'GET',
        url: `/api/v1/visits/${mine.visitId}${query}`,
        headers,
      });
      if (![400, 403].includes(res.statusCode) || res.body.includes('Walk-in One')) {
        failures.push(`${name} → ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    // A key that opens one visit says nothing of an unknown one (the same refusal).
    const unknown = await s.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${ANY_ID}?key=${mine.key}`,
    });
    expect(unknown.statusCode).toBe(403);
    expect(failures).toEqual([]);
    const own = await s.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${mine.visitId}?key=${mine.key}`,
    });
    expect(own.statusCode, own.body).toBe(200);
    // The turn is a public answer: a number, never the visitor's name.
    expect(own.body).not.toContain('Walk-in One');
  });

  it('leaves nothing and links nothing without the visit’s own key', async () => {
    const [mine, other] = joined;
    if (!mine || !other) throw new Error('fixture visits');
    const wrong: [string, string | undefined, Record<string, string>][] = [
      ['no key', undefined, {}],
      ['an empty key', '', {}],
      ['another visit’s key', other.key, {}],
      ['a booking’s key (not this visit’s booking)', booked.key, {}],
      ['the board token', boardToken, {}],
      ['an admin session instead of a key', undefined, bearer(staff)],
    ];
    const failures: string[] = [];
    for (const [name, key, headers] of wrong) {
      const leave = await s.app.inject({
        method: 'POST',
        url: `/api/v1/visits/${mine.visitId}/leave`,
        headers,
        payload: key === undefined ? {} : { key },
      });
      if (![400, 403].includes(leave.statusCode)) {
        failures.push(`leave, ${name} → ${leave.statusCode} ${leave.body.slice(0, 120)}`);
      }
      const link = await s.app.inject({
        method: 'GET',
        url: `/api/v1/visits/${mine.visitId}/feedbackLink${key === undefined ? '' : `?key=${key}`}`,
        headers,
      });
      if (![400, 403].includes(link.statusCode)) {
        failures.push(`feedback link, ${name} → ${link.statusCode} ${link.body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    const row = await s.app.inject({
      method: 'GET',
      url: `/api/v1/visits/${mine.visitId}?key=${mine.key}`,
    });
    expect(row.json().turn.state).toBe('waiting');
  });

  it('shows a board to its token only, and never a name', async () => {
    const bad = await s.app.inject({ method: 'GET', url: `/api/v1/board/${'x'.repeat(43)}` });
    expect(bad.statusCode).toBe(404);
    const good = await s.app.inject({ method: 'GET', url: `/api/v1/board/${boardToken}` });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.body).not.toMatch(/Walk-in|\+237/);
    const badCode = await s.app.inject({
      method: 'GET',
      url: `/api/v1/board/${'x'.repeat(43)}/join-code`,
    });
    expect(badCode.statusCode).toBe(404);
    const code = await s.app.inject({
      method: 'GET',
      url: `/api/v1/board/${boardToken}/join-code`,
    });
    expect(code.statusCode, code.body).toBe(200);
  });
});
