import { boardQuery } from '../../features/queue-public/api/queue-public';
import { firstData } from '../first-data';
import { paths } from '../paths';

/** The board's snapshot: the hall's numbers arrive in the HTML (a revoked link is a 404). */
export default firstData(paths.board.pattern, async ({ params, ask }) => {
  const board = await ask(boardQuery(params.token));
  return !board.ok && board.notFound ? 'not-found' : 'found';
});
