import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

/** What ties a control to its label, hint and error: spread onto the control. */
export interface FieldIds {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/** The label, hint and error words of a field. */
export interface FieldText {
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
}

/**
 * The control's ids for a field: the hint and error are read out with it (aria-describedby),
 * and an error marks it invalid. Hint and error ids are `${id}-hint` and `${id}-error`.
 */
export function fieldIds(id: string, text: Pick<FieldText, 'hint' | 'error'>): FieldIds {
  const describedBy = [text.hint ? `${id}-hint` : '', text.error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return {
    id,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(text.error ? { 'aria-invalid': true } : {}),
  };
}

/** A labelled form field: the label, hint and error are tied to the control by ids. */
export function Field(props: FieldText & { children: (ids: FieldIds) => ReactNode }) {
  const id = useId();
  return (
    <div className={props.error ? 'field field--invalid' : 'field'}>
      <label htmlFor={id}>{props.label}</label>
      {props.children(fieldIds(id, props))}
      {props.hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {props.hint}
        </p>
      ) : null}
      {props.error ? (
        <p id={`${id}-error`} className="field__error">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}

type Control<A> = FieldText & Omit<A, 'id' | 'children'>;

/** A field whose control is an <input class="input">; other attributes go to the input. */
export function InputField({
  label,
  hint,
  error,
  className = 'input',
  ...input
}: Control<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(ids) => <input {...ids} className={className} {...input} />}
    </Field>
  );
}

/** A field whose control is a <textarea class="input">. */
export function TextAreaField({
  label,
  hint,
  error,
  className = 'input',
  ...input
}: Control<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(ids) => <textarea {...ids} className={className} {...input} />}
    </Field>
  );
}

/** A field whose control is a <select class="input">; the options are its children. */
export function SelectField({
  label,
  hint,
  error,
  className = 'input',
  children,
  ...input
}: Control<SelectHTMLAttributes<HTMLSelectElement>> & { children: ReactNode }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(ids) => (
        <select {...ids} className={className} {...input}>
          {children}
        </select>
      )}
    </Field>
  );
}
