import { type FormEvent, startTransition, useActionState } from 'react';

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

export function useAction<S, P>(
  action: (payload: P, previous: S) => Promise<S> | S,
  initial: S,
): ActionState<S, P> {
  // A state here is plain data, never a promise, so Awaited<S> is S.
  const [state, dispatch, pending] = useActionState<S, P>(
    (previous, payload) => action(payload, previous as S),
    initial as Awaited<S>,
  );
  return {
    state: pending ? initial : (state as S),
    pending,
    // Outside a <form action>, so that React does not reset the fields a failure leaves to fix.
    run: (payload) => startTransition(() => dispatch(payload)),
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
): Omit<ActionState<S, SubmittedForm>, 'run'> & {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
} {
  const { state, pending, run } = useAction(action, initial);
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
