import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineScriptHashes, inlineStyleHashes } from './web-csp.js';

const hash = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('inlineStyleHashes', () => {
  it('hashes the exact text of each <style> element (UTF-8), once per distinct content', () => {
    const html =
      '<head><style>a{color:red}</style><STYLE media="print">\n b::after{content:"é"}\n</STYLE>' +
      '<style>a{color:red}</style></head>';
    expect(inlineStyleHashes(html)).toEqual([
      hash('a{color:red}'),
      hash('\n b::after{content:"é"}\n'),
    ]);
  });

  it('matches the hash a browser computes (a known vector)', () => {
    // sha256 of "a{color:red}" in base64, as `openssl dgst -sha256 -binary | base64` gives it.
    expect(inlineStyleHashes('<style>a{color:red}</style>')).toEqual([
      "'sha256-6hWWMOcF+mJesSJGYhmK2lkIIEw9Xc5XKGLPVzh8yxs='",
    ]);
  });

  it('finds none in a page without <style>, and ignores a <link rel="stylesheet">', () => {
    expect(inlineStyleHashes('<link rel="stylesheet" href="/a.css"><p>style</p>')).toEqual([]);
  });

  it('hashes inline code scripts only: not a script with src, nor a JSON data block', () => {
    const html =
      '<script>boot()</script><script type="module" src="/a.js"></script>' +
      '<script type="application/json" id="qless-data">{"a":1}</script><script type="module">x()</script>';
    expect(inlineScriptHashes(html)).toEqual([hash('boot()'), hash('x()')]);
  });
});
