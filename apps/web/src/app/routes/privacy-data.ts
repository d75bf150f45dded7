import { privacyQuery } from '../../features/privacy/api/privacy-api';
import { firstData } from '../first-data';
import { paths } from '../paths';

/** The retention periods arrive in the HTML: the page reads whole before any JavaScript. */
export default firstData(paths.privacy.pattern, async ({ ask }) => {
  await ask(privacyQuery());
  return 'found';
});
