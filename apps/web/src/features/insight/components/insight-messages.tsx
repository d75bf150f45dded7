/**
 * Messages to customers in Insight (decision 143): the range's messages by channel with their
 * estimated cost, and the branch's monthly SMS budget, past which only free channels are used.
 */
import type { InsightResponse, SmsBudgetRequest } from '@qless/contract';
import { type FormEvent, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import type { MessageKey } from '../../../i18n/en';
import { useI18n } from '../../../i18n/i18n';
import { apiFetch } from '../../../lib/api-client';
import { apiPaths } from '../../../lib/api-paths';
import { useFormats } from './insight-parts';

const CHANNEL_KEY: Record<string, MessageKey> = {
  sms: 'insight.messages.sms',
  push: 'insight.messages.push',
  email: 'insight.messages.email',
  whatsapp: 'insight.messages.whatsapp',
};

export function MessagesPanel({
  data,
  onBudgetSaved,
}: {
  data: InsightResponse;
  /** Reads the figures again (the budget changed what "reached" says). */
  onBudgetSaved: () => void;
}) {
  const { t, money } = useI18n();
  const { number } = useFormats();
  const { messages } = data;
  const smsRow = messages.channels.find((c) => c.channel === 'sms');
  return (
    <section className="panel" aria-labelledby="insight-messages">
      <h2 id="insight-messages">{t('insight.messages.title')}</h2>
      <div className="insight-table-wrap">
        <table className="insight-table insight-table--grid" data-testid="insight-messages">
          <caption className="visually-hidden">{t('insight.messages.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('insight.messages.channel')}</th>
              <th scope="col" className="num">
                {t('insight.messages.sent')}
              </th>
              <th scope="col" className="num">
                {t('insight.messages.delivered')}
              </th>
              <th scope="col" className="num">
                {t('insight.messages.cost')}
              </th>
            </tr>
          </thead>
          <tbody>
            {messages.channels.map((c) => (
              <tr key={c.channel}>
                <th scope="row">{t(CHANNEL_KEY[c.channel] ?? 'insight.messages.sms')}</th>
                <td className="num">{number.format(c.sent)}</td>
                <td className="num">{number.format(c.delivered)}</td>
                <td className="num">{number.format(c.cost_xaf)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{t('insight.messages.total')}</th>
              <td />
              <td />
              <td className="num">{number.format(messages.cost_xaf)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="hint">
        {t('insight.messages.caption', { price: money(messages.price_sms_xaf) })}
      </p>
      {smsRow && (smsRow.spared > 0 || smsRow.held_by_budget > 0) ? (
        <p className="hint">
          {t('insight.messages.spared', {
            spared: number.format(smsRow.spared),
            held: number.format(smsRow.held_by_budget),
            saved: money((smsRow.spared + smsRow.held_by_budget) * messages.price_sms_xaf),
          })}
        </p>
      ) : null}
      {messages.budget ? <BudgetForm budget={messages.budget} onSaved={onBudgetSaved} /> : null}
    </section>
  );
}

function BudgetForm({
  budget,
  onSaved,
}: {
  budget: NonNullable<InsightResponse['messages']['budget']>;
  onSaved: () => void;
}) {
  const { t, money } = useI18n();
  const [value, setValue] = useState(
    budget.monthly_sms_xaf === null ? '' : String(budget.monthly_sms_xaf),
  );
  const [state, setState] = useState<'idle' | 'saving' | 'invalid' | 'failed'>('idle');
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (state === 'saving') return;
    const typed = value.trim().replace(/[\s\u202f\u00a0]/g, '');
    const amount = typed === '' ? null : Number(typed);
    if (amount !== null && (!Number.isInteger(amount) || amount < 0 || amount > 100_000_000)) {
      setState('invalid');
      return;
    }
    setState('saving');
    const body: SmsBudgetRequest = {
      organization_id: budget.organization_id,
      monthly_sms_xaf: amount,
    };
    apiFetch(apiPaths.smsBudget(), { method: 'PUT', body }).then(
      () => {
        setState('idle');
        onSaved();
      },
      () => setState('failed'),
    );
  };
  return (
    <form className="insight-budget" onSubmit={save} noValidate>
      <p data-testid="sms-budget-spent">
        {budget.monthly_sms_xaf === null
          ? t('insight.budget.spentNoBudget', { spent: money(budget.spent_xaf) })
          : t('insight.budget.spent', {
              spent: money(budget.spent_xaf),
              budget: money(budget.monthly_sms_xaf),
            })}
      </p>
      {budget.reached ? <Alert tone="warning">{t('insight.budget.reached')}</Alert> : null}
      <div className="field">
        <label htmlFor="sms-budget">{t('insight.budget.label')}</label>
        <input
          id="sms-budget"
          className="input"
          inputMode="numeric"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            if (state !== 'saving') setState('idle');
          }}
          aria-invalid={state === 'invalid'}
          aria-describedby="sms-budget-hint"
        />
        <p id="sms-budget-hint" className="hint">
          {t('insight.budget.hint')}
        </p>
      </div>
      {state === 'invalid' ? <Alert tone="error">{t('insight.budget.invalid')}</Alert> : null}
      {state === 'failed' ? <Alert tone="error">{t('insight.budget.failed')}</Alert> : null}
      <button type="submit" className="btn btn--secondary" disabled={state === 'saving'}>
        {t('insight.budget.save')}
      </button>
    </form>
  );
}
