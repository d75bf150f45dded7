export * from './catalog.js';
export * from './constants.js';
export * from './errors.js';
export * from './payments.js';
export * from './phone.js';
export * from './time.js';
