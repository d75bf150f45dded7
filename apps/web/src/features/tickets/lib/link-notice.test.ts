import { describe, expect, it } from 'vitest';
import { linkNoticeKey } from './link-notice';

describe('linkNoticeKey', () => {
  it('names why a short link landed on My bookings', () => {
    expect(linkNoticeKey('?link=unknown')).toBe('myBookings.link.unknown');
    expect(linkNoticeKey('?link=busy')).toBe('myBookings.link.busy');
  });
  it('says nothing for anything else', () => {
    expect(linkNoticeKey('')).toBeNull();
    expect(linkNoticeKey('?link=<script>')).toBeNull();
    expect(linkNoticeKey('?other=unknown')).toBeNull();
  });
});
