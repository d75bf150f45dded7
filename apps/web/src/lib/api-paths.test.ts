import { describe, expect, it } from 'vitest';
import { apiPaths } from './api-paths';

describe('apiPaths', () => {
  it('builds every path under /api/v1', () => {
    expect(apiPaths.login()).toBe('/api/v1/auth/login');
    expect(apiPaths.contact()).toBe('/api/v1/contact');
    expect(apiPaths.organizations()).toBe('/api/v1/organizations');
    expect(apiPaths.organization('o1')).toBe('/api/v1/organizations/o1');
    expect(apiPaths.organizationSearch({ q: 'état civil', page: 2, page_size: 12 })).toBe(
      '/api/v1/organizations?q=%C3%A9tat+civil&page=2&page_size=12',
    );
    expect(apiPaths.organizationServices('o1')).toBe('/api/v1/organizations/o1/services');
    expect(apiPaths.service('s1')).toBe('/api/v1/service/s1');
    expect(apiPaths.serviceSlots('s1')).toBe('/api/v1/service/s1/slots');
    expect(apiPaths.serviceBookings('s1', { start: '2026-03-08', end: '2026-03-14' })).toBe(
      '/api/v1/service/s1/bookings?start=2026-03-08&end=2026-03-14',
    );
    expect(apiPaths.paymentInitiate()).toBe('/api/v1/payment/initiate');
    expect(apiPaths.payment('p1')).toBe('/api/v1/payment/p1');
    expect(apiPaths.paymentCancel('p1')).toBe('/api/v1/payment/p1/cancel');
    expect(apiPaths.paymentStatusSocket('p1')).toBe('/api/v1/payment/p1/statusSocket');
    expect(apiPaths.logout()).toBe('/api/v1/auth/logout');
    expect(apiPaths.me()).toBe('/api/v1/auth/me');
    expect(apiPaths.organizationData()).toBe('/api/v1/organization/data');
    expect(apiPaths.createService('o1')).toBe('/api/v1/o1/services');
    expect(apiPaths.updateService('s1')).toBe('/api/v1/organization/services/s1');
    expect(apiPaths.updateProfile()).toBe('/api/v1/organization/update/profile');
    expect(apiPaths.closures()).toBe('/api/v1/organization/closures');
    expect(apiPaths.closure('2026-12-25')).toBe('/api/v1/organization/closures/2026-12-25');
    expect(apiPaths.uploads()).toBe('/api/v1/uploads');
  });
  it('builds the queue’s staff and admin paths', () => {
    expect(apiPaths.queueToday()).toBe('/api/v1/queue/today');
    expect(apiPaths.queueVisits()).toBe('/api/v1/queue/visits');
    expect(apiPaths.queueCounterAction('c/1', 'call-next')).toBe(
      '/api/v1/queue/counters/c%2F1/call-next',
    );
    expect(apiPaths.queueCounter('c1')).toBe('/api/v1/queue/counters/c1');
    expect(apiPaths.queueBoard('b1')).toBe('/api/v1/queue/boards/b1');
    expect(apiPaths.queueServiceLetter('s1')).toBe('/api/v1/queue/services/s1/letter');
  });
  it('puts no key in an address a proxy logs: the keys go in headers (decision 124)', () => {
    expect(apiPaths.visitTurn('v1')).toBe('/api/v1/visits/v1');
    expect(apiPaths.visitFeedbackLink('v1')).toBe('/api/v1/visits/v1/feedbackLink');
    expect(apiPaths.serviceWaitlistEntry('s1', 'e1')).toBe('/api/v1/service/s1/waitlist/e1');
  });

  it('sends only the booking filters that are set', () => {
    expect(apiPaths.organizationBookings('o1')).toBe('/api/v1/organization/o1/bookings');
    expect(
      apiPaths.organizationBookings('o1', {
        page: 2,
        from: '2026-03-01',
        to: undefined,
        status: '',
        attention: 'true',
      }),
    ).toBe('/api/v1/organization/o1/bookings?page=2&from=2026-03-01&attention=true');
  });
  it('encodes ids so that they stay one path segment', () => {
    expect(apiPaths.organization('a/b?c')).toBe('/api/v1/organizations/a%2Fb%3Fc');
    expect(apiPaths.serviceSlots('../x')).toBe('/api/v1/service/..%2Fx/slots');
    expect(apiPaths.paymentStatusSocket('p 1')).toBe('/api/v1/payment/p%201/statusSocket');
  });
});

describe('apiPaths of accounts and the operator console', () => {
  it('builds them with ids and queries encoded', () => {
    expect(apiPaths.invitation('a_b-c')).toBe('/api/v1/auth/invitations/a_b-c');
    expect(apiPaths.staff()).toBe('/api/v1/organization/staff');
    expect(apiPaths.staff('o 1')).toBe('/api/v1/organization/staff?organization_id=o+1');
    expect(apiPaths.staffResend('u/1')).toBe('/api/v1/organization/staff/u%2F1/resend');
    expect(apiPaths.platformContactRequests({ status: 'new', page: 2, page_size: 10 })).toBe(
      '/api/v1/platform/contact-requests?status=new&page=2&page_size=10',
    );
    expect(apiPaths.platformContactRequests({ page: 1, page_size: 10 })).toBe(
      '/api/v1/platform/contact-requests?page=1&page_size=10',
    );
    expect(apiPaths.platformVerify('o1', false)).toBe('/api/v1/platform/organizations/o1/unverify');
    expect(apiPaths.platformOutbox(1, 20)).toBe('/api/v1/platform/outbox?page=1&page_size=20');
  });
});
