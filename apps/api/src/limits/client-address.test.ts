import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address.js';

describe('clientAddressKey', () => {
  it('keeps IPv4 addresses, and maps IPv4-mapped IPv6 back to IPv4', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:cb00:7107')).toBe('203.0.113.7');
  });

  it('counts an IPv6 client by its /64, whatever the last 64 bits', () => {
    const key = clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:1');
    expect(key).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2::99')).toBe(key);
    expect(clientAddressKey('2001:DB8:1:2:0:0:0:5')).toBe(key);
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(key);
    expect(clientAddressKey('::1')).toBe('0:0:0:0::/64');
  });
});
