// A labelled select over a fixed list of typed values (the catalog's): it hands back the value itself, not
// the option's string, so no caller parses or casts. `null` is offered as the empty option.

export interface SelectOption<T extends string | number | null> {
  value: T;
  text: string;
  /** Offered but not choosable (its text says why). */
  disabled?: boolean;
}

const encode = (value: string | number | null) => (value === null ? '' : String(value));

export function ChoiceSelect<T extends string | number | null>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<SelectOption<T>>;
  onChange: (value: T) => void;
}) {
  return (
    <label>
      {label}
      <select
        value={encode(value)}
        onChange={(event) => {
          const chosen = options.find((option) => encode(option.value) === event.target.value);
          if (chosen) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <option key={encode(option.value)} value={encode(option.value)} disabled={option.disabled}>
            {option.text}
          </option>
        ))}
      </select>
    </label>
  );
}
