import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { useRuntime } from '../../lib/runtime-context.tsx';
import { GLUCOSE_UNITS, type GlucoseUnit } from '../../../schemas/glucose-units.ts';
import { setGlucoseUnit, useGlucoseUnit } from '../../lib/glucose-unit.ts';

/** mg/dL or mmol/L for this device; every screen reading useGlucoseUnit follows at once. */
export function UnitPreference() {
  const { t } = useLingui();
  const runtime = useRuntime();
  const unit = useGlucoseUnit();
  const hintId = useId();

  function choose(next: GlucoseUnit) {
    setGlucoseUnit(next);
    runtime.notify({ type: 'success', text: t`Glucose values are now shown in ${next}.` });
  }

  return (
    <fieldset className="profile-choices" aria-describedby={hintId}>
      <legend>
        <Trans>Glucose unit</Trans>
      </legend>
      {GLUCOSE_UNITS.map((u) => (
        <label key={u} className="profile-choice">
          <input type="radio" name="glucose-unit" value={u} checked={unit === u} onChange={() => choose(u)} />
          {u}
        </label>
      ))}
      <p id={hintId} className="field-hint">
        <Trans>Readings are always kept in mg/dL; this only changes how values are shown and typed on this device.</Trans>
      </p>
    </fieldset>
  );
}
