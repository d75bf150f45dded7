import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { AUDIT_ACTIONS, actionText, areaActions, outcomeKind } from './audit-actions';

describe('audit action texts', () => {
  it('names every known action in English and French', () => {
    for (const [key, message] of Object.entries(AUDIT_ACTIONS)) {
      expect(en[message], key).toBeTruthy();
      expect(fr[message], key).toBeTruthy();
    }
  });

  it('shows an unknown action key as it is', () => {
    const t = (k: keyof typeof en) => en[k];
    expect(actionText('PATCH /organization/services/:service_id', t)).toBe('Changed a service');
    expect(actionText('POST /something/new', t)).toBe('POST /something/new');
  });

  it("offers the area no operator's action", () => {
    expect(areaActions()).toContain('POST /auth/login');
    expect(areaActions().some((k) => k.includes('/platform/'))).toBe(false);
  });

  it('tells done, refused and failed apart', () => {
    expect([200, 201, 403, 429, 503].map(outcomeKind)).toEqual([
      'done',
      'done',
      'refused',
      'refused',
      'failed',
    ]);
  });
});
