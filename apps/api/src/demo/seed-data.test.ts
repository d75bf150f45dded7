import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { demoBookingCustomers, seedOrganizations } from './seed-data';

const logosDir = fileURLToPath(new URL('../../assets/media/logos/', import.meta.url));
const allowedDurations = new Set([10, 15, 20, 30, 45, 60]);
const allowedCategories = new Set([
  'bank',
  'hospital',
  'civil-registry',
  'tax-office',
  'utility',
  'university',
  'microfinance',
  'clinic',
  'telecom',
  'passport-office',
]);
const kebab = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const hhmm = /^([01]\d|2[0-3]):[0-5]\d$/;

const toMinutes = (time: string): number => {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

describe('seedOrganizations', () => {
  it('has 15 organizations with unique kebab-case slugs and unique .cm emails', () => {
    expect(seedOrganizations).toHaveLength(15);
    // Branches are organization rows too: their slugs and sign-in addresses are unique with all.
    const branches = seedOrganizations.flatMap((o) => o.branches ?? []);
    expect(branches.length).toBeGreaterThanOrEqual(2);
    const slugs = [...seedOrganizations, ...branches].map((o) => o.slug);
    const emails = [...seedOrganizations, ...branches].map((o) => o.email.toLowerCase());
    expect(new Set(slugs).size).toBe(slugs.length);
    expect(new Set(emails).size).toBe(emails.length);
    for (const org of seedOrganizations) {
      expect(org.slug).toMatch(kebab);
      expect(org.email).toMatch(/^[a-z0-9.]+@[a-z0-9-]+\.cm$/);
      expect(allowedCategories.has(org.category)).toBe(true);
    }
  });

  it('covers the required category mix', () => {
    const count = (category: string) =>
      seedOrganizations.filter((o) => o.category === category).length;
    expect(count('bank')).toBeGreaterThanOrEqual(2);
    expect(count('hospital')).toBe(2);
    for (const category of [
      'civil-registry',
      'tax-office',
      'utility',
      'university',
      'microfinance',
      'passport-office',
    ]) {
      expect(count(category)).toBeGreaterThanOrEqual(1);
    }
  });

  it('has at least 2 organizations in each city', () => {
    for (const city of ['Douala', 'Yaoundé', 'Bamenda', 'Bafoussam'] as const) {
      expect(seedOrganizations.filter((o) => o.city === city).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('has valid working hours with start before end', () => {
    for (const org of seedOrganizations) {
      expect(org.startTime).toMatch(hhmm);
      expect(org.endTime).toMatch(hhmm);
      expect(toMinutes(org.startTime)).toBeLessThan(toMinutes(org.endTime));
    }
  });

  it('includes at least one organization whose day does not divide evenly into slots', () => {
    const uneven = seedOrganizations.some((org) => {
      const span = toMinutes(org.endTime) - toMinutes(org.startTime);
      return org.services.some((s) => span % s.durationMinutes !== 0);
    });
    expect(uneven).toBe(true);
  });

  it('has 3–6 well-formed services per organization', () => {
    for (const org of seedOrganizations) {
      expect(org.services.length).toBeGreaterThanOrEqual(3);
      expect(org.services.length).toBeLessThanOrEqual(6);
      const serviceSlugs = org.services.map((s) => s.slug);
      expect(new Set(serviceSlugs).size).toBe(serviceSlugs.length);
      for (const service of org.services) {
        expect(service.slug).toMatch(kebab);
        expect(allowedDurations.has(service.durationMinutes)).toBe(true);
        expect(service.capacity).toBeGreaterThanOrEqual(1);
        expect(service.capacity).toBeLessThanOrEqual(3);
        for (const text of [service.description, service.descriptionFr]) {
          const words = text.trim().split(/\s+/).length;
          expect(words, `${org.slug}/${service.slug}`).toBeGreaterThanOrEqual(12);
          expect(words, `${org.slug}/${service.slug}`).toBeLessThanOrEqual(30);
        }
      }
    }
  });

  it('names and describes every service in French too, with French typography', () => {
    for (const org of seedOrganizations) {
      for (const service of org.services) {
        const where = `${org.slug}/${service.slug}`;
        expect(service.nameFr.trim(), where).not.toBe('');
        expect(service.nameFr.length, where).toBeLessThanOrEqual(200);
        // Translated, not copied (a few names are the same word in both languages).
        expect(service.descriptionFr, where).not.toBe(service.description);
        for (const text of [service.nameFr, service.descriptionFr]) {
          // A no-break space before ; : ! ? and after «, never an ordinary one or none.
          expect(text, where).not.toMatch(/(?:^|[^\u00a0\u202f])[;:!?»]/);
          expect(text, where).not.toMatch(/«(?![\u00a0\u202f])/);
          // French writes the franc CFA, never the ISO code.
          expect(text, where).not.toMatch(/XAF/);
        }
      }
    }
  });

  it('has a small, self-contained SVG logo for each organization', () => {
    for (const org of seedOrganizations) {
      const path = `${logosDir}${org.logo}`;
      expect(statSync(path).size, org.logo).toBeLessThan(1536);
      const svg = readFileSync(path, 'utf8');
      expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 128 128"[^>]*role="img"/);
      expect(svg).toContain('<title');
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
      expect(svg).not.toMatch(/<script|href=|url\(/i);
    }
  });
});

describe('demoBookingCustomers', () => {
  it('has 12 customers with unique example.com emails and Cameroonian mobile numbers', () => {
    expect(demoBookingCustomers).toHaveLength(12);
    const emails = demoBookingCustomers.map((c) => c.email);
    const phones = demoBookingCustomers.map((c) => c.phone);
    expect(new Set(emails).size).toBe(emails.length);
    expect(new Set(phones).size).toBe(phones.length);
    for (const customer of demoBookingCustomers) {
      expect(customer.email).toMatch(/^[a-z.]+@example\.com$/);
      expect(customer.phone).toMatch(/^\+2376[5789]\d{7}$/);
      expect(customer.phone).not.toMatch(/(000|999)$/);
    }
  });
});
