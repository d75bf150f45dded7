import { describe, expect, it } from 'vitest';
import { formatInstant, linkify } from './format';

describe('linkify', () => {
  it('turns the links of a mail into parts, keeping the text around them', () => {
    expect(linkify('Open:\nhttp://q.cm/#/invite/abc_-1\n\nBye')).toEqual([
      { kind: 'text', text: 'Open:\n' },
      { kind: 'link', href: 'http://q.cm/#/invite/abc_-1' },
      { kind: 'text', text: '\n\nBye' },
    ]);
    expect(linkify('no links')).toEqual([{ kind: 'text', text: 'no links' }]);
    expect(linkify('')).toEqual([]);
  });
  it('leaves other schemes as text', () => {
    expect(linkify('javascript:alert(1)')).toEqual([{ kind: 'text', text: 'javascript:alert(1)' }]);
  });
});

describe('formatInstant', () => {
  it('shows Cameroon time (UTC+1)', () => {
    expect(formatInstant('2026-03-04T08:30:00Z', 'en-GB')).toContain('09:30');
  });
});
