/**
 * Every path of the API the web app calls, and nothing else builds one (design: paths come
 * from one object, never string concatenation). Ids are percent-encoded here.
 */
const API = '/api/v1';
const id = (value: string) => encodeURIComponent(value);

export const apiPaths = {
  login: () => `${API}/auth/login`,
  contact: () => `${API}/contact`,
  organizations: () => `${API}/organizations`,
  organization: (orgId: string) => `${API}/organizations/${id(orgId)}`,
  organizationServices: (orgId: string) => `${API}/organizations/${id(orgId)}/services`,
  service: (serviceId: string) => `${API}/service/${id(serviceId)}`,
  serviceSlots: (serviceId: string) => `${API}/service/${id(serviceId)}/slots`,
  /** Bookings that fill a slot between two dates (yyyy-MM-dd, inclusive). */
  serviceBookings: (serviceId: string, range: { start: string; end: string }) =>
    `${API}/service/${id(serviceId)}/bookings?${new URLSearchParams(range)}`,
  paymentInitiate: () => `${API}/payment/initiate`,
  payment: (paymentId: string) => `${API}/payment/${id(paymentId)}`,
  /** Check-in at the counter (a staff or admin session). */
  organizationToday: () => `${API}/organization/today`,
  checkins: () => `${API}/organization/checkins`,
  checkinsSync: () => `${API}/organization/checkins/sync`,
  bookingNoShow: (bookingId: string) => `${API}/organization/bookings/${id(bookingId)}/no-show`,
  bookingCancel: (bookingId: string) => `${API}/organization/bookings/${id(bookingId)}/cancel`,
  /** A WebSocket path: the caller adds ws(s):// and the host. */
  paymentStatusSocket: (paymentId: string) => `${API}/payment/${id(paymentId)}/statusSocket`,
  // Accounts and onboarding (issue 8).
  me: () => `${API}/auth/me`,
  passwordReset: () => `${API}/auth/password-reset`,
  passwordResetConfirm: () => `${API}/auth/password-reset/confirm`,
  invitation: (token: string) => `${API}/auth/invitations/${id(token)}`,
  invitationAccept: () => `${API}/auth/invitations/accept`,
  staff: (organizationId?: string) =>
    `${API}/organization/staff${organizationId ? `?${new URLSearchParams({ organization_id: organizationId })}` : ''}`,
  staffMember: (userId: string) => `${API}/organization/staff/${id(userId)}`,
  staffResend: (userId: string) => `${API}/organization/staff/${id(userId)}/resend`,
  platformContactRequests: (query: { status?: string; page: number; page_size: number }) =>
    `${API}/platform/contact-requests?${new URLSearchParams(
      Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    )}`,
  platformApprove: (requestId: string) =>
    `${API}/platform/contact-requests/${id(requestId)}/approve`,
  platformReject: (requestId: string) => `${API}/platform/contact-requests/${id(requestId)}/reject`,
  platformOrganizations: () => `${API}/platform/organizations`,
  platformVerify: (orgId: string, verified: boolean) =>
    `${API}/platform/organizations/${id(orgId)}/${verified ? 'verify' : 'unverify'}`,
  platformOutbox: (page: number, pageSize: number) =>
    `${API}/platform/outbox?${new URLSearchParams({ page: String(page), page_size: String(pageSize) })}`,
  platformPaymentsReview: (page: number, pageSize: number) =>
    `${API}/platform/payments/review?${new URLSearchParams({ page: String(page), page_size: String(pageSize) })}`,
} as const;
