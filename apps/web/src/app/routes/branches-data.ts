import { branchesQuery } from '../../features/branches/api/get-branches';
import { firstData } from '../first-data';
import { paths } from '../paths';

/** The organization and its branches: the page's one read (the city filter is the page's own). */
export default firstData(paths.branches.pattern, async ({ params, ask }) => {
  const branches = await ask(branchesQuery(params.orgId));
  return !branches.ok && branches.notFound ? 'not-found' : 'found';
});
