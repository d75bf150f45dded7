/** The services module's public face: what the rest of the API may use of it. */
export { findListedService, listActiveServices, toService } from './services.repository.js';
