/**
 * Insight's limits and names without zod: the web reads them from
 * `@qless/contract/core`, the API's schemas (insight.ts) from here too.
 */

/** The longest range one request may cover (a leap year). */
export const INSIGHT_MAX_DAYS = 366;

/** What the CSV export can hold. */
export const INSIGHT_EXPORT_KINDS = ['visits', 'bookings'] as const;
export type InsightExportKind = (typeof INSIGHT_EXPORT_KINDS)[number];

/**
 * How the CSV is written (decision 122): `csv` standard (commas, English), `excel-fr` for
 * Excel set to French (";", French words, decimal comma). A French screen asks for the second.
 */
export const INSIGHT_EXPORT_FORMATS = ['csv', 'excel-fr'] as const;
export type InsightExportFormat = (typeof INSIGHT_EXPORT_FORMATS)[number];

/** How many calls out of turn Insight lists (newest first; the clerks' counts cover all). */
export const INSIGHT_OUT_OF_ORDER_ROWS = 200;
