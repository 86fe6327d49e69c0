// The trend chart's code (uPlot) loads after login, when a page shows a trend. Not through
// React.lazy: a lazy component suspends on its first render even when its code has already
// arrived, and React reveals suspended content at most every 300 ms, so the chart appeared about
// 300 ms after the readings it draws (bench: dashboard10kListsMs). This shows the loading box only
// while the code is still on its way, and says so when it could not be fetched (the trend's table
// still works; the next time the chart is shown, it is fetched again).
import { Trans } from '@lingui/react/macro';
import { useEffect, useState, type ComponentType } from 'react';
import { log } from '../../../sync/log.ts';
import type { TrendCanvasProps } from './trend-canvas.tsx';

type Canvas = ComponentType<TrendCanvasProps>;

let loaded: Canvas | undefined;
let loading: Promise<Canvas> | undefined;

/** Fetches the chart's code once (again after a failure); a page that will show it may start early. */
export function loadTrendCanvas(): Promise<Canvas> {
  loading ??= import('./trend-canvas.tsx').then(
    (m) => (loaded = m.default),
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

export function TrendCanvasLoader(props: TrendCanvasProps) {
  const [Chart, setChart] = useState<Canvas | undefined>(() => loaded);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (Chart) return undefined;
    let live = true;
    loadTrendCanvas().then(
      (c) => live && setChart(() => c),
      (err: unknown) => {
        log.error('the trend chart could not load', err);
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, [Chart]);
  if (Chart) return <Chart {...props} />;
  if (failed) {
    return (
      <p className="field-hint" role="status">
        <Trans>The chart could not be loaded. Show the readings as a table instead.</Trans>
      </p>
    );
  }
  return <div className="trend-canvas trend-canvas--loading" />;
}
