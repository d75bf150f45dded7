import { type FormEvent, startTransition, useActionState, useState } from 'react';

/**
 * An action's answer and whether it is running, on React's useActionState.
 *
 * While the action runs, `state` reads as `initial` again: a new try clears the last answer
 * (and its field errors) at once, rather than leaving it on screen beside the busy button.
 * The action must not throw (useActionState would hand the error to the error boundary):
 * it turns each failure into a state.
 */
export interface ActionState<S, P> {
  state: S;
  pending: boolean;
  /** Starts the action; a second call waits for the first to finish. */
  run: (payload: P) => void;
}

/**
 * `check` is the browser-side check, run before the action: the state it returns (what to
 * fix) is shown at once and the action does not run, so the button never says "busy" for
 * a form that was not sent.
 */
export function useAction<S, P>(
  action: (payload: P, previous: S) => Promise<S> | S,
  initial: S,
  check?: (payload: P) => S | null,
): ActionState<S, P> {
  // A state here is plain data, never a promise, so Awaited<S> is S.
  const [state, dispatch, pending] = useActionState<S, P>(
    (previous, payload) => action(payload, previous as S),
    initial as Awaited<S>,
  );
  const [refused, setRefused] = useState<{ state: S } | null>(null);
  return {
    state: pending ? initial : refused ? refused.state : (state as S),
    pending,
    run: (payload) => {
      const found = check?.(payload) ?? null;
      setRefused(found === null ? null : { state: found });
      if (found !== null) return;
      // Outside a <form action>, so that React does not reset the fields a failure leaves to fix.
      startTransition(() => dispatch(payload));
    },
  };
}

/** A submitted form: its element (to reset it) and its values as they were on submit. */
export interface SubmittedForm {
  element: HTMLFormElement;
  data: FormData;
}

/** useAction for a form's onSubmit: the page does not reload, the action gets the form. */
export function useFormAction<S>(
  action: (form: SubmittedForm, previous: S) => Promise<S> | S,
  initial: S,
  check?: (form: SubmittedForm) => S | null,
): Omit<ActionState<S, SubmittedForm>, 'run'> & {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
} {
  const { state, pending, run } = useAction(action, initial, check);
  return {
    state,
    pending,
    onSubmit: (event) => {
      event.preventDefault();
      const element = event.currentTarget;
      run({ element, data: new FormData(element) });
    },
  };
}

/** A text value of submitted form data ('' when absent), trimmed when asked. */
export function formText(data: FormData, name: string, trim = false): string {
  const value = data.get(name);
  const text = typeof value === 'string' ? value : '';
  return trim ? text.trim() : text;
}
