// The "Symptom" field: a text box that suggests the hospital's symptom names as the patient types
// (the ARIA 1.2 combobox pattern with a list box). Anything else typed is a symptom of their own.
import { useId, useState, type KeyboardEvent } from 'react';
import { matchSymptoms } from './symptom-rules.ts';
import { plainText } from '../../../schemas/common.ts';

export interface SymptomPickerProps {
  id: string;
  labelId: string;
  names: readonly string[];
  value: string;
  onChange: (value: string) => void;
  describedBy?: string | undefined;
  invalid?: boolean;
}

export function SymptomPicker({ id, labelId, names, value, onChange, describedBy, invalid }: SymptomPickerProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const matches = matchSymptoms(names, value);
  const expanded = open && matches.length > 0;
  const optionId = (i: number) => `${listId}-${i}`;

  function choose(name: string) {
    onChange(name);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (matches.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setOpen(true);
      setActive((i) => (!expanded ? (step === 1 ? 0 : matches.length - 1) : (i + step + matches.length) % matches.length));
    } else if (e.key === 'Enter' && expanded && active >= 0) {
      // Picks the highlighted suggestion instead of sending the form.
      e.preventDefault();
      const name = matches[active];
      if (name !== undefined) choose(name);
    } else if (e.key === 'Escape' && expanded) {
      e.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  }

  return (
    <div className="symptom-picker">
      <input
        id={id}
        name="symptom"
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        autoComplete="off"
        autoCapitalize="sentences"
        enterKeyHint="done"
        maxLength={200}
        value={value}
        onChange={(e) => {
          onChange(plainText(e.target.value));
          setOpen(true);
          setActive(-1);
        }}
        onClick={() => setOpen((o) => !o)}
        onBlur={() => {
          setOpen(false);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" aria-labelledby={labelId} className="symptom-options" hidden={!expanded}>
        {expanded &&
          matches.map((name, i) => (
            <li
              key={name}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className="symptom-option"
              // Keeps the focus in the text box, so choosing with a pointer does not close the list first.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(name)}
            >
              {name}
            </li>
          ))}
      </ul>
    </div>
  );
}
