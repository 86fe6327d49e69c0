// <Icon>: the shell's icons draw at once, the app's others once their chunk is in (offline too);
// another comes from our own server, then draws.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Icon } from './icon.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Icon', () => {
  it("draws an icon of the shell in the first render, and the app's others from their chunk, without asking anyone", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(<Icon icon="mdi:water" label="Eddy" />);
    const svg = screen.getByRole('img', { name: 'Eddy' });
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg.innerHTML).toContain('<path');
    render(<Icon icon="mdi:bell" label="Reminders" />);
    await waitFor(() => expect(screen.getByRole('img', { name: 'Reminders' }).tagName.toLowerCase()).toBe('svg'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('mirrors icons that point along the line of reading, and hides decorative ones from screen readers', () => {
    const { container } = render(<Icon icon="mdi:chevron-right" className="nav-icon" />);
    const svg = container.querySelector('svg');
    expect(svg?.getAttribute('class')?.split(' ')).toEqual(expect.arrayContaining(['icon', 'icon--directional', 'nav-icon']));
    expect(svg?.getAttribute('aria-hidden')).toBe('true');
  });

  it("fetches an icon that is not bundled from the server's icon endpoint, then draws it", async () => {
    const fetchMock = vi.fn(async (_url: string) =>
      Response.json({ prefix: 'mdi', icons: { 'hospital-extra': { body: '<path d="M1 1h2v2z"/>' } }, width: 24, height: 24 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(<Icon icon="mdi:hospital-extra" label="Ward" />);
    // First an empty box of the icon's size, then the icon.
    expect(screen.getByRole('img', { name: 'Ward' }).tagName.toLowerCase()).toBe('span');
    await waitFor(() => expect(screen.getByRole('img', { name: 'Ward' }).tagName.toLowerCase()).toBe('svg'));
    expect(new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://x').pathname).toBe('/api/icons');
  });
});
