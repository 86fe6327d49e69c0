// Plain advice at once for a dangerous reading (issue 16): a low (< 70 mg/dL / 3.9 mmol/L), a very
// low (< 54 / 3.0) or a very high one (> 250 / 13.9) is never answered with a green "reported
// successfully". The defaults follow the published guidance: the "15-15 rule" for hypoglycaemia (ADA
// Standards of Care, section 6: 15–20 g of glucose, check again after 15 minutes, repeat, then a
// meal or snack) and the ADA's advice for hyperglycaemia (fluids, ketones in type 1 diabetes, call
// the care team when it stays high or with symptoms). A hospital words them its own way by changing
// the messages with the ids `glucose.advice.*` in locales/<language>/messages.po (README,
// "Clinical wording"), in every language it offers.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { bandOf, CONSENSUS, type Judgeable } from '../../../schemas/report/statistics.ts';
import { Modal } from '../../components/confirm-dialog.tsx';
import { formatGlucose, useGlucoseUnit } from '../../lib/units.ts';

export type GlucoseAdviceKind = 'veryLow' | 'low' | 'veryHigh';

/** The advice a reading calls for, judged in the unit it was taken in; none in range or merely high. */
export function adviceFor(reading: Judgeable): GlucoseAdviceKind | undefined {
  const band = bandOf(reading);
  return band === 'veryLow' || band === 'low' || band === 'veryHigh' ? band : undefined;
}

const TITLES: Record<GlucoseAdviceKind, MessageDescriptor> = {
  veryLow: msg({ id: 'glucose.advice.veryLow.title', message: 'Your glucose is very low' }),
  low: msg({ id: 'glucose.advice.low.title', message: 'Your glucose is low' }),
  veryHigh: msg({ id: 'glucose.advice.veryHigh.title', message: 'Your glucose is very high' }),
};

const BODIES: Record<GlucoseAdviceKind, MessageDescriptor> = {
  veryLow: msg({
    id: 'glucose.advice.veryLow.body',
    message:
      '{value} is below {veryLow}: a serious low. Take 15 g of fast-acting sugar now (4 glucose tablets, or half a glass of fruit juice) and tell someone near you or the ward staff. Check again after 15 minutes. If you cannot swallow safely, feel confused, or it does not come up, call for emergency help.',
  }),
  low: msg({
    id: 'glucose.advice.low.body',
    message:
      '{value} is below {low}. Take 15 g of fast-acting sugar now: 4 glucose tablets, or half a glass of fruit juice or a regular soft drink. Check again after 15 minutes; if it is still below {low}, take another 15 g. When it is back up, eat a snack or your next meal.',
  }),
  veryHigh: msg({
    id: 'glucose.advice.veryHigh.body',
    message:
      '{value} is above {veryHigh}. Drink water and take your diabetes medicines as prescribed; with type 1 diabetes, check for ketones. Check again in 1 to 2 hours. If it stays above {veryHigh}, or you are vomiting, very thirsty, drowsy or breathing fast, contact your care team or tell the ward staff now.',
  }),
};

/** The dialog that replaces the success notice after a dangerous reading was saved. */
export function GlucoseAdvice({ advice, onClose }: { advice: { kind: GlucoseAdviceKind; reading: Judgeable } | undefined; onClose: () => void }) {
  const { i18n } = useLingui();
  const unit = useGlucoseUnit();
  const glucose = (r: Judgeable) => `${formatGlucose(r, unit, i18n.locale)} ${unit}`;
  return (
    <Modal open={advice !== undefined} title={advice ? i18n._(TITLES[advice.kind]) : ''} onClose={onClose}>
      {advice && (
        <div className={`glucose-advice glucose-advice--${advice.kind}`} role="alert" data-testid="glucose-advice">
          <p>
            {i18n._({
              ...BODIES[advice.kind],
              values: { value: glucose(advice.reading), veryLow: glucose(CONSENSUS.veryLow), low: glucose(CONSENSUS.low), veryHigh: glucose(CONSENSUS.veryHigh) },
            })}
          </p>
          <p className="muted">
            <Trans>Your reading is saved.</Trans>
          </p>
        </div>
      )}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onClose}>
          <Trans>I understand</Trans>
        </button>
      </div>
    </Modal>
  );
}
