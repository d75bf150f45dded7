import { PLATFORM_FEE_XAF } from '@qless/contract/core';
import type { ReactNode } from 'react';
import { Icon } from '../../../components/ui/icon';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';

interface Props {
  aboutId: string;
  servicesId: string;
  organizationsHref: string;
  contactHref: string;
}

const FLOW: MessageKey[] = [
  'about.flow.1',
  'about.flow.2',
  'about.flow.3',
  'about.flow.4',
  'about.flow.5',
];
const CUSTOMER_STEPS: MessageKey[] = [
  'about.how.c1',
  'about.how.c2',
  'about.how.c3',
  'about.how.c4',
  'about.how.c5',
];
const ORG_STEPS: MessageKey[] = ['about.how.o1', 'about.how.o2', 'about.how.o3', 'about.how.o4'];
const WHY: [MessageKey, MessageKey, ReactNode][] = [
  ['about.why.fast', 'about.why.fast.body', <path key="i" d="M13 2 4 14h7l-1 8 9-12h-7z" />],
  [
    'about.why.trusted',
    'about.why.trusted.body',
    <path key="i" d="M12 3 5 6v5c0 4.5 3 8.5 7 10 4-1.5 7-5.5 7-10V6zm-3 9 2 2 4-4" />,
  ],
  [
    'about.why.local',
    'about.why.local.body',
    <path
      key="i"
      d="M12 21s7-6 7-11a7 7 0 1 0-14 0c0 5 7 11 7 11zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z"
    />,
  ],
  [
    'about.why.easy',
    'about.why.easy.body',
    <path key="i" d="M12 7v5l3 2m6-2a9 9 0 1 1-18 0 9 9 0 0 1 18 0z" />,
  ],
  [
    'about.why.secure',
    'about.why.secure.body',
    <path key="i" d="M6 11h12v10H6zM8.5 11V7.5a3.5 3.5 0 0 1 7 0V11" />,
  ],
];

export function About({ aboutId, servicesId, organizationsHref, contactHref }: Props) {
  const { t, money } = useI18n();
  // "2 XAF" in English, "2 FCFA" in French.
  const fee = { amount: money(PLATFORM_FEE_XAF) };
  return (
    <>
      <section id={aboutId} className="section about" aria-labelledby={`${aboutId}-title`}>
        <div className="container about__who">
          <p className="eyebrow">{t('about.eyebrow')}</p>
          <h2 id={`${aboutId}-title`} className="section__title">
            {t('about.who.title')}
          </h2>
          <p className="section__lead">{t('about.who.body')}</p>
        </div>
      </section>
      <section
        id={servicesId}
        className="section section--tint"
        aria-labelledby={`${servicesId}-title`}
      >
        <div className="container">
          <h2 id={`${servicesId}-title`} className="section__title">
            {t('about.how.title')}
          </h2>
          <div className="how">
            <article className="how__card">
              <h3>{t('about.how.customers')}</h3>
              <ol className="steps">
                {CUSTOMER_STEPS.map((key) => (
                  <li key={key}>{t(key, fee)}</li>
                ))}
              </ol>
            </article>
            <article className="how__card">
              <h3>{t('about.how.orgs')}</h3>
              <ol className="steps">
                {ORG_STEPS.map((key) => (
                  <li key={key}>{t(key)}</li>
                ))}
              </ol>
            </article>
          </div>
          <h3 className="flow__title">{t('about.flow.title')}</h3>
          <ol className="flow">
            {FLOW.map((key, i) => (
              <li key={key} className="flow__step">
                <span className="flow__num" aria-hidden="true">
                  {i + 1}
                </span>
                <span>{t(key)}</span>
              </li>
            ))}
          </ol>
        </div>
      </section>
      <section className="section" aria-labelledby={`${aboutId}-why`}>
        <div className="container">
          <h2 id={`${aboutId}-why`} className="section__title">
            {t('about.why.title')}
          </h2>
          <ul className="why">
            {WHY.map(([title, body, icon]) => (
              <li key={title} className="why__item">
                <Icon size={28} strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round">
                  {icon}
                </Icon>
                <h3>{t(title)}</h3>
                <p>{t(body)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="section" aria-labelledby={`${aboutId}-cta`}>
        <div className="container">
          <div className="cta">
            <h2 id={`${aboutId}-cta`}>{t('about.cta.title')}</h2>
            <p>{t('about.cta.body')}</p>
            <div className="cta__actions">
              <a className="btn btn--light btn--lg" href={organizationsHref}>
                {t('about.cta.view')}
              </a>
              <a className="btn btn--outline-light btn--lg" href={contactHref}>
                {t('about.cta.register')}
              </a>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
