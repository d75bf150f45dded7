import { describe, expect, it } from 'vitest';
import { collapseSlashes, paths } from './paths';

describe('collapseSlashes', () => {
  it("turns the spec's /organization//x links into /organization/x", () => {
    expect(collapseSlashes('/organization//service')).toBe('/organization/service');
    expect(collapseSlashes('/organization//')).toBe('/organization/');
    expect(collapseSlashes('///organization///bookings//attention')).toBe(
      '/organization/bookings/attention',
    );
  });
  it('leaves a clean path alone', () => {
    expect(collapseSlashes('/organization/service')).toBeNull();
    expect(collapseSlashes(paths.admin.build())).toBeNull();
  });
});

describe('organization area paths', () => {
  it('builds the bookings path with and without the attention filter', () => {
    expect(paths.adminBookings.build()).toBe('/organization/bookings');
    expect(paths.adminBookings.build('attention')).toBe('/organization/bookings/attention');
  });
});

describe('organization list path', () => {
  it('keeps the search text and the page in the address, leaving out defaults', () => {
    expect(paths.organizations.build()).toBe('/organizations');
    expect(paths.organizations.build({ q: '', page: 1 })).toBe('/organizations');
    expect(paths.organizations.build({ q: 'état civil', page: 2 })).toBe(
      '/organizations?q=%C3%A9tat+civil&page=2',
    );
    expect(paths.organizations.build({ page: 3 })).toBe('/organizations?page=3');
  });
});
