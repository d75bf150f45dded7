/** Every in-app path is built here (path routes; the query is the page's own). */
export const paths = {
  home: { pattern: '/', build: () => '/' },
  slider: { pattern: '/slider', build: () => '/slider' },
  organizations: {
    pattern: '/organizations',
    /** The list, with its search text and page when not the first. */
    build: (query?: { q?: string; page?: number }) => {
      const params = new URLSearchParams();
      if (query?.q) params.set('q', query.q);
      if (query?.page && query.page > 1) params.set('page', String(query.page));
      const search = params.toString();
      return search ? `/organizations?${search}` : '/organizations';
    },
  },
  services: {
    pattern: '/:orgId/services',
    build: (orgId: string) => `/${encodeURIComponent(orgId)}/services`,
  },
  /** An organization's branches, to pick one; `city` filters them by city. */
  branches: {
    pattern: '/:orgId/branches',
    build: (orgId: string, city?: string) =>
      `/${encodeURIComponent(orgId)}/branches${city ? `?${new URLSearchParams({ city })}` : ''}`,
  },
  slots: {
    pattern: '/service/:serviceId/slots',
    build: (serviceId: string) => `/service/${encodeURIComponent(serviceId)}/slots`,
  },
  contact: { pattern: '/contact', build: () => '/contact' },
  /** The privacy policy (decision 031). */
  privacy: { pattern: '/privacy', build: () => '/privacy' },
  /** A ticket's page: `k` an access key from a message, `t` the QR's signed token. */
  ticket: {
    pattern: '/ticket/:code',
    build: (code: string, params?: { k?: string; t?: string }) => {
      const query = new URLSearchParams(params as Record<string, string> | undefined).toString();
      return `/ticket/${encodeURIComponent(code)}${query ? `?${query}` : ''}`;
    },
  },
  /** The bookings made on this device. */
  myBookings: { pattern: '/my-bookings', build: () => '/my-bookings' },
  createService: { pattern: '/create-service', build: () => '/create-service' },
  login: { pattern: '/login', build: () => '/login' },
  admin: { pattern: '/organization/*?', build: () => '/organization/' },
  // The organization area's screens (the spec also links them as /organization//x).
  adminDashboard: { pattern: '/organization', build: () => '/organization' },
  adminServices: { pattern: '/organization/service', build: () => '/organization/service' },
  adminBookings: {
    pattern: '/organization/bookings/:filter?',
    /** `attention`: only the bookings flagged for the admin. */
    build: (filter?: 'attention') =>
      filter ? `/organization/bookings/${filter}` : '/organization/bookings',
  },
  adminToday: { pattern: '/organization/today', build: () => '/organization/today' },
  adminStaff: { pattern: '/organization/staff', build: () => '/organization/staff' },
  /** The organization's branches: list, add, name, copy a service across. */
  adminBranches: { pattern: '/organization/branches', build: () => '/organization/branches' },
  // The same-day queue: the counter screen (staff, admins) and its setup (admins).
  adminQueue: { pattern: '/organization/queue', build: () => '/organization/queue' },
  adminQueueSetup: {
    pattern: '/organization/queue/setup',
    build: () => '/organization/queue/setup',
  },
  /** Insight: the organization's figures, charts and CSV exports (admins). */
  adminInsight: { pattern: '/organization/insight', build: () => '/organization/insight' },
  /** The audit log of the organization's branches (decision 032, admins, managers). */
  adminAudit: { pattern: '/organization/audit', build: () => '/organization/audit' },
  adminProfile: { pattern: '/organization/profile', build: () => '/organization/profile' },
  /** The operator console (operators only). */
  platform: { pattern: '/platform', build: () => '/platform' },
  // Pages of the links mailed for an invitation and a forgotten password.
  invite: {
    pattern: '/invite/:token',
    build: (token: string) => `/invite/${encodeURIComponent(token)}`,
  },
  forgotPassword: { pattern: '/forgot-password', build: () => '/forgot-password' },
  resetPassword: {
    pattern: '/reset-password/:token',
    build: (token: string) => `/reset-password/${encodeURIComponent(token)}`,
  },
  // The same-day queue's public pages.
  /** The hall's screen; the token is the board link's (read-only). */
  board: {
    pattern: '/board/:token',
    build: (token: string) => `/board/${encodeURIComponent(token)}`,
  },
  /** The kiosk at the door (decision 135); the token is the kiosk link's (adds visitors only). */
  kiosk: {
    pattern: '/kiosk/:token',
    build: (token: string) => `/kiosk/${encodeURIComponent(token)}`,
  },
  /** A printed ticket's short code, typed on any phone: opens the visitor's turn. */
  follow: {
    pattern: '/f/:code',
    build: (code: string) => `/f/${encodeURIComponent(code)}`,
  },
  /** The QR poster's page: a walk-in joins the queue by themself. */
  join: {
    pattern: '/join/:organizationId',
    build: (organizationId: string) => `/join/${encodeURIComponent(organizationId)}`,
  },
  /**
   * A walk-in's own turn; `k` the visit's key, in the fragment as ticket links carry theirs
   * (never sent to a server; kept on the device, then dropped from the address). The page
   * still reads an older link's `?k=` (decision 120).
   */
  visit: {
    pattern: '/visit/:visitId',
    build: (visitId: string, params?: { k?: string }) =>
      `/visit/${encodeURIComponent(visitId)}${params?.k ? `#k=${encodeURIComponent(params.k)}` : ''}`,
  },
  /** A word after the visit: the SMS link's signed token. */
  feedback: {
    pattern: '/feedback/:token',
    build: (token: string) => `/feedback/${encodeURIComponent(token)}`,
  },
} as const;

/** `?q=…&page=…` of the list's address: Back and shared links bring the same list back. */
export function readListQuery(search: string): { q: string; page: number } {
  const params = new URLSearchParams(search);
  const page = Number(params.get('page'));
  return {
    q: params.get('q') ?? '',
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

/** Section anchors of the landing page. */
export const sections = { about: 'about', services: 'services', main: 'main' } as const;

/** The href of an in-app path: the path itself (links work before and without the JavaScript). */
export const href = (path: string) => path;

/**
 * The spec links the organization area as /organization//x: one slash is meant wherever
 * one doubles. Null when the path is already clean.
 */
export function collapseSlashes(path: string): string | null {
  return /\/{2,}/.test(path) ? path.replace(/\/{2,}/g, '/') : null;
}
