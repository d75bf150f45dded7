import { describe, expect, it } from 'vitest';
import { parseFairOrder } from './fair-order';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

describe('parseFairOrder', () => {
  it('reads the categories ticked, the ratio, the ceiling and the premium clients’ name', () => {
    expect(
      parseFairOrder(
        form({
          category_elderly: 'on',
          category_premium: 'on',
          premium_label: '  Clients privilégiés ',
          ratio_priority: '1',
          ratio_others: '2',
          ageing_ceiling_minutes: '45',
        }),
      ),
    ).toEqual({
      priority_categories: ['elderly', 'premium'],
      premium_label: 'Clients privilégiés',
      ratio: { priority: 1, others: 2 },
      ageing_ceiling_minutes: 45,
    });
  });

  it('takes empty fields as none: no ratio, no ceiling, no name', () => {
    expect(parseFairOrder(form({ ratio_priority: '', ratio_others: ' ' }))).toEqual({
      priority_categories: [],
      premium_label: null,
      ratio: null,
      ageing_ceiling_minutes: null,
    });
  });

  it('refuses a ratio half given, numbers out of bounds or not whole, a name too long', () => {
    const bads: Record<string, string>[] = [
      { ratio_priority: '1' },
      { ratio_others: '2' },
      { ratio_priority: '0', ratio_others: '2' },
      { ratio_priority: '1', ratio_others: '11' },
      { ratio_priority: '1.5', ratio_others: '2' },
      { ageing_ceiling_minutes: '5' },
      { ageing_ceiling_minutes: 'soon' },
      { premium_label: 'x'.repeat(41) },
    ];
    for (const bad of bads) {
      expect(parseFairOrder(form(bad)), JSON.stringify(bad)).toBeNull();
    }
  });
});
