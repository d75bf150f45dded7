import type { PaymentStatusMessage, Ticket } from '@qless/contract';
import { normalizeCameroonMobile } from '@qless/contract/core';
import type { MessageKey } from '../../../i18n/en';
import { isEmail } from './phone';

/**
 * What the form asks. The e-mail is optional ('' for none, decision 121); the 2 XAF fee is a
 * fixed line, not a choice (a resume saved before still carries `serviceFee`: ignored).
 */
export interface Customer {
  username: string;
  email: string;
  phone: string;
}

export type FieldErrors = Partial<Record<keyof Customer, MessageKey>>;

export const EMPTY_CUSTOMER: Customer = { username: '', email: '', phone: '' };

/** The payment a wizard follows: what resuming, cancelling and the ticket link need. */
export interface PaymentRef {
  paymentId: string;
  bookingId: string;
  /** The booking's access key (X-Booking-Key): proves this device booked it. */
  accessKey: string;
  /** When the hold lapses unless the payment succeeds (ISO 8601). */
  holdExpiresAt: string;
  /** The code to dial to approve, when the provider gives one. */
  ussd: string | null;
}

/**
 * What releasing a pending payment leads to: `cancel` closes the wizard, `another` returns
 * to the form to change the number, `retry` (after the countdown ran out) to the confirmation.
 */
export type CancelMode = 'cancel' | 'another' | 'retry';

/**
 * The booking wizard (spec 4). Every state past `details` holds a validated customer;
 * `confirm` holds the idempotency reference the next payment attempt will send.
 */
export type WizardState =
  | {
      step: 'details';
      customer: Customer;
      errors: FieldErrors;
      /** The field that takes focus when the form shows. */
      focus: keyof Customer;
    }
  | {
      step: 'confirm';
      customer: Customer;
      /** E.164, checked when the details were submitted. */
      phone: string;
      reference: string;
      paying: boolean;
      submitError: MessageKey | null;
    }
  | {
      step: 'processing';
      customer: Customer;
      phone: string;
      payment: PaymentRef;
      /** Set while the cancel request is in flight. */
      cancelling: CancelMode | null;
      cancelError: MessageKey | null;
    }
  /** `ticket` is null when the slot went to someone else meanwhile: the server refunds. */
  | { step: 'paid'; customer: Customer; phone: string; accessKey: string; ticket: Ticket | null }
  | { step: 'failed'; customer: Customer; phone: string; reason: string | null }
  | {
      step: 'ticket';
      customer: Customer;
      phone: string;
      accessKey: string;
      ticket: Ticket;
      downloading: boolean;
      downloadError: boolean;
    };

/** Fresh references come in with the actions so that the reducer stays pure. */
export type WizardAction =
  | { type: 'edit'; field: keyof Customer; value: string }
  | { type: 'submitDetails'; reference: string }
  | { type: 'back' }
  | { type: 'payStarted' }
  | { type: 'payInitiated'; payment: PaymentRef }
  /** `reference` replaces the current one unless the failure may be retried with it. */
  | { type: 'payFailed'; error: MessageKey; keepReference: boolean; reference: string }
  | { type: 'status'; message: PaymentStatusMessage }
  | { type: 'viewTicket' }
  | { type: 'tryAgain'; reference: string }
  | { type: 'cancelStarted'; mode: CancelMode }
  | { type: 'cancelFailed'; error: MessageKey | null }
  /** The server released the payment and its hold (POST /payment/{id}/cancel answered). */
  | { type: 'cancelled'; reference: string }
  /**
   * A payment started earlier on this device (reload, Back, a closed modal): the wizard opens
   * where that payment stands. `message` is its current status when known.
   */
  | {
      type: 'resume';
      customer: Customer;
      phone: string;
      payment: PaymentRef;
      message: PaymentStatusMessage | null;
    }
  | { type: 'downloadStarted' }
  | { type: 'downloadFailed' }
  | { type: 'downloaded' };

export const initialWizardState: WizardState = {
  step: 'details',
  customer: EMPTY_CUSTOMER,
  errors: {},
  focus: 'username',
};

/**
 * The form with what the page already knows filled in: the number a waitlist offer was sent
 * to. The name takes focus: it is the field still empty.
 */
export function prefilledWizardState(prefill: Partial<Customer> | null | undefined): WizardState {
  if (!prefill) return initialWizardState;
  return {
    step: 'details',
    customer: { ...EMPTY_CUSTOMER, ...prefill },
    errors: {},
    focus: 'username',
  };
}

const isComplete = (customer: Customer) => Object.keys(validateCustomer(customer)).length === 0;

/** The confirmation for another attempt, or the form when details are missing (a resume). */
function confirmOrDetails(customer: Customer, phone: string, reference: string): WizardState {
  if (!isComplete(customer) || !phone) {
    return { step: 'details', customer, errors: {}, focus: 'username' };
  }
  return { step: 'confirm', customer, phone, reference, paying: false, submitError: null };
}

/** Where a status message takes a payment being followed. */
function settle(
  state: { customer: Customer; phone: string; accessKey: string },
  message: PaymentStatusMessage,
): WizardState | null {
  const { customer, phone, accessKey } = state;
  if (message.status === 'SUCCESSFUL') {
    return { step: 'paid', customer, phone, accessKey, ticket: message.ticket };
  }
  if (message.status === 'FAILED') {
    return { step: 'failed', customer, phone, reason: message.failure_code ?? null };
  }
  return null;
}

