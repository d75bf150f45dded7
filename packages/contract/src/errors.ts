import { z } from 'zod';
import { ERROR_CODES, type ErrorBody, type ErrorCode } from './error-codes.js';

const errorCodeSchema = z.enum(ERROR_CODES);

/** The body of every 4xx and 5xx answer. Routes declare it for each error status. */
export const errorBodySchema: z.ZodType<ErrorBody> = z.object({
  code: errorCodeSchema,
  message: z.string(),
  details: z
    .array(z.object({ path: z.string(), code: errorCodeSchema, message: z.string() }))
    .optional(),
});

/** Each field of a request schema and the error code its failures answer with. */
type FieldCodes<T extends z.ZodObject> = { readonly [K in keyof T['shape']]-?: ErrorCode };

const fieldCodes = z.registry<{ fieldCodes: Readonly<Record<string, ErrorCode>> }>();

/**
 * Declares the error code of every field of a request schema; the compiler insists on one
 * per field, so a new field cannot fall back to a guess.
 */
export function withFieldCodes<T extends z.ZodObject>(schema: T, codes: FieldCodes<T>): T {
  fieldCodes.add(schema, { fieldCodes: codes });
  return schema;
}

/** The declared code of `field` in `schema`, or null when the schema declares none. */
export function fieldErrorCode(schema: unknown, field: string): ErrorCode | null {
  if (!(schema instanceof z.ZodType)) return null;
  const codes = fieldCodes.get(schema)?.fieldCodes;
  return codes && Object.hasOwn(codes, field) ? (codes[field] ?? null) : null;
}
