import { serviceQuery } from '../../features/slots/api/get-service';
import { slotsQuery } from '../../features/slots/api/get-slots';
import { occupancyQuery } from '../../features/slots/api/get-taken-slots';
import { FIRST_VIEW, shownDates, takenRange } from '../../features/slots/lib/calendar';
import { firstData } from '../first-data';
import { paths } from '../paths';

/**
 * The service, its slots and the seats taken on the days the week view shows first (a
 * phone's first strip page from the organization's today), asked as the view asks them.
 */
export default firstData(paths.slots.pattern, async ({ params, ask }) => {
  const [service, slots] = await Promise.all([
    ask(serviceQuery(params.serviceId)),
    ask(slotsQuery(params.serviceId)),
  ]);
  if (!service.ok && service.notFound) return 'not-found';
  if (slots.ok) {
    const { today, bookable_until } = slots.body;
    const range = takenRange(shownDates(today, bookable_until, FIRST_VIEW));
    if (range) await ask(occupancyQuery(params.serviceId, range));
  }
  return 'found';
});
