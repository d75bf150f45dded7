import { type MouseEvent, useEffect, useId, useState } from 'react';
import { useLocation } from 'wouter';
import { CloseIcon, Icon } from '../../components/ui/icon';
import { LOCALES, type Locale, useI18n } from '../../i18n/i18n';
import { useSignedInHint } from '../../lib/signed-in-hint';
import { href, paths, sections } from '../paths';
import { Logo } from './logo';
import { scrollToSection } from './scroll';

export function Header() {
  const { t, locale, setLocale } = useI18n();
  const [location, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const langId = useId();
  const signedIn = useSignedInHint();

  // Close the menu on navigation and with Escape.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on route change.
  useEffect(() => setOpen(false), [location]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const toSection = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    event.preventDefault();
    setOpen(false);
    if (location !== paths.home.pattern) navigate(paths.home.build());
    scrollToSection(id);
  };

  const current = (path: string) => (location === path ? 'page' : undefined);

  return (
    <header className="site-header">
      <a
        className="skip-link"
        href={`#${sections.main}`}
        onClick={(e) => {
          e.preventDefault();
          document.getElementById(sections.main)?.focus();
        }}
      >
        {t('nav.skip')}
      </a>
      <div className="container site-header__bar">
        <a
          className="site-header__brand"
          href={href(paths.home.build())}
          aria-label={t('brand.home')}
        >
          <Logo />
        </a>
        <div className="site-header__right">
          <div className="lang-switch">
            <label htmlFor={langId} className="visually-hidden">
              {t('lang.label')}
            </label>
            <select
              id={langId}
              className="lang-switch__select"
              value={locale}
              onChange={(e) => setLocale(e.target.value as Locale)}
            >
              {LOCALES.map((l) => (
                <option key={l} value={l} lang={l}>
                  {l.toUpperCase()}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="menu-toggle"
            aria-expanded={open}
            aria-controls={menuId}
            aria-label={open ? t('nav.closeMenu') : t('nav.openMenu')}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? (
              <CloseIcon size={24} strokeLinecap="round" />
            ) : (
              <Icon size={24} strokeLinecap="round">
                <path d="M4 7h16M4 12h16M4 17h16" />
              </Icon>
            )}
          </button>
        </div>
        <nav
          id={menuId}
          className={open ? 'site-nav is-open' : 'site-nav'}
          aria-label={t('nav.main')}
        >
          <ul>
            <li>
              <a href={href(paths.home.build())} aria-current={current(paths.home.pattern)}>
                {t('nav.home')}
              </a>
            </li>
            <li>
              <a href={href(paths.home.build())} onClick={(e) => toSection(e, sections.about)}>
                {t('nav.about')}
              </a>
            </li>
            <li>
              <a href={href(paths.home.build())} onClick={(e) => toSection(e, sections.services)}>
                {t('nav.service')}
              </a>
            </li>
            <li>
              <a
                href={href(paths.myBookings.build())}
                aria-current={current(paths.myBookings.pattern)}
              >
                {t('nav.myBookings')}
              </a>
            </li>
            <AccountLinks signedIn={signedIn} current={current} />
          </ul>
        </nav>
      </div>
      {open ? (
        <div className="site-nav__overlay" aria-hidden="true" onClick={() => setOpen(false)} />
      ) : null}
    </header>
  );
}

/**
 * The top bar's account links: Register and Login for a visitor, the workspace once signed
 * in (signed-in staff once saw Register and Log in).
 */
export function AccountLinks(props: {
  signedIn: boolean;
  current: (path: string) => 'page' | undefined;
}) {
  const { t } = useI18n();
  const { signedIn, current } = props;
  return (
    <>
      {signedIn ? (
        <li>
          <a
            className="btn btn--primary site-nav__cta"
            href={href(paths.adminDashboard.build())}
            aria-current={current(paths.adminDashboard.pattern)}
            data-testid="nav-staff-area"
          >
            {t('nav.staffArea')}
          </a>
        </li>
      ) : (
        <>
          <li>
            <a href={href(paths.contact.build())} aria-current={current(paths.contact.pattern)}>
              {t('nav.register')}
            </a>
          </li>
          <li>
            <a
              className="btn btn--primary site-nav__cta"
              href={href(paths.login.build())}
              aria-current={current(paths.login.pattern)}
            >
              {t('nav.login')}
            </a>
          </li>
        </>
      )}
    </>
  );
}
