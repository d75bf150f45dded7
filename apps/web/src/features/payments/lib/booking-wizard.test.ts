import type { PaymentStatusMessage, Ticket } from '@qless/contract';
import { describe, expect, it } from 'vitest';
import {
  type Customer,
  EMPTY_CUSTOMER,
  initialWizardState,
  type PaymentRef,
  prefilledWizardState,
  screenNumber,
  stepNumber,
  validateCustomer,
  type WizardAction,
  type WizardState,
  wizardReducer,
} from './booking-wizard';

const ADA: Customer = {
  username: 'Ada Nkem',
  email: 'ada@example.cm',
  phone: '677 123 456',
};

const TICKET = { code: 'QL-1', customer_name: 'Ada Nkem' } as Ticket;

const run = (state: WizardState, ...actions: WizardAction[]) =>
  actions.reduce(wizardReducer, state);

const PAYMENT: PaymentRef = {
  paymentId: 'p1',
  bookingId: 'b1',
  accessKey: 'key-1',
  holdExpiresAt: '2026-03-16T08:40:00.000Z',
  ussd: '*126#',
};

const filled: WizardState = { step: 'details', customer: ADA, errors: {}, focus: 'username' };
const confirm = run(filled, { type: 'submitDetails', reference: 'ref-1' });
const processing = run(confirm, { type: 'payStarted' }, { type: 'payInitiated', payment: PAYMENT });
const status = (s: PaymentStatusMessage['status'], ticket: Ticket | null = null): WizardAction => ({
  type: 'status',
  message: { status: s, booking_id: null, ticket, failure_code: s === 'FAILED' ? 'X' : null },
});
const paid = run(processing, status('SUCCESSFUL', TICKET));
const failed = run(processing, status('FAILED'));
const ticket = run(paid, { type: 'viewTicket' });

