import type { BoardCall, BoardSnapshot } from '@qless/contract';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBoardServer, fakeBoardServer } from './support/board-server';
import { launch, shotsDir, snap } from './support/browser';
import { type Spoken, spokenOf, stubSpeech } from './support/speech-stub';

/**
 * The board's calls at 1920×1080 in French (issue 30 items 5–7, decision 119), on exact
 * messages of a board socket this test serves: two calls in one message are two chimes,
 * two banners and two announcements, one after the other; a board switched on later
 * replays nothing; the banner clears at once after a transfer and after a pause, and by
 * itself 90 s after the call; the last calls stay listed. speechSynthesis is stubbed
 * (support/speech-stub.ts). Screenshots: shotsDir('board') (support/browser.ts).
 */
const TOKEN = 'board-token-for-the-calls-test';
const SHOTS = shotsDir('board');
const T0 = Date.UTC(2026, 10, 26, 7, 30, 0);

let server: FakeBoardServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

interface Counter {
  name: string;
  number: string | null;
  state: 'called' | 'serving' | null;
  paused?: boolean;
}

/** A snapshot at `seconds` after T0 (server time), calls newest first. */
function snapshot(seconds: number, counters: Counter[], calls: BoardCall[], next: string[]) {
  const board: BoardSnapshot = {
    organization_name: 'Banque du Littoral — Agence Akwa',
    server_time: new Date(T0 + seconds * 1000).toISOString(),
    serving: counters.map((c) => ({
      counter_name: c.name,
      number: c.number,
      state: c.state,
      paused: c.paused ?? false,
    })),
    next,
    last_call: calls[0] ? { ...calls[0] } : null,
    calls: [...calls].sort((a, b) => b.seq - a.seq),
  };
  if (board.last_call) delete (board.last_call as Partial<BoardCall>).live;
  return board;
}
const call = (seq: number, number: string, counter: string, seconds: number, live = true) => ({
  seq,
  number,
  counter_name: counter,
  at: new Date(T0 + seconds * 1000).toISOString(),
  live,
});
const NEXT = ['C-006', 'V-003', 'C-007', 'C-008', 'V-004', 'C-009', 'C-010', 'V-005', 'C-011'];

/** The morning before this test's calls: three old calls, over. */
const OLD = [
  call(3, 'C-001', 'Guichet 1', -600, false),
  call(5, 'V-001', 'Guichet 2', -400, false),
  call(8, 'C-002', 'Guichet 3', -300, false),
];

beforeAll(async () => {
  server = await fakeBoardServer(
    TOKEN,
    snapshot(
      0,
      [
        { name: 'Guichet 1', number: 'C-001', state: 'serving' },
        { name: 'Guichet 2', number: null, state: null },
        { name: 'Guichet 3', number: 'C-002', state: 'serving' },
      ],
      OLD,
      NEXT,
    ),
  );
  browser = await launch();
  context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'fr-FR' });
  await stubSpeech(context, 200);
  // This board's recorded words do not load: it says the calls with the device's voice, the
  // fallback these tests follow word by word (the last test hears the recorded words).
  await context.route('**/voice/**', (route) => route.abort());
  page = await context.newPage();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const banner = () => page.getByTestId('board-call');
const said = async () => (await spokenOf(page)).map((s: Spoken) => s.text);

