/**
 * The zod-free part of the contract: constants, error codes, date/time and phone helpers.
 * The web app imports values from here (`@qless/contract/core`) so that zod stays out of
 * its bundles; types can come from the main entry (type imports cost nothing).
 */
export * from './catalog-search.js';
export * from './checkin-codes.js';
export * from './constants.js';
export * from './counter-words.js';
export * from './error-codes.js';
export * from './feedback-codes.js';
export * from './insight-limits.js';
export * from './localized-name.js';
export * from './payment-outcomes.js';
export * from './phone.js';
export * from './self-service-codes.js';
export * from './time.js';
export * from './waitlist-codes.js';
export * from './zone-label.js';
