import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'aria-invalid' | 'aria-describedby' | 'children'>;

interface StaffFieldProps extends InputProps {
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input whose hint and error are read with it. */
export function StaffField({ label, value, onValueChange, error, hint, ref, ...input }: StaffFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : undefined, error ? `${id}-error` : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field--error' : 'field'}>
      <label htmlFor={id}>{label}</label>
      <input {...input} ref={ref} id={id} value={value} onChange={(e) => onValueChange(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={describedBy} />
      {hint && (
        <p id={`${id}-hint`} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="error-text staff-field-error">
          {error}
        </p>
      )}
    </div>
  );
}
