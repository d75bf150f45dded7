import { z } from 'zod';
import { withFieldCodes } from './errors.js';

/** The queue's settings (Queue setup, an admin's): the order, who is told, the join page. */

/** The categories an organization may serve first (decision 138). */
export const PRIORITY_CATEGORIES = [
  'elderly',
  'pregnant',
  'disability',
  'emergency',
  'premium',
] as const;
export type PriorityCategory = (typeof PRIORITY_CATEGORIES)[number];

/**
 * Where a transferred visitor stands in the new line (decision 118): by their first arrival
 * in the branch (the default), or first.
 */
export const TRANSFER_PLACES = ['arrival', 'front'] as const;
export type TransferPlace = (typeof TRANSFER_PLACES)[number];

/** "p priority, then o others" (decision 138). */
export const queueRatioSchema = z.object({
  priority: z.number().int().min(1).max(5),
  others: z.number().int().min(0).max(10),
});

export const queueSettingsSchema = z.object({
  grace_early_minutes: z.number().int().min(0).max(240),
  grace_late_minutes: z.number().int().min(0).max(120),
  notify_position: z.number().int().min(1).max(20),
  max_recalls: z.number().int().min(0).max(5),
  join_enabled: z.boolean(),
  /** Joining from the poster takes the code the board in the hall shows (decision 125). */
  join_code: z.boolean(),
  transfer_place: z.enum(TRANSFER_PLACES),
  /** The categories served first; empty: none (decision 138). */
  priority_categories: z.array(z.enum(PRIORITY_CATEGORIES)).max(PRIORITY_CATEGORIES.length),
  /** What the organization calls its premium clients ("Clients privilégiés"); null: unnamed. */
  premium_label: z.string().trim().min(1).max(40).nullable(),
  /** null: a category is recorded and shown, the order is arrival. */
  ratio: queueRatioSchema.nullable(),
  /** Nobody waits longer than this behind a later arrival; null: no ceiling. */
  ageing_ceiling_minutes: z.number().int().min(10).max(240).nullable(),
});
export type QueueSettings = z.infer<typeof queueSettingsSchema>;

/**
 * PUT /api/v1/queue/settings (admin); without transfer_place, join_code or the fair order's
 * fields (older clients) each is kept.
 */
export const queueSettingsRequestSchema = withFieldCodes(
  queueSettingsSchema.extend({
    join_code: z.boolean().optional(),
    transfer_place: z.enum(TRANSFER_PLACES).optional(),
    priority_categories: queueSettingsSchema.shape.priority_categories.optional(),
    premium_label: queueSettingsSchema.shape.premium_label.optional(),
    ratio: queueSettingsSchema.shape.ratio.optional(),
    ageing_ceiling_minutes: queueSettingsSchema.shape.ageing_ceiling_minutes.optional(),
  }),
  {
    grace_early_minutes: 'INVALID_QUEUE_SETTINGS',
    grace_late_minutes: 'INVALID_QUEUE_SETTINGS',
    notify_position: 'INVALID_QUEUE_SETTINGS',
    max_recalls: 'INVALID_QUEUE_SETTINGS',
    join_enabled: 'INVALID_QUEUE_SETTINGS',
    join_code: 'INVALID_QUEUE_SETTINGS',
    transfer_place: 'INVALID_QUEUE_SETTINGS',
    priority_categories: 'INVALID_QUEUE_SETTINGS',
    premium_label: 'INVALID_QUEUE_SETTINGS',
    ratio: 'INVALID_QUEUE_SETTINGS',
    ageing_ceiling_minutes: 'INVALID_QUEUE_SETTINGS',
  },
);
export type QueueSettingsRequest = z.input<typeof queueSettingsRequestSchema>;
export const queueSettingsResponseSchema = z.object({ settings: queueSettingsSchema });
