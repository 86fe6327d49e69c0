// The hospital's reference lists (symptom names, lab tests with units). Pulled whole; their ids are
// positions, not names, so the stored rows reveal nothing even before decryption.
import type { Answer, labTestNames, symptomNames } from '../schemas/api.ts';
import type { RestMapping } from './replication.ts';

export interface SymptomReferenceDoc {
  _id: string;
  name: string;
  position?: number;
}

export interface LabTestReferenceDoc {
  _id: string;
  name: string;
  unit?: string | null;
  position?: number;
}

const refId = (position: number) => `ref-${position}`;

export const symptomReferenceMapping: RestMapping<SymptomReferenceDoc, Answer<typeof symptomNames>> = {
  collection: 'symptomReference',
  listPath: '/symptoms/list',
  versioned: false,
  fromList(json) {
    const names = json.symptoms ?? [];
    return { docs: names.filter((n) => typeof n === 'string').map((name, position) => ({ _id: refId(position), name, position })), deleted: [] };
  },
  toOp: () => undefined,
};

export const labTestReferenceMapping: RestMapping<LabTestReferenceDoc, Answer<typeof labTestNames>> = {
  collection: 'labTestReference',
  listPath: '/tests/list',
  versioned: false,
  fromList(json) {
    const tests = json.tests ?? [];
    return { docs: tests.map((t, position) => ({ _id: refId(position), name: t.name, unit: t.unit ?? null, position })), deleted: [] };
  },
  toOp: () => undefined,
};
