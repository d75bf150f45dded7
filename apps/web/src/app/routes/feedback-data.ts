import { feedbackQuery } from '../../features/feedback/api/feedback-api';
import { firstData } from '../first-data';
import { paths } from '../paths';

/**
 * The link's question arrives in the HTML (a cheap phone on 2G paints the form before any
 * JavaScript); a forged link is a 404. An expired one is asked again by the browser.
 */
export default firstData(paths.feedback.pattern, async ({ params, ask }) => {
  const info = await ask(feedbackQuery(params.token));
  return !info.ok && info.notFound ? 'not-found' : 'found';
});
