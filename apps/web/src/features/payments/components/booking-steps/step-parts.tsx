import type { ReactNode, Ref } from 'react';
import type { MessageKey } from '../../../../i18n/en';
import { useI18n } from '../../../../i18n/i18n';

/** Each step past the form names the dialog and takes focus, so screen readers follow. */
export function StepHeading(props: {
  id: string;
  headingRef: Ref<HTMLHeadingElement>;
  children: ReactNode;
}) {
  return (
    <h2 id={props.id} ref={props.headingRef} tabIndex={-1} className="modal__title">
      {props.children}
    </h2>
  );
}

/** What a row shows for a value the customer did not give (an e-mail, decision 121). */
export const NO_VALUE = '—';

export function Rows({ rows }: { rows: readonly (readonly [MessageKey, string])[] }) {
  const { t } = useI18n();
  return (
    <dl className="rows">
      {rows.map(([key, value]) => (
        <div key={key} className="rows__row" data-row={key}>
          <dt>{t(key)}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * A translated sentence with an element in the place of `{slot}` (a link inside the text);
 * the placeholder is left in the text because it was given no value.
 */
export function WithSlot(props: { text: string; slot: string; children: ReactNode }) {
  const marker = `{${props.slot}}`;
  const at = props.text.indexOf(marker);
  if (at < 0) return <>{props.text}</>;
  return (
    <>
      {props.text.slice(0, at)}
      {props.children}
      {props.text.slice(at + marker.length)}
    </>
  );
}
