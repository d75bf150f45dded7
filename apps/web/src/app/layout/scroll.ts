/** Smooth-scrolls to a landing section, or jumps when the user prefers reduced motion. */
export function scrollToSection(id: string, attempts = 20): void {
  const el = document.getElementById(id);
  if (!el) {
    // The landing page may still be rendering after a route change.
    if (attempts > 0) setTimeout(() => scrollToSection(id, attempts - 1), 50);
    return;
  }
  const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  const heading = el.querySelector<HTMLElement>('h2');
  if (heading) {
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }
}