describe('the board’s calls', () => {
  it('switched on later: no banner, nothing said, the last calls listed; bilingual labels', async () => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.origin}${server.path}`);
    await page.locator('.board[data-board-state="ready"]').waitFor();
    await expect.poll(() => server.connections()).toBe(1);
    await page.getByRole('button', { name: 'Cliquez pour activer le son' }).click();
    await page.locator('.board__sound').waitFor({ state: 'detached' });
    await page.waitForTimeout(1500);
    expect(await banner().count()).toBe(0);
    expect(await said()).toEqual([]);
    expect(await page.getByTestId('board-recent').locator('li').allTextContents()).toEqual([
      'C-002→Guichet 3',
      'V-001→Guichet 2',
      'C-001→Guichet 1',
    ]);
    for (const label of ['Guichet · Counter', 'Prochains · Next', 'Derniers appels · Last calls'])
      await page.getByText(label, { exact: true }).first().waitFor();
    await page
      .getByText('Jaune : appelé, allez au guichet · Yellow: called, go to the counter')
      .waitFor();
    await snap(page, { path: `${SHOTS}/board-idle-1920x1080.png`, animations: 'disabled' });
    expect(errors).toEqual([]);
  });

  it('one call: the banner, the chime and the call said in French then English', async () => {
    server.push(
      snapshot(
        10,
        [
          { name: 'Guichet 1', number: 'C-001', state: 'serving' },
          { name: 'Guichet 2', number: 'C-003', state: 'called' },
          { name: 'Guichet 3', number: 'C-002', state: 'serving' },
        ],
        [...OLD, call(11, 'C-003', 'Guichet 2', 10)],
        NEXT.slice(1),
      ),
    );
    await expect.poll(() => banner().textContent()).toBe('Appel · CallC-003→Guichet 2');
    await expect.poll(said).toEqual(['Le numéro C 3, au guichet 2', 'Number C 3, counter 2']);
    await snap(page, {
      path: `${SHOTS}/board-one-call-1920x1080.png`,
      animations: 'disabled',
    });
    // A cheaper TV at 720p: the same board, nothing off the screen.
    await page.setViewportSize({ width: 1280, height: 720 });
    await snap(page, {
      path: `${SHOTS}/board-one-call-1280x720.png`,
      animations: 'disabled',
    });
    const overflow = await page.evaluate(
      `[...document.querySelectorAll('.board *')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.right > innerWidth + 1 || r.bottom > innerHeight + 1);
      }).length`,
    );
    expect(overflow).toBe(0);
    await page.setViewportSize({ width: 1920, height: 1080 });
  });

  it('two counters calling in the same second (one message): two announcements, one after the other', async () => {
    const before = (await spokenOf(page)).length;
    server.push(
      snapshot(
        20,
        [
          { name: 'Guichet 1', number: 'C-004', state: 'called' },
          { name: 'Guichet 2', number: 'C-003', state: 'serving' },
          { name: 'Guichet 3', number: 'V-002', state: 'called' },
        ],
        [
          ...OLD,
          call(11, 'C-003', 'Guichet 2', 10, false),
          call(12, 'C-004', 'Guichet 1', 20),
          call(13, 'V-002', 'Guichet 3', 20),
        ],
        NEXT.slice(2),
      ),
    );
    // The first call's turn: its banner while it is said; the second waits.
    await expect.poll(() => banner().getAttribute('data-call-seq')).toBe('12');
    await snap(page, {
      path: `${SHOTS}/board-two-calls-1920x1080.png`,
      animations: 'disabled',
    });
    await expect.poll(() => banner().getAttribute('data-call-seq'), { timeout: 8000 }).toBe('13');
    await expect
      .poll(async () => (await said()).slice(before), { timeout: 8000 })
      .toEqual([
        'Le numéro C 4, au guichet 1',
        'Number C 4, counter 1',
        'Le numéro V 2, au guichet 3',
        'Number V 2, counter 3',
      ]);
    const spoken = (await spokenOf(page)).slice(before);
    // One after the other: the second call's chime rings only once the first is said.
    expect((spoken[2]?.at ?? 0) - (spoken[1]?.at ?? 0)).toBeGreaterThan(1000);
    expect(await page.getByTestId('board-recent').locator('li').allTextContents()).toEqual([
      'V-002→Guichet 3',
      'C-004→Guichet 1',
      'C-003→Guichet 2',
      'C-002→Guichet 3',
      'V-001→Guichet 2',
    ]);
  });

  it('the banner clears at once after a transfer, and after the visit is served and the counter paused', async () => {
    // V-002 is transferred away from Guichet 3: the call is over.
    server.push(
      snapshot(
        30,
        [
          { name: 'Guichet 1', number: 'C-004', state: 'called' },
          { name: 'Guichet 2', number: 'C-003', state: 'serving' },
          { name: 'Guichet 3', number: null, state: null },
        ],
        [
          ...OLD,
          call(11, 'C-003', 'Guichet 2', 10, false),
          call(12, 'C-004', 'Guichet 1', 20),
          call(13, 'V-002', 'Guichet 3', 20, false),
        ],
        ['V-002', ...NEXT.slice(2)],
      ),
    );
    await banner().waitFor({ state: 'detached' });
    // C-004 starts, is served, and Guichet 1 pauses.
    server.push(
      snapshot(
        60,
        [
          { name: 'Guichet 1', number: null, state: null, paused: true },
          { name: 'Guichet 2', number: 'C-003', state: 'serving' },
          { name: 'Guichet 3', number: null, state: null },
        ],
        [
          ...OLD,
          call(11, 'C-003', 'Guichet 2', 10, false),
          call(12, 'C-004', 'Guichet 1', 20, false),
          call(13, 'V-002', 'Guichet 3', 20, false),
        ],
        ['V-002', ...NEXT.slice(2)],
      ),
    );
    await page.locator('.board__row--paused').getByText('En pause · Paused').waitFor();
    expect(await banner().count()).toBe(0);
    await snap(page, {
      path: `${SHOTS}/board-after-pause-1920x1080.png`,
      animations: 'disabled',
    });
  });

  it('a call missed while the socket was down is said once after the reconnect; the banner fades 90 s after the call', async () => {
    const before = (await spokenOf(page)).length;
    server.drop();
    await page.locator('.board__offline').waitFor();
    // Called 87 s ago by the server's clock: live, three seconds of banner left.
    const missed = snapshot(
      150,
      [
        { name: 'Guichet 1', number: null, state: null, paused: true },
        { name: 'Guichet 2', number: 'C-003', state: 'serving' },
        { name: 'Guichet 3', number: 'C-005', state: 'called' },
      ],
      [
        ...OLD,
        call(11, 'C-003', 'Guichet 2', 10, false),
        call(12, 'C-004', 'Guichet 1', 20, false),
        call(13, 'V-002', 'Guichet 3', 20, false),
        call(14, 'C-005', 'Guichet 3', 63),
      ],
      ['V-002', ...NEXT.slice(3)],
    );
    server.push(missed);
    await expect.poll(() => server.connections(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => banner().getAttribute('data-call-seq')).toBe('14');
    await expect
      .poll(async () => (await said()).slice(before), { timeout: 5000 })
      .toEqual(['Le numéro C 5, au guichet 3', 'Number C 5, counter 3']);
    // Its 90 s are up: the banner goes by itself (no message came).
    await banner().waitFor({ state: 'detached', timeout: 5000 });
    // The same state again (a poll, another reconnect): nothing is said twice.
    server.push(missed);
    await page.waitForTimeout(1500);
    expect((await said()).slice(before)).toHaveLength(2);
  });

  it('with its recorded words: the call is played from the clips, French then English, and the voice stays silent', async () => {
    const tv = await browser.newContext({
      viewport: { width: 1280, height: 720 },
      locale: 'fr-FR',
    });
    await stubSpeech(tv, 200);
    const board = await tv.newPage();
    const clips: string[] = [];
    board.on('requestfinished', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/voice/')) clips.push(path);
    });
    await board.goto(`${server.origin}${server.path}`);
    await board.locator('.board[data-board-state="ready"]').waitFor();
    await board.getByRole('button', { name: 'Cliquez pour activer le son' }).click();
    await board.locator('.board__sound').waitFor({ state: 'detached' });
    server.push(
      snapshot(
        200,
        [
          { name: 'Guichet 1', number: 'C-042', state: 'called' },
          { name: 'Guichet 2', number: 'C-003', state: 'serving' },
          { name: 'Guichet 3', number: null, state: null },
        ],
        [...OLD, call(20, 'C-042', 'Guichet 1', 199)],
        NEXT.slice(4),
      ),
    );
    await expect
      .poll(() => board.getByTestId('board-call').getAttribute('data-call-seq'))
      .toBe('20');
    // "Le numéro C quarante-deux, au guichet un", then "Number C forty-two, counter one": each
    // language's clips are fetched together (in any order), the English once the French played.
    const words = ['numero', 'l-c', 'n-40', 'n-2', 'guichet', 'n-1'];
    const sorted = (paths: string[]) => [...paths].sort();
    await expect.poll(() => clips.length, { timeout: 10_000 }).toBe(12);
    expect(sorted(clips.slice(0, 6))).toEqual(sorted(words.map((c) => `/voice/fr/${c}.ogg`)));
    expect(sorted(clips.slice(6))).toEqual(sorted(words.map((c) => `/voice/en/${c}.ogg`)));
    await board.waitForTimeout(500);
    expect(await spokenOf(board)).toEqual([]);
    await tv.close();
  });
});
