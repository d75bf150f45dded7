import { type ReactNode, useId } from 'react';

/** A labelled form field: the label, hint and error are tied to the control by ids. */
interface FieldIds {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

export function Field(props: {
  label: string;
  hint?: string;
  error?: string | undefined;
  children: (ids: FieldIds) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [props.hint ? hintId : '', props.error ? errorId : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={props.error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.children({
        id,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(props.error ? { 'aria-invalid': true } : {}),
      })}
      {props.hint ? (
        <p id={hintId} className="field__hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} className="field__error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
