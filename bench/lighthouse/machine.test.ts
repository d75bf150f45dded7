import { describe, expect, it } from 'vitest';
import { FAULT_LIMIT_MICROS, faultMicros, gatedMetrics } from './machine';

const ALL = new Set(['performance', 'lcp', 'cls']);

describe('the Lighthouse gate on a machine whose memory faults cost the host (decision 130)', () => {
  it('gates every asked metric on an ordinary machine', () => {
    const { metrics, dropped } = gatedMetrics(ALL, 0.3);
    expect([...metrics].sort()).toEqual(['cls', 'lcp', 'performance']);
    expect(dropped).toBeNull();
  });

  it('measures but does not gate the performance score above the limit; LCP and CLS stay', () => {
    const { metrics, dropped } = gatedMetrics(ALL, 12.1);
    expect([...metrics].sort()).toEqual(['cls', 'lcp']);
    expect(dropped).toContain('12.1 µs');
    // The caller's set is not changed.
    expect(ALL.has('performance')).toBe(true);
  });

  it('keeps the score gated when asked to be strict, or when it was not asked for', () => {
    expect(gatedMetrics(ALL, 12.1, true).metrics.has('performance')).toBe(true);
    const lcpOnly = gatedMetrics(new Set(['lcp']), 12.1);
    expect([...lcpOnly.metrics]).toEqual(['lcp']);
    expect(lcpOnly.dropped).toBeNull();
    expect(gatedMetrics(ALL, FAULT_LIMIT_MICROS).dropped).toBeNull();
  });

  it('measures a fault as a positive, finite cost', () => {
    const micros = faultMicros();
    expect(Number.isFinite(micros)).toBe(true);
    expect(micros).toBeGreaterThanOrEqual(0);
  });
});
