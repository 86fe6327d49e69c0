// The hostile writes' ledger (tests/fuzz/ledger.ts) on lists made up for the purpose: it must call a
// record lost, duplicated or unknown, and pass what the answers named.
import { describe, expect, it } from 'vitest';
import { HostileLedger } from './ledger.ts';
import { KINDS, type Kind, type Pulled } from './writes.ts';

const A = '6f9619ff-8b86-4011-b42d-00c04fc964f1';
const B = '6f9619ff-8b86-4011-b42d-00c04fc964f2';
const C = '6f9619ff-8b86-4011-b42d-00c04fc964f3';
const SEED = '6f9619ff-8b86-4011-b42d-00c04fc964f0';

const lists = (glucose: Pulled, symptom: Pulled = { rows: [], deleted: [] }) =>
  new Map<Kind, Pulled>(KINDS.map((k) => [k, k === 'glucose' ? glucose : k === 'symptom' ? symptom : { rows: [], deleted: [] }]));

function ledger(): HostileLedger {
  const l = new HostileLedger();
  for (const k of KINDS) l.start('100001', k, k === 'glucose' ? { rows: [{ _id: SEED }], deleted: [] } : { rows: [], deleted: [] });
  l.note('100001', '/glucose/add', { type: 'Fasting', value: 100 }, 201, { message: 'ok', data: { _id: A } }, false);
  // A batch: its first write added B, its second was refused (not named).
  l.note(
    '100001',
    '/batch',
    {
      mutations: [
        { path: '/glucose/add', body: {} },
        { path: '/symptoms/add', body: {} },
      ],
    },
    200,
    {
      results: [
        { status: 201, body: { data: { _id: B } } },
        { status: 409, body: { message: 'no', current: { _id: C } } },
      ],
    },
    false,
  );
  return l;
}

describe('the hostile writes ledger', () => {
  it('passes the records the answers named, live or deleted', () => {
    const r = ledger().check('100001', lists({ rows: [{ _id: SEED }, { _id: A }], deleted: [B] }));
    expect(r).toEqual({ accepted: 2, lost: 0, duplicated: 0, unknown: 0, problems: [] });
  });

  it('calls an accepted record that is gone lost', () => {
    expect(ledger().check('100001', lists({ rows: [{ _id: SEED }, { _id: A }], deleted: [] })).lost).toBe(1);
  });

  it('calls a record listed twice duplicated', () => {
    expect(ledger().check('100001', lists({ rows: [{ _id: SEED }, { _id: A }, { _id: A }], deleted: [B] })).duplicated).toBe(1);
  });

  it('calls a record no 2xx answer named unknown, even one a refusal named', () => {
    const r = ledger().check('100001', lists({ rows: [{ _id: SEED }, { _id: A }, { _id: B }], deleted: [] }, { rows: [{ _id: C }], deleted: [] }));
    expect(r.unknown).toBe(1);
    expect(r.problems[0]).toMatch(/unknown: 100001 symptom/);
  });

  it('counts a repeat as named, not as accepted again', () => {
    const l = ledger();
    l.note('100001', '/symptoms/add', {}, 201, { data: { _id: C } }, true);
    const r = l.check('100001', lists({ rows: [{ _id: SEED }, { _id: A }, { _id: B }, { _id: C }], deleted: [] }));
    expect(r).toMatchObject({ accepted: 2, lost: 0, unknown: 0 });
  });
});
