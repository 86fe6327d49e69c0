// Every named mutation of the registry (schemas/mutations.ts) is a route of the server, and every
// batch write one the batch runs: a name the device can queue is never a 404 in the patient's
// refused list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_MUTATIONS, MUTATIONS, type MutationName } from '../../schemas/mutations.ts';
import { createHarness, type Harness } from '../testing/harness.ts';
import { patientWrite } from './patient-writes.ts';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await h.app.ready();
});
afterAll(() => h.close());

describe('the named mutations on the server', () => {
  it('each has its POST route', () => {
    for (const name of Object.keys(MUTATIONS) as MutationName[])
      expect(h.app.hasRoute({ method: 'POST', url: `/api${MUTATIONS[name].path}` }), name).toBe(true);
  });

  it('each batch write has its change, at its path, with its schema', () => {
    for (const name of BATCH_MUTATIONS) {
      const w = patientWrite.get(name);
      expect(w, name).toBeDefined();
      expect(w?.path).toBe(MUTATIONS[name].path);
      expect(w?.schema).toBe(MUTATIONS[name].body);
    }
  });
});
