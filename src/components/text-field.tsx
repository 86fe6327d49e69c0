import { useLingui } from '@lingui/react/macro';
import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { Icon } from './icon.tsx';
import './text-field.css';

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'aria-invalid' | 'aria-describedby' | 'children'>;

export interface TextFieldProps extends InputProps {
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  /** What is wrong with the value; shown under the field and read with it. */
  error?: string | undefined;
  /** Help shown under the field and read with it (e.g. the OTP notice). */
  hint?: ReactNode;
  id?: string | undefined;
  ref?: Ref<HTMLInputElement>;
  /** A control inside the field's box, at its end (the show/hide toggle). */
  adornment?: ReactNode;
}

/**
 * A labelled input whose hint and error are tied to it (aria-describedby, aria-invalid): the one
 * text field of the patient and staff login pages and the password forms.
 */
export function TextField({ label, value, onValueChange, error, hint, id, ref, adornment, ...input }: TextFieldProps) {
  const ownId = useId();
  const inputId = id ?? ownId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : undefined, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={error ? 'field field--error' : 'field'}>
      <label htmlFor={inputId}>{label}</label>
      <div className={adornment ? 'text-field-input text-field-input--adorned' : 'text-field-input'}>
        <input
          {...input}
          ref={ref}
          id={inputId}
          value={value}
          onChange={(e) => onValueChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
        {adornment}
      </div>
      {hint && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="error-text text-field-error">
          <Icon icon="mdi:alert-circle" /> {error}
        </p>
      )}
    </div>
  );
}

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'adornment'>;

/**
 * A password input with a show/hide toggle. The toggle's name lives in its text, not in aria-label,
 * so that looking the field up by its label ("Password") finds the input alone.
 */
export function PasswordField(props: PasswordFieldProps) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  const ownId = useId();
  const inputId = props.id ?? ownId;
  return (
    <TextField
      {...props}
      id={inputId}
      type={shown ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      adornment={
        <button type="button" className="icon-button text-field-reveal" aria-pressed={shown} aria-controls={inputId} onClick={() => setShown((s) => !s)}>
          <Icon icon={shown ? 'mdi:eye-off' : 'mdi:eye'} />
          <span className="visually-hidden">{t`Show password`}</span>
        </button>
      }
    />
  );
}
