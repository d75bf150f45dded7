/**
 * Queue setup (the organization's admins): the queue's settings (grace, who is told, recalls,
 * the join page and its code, where a transfer places the visitor), counters and the letters of
 * services. A change that may reorder the line or change who is told settles it at once.
 */
import type { Counter, QueueSettings, QueueSettingsRequest } from '@qless/contract';
import type { AuthContext } from '../../core/access/auth-guard.js';
import { AppError } from '../../errors.js';
import { counterOf, settle } from './counter-actions.js';
import {
  type CounterServicesInput,
  counterView,
  createCounter,
  listCounters,
  updateCounter,
} from './counters.repository.js';
import { loadQueueDay } from './queue-day.js';
import type { QueueServiceDeps } from './queue-deps.js';
import { notifyQueueChanged } from './queue-events.js';
import { fairColumnsOf } from './queue-fairness.js';
import { inTransaction, lockCounter, lockQueue } from './visits.repository.js';

export class QueueSetup {
  constructor(private readonly deps: QueueServiceDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  async settings(organizationId: string): Promise<QueueSettings> {
    return (await loadQueueDay(this.deps.db, organizationId, this.now())).settings;
  }

  async updateSettings(organizationId: string, s: QueueSettingsRequest): Promise<QueueSettings> {
    const now = this.now();
    await inTransaction(this.deps.db, async (trx) => {
      await lockQueue(trx, organizationId);
      const updated = await trx
        .updateTable('organizations')
        .set({
          queue_grace_early_minutes: s.grace_early_minutes,
          queue_grace_late_minutes: s.grace_late_minutes,
          queue_notify_position: s.notify_position,
          queue_max_recalls: s.max_recalls,
          queue_join_enabled: s.join_enabled,
          ...(s.join_code !== undefined ? { queue_join_code: s.join_code } : {}),
          ...(s.transfer_place ? { queue_transfer_place: s.transfer_place } : {}),
          ...fairColumnsOf(s),
          updated_at: now,
        })
        .where('id', '=', organizationId)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) {
        throw new AppError(404, 'ORGANIZATION_NOT_FOUND', 'No such organization.');
      }
      // The order (grace, the fair order) and who is told (notify position) may have changed.
      await settle(trx, organizationId, now, this.deps.turns);
    });
    return this.settings(organizationId);
  }

  listCounters(organizationId: string): Promise<Counter[]> {
    return listCounters(this.deps.db, organizationId);
  }

  async createCounter(
    organizationId: string,
    input: CounterServicesInput & { name: string; service_ids: string[] },
  ): Promise<Counter> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      await lockQueue(trx, organizationId);
      const row = await createCounter(trx, organizationId, input, now);
      await notifyQueueChanged(trx, organizationId);
      return counterView(trx, row);
    });
  }

  async updateCounter(
    auth: AuthContext,
    counterId: string,
    patch: CounterServicesInput & { name?: string | undefined; active?: boolean | undefined },
  ): Promise<Counter> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      const counter = await counterOf(trx, auth, counterId);
      await lockCounter(trx, counterId);
      await lockQueue(trx, counter.organization_id);
      const row = await updateCounter(trx, counter, patch, now);
      await settle(trx, counter.organization_id, now, this.deps.turns);
      return counterView(trx, row);
    });
  }

  /** The admin chooses a service's letter (unique in the organization). */
  async setLetter(
    organizationId: string,
    serviceId: string,
    letter: string,
  ): Promise<{ service_id: string; letter: string }> {
    const now = this.now();
    return inTransaction(this.deps.db, async (trx) => {
      await lockQueue(trx, organizationId);
      const service = await trx
        .selectFrom('services')
        .select(['id', 'queue_letter'])
        .where('id', '=', serviceId)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      if (!service)
        throw new AppError(404, 'SERVICE_NOT_FOUND', 'No such service in this organization.');
      const taken = await trx
        .selectFrom('services')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('queue_letter', '=', letter)
        .where('id', '<>', serviceId)
        .executeTakeFirst();
      if (taken) {
        throw new AppError(
          409,
          'INVALID_QUEUE_SETTINGS',
          `Another service already has the letter ${letter}.`,
        );
      }
      await trx
        .updateTable('services')
        .set({ queue_letter: letter, updated_at: now })
        .where('id', '=', serviceId)
        .execute();
      await notifyQueueChanged(trx, organizationId);
      return { service_id: serviceId, letter };
    });
  }
}
