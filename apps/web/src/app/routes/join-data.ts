import { joinInfoQuery } from '../../features/queue-public/api/queue-public';
import { firstData } from '../first-data';
import { paths } from '../paths';

/** The organization, its services' lines and whether one can join now: the page's one read. */
export default firstData(paths.join.pattern, async ({ params, ask }) => {
  const info = await ask(joinInfoQuery(params.organizationId));
  return !info.ok && info.notFound ? 'not-found' : 'found';
});
