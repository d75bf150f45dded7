/**
 * Every path of the API the web app calls, and nothing else builds one (design: paths come
 * from one object, never string concatenation). Ids are percent-encoded here.
 */
const API = '/api/v1';
const id = (value: string) => encodeURIComponent(value);

function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

export const apiPaths = {
  login: () => `${API}/auth/login`,
  logout: () => `${API}/auth/logout`,
  me: () => `${API}/auth/me`,
  contact: () => `${API}/contact`,
  /** The retention periods the privacy page states (decision 031). */
  privacy: () => `${API}/privacy`,
  /** An operator's export (the subject in the body: in no URL a proxy logs) and erasure. */
  platformPersonalDataExport: () => `${API}/platform/personal-data/export`,
  platformPersonalDataErase: () => `${API}/platform/personal-data/erase`,
  organizations: () => `${API}/organizations`,
  /** A page of the organizations matching `q` (the query is always sent, even blank). */
  organizationSearch: (query: { q: string; page: number; page_size: number }) =>
    `${API}/organizations?${new URLSearchParams({
      q: query.q,
      page: String(query.page),
      page_size: String(query.page_size),
    })}`,
  organization: (orgId: string) => `${API}/organizations/${id(orgId)}`,
  organizationServices: (orgId: string) => `${API}/organizations/${id(orgId)}/services`,
  /** The organization's listed branches (any branch's id names it). */
  organizationBranches: (orgId: string) => `${API}/organizations/${id(orgId)}/branches`,
  service: (serviceId: string) => `${API}/service/${id(serviceId)}`,
  serviceSlots: (serviceId: string) => `${API}/service/${id(serviceId)}/slots`,
  /** A full day's waitlist of the service (decision 023). */
  serviceWaitlist: (serviceId: string) => `${API}/service/${id(serviceId)}/waitlist`,
  /** Leaves the list with the key answered at join (in X-Waitlist-Key, never in the address). */
  serviceWaitlistEntry: (serviceId: string, entryId: string) =>
    `${API}/service/${id(serviceId)}/waitlist/${id(entryId)}`,
  /** Bookings that fill a slot between two dates (yyyy-MM-dd, inclusive). */
  serviceBookings: (serviceId: string, range: { start: string; end: string }) =>
    `${API}/service/${id(serviceId)}/bookings?${new URLSearchParams(range)}`,
  paymentInitiate: () => `${API}/payment/initiate`,
  payment: (paymentId: string) => `${API}/payment/${id(paymentId)}`,
  /** Releases a PENDING payment and its hold (the booking's access key in X-Booking-Key). */
  paymentCancel: (paymentId: string) => `${API}/payment/${id(paymentId)}/cancel`,
  /** Check-in at the desk (a staff or admin session). */
  organizationToday: () => `${API}/organization/today`,
  checkins: () => `${API}/organization/checkins`,
  checkinsSync: () => `${API}/organization/checkins/sync`,
  bookingNoShow: (bookingId: string) => `${API}/organization/bookings/${id(bookingId)}/no-show`,
  bookingCancel: (bookingId: string) => `${API}/organization/bookings/${id(bookingId)}/cancel`,
  /** A WebSocket path: the caller adds ws(s):// and the host. */
  paymentStatusSocket: (paymentId: string) => `${API}/payment/${id(paymentId)}/statusSocket`,

  // Customer self-service: the booking's access key goes in X-Booking-Key.
  ticketLookup: (code: string) => `${API}/tickets/${id(code)}`,
  ticketAccess: (code: string) => `${API}/tickets/${id(code)}/access`,
  customerBooking: (bookingId: string) => `${API}/bookings/${id(bookingId)}`,
  // Web push (decision 142): the server's key, and a phone subscribing for a booking or visit
  // (or unsubscribing).
  pushKey: `${API}/push/key`,
  pushSubscriptions: `${API}/push/subscriptions`,
  pushUnsubscribe: `${API}/push/unsubscribe`,
  customerCancel: (bookingId: string) => `${API}/bookings/${id(bookingId)}/cancel`,
  customerWhatsApp: (bookingId: string) => `${API}/bookings/${id(bookingId)}/whatsapp`,
  customerReschedule: (bookingId: string) => `${API}/bookings/${id(bookingId)}/reschedule`,

  // The same-day queue's public pages: the poster's join page, a visitor's own
  // turn (the visit's or its booking's key in X-Visit-Key; only the socket, which cannot send
  // a header, still has `?key=`), the hall's board (its token). Decision 124.
  join: (orgId: string) => `${API}/join/${id(orgId)}`,
  visitTurn: (visitId: string) => `${API}/visits/${id(visitId)}`,
  /** A WebSocket path: the caller adds ws(s):// and the host. */
  visitTurnSocket: (visitId: string, key: string) =>
    withQuery(`${API}/visits/${id(visitId)}/turnSocket`, { key }),
  /** The visitor leaves the line (the key in the body). */
  visitLeave: (visitId: string) => `${API}/visits/${id(visitId)}/leave`,
  /** A done visit's feedback link token (the visit-over page). */
  visitFeedbackLink: (visitId: string) => `${API}/visits/${id(visitId)}/feedbackLink`,
  board: (token: string) => `${API}/board/${id(token)}`,
  /** A WebSocket path: the caller adds ws(s):// and the host. */
  boardSocket: (token: string) => `${API}/board/${id(token)}/socket`,
  /** The code the board shows in the hall, asked again at each window (decision 125). */
  boardJoinCode: (token: string) => `${API}/board/${id(token)}/join-code`,
  /** A word after the visit: the SMS link's token is the credential. */
  feedback: (token: string) => `${API}/feedback/${id(token)}`,

  // The organization area (the caller's own organization; see contract organization-admin).
  organizationData: () => `${API}/organization/data`,
  /** Query values left undefined are not sent. */
  organizationBookings: (orgId: string, query: Record<string, string | number | undefined> = {}) =>
    withQuery(`${API}/organization/${id(orgId)}/bookings`, query),
  /** The spec's path for adding a service: the organization id right after /api/v1. */
  createService: (orgId: string) => `${API}/${id(orgId)}/services`,
  updateService: (serviceId: string) => `${API}/organization/services/${id(serviceId)}`,
  updateProfile: () => `${API}/organization/update/profile`,
  // Branches (decision 024).
  branches: () => `${API}/organization/branches`,
  branch: () => `${API}/organization/branch`,
  copyService: (serviceId: string) => `${API}/organization/services/${id(serviceId)}/copy`,
  // Insight: figures over a range, and the CSV files (a plain link downloads them).
  insight: (query: Record<string, string | undefined>) =>
    withQuery(`${API}/organization/insight`, query),
  insightExport: (query: Record<string, string | undefined>) =>
    withQuery(`${API}/organization/insight/export.csv`, query),
  /** A branch's monthly SMS budget (decision 143). */
  smsBudget: () => `${API}/organization/sms-budget`,
  closures: () => `${API}/organization/closures`,
  /** A closure is named by its date (yyyy-MM-dd). */
  closure: (date: string) => `${API}/organization/closures/${id(date)}`,
  uploads: () => `${API}/uploads`,

  // Accounts and onboarding: password reset and invitation links, staff, operator console.
  passwordReset: () => `${API}/auth/password-reset`,
  passwordResetConfirm: () => `${API}/auth/password-reset/confirm`,
  invitation: (token: string) => `${API}/auth/invitations/${id(token)}`,
  invitationAccept: () => `${API}/auth/invitations/accept`,
  staff: (organizationId?: string) =>
    withQuery(`${API}/organization/staff`, { organization_id: organizationId }),
  staffMember: (userId: string) => `${API}/organization/staff/${id(userId)}`,
  staffResend: (userId: string) => `${API}/organization/staff/${id(userId)}/resend`,
  platformContactRequests: (query: { status?: string; page: number; page_size: number }) =>
    withQuery(`${API}/platform/contact-requests`, query),
  platformApprove: (requestId: string) =>
    `${API}/platform/contact-requests/${id(requestId)}/approve`,
  platformReject: (requestId: string) => `${API}/platform/contact-requests/${id(requestId)}/reject`,
  platformOrganizations: () => `${API}/platform/organizations`,
  platformVerify: (orgId: string, verified: boolean) =>
    `${API}/platform/organizations/${id(orgId)}/${verified ? 'verify' : 'unverify'}`,
  platformOutbox: (page: number, pageSize: number) =>
    withQuery(`${API}/platform/outbox`, { page, page_size: pageSize }),
  platformPaymentsReview: (page: number, pageSize: number) =>
    withQuery(`${API}/platform/payments/review`, { page, page_size: pageSize }),
  /** The audit log (decision 032): every entry (operators), or the caller's branches'. */
  platformAudit: (query: Record<string, string | undefined>) =>
    withQuery(`${API}/platform/audit`, query),
  organizationAudit: (query: Record<string, string | undefined>) =>
    withQuery(`${API}/organization/audit`, query),
  // The same-day queue, staff and admin side (the public pages' paths are apart).
  queueToday: () => `${API}/queue/today`,
  queueVisits: () => `${API}/queue/visits`,
  queueCounterAction: (
    counterId: string,
    action:
      | 'open'
      | 'pause'
      | 'close'
      | 'call-next'
      | 'recall'
      | 'start'
      | 'done'
      | 'no-show'
      | 'transfer'
      | 'call-visit'
      | 'undo',
  ) => `${API}/queue/counters/${id(counterId)}/${action}`,
  queueVisitReturn: (visitId: string) => `${API}/queue/visits/${id(visitId)}/return`,
  queueClearSelfJoins: () => `${API}/queue/self-joins/clear`,
  queueSettings: () => `${API}/queue/settings`,
  /** The day's calls, chained and signed (decision 139). */
  queueCallsRecord: (query: { date: string; organization_id: string }) =>
    withQuery(`${API}/queue/calls-record`, query),
  queueCounters: () => `${API}/queue/counters`,
  queueCounter: (counterId: string) => `${API}/queue/counters/${id(counterId)}`,
  queueBoards: () => `${API}/queue/boards`,
  queueBoard: (boardId: string) => `${API}/queue/boards/${id(boardId)}`,
  queueSmsJoin: () => `${API}/queue/sms-join`,
  platformSmsInbound: () => `${API}/platform/sms/inbound`,
  queueKiosks: () => `${API}/queue/kiosks`,
  queueKiosk: (kioskId: string) => `${API}/queue/kiosks/${id(kioskId)}`,
  queueVisitSlip: (visitId: string) => `${API}/queue/visits/${id(visitId)}/slip`,
  kiosk: (token: string) => `${API}/kiosk/${encodeURIComponent(token)}`,
  kioskVisits: (token: string) => `${API}/kiosk/${encodeURIComponent(token)}/visits`,
  follow: (code: string) => `${API}/follow/${encodeURIComponent(code)}`,
  queueServiceLetter: (serviceId: string) => `${API}/queue/services/${id(serviceId)}/letter`,
} as const;