describe('booking wizard', () => {
  it('starts on the details form, empty', () => {
    expect(initialWizardState).toEqual({
      step: 'details',
      customer: { username: '', email: '', phone: '' },
      errors: {},
      focus: 'username',
    });
  });

  it('edits a field and clears that field’s error only', () => {
    const invalid = run(initialWizardState, { type: 'submitDetails', reference: 'r' });
    expect(invalid.step).toBe('details');
    const edited = run(invalid, { type: 'edit', field: 'username', value: 'Ada' });
    expect(edited.step === 'details' && edited.errors).toEqual({
      phone: 'validation.required',
    });
    expect(edited.customer.username).toBe('Ada');
  });

  it('Next with invalid details stays on details with the errors', () => {
    const next = run(
      { step: 'details', customer: { ...ADA, phone: '67712' }, errors: {}, focus: 'username' },
      { type: 'submitDetails', reference: 'r' },
    );
    expect(next).toEqual({
      step: 'details',
      customer: { ...ADA, phone: '67712' },
      errors: { phone: 'validation.phone' },
      focus: 'username',
    });
  });

  it('Next without an e-mail goes to confirm: the e-mail is optional (decision 121)', () => {
    for (const email of ['', '   ']) {
      const next = run(
        { step: 'details', customer: { ...ADA, email }, errors: {}, focus: 'username' },
        { type: 'submitDetails', reference: 'r' },
      );
      expect(next).toMatchObject({ step: 'confirm', phone: '+237677123456' });
    }
  });

  it('Next with valid details goes to confirm with the E.164 phone and a fresh reference', () => {
    expect(confirm).toEqual({
      step: 'confirm',
      customer: ADA,
      phone: '+237677123456',
      reference: 'ref-1',
      paying: false,
      submitError: null,
    });
  });

  it('Back from confirm returns to details with the form kept', () => {
    expect(run(confirm, { type: 'back' })).toEqual({
      step: 'details',
      customer: ADA,
      errors: {},
      focus: 'username',
    });
  });

  it('Back is ignored while the payment request is in flight', () => {
    const paying = run(confirm, { type: 'payStarted' });
    expect(run(paying, { type: 'back' })).toBe(paying);
  });

  it('a successful initiation moves confirm → processing with the payment, key, hold and USSD', () => {
    expect(processing).toEqual({
      step: 'processing',
      customer: ADA,
      phone: '+237677123456',
      payment: PAYMENT,
      cancelling: null,
      cancelError: null,
    });
  });

  it('a failed initiation stays on confirm with the error; the reference changes unless retryable', () => {
    const paying = run(confirm, { type: 'payStarted' });
    const fresh = run(paying, {
      type: 'payFailed',
      error: 'error.SLOT_TAKEN',
      keepReference: false,
      reference: 'ref-2',
    });
    expect(fresh).toMatchObject({
      step: 'confirm',
      paying: false,
      submitError: 'error.SLOT_TAKEN',
      reference: 'ref-2',
    });
    const kept = run(paying, {
      type: 'payFailed',
      error: 'error.RATE_LIMITED',
      keepReference: true,
      reference: 'ref-3',
    });
    expect(kept).toMatchObject({ step: 'confirm', reference: 'ref-1' });
    // A new attempt clears the previous error.
    expect(run(fresh, { type: 'payStarted' })).toMatchObject({ paying: true, submitError: null });
  });

  it('PENDING keeps processing; SUCCESSFUL → paid with the ticket; FAILED → failed', () => {
    expect(run(processing, status('PENDING'))).toBe(processing);
    expect(paid).toEqual({
      step: 'paid',
      customer: ADA,
      phone: '+237677123456',
      accessKey: 'key-1',
      ticket: TICKET,
    });
    expect(failed).toEqual({ step: 'failed', customer: ADA, phone: '+237677123456', reason: 'X' });
  });

  it('SUCCESSFUL without a ticket (refund) is paid with no way to a ticket', () => {
    const refunded = run(processing, status('SUCCESSFUL', null));
    expect(refunded).toMatchObject({ step: 'paid', ticket: null });
    expect(run(refunded, { type: 'viewTicket' })).toBe(refunded);
  });

  it('View ticket moves paid → ticket', () => {
    expect(ticket).toEqual({
      step: 'ticket',
      customer: ADA,
      phone: '+237677123456',
      accessKey: 'key-1',
      ticket: TICKET,
      downloading: false,
      downloadError: false,
    });
  });

  it('Try Again from failed goes back to confirm with a fresh reference', () => {
    const again = run(failed, { type: 'tryAgain', reference: 'ref-9' });
    expect(again).toEqual({
      step: 'confirm',
      customer: ADA,
      phone: '+237677123456',
      reference: 'ref-9',
      paying: false,
      submitError: null,
    });
    expect(again.step === 'confirm' && again.reference).not.toBe(
      confirm.step === 'confirm' && confirm.reference,
    );
  });

  it('a failed download stays on the ticket with the error; a retry clears it', () => {
    const broken = run(ticket, { type: 'downloadStarted' }, { type: 'downloadFailed' });
    expect(broken).toMatchObject({ step: 'ticket', downloading: false, downloadError: true });
    expect(run(broken, { type: 'downloadStarted' })).toMatchObject({
      downloading: true,
      downloadError: false,
    });
  });

  describe('releasing a pending payment (Cancel payment, Use another number, time ran out)', () => {
    const cancelling = (mode: 'cancel' | 'another' | 'retry') =>
      run(processing, { type: 'cancelStarted', mode });

    it('marks the request in flight and ignores a second press', () => {
      const busy = cancelling('cancel');
      expect(busy).toMatchObject({ step: 'processing', cancelling: 'cancel', cancelError: null });
      expect(run(busy, { type: 'cancelStarted', mode: 'another' })).toBe(busy);
    });

    it('Cancel payment ends the wizard (the modal closes)', () => {
      expect(run(cancelling('cancel'), { type: 'cancelled', reference: 'r2' })).toEqual(
        initialWizardState,
      );
    });

    it('Use another number returns to the form: same details, phone emptied and focused', () => {
      expect(run(cancelling('another'), { type: 'cancelled', reference: 'r2' })).toEqual({
        step: 'details',
        customer: { ...ADA, phone: '' },
        errors: {},
        focus: 'phone',
      });
    });

    it('then a new number pays with a new reference', () => {
      const form = run(cancelling('another'), { type: 'cancelled', reference: 'unused' });
      const again = run(
        form,
        { type: 'edit', field: 'phone', value: '699 000 111' },
        { type: 'submitDetails', reference: 'ref-new' },
      );
      expect(again).toMatchObject({
        step: 'confirm',
        phone: '+237699000111',
        reference: 'ref-new',
      });
    });

    it('Try Again after the time ran out goes to the confirmation with a fresh reference', () => {
      expect(run(cancelling('retry'), { type: 'cancelled', reference: 'ref-7' })).toEqual({
        step: 'confirm',
        customer: ADA,
        phone: '+237677123456',
        reference: 'ref-7',
        paying: false,
        submitError: null,
      });
    });

    it('a failed cancel stays on processing with the error, and may be pressed again', () => {
      const broken = run(cancelling('cancel'), {
        type: 'cancelFailed',
        error: 'booking.processing.cancelFailed',
      });
      expect(broken).toMatchObject({
        step: 'processing',
        cancelling: null,
        cancelError: 'booking.processing.cancelFailed',
      });
      expect(run(broken, { type: 'cancelStarted', mode: 'cancel' })).toMatchObject({
        cancelling: 'cancel',
        cancelError: null,
      });
    });

    it('while cancelling, FAILED waits for the cancel answer but SUCCESSFUL wins', () => {
      const busy = cancelling('another');
      expect(run(busy, status('FAILED'))).toBe(busy);
      expect(run(busy, status('SUCCESSFUL', TICKET))).toMatchObject({
        step: 'paid',
        ticket: TICKET,
      });
    });

    it('is ignored outside processing, and "cancelled" without a request in flight', () => {
      expect(run(confirm, { type: 'cancelStarted', mode: 'cancel' })).toBe(confirm);
      expect(run(processing, { type: 'cancelled', reference: 'x' })).toBe(processing);
      expect(run(paid, { type: 'cancelFailed', error: null })).toBe(paid);
    });
  });

  describe('resume', () => {
    const resume = (
      message: PaymentStatusMessage | null,
      customer = ADA,
      phone = '+237677123456',
    ): WizardAction => ({
      type: 'resume',
      customer,
      phone,
      payment: PAYMENT,
      message,
    });
    const msg = (
      s: PaymentStatusMessage['status'],
      t: Ticket | null = null,
      code: string | null = null,
    ) => ({
      status: s,
      booking_id: 'b1',
      ticket: t,
      failure_code: code,
    });

    it('a payment still pending (or of unknown status) reopens at processing', () => {
      for (const message of [null, msg('PENDING')]) {
        expect(run(initialWizardState, resume(message))).toEqual({
          step: 'processing',
          customer: ADA,
          phone: '+237677123456',
          payment: PAYMENT,
          cancelling: null,
          cancelError: null,
        });
      }
    });

    it('a payment that succeeded meanwhile opens straight on its ticket', () => {
      expect(run(initialWizardState, resume(msg('SUCCESSFUL', TICKET)))).toEqual({
        step: 'ticket',
        customer: ADA,
        phone: '+237677123456',
        accessKey: 'key-1',
        ticket: TICKET,
        downloading: false,
        downloadError: false,
      });
    });

    it('paid but refunded opens on "Payment Successful" with the refund; failed on the reason', () => {
      expect(run(initialWizardState, resume(msg('SUCCESSFUL')))).toMatchObject({
        step: 'paid',
        ticket: null,
      });
      expect(run(initialWizardState, resume(msg('FAILED', null, 'EXPIRED')))).toMatchObject({
        step: 'failed',
        reason: 'EXPIRED',
      });
    });

    it('a resumed payment whose details are unknown tries again from the form', () => {
      const failedAway = run(
        initialWizardState,
        resume(msg('FAILED', null, 'DECLINED'), EMPTY_CUSTOMER, ''),
      );
      expect(run(failedAway, { type: 'tryAgain', reference: 'r' })).toEqual(initialWizardState);
    });

    it('then follows the payment like any other', () => {
      const resumed = run(initialWizardState, resume(null));
      expect(run(resumed, status('SUCCESSFUL', TICKET))).toMatchObject({ step: 'paid' });
    });

    it('may come from the confirmation (own hold found), never over a payment in flight', () => {
      expect(run(confirm, resume(null))).toMatchObject({ step: 'processing' });
      const paying = run(confirm, { type: 'payStarted' });
      expect(run(paying, resume(null))).toBe(paying);
      expect(run(processing, resume(null))).toBe(processing);
      expect(run(ticket, resume(null))).toBe(ticket);
    });
  });

  it('a finished download resets the wizard to details with an empty form', () => {
    expect(run(ticket, { type: 'downloadStarted' }, { type: 'downloaded' })).toEqual(
      initialWizardState,
    );
  });

  it('ignores actions that do not belong to the current step', () => {
    expect(run(filled, { type: 'tryAgain', reference: 'x' })).toBe(filled);
    expect(run(confirm, status('SUCCESSFUL', TICKET))).toBe(confirm);
    expect(run(paid, { type: 'back' })).toBe(paid);
    expect(run(failed, { type: 'downloaded' })).toBe(failed);
    expect(run(ticket, { type: 'edit', field: 'username', value: 'x' })).toBe(ticket);
  });

  it('numbers the indicator 1–4 and the screens 1–6', () => {
    const all = [filled, confirm, processing, paid, failed, ticket];
    expect(all.map(stepNumber)).toEqual([1, 2, 3, 3, 3, 4]);
    expect(all.map(screenNumber)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('prefilledWizardState', () => {
  it('opens the form with the number a waitlist offer carries, focus on the name', () => {
    expect(prefilledWizardState({ phone: '677554411' })).toEqual({
      step: 'details',
      customer: { username: '', email: '', phone: '677554411' },
      errors: {},
      focus: 'username',
    });
    expect(prefilledWizardState(null)).toBe(initialWizardState);
  });
});

describe('validateCustomer', () => {
  it('requires the name and phone, and checks an e-mail only when one is given', () => {
    expect(validateCustomer(ADA)).toEqual({});
    expect(validateCustomer({ ...ADA, email: '' })).toEqual({});
    expect(validateCustomer({ username: ' ', email: 'a@b', phone: '777123456' })).toEqual({
      username: 'validation.required',
      email: 'validation.email',
      phone: 'validation.phone',
    });
    expect(validateCustomer({ username: '', email: '', phone: '' })).toEqual({
      username: 'validation.required',
      phone: 'validation.required',
    });
  });
});
