import { About } from '../../features/landing/components/about';
import { Carousel } from '../../features/landing/components/carousel';
import { href, paths, sections } from '../paths';

export function LandingRoute() {
  const organizationsHref = href(paths.organizations.build());
  const contactHref = href(paths.contact.build());
  return (
    <>
      <Carousel organizationsHref={organizationsHref} contactHref={contactHref} />
      <About
        aboutId={sections.about}
        servicesId={sections.services}
        organizationsHref={organizationsHref}
        contactHref={contactHref}
      />
    </>
  );
}
