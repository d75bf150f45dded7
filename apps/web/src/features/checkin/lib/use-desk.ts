import type {
  CheckinBooking,
  CheckinRefusal,
  CheckinSyncResult,
  TodayResponse,
} from '@qless/contract';
import { CHECKIN_REASONS, CHECKIN_SYNC_MAX_ITEMS, normalizeTicketCode } from '@qless/contract/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { getToday, postBookingAction, postCheckin, postSync } from '../api/checkin-api';
import { checkedInLocally, decideOffline, type TicketRef } from './offline-rules';
import {
  claimFor,
  loadQueue,
  loadToday,
  newClientId,
  type QueuedCheckin,
  saveQueue,
  saveToday,
} from './offline-store';
import { readTokenOffline } from './offline-token';
import { type Outcome, refused } from './outcome';
import type { Scanned } from './scanned-text';

function isRefusal(body: unknown): body is CheckinRefusal {
  const reason = (body as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' && (CHECKIN_REASONS as readonly string[]).includes(reason);
}

function outcomeOfRefusal(status: number, body: unknown): Outcome {
  if (status === 401) return { kind: 'signed_out' };
  if (isRefusal(body) && body.reason !== 'OK') {
    return refused(body.reason, {
      date: body.date,
      time: body.checked_in_time,
      booking: body.booking,
    });
  }
  return status === 400 ? { kind: 'invalid_code' } : { kind: 'error' };
}

export type ListState = 'loading' | 'ready' | 'signed_out' | 'failed';

/**
 * The check-in desk's state (staff checking tickets at the entrance; not a queue counter):
 * today's list (from the server, else the device's copy), whether the network is there,
 * check-ins waiting to be sent and what each scan came to.
 */
export function useDesk(ownerId: string) {
  // First: the device's copy must be this account's before anything is read from it.
  const [discarded] = useState(() => claimFor(ownerId));
  const [today, setToday] = useState<TodayResponse | null>(() => loadToday());
  const [list, setList] = useState<ListState>('loading');
  const [online, setOnline] = useState(() => navigator.onLine);
  const [queue, setQueue] = useState<QueuedCheckin[]>(() => loadQueue());
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [conflicts, setConflicts] = useState<CheckinSyncResult[]>([]);
  const syncing = useRef(false);
  const todayRef = useRef(today);
  todayRef.current = today;

  const keepToday = useCallback((next: TodayResponse) => {
    saveToday(next);
    setToday(next);
  }, []);

  const replaceBooking = useCallback(
    (booking: CheckinBooking) => {
      const current = todayRef.current;
      if (!current) return;
      keepToday({
        ...current,
        bookings: current.bookings.map((b) => (b.booking_id === booking.booking_id ? booking : b)),
      });
    },
    [keepToday],
  );

  const load = useCallback(async () => {
    const answer = await getToday();
    if (answer.kind === 'ok') {
      setOnline(true);
      keepToday(answer.body);
      setList('ready');
    } else if (answer.kind === 'offline') {
      setOnline(false);
      setList(todayRef.current ? 'ready' : 'failed');
    } else {
      setList(answer.status === 401 ? 'signed_out' : 'failed');
    }
  }, [keepToday]);

  const sync = useCallback(async () => {
    const waiting = loadQueue();
    if (syncing.current || waiting.length === 0) return;
    syncing.current = true;
    try {
      const batch = waiting.slice(0, CHECKIN_SYNC_MAX_ITEMS);
      const answer = await postSync(batch.map(({ cus_name: _name, ...item }) => item));
      if (answer.kind === 'offline') {
        setOnline(false);
        return;
      }
      if (answer.kind === 'refused') {
        if (answer.status === 401) setList('signed_out');
        return;
      }
      setOnline(true);
      const sent = new Set(batch.map((item) => item.client_id));
      const rest = loadQueue().filter((item) => !sent.has(item.client_id));
      saveQueue(rest);
      setQueue(rest);
      const names = new Map(batch.map((item) => [item.client_id, item.cus_name]));
      const found = answer.body.results
        .filter((r) => r.result !== 'checked_in' || r.replaced_scan_at !== null)
        .map((r) => ({ ...r, cus_name: r.cus_name ?? names.get(r.client_id) ?? null }));
      if (found.length > 0) setConflicts((before) => [...found, ...before]);
      await load();
    } finally {
      syncing.current = false;
    }
  }, [load]);

  const checkInOffline = useCallback(
    async (input: Scanned): Promise<Outcome> => {
      const cache = todayRef.current;
      let ticket: TicketRef = { kind: 'code', code: 'code' in input ? input.code : '' };
      if ('token' in input) {
        const read = await readTokenOffline(input.token, cache?.keys ?? []);
        if (!read.ok) return refused('INVALID_SIGNATURE');
        ticket = read.ticket;
      }
      const now = new Date();
      const decision = decideOffline(cache, ticket, now);
      if (!decision.ok || !cache) return decision.ok ? { kind: 'no_list' } : decision.outcome;
      const booking = checkedInLocally(decision.booking, cache.organization.time_zone, now);
      replaceBooking(booking);
      const next = [
        ...loadQueue(),
        {
          ...input,
          scanned_at: now.toISOString(),
          client_id: newClientId(),
          cus_name: booking.cus_name,
        },
      ];
      saveQueue(next);
      setQueue(next);
      return { kind: 'checked_in', booking, queued: true };
    },
    [replaceBooking],
  );

  const checkIn = useCallback(
    async (input: Scanned) => {
      let result: Outcome;
      const answer = navigator.onLine ? await postCheckin(input) : ({ kind: 'offline' } as const);
      if (answer.kind === 'offline') {
        setOnline(false);
        result = await checkInOffline(input);
      } else if (answer.kind === 'ok') {
        setOnline(true);
        replaceBooking(answer.body.booking);
        result = {
          kind: 'checked_in',
          booking: answer.body.booking,
          queued: false,
          queue: answer.body.queue ?? null,
        };
        void sync();
      } else {
        result = outcomeOfRefusal(answer.status, answer.body);
        if (result.kind === 'refused' && result.booking) replaceBooking(result.booking);
        if (result.kind === 'signed_out') setList('signed_out');
      }
      setOutcome(result);
      return result;
    },
    [checkInOffline, replaceBooking, sync],
  );

  const typeCode = useCallback(
    (typed: string) => {
      const code = normalizeTicketCode(typed);
      if (!code) {
        const result: Outcome = { kind: 'invalid_code' };
        setOutcome(result);
        return Promise.resolve(result);
      }
      return checkIn({ code });
    },
    [checkIn],
  );

  const act = useCallback(
    async (booking: CheckinBooking, action: 'no_show' | 'cancel') => {
      const answer = await postBookingAction(booking.booking_id, action);
      if (answer.kind === 'ok') {
        replaceBooking(answer.body.booking);
        return { ok: true as const };
      }
      if (answer.kind === 'offline') setOnline(false);
      if (answer.kind === 'refused' && answer.status === 401) setList('signed_out');
      else if (answer.kind === 'refused') void load();
      return { ok: false as const, code: answer.kind === 'refused' ? answer.code : null };
    },
    [replaceBooking, load],
  );

  useEffect(() => {
    void load().then(() => sync());
    const goOnline = () => {
      setOnline(true);
      void sync().then(() => load());
    };
    const goOffline = () => setOnline(false);
    window.addEventListener('online', goOnline);
    window.addEventListener('offline', goOffline);
    return () => {
      window.removeEventListener('online', goOnline);
      window.removeEventListener('offline', goOffline);
    };
  }, [load, sync]);

  return {
    today,
    discarded,
    list,
    online,
    queue,
    outcome,
    conflicts,
    checkIn,
    typeCode,
    act,
    showOutcome: setOutcome,
    dismissConflicts: () => setConflicts([]),
  };
}
