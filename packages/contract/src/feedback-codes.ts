/**
 * A word after the visit: the zod-free part (the web's page imports these
 * values without zod). A visit that ends `done` with a phone gets one SMS with a link
 * `/feedback/{token}`; the token names the visit and its expiry and is signed by the server.
 */

/** The ratings, worst to best. */
export const FEEDBACK_RATINGS = [1, 2, 3, 4, 5] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** The longest comment, in characters once trimmed (the database checks it too). */
export const FEEDBACK_COMMENT_MAX = 500;

/** How long a feedback link works after the visit ended. */
export const FEEDBACK_LINK_DAYS = 7;

/** The most comments a summary carries (the latest). */
export const FEEDBACK_SUMMARY_COMMENTS = 50;
