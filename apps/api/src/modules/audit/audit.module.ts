import type { FastifyInstance } from 'fastify';
import type { ApiModule, AppDeps } from '../../app-deps.js';
import { PeriodicSweep } from '../../periodic.js';
import { pruneAudit } from './audit.repository.js';
import { auditRoutes } from './audit.routes.js';
import { registerAuditHook } from './audit-hook.js';
import { AuditRecorder } from './audit-recorder.js';

const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

/** The audit log of this process: its recorder, and the retention sweep. */
export interface AuditLog {
  recorder: AuditRecorder;
  /** Deletes entries older than the retention (AUDIT_RETENTION_DAYS) as of the clock's now. */
  prune(): Promise<number>;
}

/**
 * The audit log (decision 032): an onResponse hook on the writing routes records, a recorder writes after the
 * responses, an hourly sweep prunes entries past the retention. The app's onClose waits for
 * the rows still queued (graceful shutdown flushes them).
 */
function registerAuditLog(app: FastifyInstance, deps: AppDeps): AuditLog {
  const recorder = new AuditRecorder(deps.db, app.log);
  registerAuditHook(app, recorder, deps.clock);
  const prune = () =>
    pruneAudit(
      deps.db,
      new Date(deps.clock.now().getTime() - deps.config.audit.retentionDays * DAY_MS),
    );
  const sweep = new PeriodicSweep(prune, PRUNE_EVERY_MS, (err) =>
    app.log.error({ err }, 'audit log: pruning old entries failed'),
  );
  app.addHook('onReady', async () => sweep.start());
  app.addHook('onClose', async () => {
    await sweep.stop();
    await recorder.close();
  });
  const audit: AuditLog = { recorder, prune };
  app.decorate('audit', audit);
  return audit;
}

/** The audit log, and its reading by admins and operators. */
export function auditModule(app: FastifyInstance, deps: AppDeps): ApiModule {
  registerAuditLog(app, deps);
  return { routes: [auditRoutes(deps)] };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit log: `audit.recorder.flush()` writes what is queued (tests read after it). */
    audit: AuditLog;
  }
}
