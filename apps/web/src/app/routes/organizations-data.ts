import { organizationSearchQuery } from '../../features/organizations/api/search-organizations';
import { firstData } from '../first-data';
import { paths, readListQuery } from '../paths';

/** The page of the list the address asks (its search text and page). */
export default firstData(paths.organizations.pattern, async ({ query, ask }) => {
  const { q, page } = readListQuery(query);
  await ask(organizationSearchQuery(q, page));
  return 'found';
});
