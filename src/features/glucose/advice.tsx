// Advice at once after a dangerous reading, graded by severity (schemas/judgement.ts,
// adviceGrade; README "Clinical wording"): the reading is judged as shown, in the patient's unit,
// with the urgent level of the patient's hospital. It is never answered with a green "reported
// successfully": while the advice is open no success notice shows under it.
//
// The wording follows the published guidance:
//   - lows, level 1 (< 70 mg/dL, 3.9 mmol/L) and level 2 (< 54, 3.0): the "15-15 rule" of the ADA
//     Standards of Care (section 6): 15 g of fast-acting glucose, check again after 15 minutes,
//     repeat while still low, then a snack or a meal; help when it does not come up; at level 2,
//     someone told, glucagon given by another person when the patient cannot swallow, and
//     emergency help when confused or unconscious;
//   - highs above 250 mg/dL (13.9): fluids, medicines as prescribed, ketones checked (the ADA asks
//     for a ketone check above 240 mg/dL) with the care team called at once when they are positive
//     (moderate or large in urine, blood ketones 1.5 mmol/L or more: the hyperglycaemic crises
//     consensus, Umpierrez et al., Diabetes Care 2024), and when it stays high;
//   - from the hospital's urgent level (400 mg/dL by default): ketones and the care team now,
//     emergency help with signs of ketoacidosis;
//   - at the top of a meter's range (600 mg/dL, 33.3: meters show HI above it, and it is the
//     glucose of the hyperosmolar state in that consensus): urgent medical help now.
// Each grade has a title, what to do now and when to get help; the hospital's care contact follows
// when it set one. A hospital words them its own way by changing the messages `glucose.advice.*`
// in every locales/<language>/messages.po.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef } from 'react';
import { formatGlucose, type GlucoseUnit, type Judgeable } from '../../../schemas/glucose-units.ts';
import { adviceGrade, CONSENSUS, METER_TOP, type AdviceGrade } from '../../../schemas/judgement.ts';
import type { AdviceSettings } from '../../../schemas/user-profile.ts';
import { Modal } from '../../components/confirm-dialog.tsx';
import { toasts } from '../../lib/ui/toast-store.ts';
import { useGlucoseUnit } from '../../lib/glucose-unit.ts';

export type { AdviceGrade };

/** The blood ketone level (mmol/L, in every unit system) from which ketones count as positive. */
export const BLOOD_KETONES_POSITIVE = 1.5;

/** The advice a reading calls for, judged as shown in `unit` with the hospital's urgent level; none in range or merely high. */
export function adviceFor(reading: Judgeable, unit: GlucoseUnit, settings: Pick<AdviceSettings, 'urgentHighMgDl'>): AdviceGrade | undefined {
  return adviceGrade(reading, unit, { urgentHighMgDl: settings.urgentHighMgDl });
}

interface AdviceText {
  title: MessageDescriptor;
  /** What to do now. */
  now: MessageDescriptor;
  /** When to get help. */
  help: MessageDescriptor;
}

// Placeholders, each filled in with the patient's unit: {value} the reading; {low} {veryLow}
// {veryHigh} the consensus levels; {urgent} the hospital's urgent level; {top} the meter's top;
// {ketones} the positive blood ketone level.
const TEXTS: Record<AdviceGrade, AdviceText> = {
  low: {
    title: msg({ id: 'glucose.advice.low.title', message: 'Your glucose is low' }),
    now: msg({
      id: 'glucose.advice.low.now',
      message:
        '{value} is below {low}. Take 15 g of fast-acting sugar now: 4 glucose tablets, or half a glass of fruit juice or of a regular (not diet) soft drink. Check again after 15 minutes. If it is still below {low}, take another 15 g and check again after 15 minutes. When it is back to {low} or above, eat a snack or your next meal.',
    }),
    help: msg({
      id: 'glucose.advice.low.help',
      message:
        'Get help if it is still below {low} after two or three treatments, or if you feel worse at any time: contact your care team, or in hospital tell the ward staff.',
    }),
  },
  veryLow: {
    title: msg({ id: 'glucose.advice.veryLow.title', message: 'Your glucose is very low' }),
    now: msg({
      id: 'glucose.advice.veryLow.now',
      message:
        '{value} is below {veryLow}: a serious low. Take 15 g of fast-acting sugar now (4 glucose tablets, or half a glass of fruit juice) and tell someone near you, or in hospital the ward staff. Check again after 15 minutes. If it is still below {low}, take another 15 g, then eat a snack or your next meal once it is back up.',
    }),
    help: msg({
      id: 'glucose.advice.veryLow.help',
      message:
        'If it does not come up, or you feel confused or very drowsy, call for emergency help now, or ask someone near you to. If you cannot swallow safely or become unconscious, nothing should be given by mouth: the person with you should give glucagon if it was prescribed for you and call for emergency help.',
    }),
  },
  veryHigh: {
    title: msg({ id: 'glucose.advice.veryHigh.title', message: 'Your glucose is very high' }),
    now: msg({
      id: 'glucose.advice.veryHigh.now',
      message:
        '{value} is above {veryHigh}. Drink water and take your diabetes medicines as prescribed. Check your ketones (urine strip or blood ketone meter) if you can, and check your glucose again within 2 hours.',
    }),
    help: msg({
      id: 'glucose.advice.veryHigh.help',
      message:
        'If your ketones are positive (moderate or large in urine, or {ketones} or more in blood), contact your care team now; in hospital, tell the ward staff now. Contact them too if it is still above {veryHigh} at your next checks. If you are vomiting, very drowsy or breathing fast, get emergency help.',
    }),
  },
  urgentHigh: {
    title: msg({ id: 'glucose.advice.urgentHigh.title', message: 'Your glucose is dangerously high' }),
    now: msg({
      id: 'glucose.advice.urgentHigh.now',
      message:
        '{value} is at or above {urgent}. Check your ketones now if you can, and contact your care team now; in hospital, tell the ward staff now. Drink water and take your diabetes medicines as prescribed.',
    }),
    help: msg({
      id: 'glucose.advice.urgentHigh.help',
      message:
        'Get emergency help if you cannot reach them quickly, if your ketones are moderate or large in urine (or {ketones} or more in blood), or if you are vomiting, very drowsy, confused or breathing fast.',
    }),
  },
  meterTop: {
    title: msg({ id: 'glucose.advice.meterTop.title', message: 'Your glucose is at the top of the meter’s range' }),
    now: msg({
      id: 'glucose.advice.meterTop.now',
      message:
        '{value} is the top of a glucose meter’s range ({top}; above it meters show HI), so your glucose may be even higher. Get urgent medical help now: call your care team or emergency services; in hospital, tell the ward staff now.',
    }),
    help: msg({
      id: 'glucose.advice.meterTop.help',
      message:
        'Glucose this high can mean a hyperglycaemic emergency (diabetic ketoacidosis or the hyperosmolar hyperglycaemic state) that needs treatment in hospital. While you wait for help, drink water if you can swallow safely, and do not drive.',
    }),
  },
};

