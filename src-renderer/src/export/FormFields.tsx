import type { ReactNode } from 'react';

// The export dialog's and the recipe editor's fields that are not a select (those are
// components/ChoiceSelect.tsx): a checkbox with its words beside it, a labelled number, a labelled line of
// text. Each hands back the value itself, so no caller reads an event.

export function CheckField({
  checked,
  disabled,
  onChange,
  children,
}: {
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
  /** The words beside the box: its accessible name. */
  children: ReactNode;
}) {
  return (
    <label className="checkbox">
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      {children}
    </label>
  );
}

/** A number typed in: handed back as typed, so an empty field stays empty and the caller decides what it means. */
export function NumberField({
  label,
  value,
  min,
  max,
  step,
  onChange,
}: {
  label: string;
  value: number | string;
  min?: number;
  max?: number;
  step?: string;
  onChange: (text: string) => void;
}) {
  return (
    <label>
      {label}
      <input
        type="number"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}

/** A line of text typed in, such as a name or a template (described by the tokens it may use). */
export function TextField({
  label,
  value,
  placeholder,
  maxLength,
  describedBy,
  className,
  onChange,
}: {
  label: string;
  value: string;
  placeholder?: string;
  maxLength?: number;
  describedBy?: string;
  className?: string;
  onChange: (text: string) => void;
}) {
  return (
    <label className={className}>
      {label}
      <input
        type="text"
        value={value}
        placeholder={placeholder}
        maxLength={maxLength}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
      />
    </label>
  );
}
