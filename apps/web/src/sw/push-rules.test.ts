import { describe, expect, it } from 'vitest';
import { readPush } from './push-rules';

const ORIGIN = 'https://rdv.banque-littoral.cm';
const push = {
  title: 'A-012 · Banque du Littoral (Akwa)',
  body: 'A-012: it is your turn! Go to Guichet 3.',
  url: `${ORIGIN}/t/ABCDEFGHJKMN`,
  tag: 'visit:1',
  receipt: 'r.x',
};

describe('a push in the service worker', () => {
  it('is shown with its text, and opens its page', () => {
    expect(readPush(push, ORIGIN)).toEqual(push);
  });

  it('opens only a page of this site', () => {
    expect(readPush({ ...push, url: 'https://evil.example/t/X' }, ORIGIN)).toBeNull();
    expect(readPush({ ...push, url: 'javascript:alert(1)' }, ORIGIN)).toBeNull();
    expect(readPush({ ...push, url: '/visit/1#k=2' }, ORIGIN)?.url).toBe(`${ORIGIN}/visit/1#k=2`);
  });

  it('is not shown when it lacks a field or is not ours', () => {
    expect(readPush({ ...push, receipt: '' }, ORIGIN)).toBeNull();
    expect(readPush({ ...push, title: 3 }, ORIGIN)).toBeNull();
    expect(readPush('hello', ORIGIN)).toBeNull();
    expect(readPush(null, ORIGIN)).toBeNull();
  });
});
