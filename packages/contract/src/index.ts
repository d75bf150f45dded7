export * from './auth.js';
export * from './catalog.js';
export * from './contact.js';
export * from './core.js';
export * from './errors.js';
export * from './payments.js';
export * from './tickets.js';
export * from './time-schemas.js';