export function validateCustomer(c: Customer): FieldErrors {
  const errors: FieldErrors = {};
  if (!c.username.trim()) errors.username = 'validation.required';
  if (c.email.trim() && !isEmail(c.email)) errors.email = 'validation.email';
  if (!c.phone.trim()) errors.phone = 'validation.required';
  else if (!normalizeCameroonMobile(c.phone)) errors.phone = 'validation.phone';
  return errors;
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'edit': {
      if (state.step !== 'details') return state;
      const errors = state.errors[action.field]
        ? { ...state.errors, [action.field]: undefined }
        : state.errors;
      return { ...state, customer: { ...state.customer, [action.field]: action.value }, errors };
    }
    case 'submitDetails': {
      if (state.step !== 'details') return state;
      const errors = validateCustomer(state.customer);
      const phone = normalizeCameroonMobile(state.customer.phone);
      if (Object.keys(errors).length > 0 || !phone) return { ...state, errors };
      return {
        step: 'confirm',
        customer: state.customer,
        phone,
        reference: action.reference,
        paying: false,
        submitError: null,
      };
    }
    case 'back':
      if (state.step !== 'confirm' || state.paying) return state;
      return { step: 'details', customer: state.customer, errors: {}, focus: 'username' };
    case 'payStarted':
      if (state.step !== 'confirm' || state.paying) return state;
      return { ...state, paying: true, submitError: null };
    case 'payInitiated':
      if (state.step !== 'confirm') return state;
      return {
        step: 'processing',
        customer: state.customer,
        phone: state.phone,
        payment: action.payment,
        cancelling: null,
        cancelError: null,
      };
    case 'payFailed':
      // Spec 4: a failed initiation stays on the confirmation with the error shown.
      if (state.step !== 'confirm') return state;
      return {
        ...state,
        paying: false,
        submitError: action.error,
        reference: action.keepReference ? state.reference : action.reference,
      };
    case 'status': {
      if (state.step !== 'processing') return state;
      // While a cancel is in flight its answer decides; only a success can overtake it.
      if (state.cancelling && action.message.status !== 'SUCCESSFUL') return state;
      return settle({ ...state, accessKey: state.payment.accessKey }, action.message) ?? state;
    }
    case 'viewTicket':
      if (state.step !== 'paid' || !state.ticket) return state;
      return {
        step: 'ticket',
        customer: state.customer,
        phone: state.phone,
        accessKey: state.accessKey,
        ticket: state.ticket,
        downloading: false,
        downloadError: false,
      };
    case 'tryAgain':
      if (state.step !== 'failed') return state;
      return confirmOrDetails(state.customer, state.phone, action.reference);
    case 'cancelStarted':
      if (state.step !== 'processing' || state.cancelling) return state;
      return { ...state, cancelling: action.mode, cancelError: null };
    case 'cancelFailed':
      if (state.step !== 'processing') return state;
      return { ...state, cancelling: null, cancelError: action.error };
    case 'cancelled': {
      if (state.step !== 'processing' || !state.cancelling) return state;
      const { customer, phone } = state;
      switch (state.cancelling) {
        case 'cancel':
          return initialWizardState;
        case 'another':
          // Same details, a number to type again; the next Pay sends a new reference.
          return {
            step: 'details',
            customer: { ...customer, phone: '' },
            errors: {},
            focus: 'phone',
          };
        case 'retry':
          return confirmOrDetails(customer, phone, action.reference);
      }
      return state;
    }
    case 'resume': {
      const idle = state.step === 'details' || (state.step === 'confirm' && !state.paying);
      if (!idle) return state;
      const { customer, phone, payment, message } = action;
      const settled = message && settle({ customer, phone, accessKey: payment.accessKey }, message);
      if (settled?.step === 'paid' && settled.ticket) {
        // Paid while the customer was away: straight to the ticket.
        return {
          step: 'ticket',
          customer,
          phone,
          accessKey: payment.accessKey,
          ticket: settled.ticket,
          downloading: false,
          downloadError: false,
        };
      }
      return (
        settled ?? {
          step: 'processing',
          customer,
          phone,
          payment,
          cancelling: null,
          cancelError: null,
        }
      );
    }
    case 'downloadStarted':
      if (state.step !== 'ticket' || state.downloading) return state;
      return { ...state, downloading: true, downloadError: false };
    case 'downloadFailed':
      if (state.step !== 'ticket') return state;
      return { ...state, downloading: false, downloadError: true };
    case 'downloaded':
      // Spec 4: after the download the wizard starts over with an empty form.
      if (state.step !== 'ticket') return state;
      return initialWizardState;
  }
}

/** "Step n of 4": the three outcomes of a payment share step 3. */
export const STEP_COUNT = 4;

export function stepNumber(state: WizardState): 1 | 2 | 3 | 4 {
  switch (state.step) {
    case 'details':
      return 1;
    case 'confirm':
      return 2;
    case 'processing':
    case 'paid':
    case 'failed':
      return 3;
    case 'ticket':
      return 4;
  }
}

/** The six screens of spec 2, as the `data-step` attribute numbers them. */
export function screenNumber(state: WizardState): 1 | 2 | 3 | 4 | 5 | 6 {
  switch (state.step) {
    case 'details':
      return 1;
    case 'confirm':
      return 2;
    case 'processing':
      return 3;
    case 'paid':
      return 4;
    case 'failed':
      return 5;
    case 'ticket':
      return 6;
  }
}
