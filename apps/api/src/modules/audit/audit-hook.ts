import type { FastifyInstance, FastifyRequest, onResponseHookHandler } from 'fastify';
import type { AuditActor } from '../../core/access/audit-actor.js';
import type { Clock } from '../../core/clock.js';
import { storableText } from '../../db/storable.js';
import type { AuditRecorder, AuditRow } from './audit-recorder.js';

const WRITES = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/** Parameters that carry a secret or a customer's key: never copied into the log. */
const SECRET_PARAM = /token|code|key|secret|password|signature|phone/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USER_AGENT_MAX = 200;
const API_PREFIX = '/api/v1';

/** The action's stable key: the route's own name, else "METHOD /pattern" (no /api/v1). */
export function actionOf(method: string, pattern: string, named?: string): string {
  if (named) return named;
  const path = pattern.startsWith(API_PREFIX) ? pattern.slice(API_PREFIX.length) : pattern;
  return `${method} ${path || '/'}`.slice(0, 120);
}

/** The route parameters worth keeping: ids and dates, never tokens or codes. */
export function targetOf(params: unknown): Record<string, string> {
  const target: Record<string, string> = {};
  if (!params || typeof params !== 'object') return target;
  for (const [name, value] of Object.entries(params as Record<string, unknown>)) {
    if (SECRET_PARAM.test(name) || typeof value !== 'string') continue;
    // A path may carry %00: PostgreSQL's jsonb refuses it (and would refuse the whole batch).
    target[storableText(name)] = storableText(value.slice(0, 64));
  }
  return target;
}

/** The route's declared body fields (`auditBody`), kept like the route's parameters. */
function bodyTarget(req: FastifyRequest): Record<string, string> {
  const fields = req.routeOptions.config.auditBody;
  const body = req.body;
  if (!fields || !body || typeof body !== 'object') return {};
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = (body as Record<string, unknown>)[field];
  return targetOf(picked);
}

/** An organization a request named (in its path, query or body), when it is an id. */
function namedOrganization(req: FastifyRequest): string | null {
  for (const source of [req.params, req.query, req.body]) {
    if (!source || typeof source !== 'object') continue;
    const value = (source as Record<string, unknown>).organization_id;
    if (typeof value === 'string' && UUID.test(value)) return value.toLowerCase();
  }
  return null;
}

/**
 * Should this answered request be in the audit log? Writes by a session of staff, a branch
 * manager, an admin or an operator (refusals too: a 403 is what probing looks like), and
 * every call of a route marked `audit: true` (exports of personal data, sign-in and the
 * other account routes used without a session). Unknown routes (404 with no route) never.
 */
function shouldRecord(req: FastifyRequest): boolean {
  const pattern = req.routeOptions.url;
  if (pattern === undefined) return false;
  if (req.routeOptions.config.audit === true) return true;
  return WRITES.has(req.method) && (req.auth !== null || req.auditActor !== null);
}

/** The row for an answered request, or null when it is not one the log keeps. */
export function auditRowOf(req: FastifyRequest, status: number, at: Date): AuditRow | null {
  if (!shouldRecord(req)) return null;
  const actor: AuditActor | null = req.auth?.user ?? req.auditActor;
  // Without a session, only the account routes (a sign-in to an unknown e-mail, say): an
  // anonymous 401 on a guarded export names nobody and would only let anyone fill the table.
  if (!actor && !req.routeOptions.url?.startsWith(`${API_PREFIX}/auth/`)) return null;
  const organization =
    namedOrganization(req) ?? (actor && actor.role !== 'operator' ? actor.organization_id : null);
  const userAgent = req.headers['user-agent'];
  return {
    at,
    actor_user_id: actor?.id ?? null,
    actor_role: actor?.role ?? null,
    actor_email: actor?.email ?? null,
    organization_id: organization,
    action: actionOf(
      req.method,
      req.routeOptions.url ?? req.url,
      req.routeOptions.config.auditAction,
    ),
    target: JSON.stringify({ ...targetOf(req.params), ...bodyTarget(req) }),
    outcome: status,
    client_address: req.ip ?? null,
    user_agent:
      typeof userAgent === 'string' ? storableText(userAgent.slice(0, USER_AGENT_MAX)) : null,
    request_id: String(req.id).slice(0, 100),
  };
}

/**
 * An onResponse hook on the routes whose answers the log may keep (a writing method, or
 * `audit: true`), added as each route is declared: a read pays for nothing (decision 129).
 * Registered before any route (app.ts): a route declared earlier would not be audited.
 * The row is queued once the answer has gone (the request never waits for it) and written in
 * batches by the recorder.
 */
export function registerAuditHook(app: FastifyInstance, recorder: AuditRecorder, clock: Clock) {
  app.decorateRequest('auditActor', null);
  const hook: onResponseHookHandler = function recordAudit(req, reply, done) {
    try {
      const row = auditRowOf(req, reply.statusCode, clock.now());
      if (row) recorder.record(row);
    } catch (err) {
      req.log.error({ err }, 'audit log: could not describe the request');
    }
    done();
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.config?.audit !== true && !methods.some((m) => WRITES.has(m))) return;
    const own = route.onResponse;
    route.onResponse = [...(own === undefined ? [] : Array.isArray(own) ? own : [own]), hook];
  });
}
