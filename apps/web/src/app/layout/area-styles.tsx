import checkinCss from '../../features/checkin/components/checkin.css?url';
import areaCss from '../../features/organization-admin/components/area.css?url';
import platformCss from '../../features/platform/components/platform.css?url';
import queueCss from '../../features/queue/components/queue.css?url';

/**
 * The organization area's and the console's styles, as stylesheets of their own: inlined
 * with the public pages' CSS they pushed the HTML of `/` past the first round trip on 2G
 * (decision 112). React 19 puts them in the head and holds the area's first paint until
 * they are loaded; the area's chunk is what imports them.
 */
export function AreaStyles() {
  return (
    <>
      {[areaCss, checkinCss, queueCss, platformCss].map((href) => (
        <link key={href} rel="stylesheet" href={href} precedence="area" />
      ))}
    </>
  );
}
