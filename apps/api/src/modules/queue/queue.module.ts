/** The queue module's public face: what the rest of the API may use of it. */

export { JoinCodes } from './join-code.js';
export { joinCodeRoutes } from './join-code.routes.js';
export { queueRoutes } from './queue.routes.js';
export { enterBookingVisit, moveBookingVisitArrival, QueueService } from './queue.service.js';
export { QueueClosingSweep } from './queue-closing.js';
export { type BookingQueueArrival, bookingQueueArrival } from './queue-entry.js';
export { QUEUE_CHANNEL } from './queue-events.js';
export { QueueHub } from './queue-hub.js';
export { queueLiveRoutes } from './queue-live.routes.js';
export { TurnMessages } from './turn-messages.js';
export { inTransaction } from './visits.repository.js';
