import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Field, fieldIds, InputField, SelectField, TextAreaField } from './field';
import { FormNotice, SubmitButton } from './form-status';
import { formText, useFormAction } from './use-form-action';

/** The attributes of the first element named `tag` in `html`. */
function attributes(html: string, tag: string): Record<string, string> {
  const found = new RegExp(`<${tag}\\b([^>]*)>`).exec(html);
  if (!found) throw new Error(`no <${tag}> in ${html}`);
  return Object.fromEntries(
    [...(found[1] ?? '').matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map((m) => [
      (m[1] ?? '').toLowerCase(),
      m[2] ?? '',
    ]),
  );
}

describe('fieldIds', () => {
  it('ties nothing more than the id when there is neither hint nor error', () => {
    expect(fieldIds('f', {})).toEqual({ id: 'f' });
  });

  it('describes the control by its hint, then its error, and marks it invalid', () => {
    expect(fieldIds('f', { hint: 'h' })).toEqual({ id: 'f', 'aria-describedby': 'f-hint' });
    expect(fieldIds('f', { hint: 'h', error: 'e' })).toEqual({
      id: 'f',
      'aria-describedby': 'f-hint f-error',
      'aria-invalid': true,
    });
    expect(fieldIds('f', { error: 'e' })).toEqual({
      id: 'f',
      'aria-describedby': 'f-error',
      'aria-invalid': true,
    });
  });
});

describe('Field', () => {
  it('labels the control and points it at its hint and error', () => {
    const html = renderToStaticMarkup(
      <Field label="Name" hint="As on your ID" error="Required">
        {(ids) => <input {...ids} name="name" />}
      </Field>,
    );
    const input = attributes(html, 'input');
    const label = attributes(html, 'label');
    expect(label.for).toBe(input.id);
    expect(input['aria-describedby']).toBe(`${input.id}-hint ${input.id}-error`);
    expect(input['aria-invalid']).toBe('true');
    expect(html).toContain(`<p id="${input.id}-hint" class="field__hint">As on your ID</p>`);
    expect(html).toContain(`<p id="${input.id}-error" class="field__error">Required</p>`);
    expect(attributes(html, 'div').class).toBe('field field--invalid');
  });

  it('says nothing of hint or error it does not have', () => {
    const html = renderToStaticMarkup(<InputField label="City" name="city" />);
    const input = attributes(html, 'input');
    expect(input['aria-describedby']).toBeUndefined();
    expect(input['aria-invalid']).toBeUndefined();
    expect(attributes(html, 'div').class).toBe('field');
    expect(html).not.toContain('field__');
  });
});

describe('InputField, TextAreaField, SelectField', () => {
  it('give the control the "input" class and pass its attributes on', () => {
    const input = attributes(
      renderToStaticMarkup(
        <InputField label="E-mail" name="email" type="email" required maxLength={254} />,
      ),
      'input',
    );
    expect(input).toMatchObject({ class: 'input', name: 'email', type: 'email', maxlength: '254' });
    expect('required' in input).toBe(true);

    const area = attributes(
      renderToStaticMarkup(<TextAreaField label="Message" name="message" rows={5} />),
      'textarea',
    );
    expect(area).toMatchObject({ class: 'input', name: 'message', rows: '5' });

    const html = renderToStaticMarkup(
      <SelectField label="Role" name="role" defaultValue="staff" error="Pick one">
        <option value="staff">Staff</option>
      </SelectField>,
    );
    const select = attributes(html, 'select');
    expect(select).toMatchObject({ class: 'input', name: 'role', 'aria-invalid': 'true' });
    expect(attributes(html, 'label').for).toBe(select.id);
  });

  it('keep a class the caller gives', () => {
    const html = renderToStaticMarkup(
      <InputField label="Digits" name="last4" className="input access-form__digits" />,
    );
    expect(attributes(html, 'input').class).toBe('input access-form__digits');
  });
});

describe('FormNotice', () => {
  it('is an empty polite live region until there is something to say', () => {
    expect(renderToStaticMarkup(<FormNotice notice={null} />)).toBe(
      '<div aria-live="polite"></div>',
    );
  });

  it('says a success as a status and a failure as an alert', () => {
    expect(renderToStaticMarkup(<FormNotice notice={{ tone: 'success', text: 'Sent' }} />)).toBe(
      '<div aria-live="polite"><div class="alert alert--success" role="status">Sent</div></div>',
    );
    expect(renderToStaticMarkup(<FormNotice notice={{ tone: 'error', text: 'No' }} />)).toContain(
      'role="alert"',
    );
  });

  it('announces what follows it in the same region', () => {
    expect(
      renderToStaticMarkup(
        <FormNotice notice={null}>
          <p>More</p>
        </FormNotice>,
      ),
    ).toBe('<div aria-live="polite"><p>More</p></div>');
  });
});

describe('SubmitButton', () => {
  it('says what it does, and is held while busy or held back', () => {
    const idle = renderToStaticMarkup(
      <SubmitButton busy={false} label="Send" busyLabel="Sending…" />,
    );
    expect(idle).toBe('<button type="submit" class="btn btn--primary">Send</button>');
    const busy = renderToStaticMarkup(<SubmitButton busy label="Send" busyLabel="Sending…" />);
    expect(busy).toContain('disabled=""');
    expect(busy).toContain('Sending…');
    const held = renderToStaticMarkup(
      <SubmitButton busy={false} disabled label="Save" busyLabel="Saving…" />,
    );
    expect(held).toContain('disabled=""');
    expect(held).toContain('>Save<');
  });
});

function Probe() {
  const { state, pending } = useFormAction(async () => 'done', 'untried');
  return <p>{`${state} ${pending}`}</p>;
}

describe('useFormAction', () => {
  it('starts from the initial state, not pending', () => {
    expect(renderToStaticMarkup(<Probe />)).toBe('<p>untried false</p>');
  });
});

describe('formText', () => {
  it('reads a text value, empty when absent, trimmed when asked', () => {
    const data = new FormData();
    data.set('name', '  Ada  ');
    expect(formText(data, 'name')).toBe('  Ada  ');
    expect(formText(data, 'name', true)).toBe('Ada');
    expect(formText(data, 'missing')).toBe('');
  });
});
