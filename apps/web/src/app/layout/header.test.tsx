import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { I18nProvider } from '../../i18n/i18n';
import { AccountLinks } from './header';

const render = (signedIn: boolean) =>
  renderToStaticMarkup(
    <I18nProvider initial="en">
      <ul>
        <AccountLinks signedIn={signedIn} current={() => undefined} />
      </ul>
    </I18nProvider>,
  );

describe('the site’s top bar', () => {
  it('offers Register and Login to a visitor', () => {
    const html = render(false);
    expect(html).toContain('Register');
    expect(html).toContain('Login');
    expect(html).not.toContain('My workspace');
  });

  it('shows signed-in staff their workspace, not Register or Login', () => {
    const html = render(true);
    expect(html).toContain('My workspace');
    expect(html).toContain('href="/organization"');
    expect(html).not.toContain('Register');
    expect(html).not.toContain('Login');
  });
});
