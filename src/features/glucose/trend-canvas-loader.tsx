// The trend chart's code (uPlot) loads after login, when a page shows a trend. Not through
// React.lazy: a lazy component suspends on its first render even when its code has already
// arrived, and React reveals suspended content at most every 300 ms, so the chart appeared about
// 300 ms after the readings it draws (bench: dashboard10kListsMs). This renders the placeholder
// only while the code is really still on its way.
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
  useEffect(() => {
    if (Chart) return undefined;
    let live = true;
    loadTrendCanvas().then(
      (c) => live && setChart(() => c),
      (err: unknown) => log.error('the trend chart could not load', err),
    );
    return () => {
      live = false;
    };
  }, [Chart]);
  return Chart ? <Chart {...props} /> : <div className="trend-canvas trend-canvas--loading" />;
}
