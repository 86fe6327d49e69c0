import { describe, expect, it } from 'vitest';
import { MSG_SAVED_OFFLINE, savedNotice } from './saved-notice.ts';

describe('savedNotice', () => {
  it('keeps the online wording as a success online', () => {
    expect(savedNotice('Glucose reported successfully', false)).toEqual({ type: 'success', text: 'Glucose reported successfully' });
  });

  it('says offline that the entry is kept on the device and will be sent, never "successfully"', () => {
    const notice = savedNotice('Glucose reported successfully', true);
    expect(notice).toEqual({ type: 'info', text: MSG_SAVED_OFFLINE });
    expect(JSON.stringify(notice)).not.toContain('successfully');
    expect(MSG_SAVED_OFFLINE.message).toBe('Saved on this device. It will be sent when you are back online.');
  });
});
