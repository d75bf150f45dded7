import type { BoardSnapshot, JoinInfoResponse } from '@qless/contract';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { ensureLocale, I18nProvider, type Locale } from '../../../i18n/i18n';
import { BoardView } from './board-view';
import { JoinForm } from './join-page';

const INFO: JoinInfoResponse = {
  organization: { organization_id: 'o1', name: 'Afriland Akwa' },
  enabled: true,
  open: true,
  code_required: false,
  whatsapp: false,
  services: [
    {
      service_id: 's1',
      name: 'Deposits',
      name_fr: 'Dépôts',
      waiting: 2,
      estimate: null,
      counters_open: true,
    },
  ],
};

const BOARD: BoardSnapshot = {
  organization_name: 'Afriland Akwa',
  server_time: '2026-03-16T09:00:00.000Z',
  serving: [{ counter_name: 'Guichet 1', number: 'A-001', state: 'serving', paused: false }],
  next: ['A-002'],
  last_call: null,
  calls: [],
};

const html = (locale: Locale, node: React.ReactNode) =>
  renderToStaticMarkup(<I18nProvider initial={locale}>{node}</I18nProvider>).replaceAll(
    '&#x27;',
    "'",
  );
const joinForm = (locale: Locale, info: JoinInfoResponse) =>
  html(locale, <JoinForm orgId="o1" info={info} onJoined={() => undefined} />);
const board = (locale: Locale, joinCode: string | null) =>
  html(locale, <BoardView board={BOARD} banner={null} offline={false} joinCode={joinCode} />);
/** The <input> named `name`, or undefined. */
const input = (markup: string, name: string) =>
  markup.match(new RegExp(`<input[^>]*name="${name}"[^>]*>`))?.[0];

describe('the join page asks for the code shown in the hall (decision 125)', () => {
  it('asks for 4 digits on a numeric keypad when the organization requires them', async () => {
    await ensureLocale('fr');
    const markup = joinForm('en', { ...INFO, code_required: true });
    const field = input(markup, 'code');
    expect(field).toBeDefined();
    expect(field).toContain('inputMode="numeric"');
    expect(field).toContain('pattern="[0-9]{4}"');
    expect(field).toContain('maxLength="4"');
    expect(field).toContain('required');
    expect(markup).toContain(en['queue.join.code']);
    expect(en['queue.join.code']).toBe('The code shown on the screen in the hall');
    expect(joinForm('fr', { ...INFO, code_required: true })).toContain(fr['queue.join.code']);
    expect(fr['queue.join.code']).toMatch(/code affiché sur l’écran de la salle/);
  });

  it('asks nothing more when the organization does not require a code', () => {
    expect(input(joinForm('en', INFO), 'code')).toBeUndefined();
    expect(input(joinForm('en', INFO), 'name')).toBeDefined();
  });
});

describe('the board shows the code to join (decision 125)', () => {
  it('large in its corner beside “Scan the poster to join”, in both languages', async () => {
    await ensureLocale('fr');
    for (const locale of ['en', 'fr'] as const) {
      const markup = board(locale, '0427');
      expect(markup).toContain('data-testid="board-join-code"');
      expect(markup).toContain('<span class="board__join-code">0427</span>');
      expect(markup).toMatch(/Scan the poster to join/);
      expect(markup).toMatch(/Scannez l’affiche pour rejoindre la file/);
    }
  });

  it('shows nothing of it when no code is asked', () => {
    const markup = board('en', null);
    expect(markup).not.toContain('board-join-code');
    expect(markup).not.toMatch(/Scan the poster/);
  });
});
