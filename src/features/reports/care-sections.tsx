import { Plural, Trans } from '@lingui/react/macro';
import type { GlucoseType } from '../../../schemas/glucose.ts';
import { withLabUnit } from '../../../schemas/lab-unit-text.ts';
import { labSeriesDecimals } from '../../../report/statistics.ts';
import type { ReportModel } from '../../../report/types.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { DoseText } from '../../components/dose-text.tsx';
import type { ReportFormat } from '../../lib/use-report-format.ts';

/** Doses marked taken against the doses the reminders expected, per medicine. */
export function AdherenceSection({ model, f }: { model: ReportModel; f: ReportFormat }) {
  return (
    <section className="card" aria-labelledby="report-adherence-title">
      <h2 id="report-adherence-title">
        <Trans>Medicines taken</Trans>
      </h2>
      {model.adherence.length === 0 ? (
        <EmptyState icon="mdi:pill">
          <Trans>No medicine was prescribed in this period.</Trans>
        </EmptyState>
      ) : (
        <>
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="report-adherence-title">
            <table className="report-table" data-testid="report-adherence">
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>Medicine</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Taken / expected</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Adherence</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {model.adherence.map((a) => (
                  <tr key={a.prescrNo}>
                    <th scope="row">
                      {a.name}{' '}
                      <span className="muted">
                        <DoseText dose={a.dose} />
                      </span>
                    </th>
                    <td>
                      {f.whole(a.taken)} / {f.whole(a.expected)}
                    </td>
                    <td>
                      <span className="report-bar" aria-hidden>
                        <span style={{ inlineSize: `${Math.min(100, a.percent ?? 0)}%` }} />
                      </span>
                      {f.share(a.percent)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="field-hint">
            <Trans>Expected doses follow the dose pattern (for example 1-0-1 is two a day) on the days the medicine was active, up to today.</Trans>
          </p>
        </>
      )}
    </section>
  );
}

/** Every low of the period with its time, value and tag, and the symptoms reported that day (issue 16). */
export function LowsSection({ model, f, labels }: { model: ReportModel; f: ReportFormat; labels: Record<GlucoseType, string> }) {
  const low = f.edge(f.edges.low);
  return (
    <section className="card" aria-labelledby="report-lows-title">
      <h2 id="report-lows-title">
        <Trans>
          Every low (below {low} {{ unit: f.unit }})
        </Trans>
      </h2>
      {model.lows.length === 0 ? (
        <EmptyState icon="mdi:check-circle">
          <Trans>No low readings in this period.</Trans>
        </EmptyState>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="report-lows-title">
          <table className="report-table" data-testid="report-lows-list">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>When</Trans>
                </th>
                <th scope="col">
                  <Trans>Tag</Trans>
                </th>
                <th scope="col">{f.unit}</th>
                <th scope="col">
                  <Trans>Symptoms that day</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {model.lows.map((l) => (
                <tr key={l.id} data-band={l.band}>
                  <th scope="row">{f.dateTime(l.recordedAt)}</th>
                  <td>{labels[l.type]}</td>
                  <td>
                    <strong className={l.band === 'veryLow' ? 'report-low report-low--very' : 'report-low'}>{f.glucose(l)}</strong>
                  </td>
                  <td>{l.symptoms.length ? l.symptoms.join(', ') : '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function SymptomsSection({ model, f }: { model: ReportModel; f: ReportFormat }) {
  return (
    <section className="card" aria-labelledby="report-symptoms-title">
      <h2 id="report-symptoms-title">
        <Trans>Symptoms</Trans>
      </h2>
      {model.symptoms.length === 0 ? (
        <EmptyState icon="mdi:thermometer">
          <Trans>No symptoms reported in this period.</Trans>
        </EmptyState>
      ) : (
        <ul className="list" data-testid="report-symptoms">
          {model.symptoms.map((s) => (
            <li key={s.symptom}>
              <span className="list-main">
                <strong>{s.symptom}</strong>
              </span>
              <span>
                <Plural value={{ count: s.count }} one="Once" other="# times" />, <Trans>last {{ lastTime: f.dateTime(s.lastAt) }}</Trans>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Lab results of the period, the one before each, and the latest HbA1c beside the estimate. */
export function LabsSection({ model, f }: { model: ReportModel; f: ReportFormat }) {
  const a1c = model.latestHbA1c;
  // "Latest" of this report: up to the end of its period (a later result is in a later report).
  const end = f.day(model.input.range.to);
  const estimate = model.gmi.value;
  const hba1c = a1c && f.a1c(a1c.percent);
  const gmi = estimate === null ? null : f.a1c(estimate);
  return (
    <section className="card" aria-labelledby="report-labs-title">
      <h2 id="report-labs-title">
        <Trans>Lab results</Trans>
      </h2>
      <p className="report-a1c" data-testid="report-a1c">
        {a1c ? (
          <Trans>
            Latest HbA1c up to {end}: <strong>{hba1c}</strong> ({{ measuredOn: f.date(a1c.recordedAt) }}).
          </Trans>
        ) : (
          <Trans>No HbA1c result recorded up to the end of this period.</Trans>
        )}{' '}
        {gmi === null ? (
          <Trans>No estimate from glucose readings for this period.</Trans>
        ) : (
          <Trans>
            Estimate from glucose readings (GMI): <strong>{gmi}</strong>.
          </Trans>
        )}
      </p>
      {model.labs.length === 0 ? (
        <EmptyState icon="mdi:flask">
          <Trans>No lab results in this period.</Trans>
        </EmptyState>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="report-labs-title">
          <table className="report-table" data-testid="report-labs">
            <thead>
              <tr>
                <th scope="col">
                  <Trans>Test</Trans>
                </th>
                <th scope="col">
                  <Trans>Latest</Trans>
                </th>
                <th scope="col">
                  <Trans>Before</Trans>
                </th>
              </tr>
            </thead>
            <tbody>
              {model.labs.map((l) => {
                const digits = labSeriesDecimals([l.latest.value, l.previous?.value]);
                return (
                  <tr key={l.name}>
                    <th scope="row">{l.name}</th>
                    <td>
                      {withLabUnit(f.lab(l.latest.value, digits), l.unit)} <span className="muted report-when">{f.date(l.latest.recordedAt)}</span>
                    </td>
                    <td>
                      {l.previous ? (
                        <>
                          {withLabUnit(f.lab(l.previous.value, digits), l.unit)} <span className="muted report-when">{f.date(l.previous.recordedAt)}</span>
                        </>
                      ) : (
                        '–'
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function ChecksSection({ model, f }: { model: ReportModel; f: ReportFormat }) {
  const { plannedDays, daysWithReading, missedDays } = model.checks;
  return (
    <section className="card" aria-labelledby="report-checks-title">
      <h2 id="report-checks-title">
        <Trans>Glucometer days</Trans>
      </h2>
      {plannedDays === 0 ? (
        <p className="muted">
          <Trans>No glucometer days were planned in this period.</Trans>
        </p>
      ) : (
        <>
          <p data-testid="report-checks">
            <Trans>
              Checked on <strong>{daysWithReading}</strong> of {plannedDays} planned days.
            </Trans>
          </p>
          {missedDays.length > 0 && (
            <p className="muted">
              <Trans>Missed: {{ days: missedDays.map((d) => f.day(d)).join(', ') }}</Trans>
            </p>
          )}
        </>
      )}
    </section>
  );
}

export function AppointmentsSection({ model, f }: { model: ReportModel; f: ReportFormat }) {
  return (
    <section className="card" aria-labelledby="report-appointments-title">
      <h2 id="report-appointments-title">
        <Trans>Appointments</Trans>
      </h2>
      {model.appointments.length === 0 ? (
        <p className="muted">
          <Trans>No appointments in this period.</Trans>
        </p>
      ) : (
        <ul className="list">
          {model.appointments.map((a) => (
            <li key={`${a.date}-${a.doctor}`}>
              <span className="list-main">
                <strong dir="auto">{a.doctor}</strong>{' '}
                {a.notes ? (
                  <span className="muted" dir="auto">
                    {a.notes}
                  </span>
                ) : null}
              </span>
              <span>{f.dateTime(a.date)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
