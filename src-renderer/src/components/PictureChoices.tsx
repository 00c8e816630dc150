import type { ReactNode } from 'react';

// One choice among pictures (styles, models): radio buttons, so the arrow keys move between them, each
// drawn as a card with its picture and label.

export interface PictureChoice<T extends string> {
  value: T;
  label: string;
  picture: ReactNode;
}

export function PictureChoices<T extends string>({
  legend,
  name,
  columns,
  choices,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  columns: number;
  choices: ReadonlyArray<PictureChoice<T>>;
  value: T | null;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="picture-choices" style={{ gridTemplateColumns: `repeat(${columns}, 1fr)` }}>
      <legend>{legend}</legend>
      {choices.map((choice) => (
        <label
          key={choice.value}
          className={value === choice.value ? 'picture-choice selected' : 'picture-choice'}
        >
          <input
            type="radio"
            name={name}
            value={choice.value}
            checked={value === choice.value}
            onChange={() => onChange(choice.value)}
          />
          {choice.picture}
          <span>{choice.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
