import { describe, expect, it } from 'vitest';
import { paths } from '../../../app/paths';
import { linkKeyOf } from './visit-keys';

describe('linkKeyOf', () => {
  it('reads the key from the fragment, as the links of now carry it', () => {
    expect(linkKeyOf('', '#k=AbC-d_9')).toBe('AbC-d_9');
    expect(linkKeyOf('', '#k=a%2Bb')).toBe('a+b');
  });
  it('still reads an older link’s query key, the fragment first when both', () => {
    expect(linkKeyOf('?k=old-key', '')).toBe('old-key');
    expect(linkKeyOf('k=old-key', '')).toBe('old-key');
    expect(linkKeyOf('?k=old', '#k=new')).toBe('new');
  });
  it('nothing without a key', () => {
    expect(linkKeyOf('', '')).toBeNull();
    expect(linkKeyOf('?x=1', '#top')).toBeNull();
    expect(linkKeyOf('?k=', '#k=')).toBeNull();
  });
  it('builds visit links with the key in the fragment', () => {
    expect(paths.visit.build('v-1', { k: 'a b' })).toBe('/visit/v-1#k=a%20b');
    expect(paths.visit.build('v-1')).toBe('/visit/v-1');
    const link = paths.visit.build('v-1', { k: 'key' });
    expect(linkKeyOf('', link.slice(link.indexOf('#')))).toBe('key');
  });
});
