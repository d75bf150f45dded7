import type { ErrorCode } from '@qless/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../../i18n/en';
import { fr } from '../../../i18n/fr';
import { ApiError } from '../../../lib/api-client';
import { counterCommand } from '../api/queue-api';
import { queueErrorKey, queueNoticeTone } from './queue-errors';

const REFUSALS: ErrorCode[] = [
  'COUNTER_BUSY',
  'COUNTER_CLOSED',
  'COUNTER_IDLE',
  'QUEUE_EMPTY',
  'VISIT_NOT_ACTIONABLE',
  'SERVICE_NOT_AT_COUNTER',
  'QUEUE_CLOSED',
  'QUEUE_FULL',
  'NO_SHOW_TOO_EARLY',
  'NOTHING_TO_UNDO',
];

describe('the queue’s refusals, in words', () => {
  it('gives each counter refusal its own message in English and French', () => {
    const keys = REFUSALS.map((code) => queueErrorKey(new ApiError(409, code, 'x')));
    expect(new Set(keys).size).toBe(REFUSALS.length);
    for (const key of keys) {
      expect(key.startsWith('queue.error.'), key).toBe(true);
      expect(en[key]).not.toBe(fr[key]);
    }
    expect(en[queueErrorKey(new ApiError(409, 'COUNTER_BUSY', 'x'))]).toMatch(/still called/);
    expect(fr[queueErrorKey(new ApiError(409, 'QUEUE_EMPTY', 'x'))]).toBe(
      'Personne n’attend pour les services de ce guichet.',
    );
  });

  it('falls back to the app’s messages for the rest', () => {
    expect(queueErrorKey(new ApiError(0, null, 'Network error'))).toBe('error.network');
    expect(queueErrorKey(new ApiError(403, 'FORBIDDEN', 'x'))).toBe('error.FORBIDDEN');
    expect(queueErrorKey(new Error('boom'))).toBe('error.generic');
  });
});

describe('the tone of a queue answer', () => {
  it('says the queue’s normal states neutrally: nobody waiting, lost a race, too early, too late', () => {
    for (const code of [
      'QUEUE_EMPTY',
      'COUNTER_BUSY',
      'COUNTER_IDLE',
      'VISIT_NOT_ACTIONABLE',
      'NO_SHOW_TOO_EARLY',
      'NOTHING_TO_UNDO',
    ] as const) {
      expect(queueNoticeTone(new ApiError(409, code, 'x')), code).toBe('info');
    }
  });

  it('keeps failures in red: the network, a refusal of rights, the unknown', () => {
    expect(queueNoticeTone(new ApiError(0, null, 'Network error'))).toBe('error');
    expect(queueNoticeTone(new ApiError(403, 'FORBIDDEN', 'x'))).toBe('error');
    expect(queueNoticeTone(new ApiError(409, 'COUNTER_CLOSED', 'x'))).toBe('error');
    expect(queueNoticeTone(new Error('boom'))).toBe('error');
  });
});

describe('a Call next whose outcome is unknown', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('is sent once, never again by itself, and says to check the screen before pressing again', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(JSON.stringify({ code: 'OUTCOME_UNKNOWN', message: 'lost' }), {
          status: 503,
          headers: { 'content-type': 'application/json', 'retry-after': '5' },
        }),
    );
    vi.stubGlobal('fetch', fetch);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = await counterCommand('c1', 'call-next').catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 503, code: 'OUTCOME_UNKNOWN', retryAfter: 5 });
    // Waiting past the Retry-After sends nothing more: a repeat could call a second person.
    await new Promise((r) => setTimeout(r, 50));
    expect(fetch).toHaveBeenCalledTimes(1);
    const key = queueErrorKey(failure);
    expect(key).toBe('queue.error.OUTCOME_UNKNOWN');
    expect(queueNoticeTone(failure)).toBe('error');
    expect(en[key]).toMatch(/check who is called/);
    expect(fr[key]).toMatch(/vérifiez qui est appelé/);
  });
});
