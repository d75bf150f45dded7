import { isIPv4, isIPv6 } from 'node:net';

/** Expands an IPv6 address to its eight 16-bit groups (an embedded IPv4 tail included). */
function groupsOf(address: string): number[] | null {
  let text = address.split('%')[0] ?? '';
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (v4) {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    text = `${text.slice(0, -v4.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...new Array<number>(missing).fill(0), ...right];
}

/**
 * What per-address limits count: an IPv4 address as is (an IPv4-mapped IPv6 one as its IPv4
 * form), an IPv6 address by its /64, which is what one subscriber is given: otherwise a
 * client walks through every limit by changing the last 64 bits, which it chooses itself.
 * The same grouping as @fastify/rate-limit's default (ipv6Subnet 64).
 */
export function clientAddressKey(ip: string): string {
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  const groups = groupsOf(ip);
  if (!groups) return ip;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
