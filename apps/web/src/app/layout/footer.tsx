import { EXTERNAL_LINKS, PRODUCT_NAME } from '../../config';
import { useI18n } from '../../i18n/i18n';
import { useEmbeddedData } from '../../lib/embedded-data';
import { href, paths } from '../paths';
import { Logo } from './logo';

export function Footer() {
  const { t } = useI18n();
  // The year the server rendered in, while hydrating its page (its clock may differ).
  const rendered = useEmbeddedData().now;
  const year = (rendered ? new Date(rendered) : new Date()).getFullYear();
  const external = (url: string, label: string) => (
    <a href={url} target="_blank" rel="noopener noreferrer">
      {label}
      <span className="visually-hidden"> {t('footer.newTab')}</span>
    </a>
  );
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <Logo />
          <p>{t('footer.tagline')}</p>
        </div>
        <nav aria-labelledby="footer-quick">
          <h2 id="footer-quick">{t('footer.quick')}</h2>
          <ul>
            <li>
              <a href={href(paths.home.build())}>{t('footer.aboutUs')}</a>
            </li>
            <li>
              <a href={href(paths.createService.build())}>{t('footer.contactUs')}</a>
            </li>
            <li>{external(EXTERNAL_LINKS.faq, t('footer.faq'))}</li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-social">
          <h2 id="footer-social">{t('footer.social')}</h2>
          <ul>
            <li>{external(EXTERNAL_LINKS.facebook, 'Facebook')}</li>
            <li>{external(EXTERNAL_LINKS.instagram, 'Instagram')}</li>
            <li>{external(EXTERNAL_LINKS.linkedin, 'LinkedIn')}</li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal">{t('footer.legal')}</h2>
          <ul>
            <li>
              <Placeholder label={t('footer.terms')} />
            </li>
            <li>
              <Placeholder label={t('footer.pricing')} />
            </li>
            <li>
              <a href={href(paths.privacy.build())}>{t('footer.privacy')}</a>
            </li>
            <li>
              <Placeholder label={t('footer.cookies')} />
            </li>
          </ul>
        </nav>
      </div>
      <p className="site-footer__bottom container">
        {t('footer.rights', { year, product: PRODUCT_NAME })}
      </p>
    </footer>
  );
}

/** Spec: the legal pages do not exist yet; the links are placeholders to "#". */
function Placeholder({ label }: { label: string }) {
  return (
    // biome-ignore lint/a11y/useValidAnchor: spec asks for placeholder links to "#".
    <a href="#" onClick={(e) => e.preventDefault()}>
      {label}
    </a>
  );
}
