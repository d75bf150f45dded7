import type {
  CallVisitRequest,
  ClearSelfJoinsRequest,
  ClearSelfJoinsResponse,
  Counter,
  CounterActionResponse,
  Kiosk,
  KioskPaper,
  QueueSettings,
  QueueSettingsRequest,
  QueueTodayResponse,
  QueueVisit,
  SmsJoinSettings,
  TransferRequest,
  VisitSlip,
  WalkInRequest,
} from '@qless/contract';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

// The answers' shapes, as the contract's queue schemas declare them (types only: no zod here).
type QueueVisitResponse = { visit: QueueVisit };
type SettingsResponse = { settings: QueueSettings };
type CounterResponse = { counter: Counter };
type CounterListResponse = { counters: Counter[] };
/** A board link as the admin sees it (its token only in the creation's answer). */
export interface Board {
  board_id: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
}
export type BoardCreatedResponse = { board: Board; token: string };
type BoardListResponse = { boards: Board[] };

export type { Kiosk, KioskPaper, VisitSlip };

/** What a counter is told to do: its state (open/pause/close) or an act on its visit. */
export type CounterCommand =
  | 'open'
  | 'pause'
  | 'close'
  | 'call-next'
  | 'recall'
  | 'start'
  | 'done'
  | 'no-show';

export function getQueueToday(signal?: AbortSignal) {
  return apiFetch<QueueTodayResponse>(apiPaths.queueToday(), signal ? { signal } : {});
}

export function addWalkIn(body: WalkInRequest) {
  return apiFetch<QueueVisitResponse>(apiPaths.queueVisits(), { method: 'POST', body });
}

export function counterCommand(counterId: string, command: CounterCommand) {
  return apiFetch<CounterActionResponse>(apiPaths.queueCounterAction(counterId, command), {
    method: 'POST',
  });
}

/** The held visit to another service's line, or to a named counter (decision 139). */
export function transferVisit(counterId: string, to: TransferRequest) {
  return apiFetch<CounterActionResponse>(apiPaths.queueCounterAction(counterId, 'transfer'), {
    method: 'POST',
    body: to,
  });
}

/** A chosen waiting visitor called out of turn, with a reason kept on the record. */
export function callVisit(counterId: string, body: CallVisitRequest) {
  return apiFetch<CounterActionResponse>(apiPaths.queueCounterAction(counterId, 'call-visit'), {
    method: 'POST',
    body,
  });
}

/** Takes back the counter's last call, no-show, done or transfer (within 10 s). */
export function undoLast(counterId: string) {
  return apiFetch<CounterActionResponse>(apiPaths.queueCounterAction(counterId, 'undo'), {
    method: 'POST',
  });
}

/** Today's joins from the poster never called leave the line (decision 125). */
export function clearSelfJoins(body: ClearSelfJoinsRequest) {
  return apiFetch<ClearSelfJoinsResponse>(apiPaths.queueClearSelfJoins(), {
    method: 'POST',
    body,
  });
}

/** A no-show of today back in line at their old place. */
export function putBackInLine(visitId: string) {
  return apiFetch<QueueVisitResponse>(apiPaths.queueVisitReturn(visitId), { method: 'POST' });
}

export function getQueueSettings(signal?: AbortSignal) {
  return apiFetch<SettingsResponse>(apiPaths.queueSettings(), signal ? { signal } : {});
}

export function saveQueueSettings(settings: QueueSettingsRequest) {
  return apiFetch<SettingsResponse>(apiPaths.queueSettings(), { method: 'PUT', body: settings });
}

export function listCounters(signal?: AbortSignal) {
  return apiFetch<CounterListResponse>(apiPaths.queueCounters(), signal ? { signal } : {});
}

export function createCounter(body: {
  name: string;
  service_ids: string[];
  help_service_ids?: string[];
}) {
  return apiFetch<CounterResponse>(apiPaths.queueCounters(), { method: 'POST', body });
}

export function updateCounter(
  counterId: string,
  body: { name?: string; service_ids?: string[]; help_service_ids?: string[]; active?: boolean },
) {
  return apiFetch<CounterResponse>(apiPaths.queueCounter(counterId), { method: 'PATCH', body });
}

export function listBoards(signal?: AbortSignal) {
  return apiFetch<BoardListResponse>(apiPaths.queueBoards(), signal ? { signal } : {});
}

export function createBoard(name: string) {
  return apiFetch<BoardCreatedResponse>(apiPaths.queueBoards(), {
    method: 'POST',
    body: { name },
  });
}

export function revokeBoard(boardId: string) {
  return apiFetch<unknown>(apiPaths.queueBoard(boardId), { method: 'DELETE' });
}

export function listKiosks(signal?: AbortSignal) {
  return apiFetch<{ kiosks: Kiosk[] }>(apiPaths.queueKiosks(), signal ? { signal } : {});
}

export function createKiosk(name: string, paper: KioskPaper) {
  return apiFetch<{ kiosk: Kiosk; token: string }>(apiPaths.queueKiosks(), {
    method: 'POST',
    body: { name, paper },
  });
}

export function revokeKiosk(kioskId: string) {
  return apiFetch<unknown>(apiPaths.queueKiosk(kioskId), { method: 'DELETE' });
}

/** Joining by SMS (decision 136): the branch's word and today's message. */
export function getSmsJoin(signal?: AbortSignal) {
  return apiFetch<SmsJoinSettings>(apiPaths.queueSmsJoin(), signal ? { signal } : {});
}

export function saveSmsJoin(keyword: string | null) {
  return apiFetch<SmsJoinSettings>(apiPaths.queueSmsJoin(), { method: 'PUT', body: { keyword } });
}

/** A walk-in's slip, to print at the counter (decision 135). */
export function getSlip(visitId: string) {
  return apiFetch<{ slip: VisitSlip }>(apiPaths.queueVisitSlip(visitId));
}

export function setServiceLetter(serviceId: string, letter: string) {
  return apiFetch<unknown>(apiPaths.queueServiceLetter(serviceId), {
    method: 'PUT',
    body: { letter },
  });
}
