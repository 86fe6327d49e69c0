import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { MIN_DAYS_FOR_ESTIMATE, MIN_READINGS_FOR_ESTIMATE } from '../../../schemas/a1c.ts';
import { MIN_READINGS_FOR_VARIABILITY } from '../../../report/statistics.ts';
import { PDF_LABELS } from '../../../report/labels.ts';
import { toUnit as toShown } from '../../../schemas/glucose-units.ts';
import type { ReportModel } from '../../../report/types.ts';
import type { ReportFormat } from '../../lib/use-report-format.ts';

function Figure({ label, value, testId, children }: { label: ReactNode; value: ReactNode; testId: string; children?: ReactNode }) {
  return (
    <div className="report-figure" data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        <span className="report-figure-value">{value}</span>
        {children}
      </dd>
    </div>
  );
}

/** "+8" / "−8" / "±0": a change said with its sign, never by colour alone. */
function signed(value: number, format: (v: number) => string): string {
  if (value === 0) return `±${format(0)}`;
  return value > 0 ? `+${format(value)}` : `−${format(-value)}`;
}

/** The headline numbers of the period, each with the previous period of the same length beside it. */
export function KeyFigures({ model, f }: { model: ReportModel; f: ReportFormat }) {
  const { t } = useLingui();
  const o = model.overall;
  const p = model.previous.overall;
  const prevFrom = f.day(model.previous.range.from);
  const prevTo = f.day(model.previous.range.to);
  const tir = o.bands.inRange.percent;
  const prevTir = p.bands.inRange.percent;
  const dash = '–';
  const estimateReason = (reason: 'too-few-readings' | 'too-few-days' | undefined) =>
    reason === 'too-few-days'
      ? t`Not shown: the readings fall on fewer than ${MIN_DAYS_FOR_ESTIMATE} different days, too few for a reliable estimate.`
      : t`Not shown: fewer than ${MIN_READINGS_FOR_ESTIMATE} readings in this period, too few for a reliable estimate.`;
  const a1c = model.latestHbA1c;
  const end = f.day(model.input.range.to);
  const low = f.edge(f.edges.low);
  const veryLow = f.edge(f.edges.veryLow);
  const previousSays = (what: string) => (
    <span className="report-previous">
      <Trans>Before: {what}</Trans>
    </span>
  );

  return (
    <section className="card" aria-labelledby="report-figures-title">
      <h2 id="report-figures-title">
        <Trans>Summary</Trans>
      </h2>
      <p className="muted report-compare">
        <Trans>
          “Before” is the previous {{ days: model.days }} days, {prevFrom} – {prevTo}.
        </Trans>
      </p>
      <dl className="report-figures">
        <Figure label={<Trans>Average glucose ({{ unit: f.unit }})</Trans>} value={o.mean === null ? dash : f.glucose(o.mean)} testId="report-mean">
          {previousSays(
            p.mean === null
              ? t`no readings`
              : o.mean === null
                ? f.glucose(p.mean)
                : `${f.glucose(p.mean)} (${signed(toShown(o.mean, f.unit) - toShown(p.mean, f.unit), (v) => f.decimal(v))})`,
          )}
        </Figure>
        <Figure
          label={
            <Trans>
              Readings in range ({low}–{{ high: f.edge(f.edges.high) }})
            </Trans>
          }
          value={f.share(tir)}
          testId="report-tir"
        >
          {previousSays(
            prevTir === null
              ? t`no readings`
              : tir === null
                ? f.share(prevTir)
                : `${f.share(prevTir)} (${signed(Math.round(tir) - Math.round(prevTir), (v) => t`${{ change: f.whole(v) }} points`)})`,
          )}
        </Figure>
        <Figure label={<Trans>Lows (below {low})</Trans>} value={f.whole(o.lows.below70)} testId="report-lows">
          <span className="report-figure-note">
            <Trans>
              of which below {veryLow}: {{ count: f.whole(o.lows.below54) }}
            </Trans>
          </span>
          {previousSays(p.count === 0 ? t`no readings` : f.whole(p.lows.below70))}
        </Figure>
        <Figure label={<Trans>Readings</Trans>} value={f.whole(o.count)} testId="report-count">
          <span className="report-figure-note">
            <Trans>
              {{ readingsPerDay: f.decimal(o.readingsPerDay) }} a day; readings on {{ daysWithReadings: model.daysWithReadings }} of {{ days: model.days }} days
            </Trans>
          </span>
          {previousSays(f.whole(p.count))}
        </Figure>
        <Figure label={<Trans>GMI (estimated A1c)</Trans>} value={model.gmi.value === null ? dash : f.a1c(model.gmi.value)} testId="report-gmi">
          {model.gmi.value === null ? (
            <span className="report-figure-note">{estimateReason(model.gmi.reason)}</span>
          ) : (
            <span className="report-figure-note">
              <Trans>eA1c (ADAG): {{ eA1c: model.eA1c.value === null ? dash : f.a1c(model.eA1c.value) }}</Trans>
            </span>
          )}
          <span className="report-figure-note">{f.t(PDF_LABELS.gmiCgm)}</span>
          <span className="report-previous">
            {a1c ? (
              <Trans>
                Latest lab HbA1c up to {end}: {{ hba1c: f.a1c(a1c.percent) }} on {{ measuredOn: f.date(a1c.recordedAt) }}
              </Trans>
            ) : (
              <Trans>No lab HbA1c recorded.</Trans>
            )}
          </span>
        </Figure>
        <Figure label={<Trans>Variability (CV)</Trans>} value={f.cv(o.cv)} testId="report-cv">
          <span className="report-figure-note">
            {o.sd === null ? (
              <Trans>Not shown: needs at least {MIN_READINGS_FOR_VARIABILITY} readings.</Trans>
            ) : (
              <Trans>
                SD {{ sd: f.sd(o.sd) }} {{ unit: f.unit }}; the goal is a CV of 36% or less.
              </Trans>
            )}
          </span>
        </Figure>
      </dl>
    </section>
  );
}
