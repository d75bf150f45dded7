/** The privacy module's public face: what the rest of the API may use of it. */
export { privacyRoutes } from './privacy.routes.js';
export { PersonalDataSweep } from './retention-sweep.js';
