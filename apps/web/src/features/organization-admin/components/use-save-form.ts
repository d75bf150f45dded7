import { type ChangeEvent, useState } from 'react';
import { useFormAction } from '../../../components/form/use-form-action';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { formErrors } from '../lib/form-errors';

type FieldKeys<F extends string> = Partial<Record<F, MessageKey>>;

/** Where a save stands: untried (or running), refused with reasons, or saved. */
export type SaveState<F extends string, R> =
  | { status: 'idle'; errors: FieldKeys<F> }
  | { status: 'refused'; errors: FieldKeys<F>; other: MessageKey[] }
  | { status: 'saved'; errors: FieldKeys<F>; saved: R };

/** Keys of V whose values are text, the ones an <input> or <textarea> edits. */
type TextKey<V> = { [K in keyof V]: V[K] extends string ? K : never }[keyof V] & string;

const IDLE = { status: 'idle', errors: {} } as const;

/**
 * An edit form of the organization area: the values as typed, the browser-side check
 * (`read`), the save, and the refusal put under each field the server named (`fieldKeys`)
 * or listed apart. `settled` runs once the answer is known, before it is shown.
 */
export function useSaveForm<V extends object, F extends keyof V & string, Q, R>(options: {
  initial: () => V;
  read: (values: V) => { ok: true; request: Q } | { ok: false; errors: FieldKeys<F> };
  /** Sends the request; `setValues` puts the saved values back in the form. */
  save: (request: Q, setValues: (values: V) => void) => Promise<R>;
  fieldKeys: Record<F, MessageKey | null>;
  settled?: () => void;
}) {
  const { t } = useI18n();
  const [values, setValues] = useState<V>(options.initial);
  const set =
    <K extends keyof V>(field: K) =>
    (value: V[K]) =>
      setValues((v) => ({ ...v, [field]: value }));

  const refusal = (errors: FieldKeys<F>, other: MessageKey[] = []): SaveState<F, R> => ({
    status: 'refused',
    errors,
    other,
  });

  const attempt = async (): Promise<SaveState<F, R>> => {
    const read = options.read(values);
    if (!read.ok) return refusal(read.errors);
    try {
      return { status: 'saved', errors: {}, saved: await options.save(read.request, setValues) };
    } catch (error) {
      const found = formErrors(error, options.fieldKeys);
      return refusal(found.fields, found.other);
    }
  };

  const form = useFormAction<SaveState<F, R>>(
    async () => {
      const answer = await attempt();
      options.settled?.();
      return answer;
    },
    IDLE,
    // The browser-side check: what to fix shows at once, nothing is sent.
    () => {
      const read = options.read(values);
      if (read.ok) return null;
      options.settled?.();
      return refusal(read.errors);
    },
  );

  const errors: FieldKeys<F> = form.state.errors;
  /** The words under a field, if it was refused. */
  const error = (field: F) => {
    const key = errors[field];
    return key ? t(key) : undefined;
  };
  /** A text field's name, value, change handler and error, to spread on an InputField. */
  const bind = <K extends TextKey<V> & F>(field: K) => ({
    name: field,
    value: values[field] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      set(field)(event.target.value as V[K]),
    error: error(field),
  });

  return { ...form, values, setValues, set, errors, error, bind };
}
