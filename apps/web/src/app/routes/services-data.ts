import { organizationQuery } from '../../features/organizations/api/get-organization';
import { organizationServicesQuery } from '../../features/services/api/get-services';
import { firstData } from '../first-data';
import { paths } from '../paths';

/**
 * The organization and its services. Not the switcher's list of every organization (670 KB
 * at 100× the demo): the page renders with its own organization there and asks for the list
 * once it is live.
 */
export default firstData(paths.services.pattern, async ({ params, ask }) => {
  const [organization] = await Promise.all([
    ask(organizationQuery(params.orgId)),
    ask(organizationServicesQuery(params.orgId)),
  ]);
  return !organization.ok && organization.notFound ? 'not-found' : 'found';
});
