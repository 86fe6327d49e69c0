import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

// The chart's module as a network that fails once, then delivers.
const network = vi.hoisted(() => ({ fail: true }));
vi.mock('./trend-canvas.tsx', () => {
  if (network.fail) throw new Error('Failed to fetch dynamically imported module');
  return { default: () => <div data-testid="chart">chart</div> };
});

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

const props = {
  readings: [],
  from: 0,
  to: 1,
  unit: 'mg/dL' as const,
  locale: 'en',
  labels: { Fasting: 'Fasting', Postprandial: 'Postprandial', Random: 'Random' },
};

describe('the trend chart loader', () => {
  it('says the chart could not be loaded, and fetches it again the next time it is shown', async () => {
    const { TrendCanvasLoader } = await import('./trend-canvas-loader.tsx');
    render(
      <I18nProvider i18n={i18n}>
        <TrendCanvasLoader {...props} />
      </I18nProvider>,
    );
    expect((await screen.findByRole('status')).textContent).toBe('The chart could not be loaded. Show the readings as a table instead.');
    cleanup();
    network.fail = false;
    render(
      <I18nProvider i18n={i18n}>
        <TrendCanvasLoader {...props} />
      </I18nProvider>,
    );
    expect((await screen.findByTestId('chart')).textContent).toBe('chart');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
