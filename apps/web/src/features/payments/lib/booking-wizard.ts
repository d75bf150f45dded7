import type { PaymentStatusMessage, Ticket } from '@qless/contract';
import { normalizeCameroonMobile, PLATFORM_FEE_XAF } from '@qless/contract/core';
import type { MessageKey } from '../../../i18n/en';
import { isEmail } from './phone';

export interface Customer {
  username: string;
  email: string;
  phone: string;
  serviceFee: string;
}

export type FieldErrors = Partial<Record<keyof Customer, MessageKey>>;

const EMPTY_CUSTOMER: Customer = { username: '', email: '', phone: '', serviceFee: '' };

/**
 * The booking wizard (spec 4). Every state past `details` holds a validated customer;
 * `confirm` holds the idempotency reference the next payment attempt will send.
 */
export type WizardState =
  | { step: 'details'; customer: Customer; errors: FieldErrors }
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
      paymentId: string;
      ussd: string | null;
    }
  /** `ticket` is null when the slot went to someone else meanwhile: the server refunds. */
  | { step: 'paid'; customer: Customer; phone: string; ticket: Ticket | null }
  | { step: 'failed'; customer: Customer; phone: string; reason: string | null }
  | {
      step: 'ticket';
      customer: Customer;
      phone: string;
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
  | { type: 'payInitiated'; paymentId: string; ussd: string | null }
  /** `reference` replaces the current one unless the failure may be retried with it. */
  | { type: 'payFailed'; error: MessageKey; keepReference: boolean; reference: string }
  | { type: 'status'; message: PaymentStatusMessage }
  | { type: 'viewTicket' }
  | { type: 'tryAgain'; reference: string }
  | { type: 'downloadStarted' }
  | { type: 'downloadFailed' }
  | { type: 'downloaded' };

export const initialWizardState: WizardState = {
  step: 'details',
  customer: EMPTY_CUSTOMER,
  errors: {},
};

export function validateCustomer(c: Customer): FieldErrors {
  const errors: FieldErrors = {};
  if (!c.username.trim()) errors.username = 'validation.required';
  if (!c.email.trim()) errors.email = 'validation.required';
  else if (!isEmail(c.email)) errors.email = 'validation.email';
  if (!c.phone.trim()) errors.phone = 'validation.required';
  else if (!normalizeCameroonMobile(c.phone)) errors.phone = 'validation.phone';
  if (c.serviceFee !== String(PLATFORM_FEE_XAF)) errors.serviceFee = 'validation.fee';
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
      return { step: 'details', customer: state.customer, errors: {} };
    case 'payStarted':
      if (state.step !== 'confirm' || state.paying) return state;
      return { ...state, paying: true, submitError: null };
    case 'payInitiated':
      if (state.step !== 'confirm') return state;
      return {
        step: 'processing',
        customer: state.customer,
        phone: state.phone,
        paymentId: action.paymentId,
        ussd: action.ussd,
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
      const { customer, phone } = state;
      if (action.message.status === 'SUCCESSFUL') {
        return { step: 'paid', customer, phone, ticket: action.message.ticket };
      }
      if (action.message.status === 'FAILED') {
        return { step: 'failed', customer, phone, reason: action.message.failure_code ?? null };
      }
      return state;
    }
    case 'viewTicket':
      if (state.step !== 'paid' || !state.ticket) return state;
      return {
        step: 'ticket',
        customer: state.customer,
        phone: state.phone,
        ticket: state.ticket,
        downloading: false,
        downloadError: false,
      };
    case 'tryAgain':
      if (state.step !== 'failed') return state;
      return {
        step: 'confirm',
        customer: state.customer,
        phone: state.phone,
        reference: action.reference,
        paying: false,
        submitError: null,
      };
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
