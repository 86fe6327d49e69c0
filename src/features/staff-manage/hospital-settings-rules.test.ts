import { describe, expect, it } from 'vitest';
import { fieldsOf, settingsPatch, settingsProblems } from './hospital-settings-rules.ts';

const ID = '0190a0b0-0000-7000-8000-00000000000a';
const ok = { urgentHighMgDl: '400', careContact: '', identifierSystem: '' };

describe('hospital settings form', () => {
  it('shows the default identifier system as empty, and a set one as it is', () => {
    expect(fieldsOf({ _id: ID, urgentHighMgDl: 400, careContact: null, identifierSystem: `urn:uuid:${ID}` })).toEqual({
      urgentHighMgDl: '400',
      careContact: '',
      identifierSystem: '',
    });
    expect(fieldsOf({ _id: ID, urgentHighMgDl: 350, careContact: 'Ward 4', identifierSystem: 'urn:oid:1.2.3' })).toEqual({
      urgentHighMgDl: '350',
      careContact: 'Ward 4',
      identifierSystem: 'urn:oid:1.2.3',
    });
  });

  it('accepts the urgent level from 300 to 500 mg/dL only', () => {
    expect(settingsProblems(ok)).toEqual({});
    expect(settingsProblems({ ...ok, urgentHighMgDl: '300' })).toEqual({});
    expect(settingsProblems({ ...ok, urgentHighMgDl: '500' })).toEqual({});
    expect(settingsProblems({ ...ok, urgentHighMgDl: '299' })).toEqual({ urgentHighMgDl: 'urgentOutOfRange' });
    expect(settingsProblems({ ...ok, urgentHighMgDl: '501' })).toEqual({ urgentHighMgDl: 'urgentOutOfRange' });
    expect(settingsProblems({ ...ok, urgentHighMgDl: '' })).toEqual({ urgentHighMgDl: 'urgentNotNumber' });
    expect(settingsProblems({ ...ok, urgentHighMgDl: '4e2' })).toEqual({ urgentHighMgDl: 'urgentNotNumber' });
  });

  it('accepts a contact of up to 200 characters', () => {
    expect(settingsProblems({ ...ok, careContact: 'x'.repeat(200) })).toEqual({});
    expect(settingsProblems({ ...ok, careContact: 'x'.repeat(201) })).toEqual({ careContact: 'contactTooLong' });
  });

  it('accepts urn:oid, urn:uuid and http(s) identifier systems, as the server does', () => {
    for (const good of ['urn:oid:2.16.840.1.113883.2.1.4.1', `urn:uuid:${ID}`, 'https://fhir.example.org/mrn', 'http://hospital.example/ids']) {
      expect(settingsProblems({ ...ok, identifierSystem: good })).toEqual({});
    }
    for (const bad of ['2.16.840.1', 'urn:oid:3.1', 'urn:uuid:1234', 'ftp://x.example', 'https://with space.example', 'MRN']) {
      expect(settingsProblems({ ...ok, identifierSystem: bad })).toEqual({ identifierSystem: 'identifierSystemNotUri' });
    }
  });

  it('sends empty texts as null (no contact; the default identifier system)', () => {
    expect(settingsPatch({ urgentHighMgDl: ' 350 ', careContact: '  ', identifierSystem: '' })).toEqual({
      urgentHighMgDl: 350,
      careContact: null,
      identifierSystem: null,
    });
    expect(settingsPatch({ urgentHighMgDl: '400', careContact: ' Ward 4, ext. 2210 ', identifierSystem: ' urn:oid:1.2.3 ' })).toEqual({
      urgentHighMgDl: 400,
      careContact: 'Ward 4, ext. 2210',
      identifierSystem: 'urn:oid:1.2.3',
    });
  });
});
