// The registry of named mutations (schemas/mutations.ts): what each entry says holds of its body,
// and a wrong body is a compile error (the @ts-expect-error lines fail the typecheck if it is not).
import { describe, expect, it } from 'vitest';
import { BATCH_PATHS, MADE_AT_PATHS, MUTATIONS, mutation, mutationNamed, type MutationName } from './mutations.ts';

const names = Object.keys(MUTATIONS) as MutationName[];
const fields = (name: MutationName): string[] => Object.keys(MUTATIONS[name].body.properties);

describe('the registry of mutations', () => {
  it('a versioned mutation states its base version, and only a versioned one can', () => {
    for (const name of names) expect(fields(name).includes('baseVersion'), name).toBe(MUTATIONS[name].versioned);
  });

  it('an add never conflicts and states no base; what conflicts is versioned', () => {
    for (const name of names) {
      const m = MUTATIONS[name];
      if (m.kind === 'add') expect([m.conflicts, m.versioned], name).toEqual(['none', false]);
      if (m.conflicts !== 'none') expect(m.versioned, name).toBe(true);
    }
  });

  it('says when it was made on every edit and removal of a record and on the meal times, never on an add', () => {
    const edits = names.filter((n) => MUTATIONS[n].conflicts !== 'none' || MUTATIONS[n].path === '/users/notificationTimings').map((n) => MUTATIONS[n].path);
    expect([...MADE_AT_PATHS].sort()).toEqual([...new Set(edits)].sort());
    for (const name of names) if (MUTATIONS[name].kind === 'add') expect(MADE_AT_PATHS.has(MUTATIONS[name].path), name).toBe(false);
  });

  it('a batch path is one mutation', () => {
    const batched = names.filter((n) => MUTATIONS[n].batch);
    expect(BATCH_PATHS).toHaveLength(batched.length);
    expect(BATCH_PATHS).toContain('/glucose/add');
    expect(BATCH_PATHS).not.toContain('/users/notificationTimings');
  });

  it('builds the outbox entry of a name: its path, kind and base from the registry, the body as given', () => {
    const id = '0190a5c4-1b2c-7d3e-8f40-123456789abc';
    expect(mutation('glucose.update', { glucoseId: id, gtype: 'Fasting', gvalue: 104, baseVersion: 7 })).toEqual({
      name: 'glucose.update',
      kind: 'update',
      path: '/glucose/update',
      body: { glucoseId: id, gtype: 'Fasting', gvalue: 104, baseVersion: 7 },
      versioned: true,
    });
    expect(mutation('profile.removeGlucometerDay', { day: 'Monday' })).toMatchObject({
      kind: 'delete',
      path: '/users/glucometerAlerts/remove',
      versioned: false,
    });
  });

  it('a body with a wrong field, a missing field or a wrong type does not compile', () => {
    const id = '0190a5c4-1b2c-7d3e-8f40-123456789abc';
    // @ts-expect-error -- `gvalu` is no field of a glucose edit
    expect(() => mutation('glucose.update', { glucoseId: id, gtype: 'Fasting', gvalue: 104, gvalu: 104 })).not.toThrow();
    // @ts-expect-error -- an edit names the reading it changes
    expect(() => mutation('glucose.update', { gtype: 'Fasting', gvalue: 104 })).not.toThrow();
    // @ts-expect-error -- the value is a number of mg/dL
    expect(() => mutation('glucose.add', { type: 'Fasting', value: '104' })).not.toThrow();
    // @ts-expect-error -- no such mutation
    expect(() => mutation('glucose.changeValue', { glucoseId: id })).toThrow();
  });

  it('knows the names it holds; an older app’s intent names (queued before the registry) are none of them', () => {
    expect(mutationNamed('profile.setMealTimes')?.wholeSet).toBe(true);
    expect(mutationNamed('profile.setMealTime')?.wholeSet).toBeUndefined();
    for (const old of ['glucose.changeValue', 'profile.setBreakfast', 'dose.markExtra', 'symptom.report', 'toString', '__proto__'])
      expect(mutationNamed(old), old).toBeUndefined();
  });
});
