import type { FeedbackInfo, FeedbackRequest } from '@qless/contract';
import { apiFetch, apiQuery, fetchQuery } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';

/** What the link asks about (organization, service, day) and whether it was answered. */
export const feedbackQuery = (token: string) => apiQuery<FeedbackInfo>(apiPaths.feedback(token));

export function getFeedback(token: string, signal?: AbortSignal): Promise<FeedbackInfo> {
  return fetchQuery(feedbackQuery(token), signal);
}

/** The one answer of the link: 409 FEEDBACK_ALREADY_GIVEN once one was kept. */
export function giveFeedback(token: string, answer: FeedbackRequest): Promise<{ given: true }> {
  return apiFetch<{ given: true }>(apiPaths.feedback(token), { method: 'POST', body: answer });
}
