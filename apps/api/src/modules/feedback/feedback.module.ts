/** The feedback module's public face: what the rest of the API may use of it. */

export { feedbackSummary } from './feedback.repository.js';
export { feedbackRoutes } from './feedback.routes.js';
export { FeedbackService } from './feedback.service.js';
export { FeedbackLinks } from './feedback-links.js';
export { FeedbackRequests, withdrawFeedback } from './feedback-messages.js';
