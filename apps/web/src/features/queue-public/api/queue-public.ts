import type {
  BoardJoinCode,
  BoardSnapshot,
  JoinInfoResponse,
  JoinRequest,
  JoinResponse,
  VisitTurn,
} from '@qless/contract';
import { VISIT_KEY_HEADER } from '@qless/contract/core';
import { apiFetch, apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** The poster's page: the organization, its services with their lines, whether one can join. */
export const joinInfoQuery = (orgId: string) => apiQuery<JoinInfoResponse>(apiPaths.join(orgId));

export function getJoinInfo(orgId: string, signal?: AbortSignal): Promise<JoinInfoResponse> {
  return fetchQuery(joinInfoQuery(orgId), signal);
}

export function joinQueue(orgId: string, request: JoinRequest): Promise<JoinResponse> {
  return apiFetch<JoinResponse>(apiPaths.join(orgId), { method: 'POST', body: request });
}

export async function getVisitTurn(
  visitId: string,
  key: string,
  signal?: AbortSignal,
): Promise<VisitTurn> {
  return (
    await apiFetch<{ turn: VisitTurn }>(apiPaths.visitTurn(visitId), {
      signal,
      headers: { [VISIT_KEY_HEADER]: key },
    })
  ).turn;
}

/** The visitor leaves the line; answered with the turn, now 'left'. */
export async function leaveLine(visitId: string, key: string): Promise<VisitTurn> {
  return (
    await apiFetch<{ turn: VisitTurn }>(apiPaths.visitLeave(visitId), {
      method: 'POST',
      body: { key },
    })
  ).turn;
}

/** The feedback page's token once the visit is done (null before or after its days). */
export async function getFeedbackToken(
  visitId: string,
  key: string,
  signal?: AbortSignal,
): Promise<string | null> {
  return (
    await apiFetch<{ token: string | null }>(apiPaths.visitFeedbackLink(visitId), {
      signal,
      headers: { [VISIT_KEY_HEADER]: key },
    })
  ).token;
}

/** A board link's snapshot (numbers only); the server renders the board with it. */
export const boardQuery = (token: string) => apiQuery<BoardSnapshot>(apiPaths.board(token));

export function getBoard(token: string, signal?: AbortSignal): Promise<BoardSnapshot> {
  return fetchQuery(boardQuery(token), signal);
}

/** The code the board shows in the hall (decision 125): null when none is asked. */
export function getBoardJoinCode(token: string, signal?: AbortSignal): Promise<BoardJoinCode> {
  return apiFetch<BoardJoinCode>(apiPaths.boardJoinCode(token), { signal });
}

/**
 * A socket frame's turn: the bare turn or `{ turn }` (the GET's shape); checked loosely —
 * the fields the page reads are there — since a frame is not validated with zod here
 * (zod stays out of the page's chunk).
 */
export function readTurn(value: unknown): VisitTurn | null {
  const inner = (value as { turn?: unknown } | null)?.turn ?? value;
  const turn = inner as Partial<VisitTurn> | null;
  return typeof turn === 'object' &&
    turn !== null &&
    typeof turn.visit_id === 'string' &&
    typeof turn.number === 'string' &&
    typeof turn.state === 'string'
    ? (turn as VisitTurn)
    : null;
}

/** A board frame: the snapshot (or `{ board }`), with the lists the board draws. */
export function readBoard(value: unknown): BoardSnapshot | null {
  const inner = (value as { board?: unknown } | null)?.board ?? value;
  const board = inner as Partial<BoardSnapshot> | null;
  return typeof board === 'object' &&
    board !== null &&
    Array.isArray(board.serving) &&
    Array.isArray(board.next)
    ? (board as BoardSnapshot)
    : null;
}
