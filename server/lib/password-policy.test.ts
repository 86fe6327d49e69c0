import { describe, expect, it } from 'vitest';
import { passwordProblem } from './password-policy.ts';

describe('passwordProblem (NIST SP 800-63B)', () => {
  it('refuses the most common passwords of breach corpora, whatever their case', () => {
    for (const p of ['password', 'PASSWORD', 'Password1', '12345678', 'qwertyuiop', 'iloveyou', 'sunshine', 'trustno1', '1qaz2wsx'])
      expect(passwordProblem(p), p).toBe('common');
  });

  it('refuses a character repeated, a short piece repeated and a run of the keyboard order', () => {
    for (const p of [
      'aaaaaaaaa',
      'zzzzzzzzzzzz',
      '!!!!!!!!',
      'xyzxyzxyz',
      'abababab',
      'jklmnopq',
      '98765432',
      'abcdabcdabcd',
      'ĀāĂăĄąĆć'.slice(0, 1).repeat(9),
    ])
      expect(passwordProblem(p), p).toBe('repetitive');
  });

  it('refuses the hospital number anywhere in it, and a name, address or the app with only digits and signs around', () => {
    expect(passwordProblem('my100001pass', ['100001', 'Maria Lopez'])).toBe('context');
    expect(passwordProblem('Maria-Lopez-2026', ['100001', 'Maria Lopez'])).toBe('context');
    expect(passwordProblem('lopez!19770401', ['100001', 'Maria Lopez'])).toBe('context');
    expect(passwordProblem('eddy-eddy-2026', [])).toBe('context');
    expect(passwordProblem('Eddy2026!!', [])).toBe('context');
    expect(passwordProblem('Nurse.Head-2026', ['nurse.head@stmary.org', 'Head Nurse'])).toBe('context');
  });

  it('accepts any long enough password otherwise: no composition rules, any characters, long ones too', () => {
    for (const p of [
      'correct horse battery staple',
      'Demo-patient-1',
      'maria likes teddy bears',
      'всё хорошо сегодня',
      'मेरा नया पासवर्ड',
      'كلمة سر طويلة',
      'a'.repeat(3) + 'b7Qz9',
      'x'.repeat(60) + 'yz12',
      'lowercaseonlybutlong',
    ]) {
      expect(passwordProblem(p, ['100001', 'Maria Lopez']), p).toBeUndefined();
    }
  });

  it('counts characters, not UTF-16 units, for the minimum length', () => {
    expect(passwordProblem('😀😀😀😀🙂🙂🙂')).toBe('too-short');
    expect(passwordProblem('short')).toBe('too-short');
  });
});
