import type { ReactNode } from 'react';

// One choice among pictures (styles, models): radio buttons, so the arrow keys move between them, each
// drawn as a card with its picture and label.

export interface PictureChoice<T extends string> {
  value: T;
  label: string;
  picture: ReactNode;
}

/** The cards' gap in styles.css. */
const GAP = '8px';
/** Under this a card's label no longer fits ("Influencer", "Avant-garde" on two lines). */
const NARROWEST = '80px';

/** At most `columns` cards a row, as many fewer as a narrow window needs for no card to be cut off. */
function columnsOf(columns: number): string {
  return `repeat(auto-fill, minmax(max(${NARROWEST}, (100% - ${columns - 1} * ${GAP}) / ${columns}), 1fr))`;
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
    <fieldset className="picture-choices" style={{ gridTemplateColumns: columnsOf(columns) }}>
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
