import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { ChevronIcon, Icon } from '../../../components/ui/icon';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { useMediaQuery } from '../../../lib/use-media-query';

/** Spec 9: the carousel advances every 3500 ms. */
const CAROUSEL_INTERVAL_MS = 3500;

interface Slide {
  title: MessageKey;
  sub: MessageKey;
  cta: MessageKey;
  href: string;
  art: 'calendar' | 'queue' | 'ticket';
}

interface Props {
  organizationsHref: string;
  contactHref: string;
}

// Both render as "motion allowed, page visible" on the server and while hydrating, then
// follow the browser (useSyncExternalStore's server snapshot).
const usePrefersReducedMotion = () => useMediaQuery('(prefers-reduced-motion: reduce)');

function subscribeVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

function usePageVisible(): boolean {
  return useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState !== 'hidden',
    () => true,
  );
}

/**
 * Spec: 3 slides, 3500 ms, wraps 3 → 1. It holds still while the pointer is over it, while
 * focus is inside, while the tab is hidden, when the user pressed pause, and when the
 * system asks for reduced motion (then the user moves it with the controls).
 */
export function Carousel({ organizationsHref, contactHref }: Props) {
  const { t } = useI18n();
  const id = useId();
  const slides: Slide[] = [
    {
      title: 'hero.s1.title',
      sub: 'hero.s1.sub',
      cta: 'hero.s1.cta',
      href: organizationsHref,
      art: 'calendar',
    },
    {
      title: 'hero.s2.title',
      sub: 'hero.s2.sub',
      cta: 'hero.s2.cta',
      href: contactHref,
      art: 'queue',
    },
    {
      title: 'hero.s3.title',
      sub: 'hero.s3.sub',
      cta: 'hero.s3.cta',
      href: organizationsHref,
      art: 'ticket',
    },
  ];
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [userPaused, setUserPaused] = useState(false);
  const reducedMotion = usePrefersReducedMotion();
  const visible = usePageVisible();
  const running = !hovered && !focused && !userPaused && !reducedMotion && visible;

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % 3), CAROUSEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [running]);

  const go = (next: number) => setIndex((next + 3) % 3);

  return (
    <section
      className="hero"
      aria-roledescription="carousel"
      aria-label={t('hero.label')}
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="hero__slides" aria-live={running ? 'off' : 'polite'}>
        {slides.map((slide, i) => (
          // biome-ignore lint/a11y/useSemanticElements: WAI-ARIA carousel pattern: a slide is role=group.
          <div
            key={slide.title}
            id={`${id}-slide-${i}`}
            className={i === index ? 'hero__slide is-active' : 'hero__slide'}
            data-art={slide.art}
            role="group"
            aria-roledescription="slide"
            aria-label={t('hero.slide', { n: i + 1, total: 3 })}
            aria-hidden={i !== index}
            inert={i !== index}
          >
            <div className="hero__inner container">
              <div className="hero__copy">
                {i === 0 ? (
                  <h1 className="hero__title">{t(slide.title)}</h1>
                ) : (
                  <h2 className="hero__title">{t(slide.title)}</h2>
                )}
                <p className="hero__sub">{t(slide.sub)}</p>
                <a className="btn btn--light btn--lg" href={slide.href}>
                  {t(slide.cta)}
                </a>
              </div>
              <HeroArt kind={slide.art} />
            </div>
          </div>
        ))}
      </div>
      <div className="hero__controls container">
        <button
          type="button"
          className="hero__ctl"
          aria-label={t('hero.prev')}
          onClick={() => go(index - 1)}
        >
          <ChevronIcon dir="left" strokeWidth={2.2} />
        </button>
        <div className="hero__dots">
          {slides.map((slide, i) => (
            <button
              key={slide.title}
              type="button"
              className={i === index ? 'hero__dot is-active' : 'hero__dot'}
              aria-label={t('hero.goTo', { n: i + 1 })}
              aria-controls={`${id}-slide-${i}`}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => go(i)}
            />
          ))}
        </div>
        <button
          type="button"
          className="hero__ctl"
          aria-label={t('hero.next')}
          onClick={() => go(index + 1)}
        >
          <ChevronIcon dir="right" strokeWidth={2.2} />
        </button>
        {reducedMotion ? null : (
          <button
            type="button"
            className="hero__ctl"
            aria-label={userPaused ? t('hero.play') : t('hero.pause')}
            aria-pressed={userPaused}
            onClick={() => setUserPaused((p) => !p)}
          >
            <Icon filled>
              {userPaused ? <path d="M8 5v14l11-7z" /> : <path d="M7 5h4v14H7zM13 5h4v14h-4z" />}
            </Icon>
          </button>
        )}
      </div>
    </section>
  );
}

/** Light inline illustrations: no image download on the first screen. */
function HeroArt({ kind }: { kind: 'calendar' | 'queue' | 'ticket' }) {
  return (
    <svg
      className="hero__art"
      aria-hidden="true"
      width="280"
      height="240"
      viewBox="0 0 280 240"
      fill="none"
    >
      <rect x="20" y="20" width="240" height="200" rx="28" fill="rgba(255,255,255,0.12)" />
      {kind === 'calendar' ? (
        <g stroke="#fff" strokeWidth="6" strokeLinecap="round">
          <rect x="70" y="62" width="140" height="120" rx="16" fill="rgba(255,255,255,0.1)" />
          <path d="M70 96h140M104 48v26M176 48v26" />
          <path d="m112 138 18 18 36-36" stroke="#7CF0B5" />
        </g>
      ) : kind === 'queue' ? (
        <g fill="#fff">
          <circle cx="80" cy="92" r="18" />
          <rect x="58" y="118" width="44" height="60" rx="20" />
          <circle cx="140" cy="92" r="18" opacity="0.7" />
          <rect x="118" y="118" width="44" height="60" rx="20" opacity="0.7" />
          <circle cx="200" cy="92" r="18" opacity="0.4" />
          <rect x="178" y="118" width="44" height="60" rx="20" opacity="0.4" />
        </g>
      ) : (
        <g>
          <rect
            x="92"
            y="40"
            width="96"
            height="164"
            rx="18"
            fill="rgba(255,255,255,0.15)"
            stroke="#fff"
            strokeWidth="5"
          />
          <rect x="110" y="70" width="60" height="60" rx="6" fill="#fff" />
          <path
            d="M118 78h14v14h-14zM148 78h14v14h-14zM118 108h14v14h-14zM146 106h6v6h-6zM156 116h6v6h-6z"
            fill="#0A4FB8"
          />
          <path d="M112 150h56M112 166h36" stroke="#fff" strokeWidth="5" strokeLinecap="round" />
        </g>
      )}
    </svg>
  );
}
