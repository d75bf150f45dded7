import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../core/clock.js';
import type { Db } from '../../db/schema.js';
import { LineSettler } from './line-settler.js';
import type { TurnMessages } from './turn-messages.js';

/** A settler whose passes are counted, each ending when the test says. */
function countedSettler(gatherMs: number) {
  const passes: { organizationId: string; end: () => void }[] = [];
  const settler = new LineSettler({
    db: null as unknown as Db,
    clock: new FixedClock(new Date('2026-03-04T08:00:00Z')),
    turns: null as unknown as TurnMessages,
    gatherMs,
    settle: (organizationId) =>
      new Promise<void>((end) => {
        passes.push({ organizationId, end });
      }),
  });
  return { settler, passes };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('LineSettler (decisions 126 and 129)', () => {
  it('calls landing while a pass gathers share it; one landing while it reads gets one more', async () => {
    const { settler, passes } = countedSettler(30);
    const first = [settler.schedule('org'), settler.schedule('org'), settler.schedule('org')];
    expect(passes).toHaveLength(0); // still gathering
    await tick(60);
    expect(passes).toHaveLength(1);
    // Two calls while the first pass reads: one more pass, after it, for both.
    const later = [settler.schedule('org'), settler.schedule('org')];
    let firstDone = false;
    void Promise.all(first).then(() => {
      firstDone = true;
    });
    passes[0]?.end();
    await tick(10);
    expect(firstDone).toBe(true);
    expect(passes).toHaveLength(1); // the next one gathers first
    await tick(60);
    expect(passes).toHaveLength(2);
    passes[1]?.end();
    await Promise.all(later);
    expect(passes).toHaveLength(2);
  });

  it('organizations have passes of their own, and drain waits for every one', async () => {
    const { settler, passes } = countedSettler(5);
    void settler.schedule('a');
    void settler.schedule('b');
    await tick(30);
    expect(passes.map((p) => p.organizationId).sort()).toEqual(['a', 'b']);
    let drained = false;
    const drain = settler.drain().then(() => {
      drained = true;
    });
    passes[0]?.end();
    await tick(10);
    expect(drained).toBe(false);
    passes[1]?.end();
    await drain;
    expect(drained).toBe(true);
  });
});
