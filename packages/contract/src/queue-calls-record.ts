import { z } from 'zod';
import { idSchema } from './catalog.js';
import { withFieldCodes } from './errors.js';
import { CALL_REASONS } from './queue-routing.js';
import { isoDateSchema } from './time-schemas.js';

/**
 * The signed record of a branch's calls for a day (decision 139): every call, recall and call
 * taken back, in order, each chained to the one before by SHA-256, the whole signed with the
 * deployment's Ed25519 key (the key of GET /tickets/public-key). Numbers, counters and clerks'
 * ids only: no visitor's name or phone.
 */

/** The JWS header's `typ` of a calls record. */
export const CALLS_RECORD_TYPE = 'qless-calls+jws';

export const callRecordEntrySchema = z.object({
  /** The entry's place in the day: 1, 2, … */
  seq: z.number().int(),
  at: z.string(),
  kind: z.enum(['called', 'recalled', 'undone_called']),
  number: z.string(),
  /** The counter's id (its name is in the record's `counters`, outside the chain). */
  counter: idSchema.nullable(),
  /** The clerk's account id (null for a system act). */
  clerk: idSchema.nullable(),
  /** A call out of turn's reason; null otherwise. */
  reason: z.enum(CALL_REASONS).nullable(),
  /** SHA-256 (hex) of the previous entry's hash and this entry's JSON without `hash`. */
  hash: z.string(),
});
export type CallRecordEntry = z.infer<typeof callRecordEntrySchema>;

/** What the JWS signs. */
export const callsRecordSchema = z.object({
  organization_id: idSchema,
  date: isoDateSchema,
  /** When the record was made: a later record of the same day extends an earlier one. */
  made_at: z.string(),
  /** The chain's start: SHA-256 (hex) of "qless-calls:{organization_id}:{date}". */
  genesis: z.string(),
  calls: z.array(callRecordEntrySchema),
  /** The last entry's hash (the genesis when there is no call). */
  head: z.string(),
  /** Each counter's name as it is now (outside the chain: a renamed counter changes no hash). */
  counters: z.record(z.string(), z.string()),
});
export type CallsRecord = z.infer<typeof callsRecordSchema>;

/** GET /api/v1/queue/calls-record?date= (admin): the record, readable and signed. */
export const callsRecordResponseSchema = z.object({
  record: callsRecordSchema,
  /** The compact JWS (EdDSA) of `record`'s JSON. */
  jws: z.string(),
});
export type CallsRecordResponse = z.infer<typeof callsRecordResponseSchema>;

export const callsRecordQuerySchema = withFieldCodes(
  z.object({ date: isoDateSchema, organization_id: idSchema.optional() }),
  { date: 'INVALID_DATE', organization_id: 'INVALID_ID' },
);
