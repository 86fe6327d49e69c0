import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DoseText } from './dose-text.tsx';

describe('DoseText', () => {
  it('keeps each hyphenated pattern whole and the text as written', () => {
    const { container } = render(
      <p>
        <DoseText dose="0-½-1 after meals" />
      </p>,
    );
    expect(container.textContent).toBe('0-½-1 after meals');
    expect([...container.querySelectorAll('.dose-pattern')].map((s) => s.textContent)).toEqual(['0-½-1']);
  });

  it('leaves a dose without a pattern as plain text', () => {
    const { container } = render(
      <p>
        <DoseText dose="10 units" />
      </p>,
    );
    expect(container.textContent).toBe('10 units');
    expect(container.querySelector('.dose-pattern')).toBeNull();
  });
});
