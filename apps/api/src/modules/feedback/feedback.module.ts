import type { ApiModule, AppDeps } from '../../app-deps.js';
import { limiter } from '../../limits/limiter.js';
import { feedbackRoutes } from './feedback.routes.js';
import { FeedbackService } from './feedback.service.js';
import { FeedbackLinks } from './feedback-links.js';
import { FeedbackRequests } from './feedback-messages.js';

export { feedbackSummary } from './feedback.repository.js';
export { type FeedbackRequests, withdrawFeedback } from './feedback-messages.js';

export interface FeedbackModule extends ApiModule {
  /** The SMS asking for a word once a visit is done (the queue sends it). */
  requests: FeedbackRequests;
}

/** A word after the visit: one SMS once a visit is done, its link signed; the answers kept. */
export async function feedbackModule(deps: AppDeps): Promise<FeedbackModule> {
  const { db, clock, config } = deps;
  const links = await FeedbackLinks.load(db);
  return {
    requests: new FeedbackRequests({ publicOrigin: config.publicOrigin, links }),
    routes: [feedbackRoutes(new FeedbackService({ db, clock, links }), limiter(db, clock, config))],
  };
}
