// Staff turn severe-low alerts on and off for one device (issue 18). The device is kept under its
// owner (an admin, or a doctor token), and hears about the patients of the hospitals the owner may
// see when each alert is sent (repositories/staff-alerts.ts).
import type { AppContext } from '../context.ts';
import type { NotificationTokenInput, NotificationTokenRemove } from '../../schemas/user-profile.ts';
import { staffAlertRepo, type StaffOwner } from '../repositories/staff-alerts.ts';
import type { StaffPrincipal } from './principal.ts';
import { storedToken, tokensNamed } from './profile-service.ts';

export const STAFF_ALERT_MSG = {
  on: 'Severe-low alerts are on for this device',
  off: 'Severe-low alerts are off for this device',
} as const;

const ownerOf = (p: StaffPrincipal): StaffOwner => (p.kind === 'admin' ? { adminId: p.adminId } : { doctorTokenId: p.doctorTokenId });

export async function turnAlertsOn(ctx: AppContext, principal: StaffPrincipal, input: NotificationTokenInput) {
  await staffAlertRepo.upsert(ctx.db, ownerOf(principal), { ...storedToken(ctx, input.token), locale: input.locale ?? null });
  return { message: STAFF_ALERT_MSG.on };
}

export async function turnAlertsOff(ctx: AppContext, principal: StaffPrincipal, input: NotificationTokenRemove) {
  const owner = ownerOf(principal);
  await staffAlertRepo.removeOwn(ctx.db, owner, tokensNamed(await staffAlertRepo.ownTokens(ctx.db, owner), input));
  return { message: STAFF_ALERT_MSG.off };
}
