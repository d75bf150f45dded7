import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../core/clock.js';
import { JoinCodes, joinCodeOf, joinCodeWindow } from './join-code.js';

const SECRET = 'a-fixed-secret-for-the-test';
const ORG = '00000000-0000-4000-8000-000000000001';
/** 2026-03-04T08:30:00Z starts a window (its epoch milliseconds are a multiple of 120 000). */
const START = Date.parse('2026-03-04T08:30:00Z');

describe('the hall join code (decision 125)', () => {
  it('is HMAC-SHA256(secret, organization + ":" + floor(t / 120 s)) mod 10 000, 4 digits', () => {
    const window = joinCodeWindow(new Date(START));
    expect(window).toBe(START / 120_000);
    const mac = createHmac('sha256', SECRET).update(`${ORG}:${window}`).digest('hex');
    const expected = String(BigInt(`0x${mac}`) % 10_000n).padStart(4, '0');
    expect(joinCodeOf(SECRET, ORG, window)).toBe(expected);
    // Deterministic: the same secret, organization and window, the same code.
    expect(joinCodeOf(Buffer.from(SECRET), ORG, window)).toBe(expected);
  });

  it('has 4 digits, changes with the window and the organization, and the secret', () => {
    const codes = Array.from({ length: 200 }, (_, i) => joinCodeOf(SECRET, ORG, 1000 + i));
    for (const code of codes) expect(code).toMatch(/^\d{4}$/);
    // 200 windows: nearly all different (a repeat is a 1 in 10 000 chance per pair).
    expect(new Set(codes).size).toBeGreaterThan(190);
    expect(codes.some((c) => c.startsWith('0'))).toBe(true);
    const others = Array.from({ length: 50 }, (_, i) => joinCodeOf(SECRET, `${ORG}x`, 1000 + i));
    expect(others.filter((c, i) => c === codes[i]).length).toBeLessThan(3);
    const rekeyed = Array.from({ length: 50 }, (_, i) => joinCodeOf('another', ORG, 1000 + i));
    expect(rekeyed.filter((c, i) => c === codes[i]).length).toBeLessThan(3);
  });

  it('windows are 2 minutes: the code holds within one and changes at its end', () => {
    expect(joinCodeWindow(new Date(START + 119_999))).toBe(joinCodeWindow(new Date(START)));
    expect(joinCodeWindow(new Date(START + 120_000))).toBe(joinCodeWindow(new Date(START)) + 1);
  });
});

describe('JoinCodes on a clock', () => {
  // The class reads its secret from the database; its private constructor is reached here
  // with a fixed one so the answers are known.
  const make = (clock: FixedClock) =>
    new (JoinCodes as unknown as new (s: Buffer, c: FixedClock) => JoinCodes)(
      Buffer.from(SECRET),
      clock,
    );

  it('shows the current code and when it changes; takes it and the previous, not older', () => {
    const clock = new FixedClock(new Date(START + 30_000));
    const codes = make(clock);
    const w = joinCodeWindow(clock.now());
    const { code, changesAt } = codes.current(ORG);
    expect(code).toBe(joinCodeOf(SECRET, ORG, w));
    expect(changesAt.toISOString()).toBe('2026-03-04T08:32:00.000Z');
    expect(codes.accepts(ORG, code)).toBe(true);

    clock.advance(120_000);
    expect(codes.accepts(ORG, code)).toBe(true);
    clock.advance(120_000);
    const now = [w + 2, w + 1].map((x) => joinCodeOf(SECRET, ORG, x));
    if (!now.includes(code)) expect(codes.accepts(ORG, code)).toBe(false);
  });

  it('refuses a missing or malformed code', () => {
    const codes = make(new FixedClock(new Date(START)));
    const code = codes.current(ORG).code;
    for (const bad of [
      undefined,
      null,
      '',
      `${code} `,
      ` ${code}`,
      `${code}0`,
      '12a4',
      '１２３４',
    ]) {
      expect(codes.accepts(ORG, bad)).toBe(false);
    }
  });
});
