import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastCounter, FastHistogram } from './fast-series.js';

describe('fast series', () => {
  it('render as prom-client would: cumulative buckets, le inclusive, +Inf, sum and count', async () => {
    const registry = new Registry();
    const h = new FastHistogram(registry, 'x_seconds', 'help', ['route'], [0.1, 1]);
    const c = new FastCounter(registry, 'x_total', 'help', ['route']);
    const cell = h.cell('/a', () => ({ route: '/a' }));
    for (const v of [0.05, 0.1, 0.5, 3]) h.observe(cell, v);
    c.cell('/a', () => ({ route: '/a' })).value += 2;
    // The same key gives the same cell (its labels are made once).
    c.cell('/a', () => ({ route: 'never' })).value += 1;
    const text = await registry.metrics();
    expect(text).toContain('# TYPE x_seconds histogram');
    expect(text).toContain('x_seconds_bucket{route="/a",le="0.1"} 2');
    expect(text).toContain('x_seconds_bucket{route="/a",le="1"} 3');
    expect(text).toContain('x_seconds_bucket{route="/a",le="+Inf"} 4');
    expect(text).toContain('x_seconds_sum{route="/a"} 3.65');
    expect(text).toContain('x_seconds_count{route="/a"} 4');
    expect(text).toContain('# TYPE x_total counter');
    expect(text).toContain('x_total{route="/a"} 3');
    expect(text).not.toContain('never');
  });
});
