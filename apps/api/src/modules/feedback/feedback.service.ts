/**
 * A word after the visit: the page's question and the one answer a link
 * takes. The link's token is the only credential: checked before anything is read, so a
 * forged one learns nothing (not even whether a visit exists).
 */
import type { FeedbackInfo } from '@qless/contract';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../errors.js';
import { type FeedbackVisit, findFeedbackVisit, insertFeedback } from './feedback.repository.js';
import type { FeedbackLinks } from './feedback-links.js';

const invalid = () =>
  new AppError(404, 'FEEDBACK_LINK_INVALID', 'This feedback link is not valid.');
const expired = () =>
  new AppError(
    410,
    'FEEDBACK_LINK_EXPIRED',
    'This feedback link has expired: links work for 7 days after the visit.',
  );
const alreadyGiven = () =>
  new AppError(409, 'FEEDBACK_ALREADY_GIVEN', 'Thank you: your feedback was already received.');

export class FeedbackService {
  constructor(private readonly deps: { db: Db; clock: Clock; links: FeedbackLinks }) {}

  /**
   * The visit a token names, while its link works: 404 FEEDBACK_LINK_INVALID (altered,
   * forged, or a visit that is not done), 410 FEEDBACK_LINK_EXPIRED. Cheap for a forged
   * token: refused before any read.
   */
  async visitOf(token: string): Promise<FeedbackVisit & { expiresAt: Date }> {
    const link = this.deps.links.read(token, this.deps.clock.now());
    if (link.kind === 'invalid') throw invalid();
    if (link.kind === 'expired') throw expired();
    const visit = await findFeedbackVisit(this.deps.db, link.visitId);
    if (visit?.state !== 'done') throw invalid();
    return { ...visit, expiresAt: link.expiresAt };
  }

  async info(token: string): Promise<FeedbackInfo> {
    const visit = await this.visitOf(token);
    return {
      organization_name: visit.organization_name,
      service_name: visit.service_name,
      service_name_fr: visit.service_name_fr,
      visit_date: visit.visit_date,
      locale: visit.locale,
      expires_at: visit.expiresAt.toISOString(),
      given: visit.feedback_id !== null,
    };
  }

  /** The one answer of a visit; the unique visit_id decides a race (409 for the loser). */
  async give(
    visit: FeedbackVisit,
    answer: { rating: number; comment: string | null },
  ): Promise<void> {
    if (visit.feedback_id !== null) throw alreadyGiven();
    try {
      await insertFeedback(this.deps.db, visit, answer, this.deps.clock.now());
    } catch (error) {
      if (isUniqueViolation(error, 'visit_feedback_visit_uq')) throw alreadyGiven();
      throw error;
    }
  }
}
