import { useParams } from 'wouter';
import { FeedbackPage } from '../../features/feedback/components/feedback-page';
import { useDocumentTitle } from '../../lib/use-document-title';
import { href, paths } from '../paths';

/** `/feedback/{token}`: the SMS link after a visit, a rating of 1 to 5 and a few words. */
export default function FeedbackRoute() {
  const { token = '' } = useParams<{ token: string }>();
  useDocumentTitle('feedback.title');
  return <FeedbackPage key={token} token={token} homeHref={href(paths.home.build())} />;
}
