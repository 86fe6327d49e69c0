import { describe, expect, it } from 'vitest';
import { PROFILE_DOC_ID, profileMapping } from './profile-sync.ts';

const user = {
  _id: '0190a0b0-0000-7000-8000-000000000001',
  name: 'Maria Lopez',
  hospNum: '100001',
  hospital: 'City General Hospital',
  timeZone: 'Europe/Madrid',
  notificationTimings: { breakfast: '08:00', lunch: '13:30', dinner: '20:00' },
  glucometerAlerts: ['Monday'],
  mustChangePassword: false,
  lastSyncAt: null,
  version: 7,
};
const docOf = (u: Record<string, unknown>) => profileMapping.fromList({ user: { ...user, ...u } }).docs[0];

describe("the profile's hospital settings", () => {
  it('are kept as the server sends them', () => {
    const hospitalSettings = { identifierSystem: 'urn:oid:2.16.840.1.113883.2.1.4.1', urgentHighMgDl: 350, careContact: 'Ward 4, ext. 2210' };
    expect(docOf({ hospitalSettings })).toEqual(expect.objectContaining({ _id: PROFILE_DOC_ID, hospitalSettings }));
    expect(docOf({ hospitalSettings: { ...hospitalSettings, careContact: null } })?.hospitalSettings).toEqual({ ...hospitalSettings, careContact: null });
  });

  it('are left out when an older server sends none, or something malformed', () => {
    expect(docOf({})).not.toHaveProperty('hospitalSettings');
    expect(docOf({ hospitalSettings: { urgentHighMgDl: 350 } })).not.toHaveProperty('hospitalSettings');
    expect(docOf({ hospitalSettings: { identifierSystem: 'urn:uuid:x', urgentHighMgDl: 'high', careContact: null } })).not.toHaveProperty('hospitalSettings');
    expect(docOf({ hospitalSettings: 'none' })).not.toHaveProperty('hospitalSettings');
  });
});
