// A test's values over time as a small inline SVG line (no chart library), labelled by the
// sentence that says the same in words.
import type { LabTest } from '../../../schemas/lab-test.ts';
import { sparklinePoints } from './lab-rules.ts';

const WIDTH = 160;
const HEIGHT = 48;
const PAD = 6;

export function LabSparkline({ results, labelledBy }: { results: readonly LabTest[]; labelledBy: string }) {
  const series = [...results]
    .sort((a, b) => Date.parse(a.recordedAt) - Date.parse(b.recordedAt))
    .map((r) => ({ at: Date.parse(r.recordedAt), value: r.value }));
  const points = sparklinePoints(series, WIDTH, HEIGHT, PAD);
  const last = points.at(-1);
  return (
    <svg
      className="lab-sparkline"
      role="img"
      aria-labelledby={labelledBy}
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width={WIDTH}
      height={HEIGHT}
      data-testid="lab-sparkline"
    >
      <polyline
        points={points.map((p) => `${p.x},${p.y}`).join(' ')}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinejoin="round"
        strokeLinecap="round"
      />
      {points.map((p, i) => (
        <circle key={i} cx={p.x} cy={p.y} r={p === last ? 4.5 : 3} className={p === last ? 'lab-sparkline-last' : 'lab-sparkline-point'} />
      ))}
    </svg>
  );
}