const CONTACT = msg({ id: 'glucose.advice.contact', message: 'Contact your care team: {contact}' });

/** What the dialog shows: the grade, the reading, and whether it was saved while offline. */
export interface GlucoseAdviceState {
  grade: AdviceGrade;
  reading: Judgeable;
  /** Saved on the device only for now: the dialog says it will be sent. */
  offline: boolean;
}

/**
 * The dialog that replaces the success notice after a dangerous reading was saved: an alert dialog
 * (focus on its one button), with any success notice still shown dismissed and none shown under it.
 */
export function GlucoseAdvice({ advice, settings, onClose }: { advice: GlucoseAdviceState | undefined; settings: AdviceSettings; onClose: () => void }) {
  const { i18n } = useLingui();
  const bodyId = useId();
  const understood = useRef<HTMLButtonElement>(null);
  const open = advice !== undefined;
  useEffect(() => {
    if (!open) return undefined;
    toasts.dismissType('success');
    return toasts.holdBack('success');
  }, [open]);
  return (
    <Modal
      open={open}
      title={advice ? i18n._(TEXTS[advice.grade].title) : ''}
      onClose={onClose}
      role="alertdialog"
      describedBy={bodyId}
      initialFocus={understood}
    >
      {advice && <AdviceBody advice={advice} settings={settings} bodyId={bodyId} />}
      <div className="dialog-actions">
        <button ref={understood} type="button" className="button" onClick={onClose}>
          <Trans>I understand</Trans>
        </button>
      </div>
    </Modal>
  );
}

function AdviceBody({ advice, settings, bodyId }: { advice: GlucoseAdviceState; settings: AdviceSettings; bodyId: string }) {
  const { i18n } = useLingui();
  const unit = useGlucoseUnit();
  const glucose = (r: Judgeable) => `${formatGlucose(r, unit, i18n.locale)} ${unit}`;
  const text = TEXTS[advice.grade];
  const values = {
    value: glucose(advice.reading),
    low: glucose(CONSENSUS.low),
    veryLow: glucose(CONSENSUS.veryLow),
    veryHigh: glucose(CONSENSUS.veryHigh),
    urgent: glucose(settings.urgentHighMgDl),
    top: glucose(METER_TOP['mg/dL']),
    ketones: `${i18n.number(BLOOD_KETONES_POSITIVE, { minimumFractionDigits: 1 })} mmol/L`,
  };
  return (
    <div className={`glucose-advice glucose-advice--${advice.grade}`} data-testid="glucose-advice">
      <p id={bodyId}>{i18n._({ ...text.now, values })}</p>
      <p>{i18n._({ ...text.help, values })}</p>
      {settings.careContact && <p className="glucose-advice-contact">{i18n._({ ...CONTACT, values: { contact: settings.careContact } })}</p>}
      <p className="muted">
        {advice.offline ? (
          <Trans>Your reading is saved on this device. It will be sent when you are back online.</Trans>
        ) : (
          <Trans>Your reading is saved.</Trans>
        )}
      </p>
    </div>
  );
}
