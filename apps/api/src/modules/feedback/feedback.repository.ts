/**
 * Visit feedback in the database: the visit a link names, an answer, and
 * the summary Insight shows. Repositories take `db` or a transaction first.
 */
import { FEEDBACK_RATINGS, FEEDBACK_SUMMARY_COMMENTS, type FeedbackSummary } from '@qless/contract';
import { sql } from 'kysely';
import { placeName } from '../../core/organizations.repository.js';
import type { Db } from '../../db/schema.js';

/** The visit of a link with what the page names, and whether it was answered. */
export function findFeedbackVisit(db: Db, visitId: string) {
  return db
    .selectFrom('visits as v')
    .innerJoin('organizations as o', 'o.id', 'v.organization_id')
    .innerJoin('services as s', 's.id', 'v.service_id')
    .leftJoin('visit_feedback as f', 'f.visit_id', 'v.id')
    .select([
      'v.id',
      'v.organization_id',
      'v.service_id',
      'v.visit_date',
      'v.state',
      'v.locale',
      placeName('o').as('organization_name'),
      's.name as service_name',
      's.name_fr as service_name_fr',
      'f.id as feedback_id',
    ])
    .where('v.id', '=', visitId)
    .executeTakeFirst();
}
export type FeedbackVisit = NonNullable<Awaited<ReturnType<typeof findFeedbackVisit>>>;

/** Stores an answer; a second one for the visit fails on `visit_feedback_visit_uq`. */
export async function insertFeedback(
  db: Db,
  visit: FeedbackVisit,
  answer: { rating: number; comment: string | null },
  now: Date,
): Promise<void> {
  await db
    .insertInto('visit_feedback')
    .values({
      visit_id: visit.id,
      organization_id: visit.organization_id,
      service_id: visit.service_id,
      visit_date: visit.visit_date,
      rating: answer.rating,
      comment: answer.comment,
      locale: visit.locale,
      created_at: now,
    })
    .execute();
}

/**
 * The answers about the visits of `organizationIds` (branches) whose day is between `from`
 * and `to` (yyyy-MM-dd, inclusive): how many, their average to one decimal (null when none),
 * how many of each rating, and the latest FEEDBACK_SUMMARY_COMMENTS comments (latest visit
 * day first, then latest answer) as plain text. Two reads on migration 017's indexes; a
 * counter filter reads each answer's visit too.
 */
export async function feedbackSummary(
  db: Db,
  organizationIds: string[],
  from: string,
  to: string,
  filters: { serviceId?: string | undefined; counterId?: string | undefined } = {},
): Promise<FeedbackSummary> {
  const distribution: FeedbackSummary['distribution'] = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
  if (organizationIds.length === 0) return { count: 0, average: null, distribution, comments: [] };
  let scope = db
    .selectFrom('visit_feedback as f')
    .where('f.organization_id', 'in', organizationIds)
    .where('f.visit_date', '>=', from)
    .where('f.visit_date', '<=', to);
  if (filters.serviceId) scope = scope.where('f.service_id', '=', filters.serviceId);
  // The counter that served the visit is the visit's (read only when asked).
  if (filters.counterId) {
    const counterId = filters.counterId;
    scope = scope.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('visits as v')
          .select('v.id')
          .whereRef('v.id', '=', 'f.visit_id')
          .where('v.counter_id', '=', counterId),
      ),
    );
  }

  const [counts, comments] = await Promise.all([
    scope
      .select(['f.rating', sql<string>`count(*)`.as('n')])
      .groupBy('f.rating')
      .execute(),
    scope
      .innerJoin('services as s', 's.id', 'f.service_id')
      .select([
        'f.rating',
        'f.comment',
        'f.visit_date',
        'f.organization_id',
        'f.service_id',
        's.name as service',
        's.name_fr as service_fr',
      ])
      .where('f.comment', 'is not', null)
      .orderBy('f.visit_date', 'desc')
      .orderBy('f.created_at', 'desc')
      .orderBy('f.id', 'desc')
      .limit(FEEDBACK_SUMMARY_COMMENTS)
      .execute(),
  ]);

  let count = 0;
  let sum = 0;
  for (const row of counts) {
    const n = Number(row.n);
    const rating = row.rating as (typeof FEEDBACK_RATINGS)[number];
    if (!FEEDBACK_RATINGS.includes(rating)) continue;
    distribution[rating] = n;
    count += n;
    sum += rating * n;
  }
  return {
    count,
    average: count === 0 ? null : Math.round((sum / count) * 10) / 10,
    distribution,
    comments: comments.map((c) => ({
      rating: c.rating,
      comment: c.comment ?? '',
      date: c.visit_date,
      organization_id: c.organization_id,
      service_id: c.service_id,
      service: c.service,
      service_fr: c.service_fr,
    })),
  };
}
