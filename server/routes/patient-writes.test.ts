// The writes that say when they were made (schemas/history.ts MADE_AT_PATHS) are the ones the server
// orders by it: every such route takes `madeAt`, and every route that notes it is in the list.
import { describe, expect, it } from 'vitest';
import { MADE_AT_PATHS } from '../../schemas/history.ts';
import { notificationTimingsSchema } from '../../schemas/user-profile.ts';
import { PATIENT_WRITES } from './patient-writes.ts';

const propertiesOf = (schema: object): Record<string, unknown> => (schema as { properties?: Record<string, unknown> }).properties ?? {};

describe('madeAt', () => {
  it('is in the body of every write the device sends it with, and only there', () => {
    const schemas = new Map<string, object>([...PATIENT_WRITES.map((w) => [w.path, w.schema] as const), ['/users/notificationTimings', notificationTimingsSchema]]);
    for (const path of MADE_AT_PATHS) expect(propertiesOf(schemas.get(path) ?? {}), path).toHaveProperty('madeAt');
    for (const [path, schema] of schemas) expect('madeAt' in propertiesOf(schema), path).toBe(MADE_AT_PATHS.has(path));
  });

  it('is every edit and removal of a record, never an add', () => {
    const edits = PATIENT_WRITES.map((w) => w.path).filter((p) => !p.endsWith('/add') && p !== '/user/medicines/taken');
    expect([...MADE_AT_PATHS].filter((p) => p !== '/users/notificationTimings').sort()).toEqual(edits.sort());
  });
});
