import { describe, expect, it } from 'vitest';
import { patientWrites, staffReads } from './staff-api.ts';

describe('staffReads', () => {
  it('writes each query in the order the server documents, leaving out what is undefined but keeping an empty search', () => {
    expect(staffReads.users({ search: '', page: 1, limit: 5, hospitalId: undefined }).path).toBe('/admin/users?search=&page=1&limit=5');
    expect(staffReads.users({ search: 'Asha V', page: 2, limit: 10, hospitalId: 'h-1' }).path).toBe(
      '/admin/users?search=Asha+V&page=2&limit=10&hospitalId=h-1',
    );
    // The offline copy of a worklist page is kept under this path (sync/storage/staff-cache.ts).
    expect(staffReads.worklist({ hospitalId: 'h-1', days: 14, page: 1, limit: 20 }).path).toBe('/admin/worklist?hospitalId=h-1&days=14&page=1&limit=20');
    expect(staffReads.audit({ hospNo: undefined, before: undefined, limit: 50 }).path).toBe('/admin/audit?limit=50');
    expect(staffReads.audit({ hospNo: 'H/1', before: '2026-11-29T06:00:00.000Z', limit: 50 }).path).toBe(
      '/admin/audit?hospNo=H%2F1&before=2026-11-29T06%3A00%3A00.000Z&limit=50',
    );
  });

  it('puts a hospital number into a path as one segment', () => {
    expect(staffReads.patient('H/1 2').path).toBe('/admin/patients/H%2F1%202');
    expect(staffReads.prescriptions('100001').path).toBe('/admin/patients/100001/prescriptions');
  });
});

describe('patientWrites', () => {
  it("counts a patient's writes while they are on their way, and says when each is answered or fails", async () => {
    const answered: string[] = [];
    const stop = patientWrites.subscribe((hospNo) => answered.push(hospNo));
    let ok: (v: string) => void = () => undefined;
    let fail: (e: Error) => void = () => undefined;
    const first = patientWrites.track('100001', new Promise<string>((resolve) => (ok = resolve)));
    const second = patientWrites.track('100001', new Promise<string>((_, reject) => (fail = reject)));
    expect(patientWrites.onTheirWay('100001')).toBe(true);
    expect(patientWrites.onTheirWay('100002')).toBe(false);
    ok('added');
    expect(await first).toBe('added');
    expect(patientWrites.onTheirWay('100001')).toBe(true);
    fail(new Error('refused'));
    await expect(second).rejects.toThrow('refused');
    expect(patientWrites.onTheirWay('100001')).toBe(false);
    expect(answered).toEqual(['100001', '100001']);
    stop();
  });
});
