/** Every in-app path is built here (hash routes; the router adds the leading '#'). */
export const paths = {
  home: { pattern: '/', build: () => '/' },
  slider: { pattern: '/slider', build: () => '/slider' },
  organizations: { pattern: '/organizations', build: () => '/organizations' },
  services: {
    pattern: '/:orgId/services',
    build: (orgId: string) => `/${encodeURIComponent(orgId)}/services`,
  },
  slots: {
    pattern: '/service/:serviceId/slots',
    build: (serviceId: string) => `/service/${encodeURIComponent(serviceId)}/slots`,
  },
  contact: { pattern: '/contact', build: () => '/contact' },
  createService: { pattern: '/create-service', build: () => '/create-service' },
  login: { pattern: '/login', build: () => '/login' },
  admin: { pattern: '/organization/*?', build: () => '/organization/' },
  adminStaff: { pattern: '/organization/staff', build: () => '/organization/staff' },
  platform: { pattern: '/platform', build: () => '/platform' },
  invite: {
    pattern: '/invite/:token',
    build: (token: string) => `/invite/${encodeURIComponent(token)}`,
  },
  forgotPassword: { pattern: '/forgot-password', build: () => '/forgot-password' },
  resetPassword: {
    pattern: '/reset-password/:token',
    build: (token: string) => `/reset-password/${encodeURIComponent(token)}`,
  },
  adminToday: { pattern: '/organization/today', build: () => '/organization/today' },
} as const;

/** Section anchors of the landing page. */
export const sections = { about: 'about', services: 'services', main: 'main' } as const;

/** The href of an in-app path (hash routing). */
export const href = (path: string) => `#${path}`;
