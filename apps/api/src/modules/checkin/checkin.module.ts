/** The checkin module's public face: what the rest of the API may use of it. */
export { checkinRoutes } from './checkin.routes.js';
