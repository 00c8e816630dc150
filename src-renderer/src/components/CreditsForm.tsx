import { type FormEvent, useRef, useState } from 'react';
import { Notice } from './Notice.tsx';
import { useKeptTyping } from './use-kept-typing.ts';

// A whole number of credits typed by the user (a brand's monthly cap, a batch's cap, what agents may spend a
// day): empty means none; anything else must be a whole number at least `min`, or it is refused in words
// before anything is sent.

export interface CreditsRule {
  /** "A cap", "An allowance": the start of the refusal. */
  what: string;
  min: number;
  /** What empty means, in the refusal: "no cap", "none". */
  empty: string;
}

/** The typed text as credits (null: empty, none), or why it is not. */
export function typedCredits(text: string, rule: CreditsRule): { value: number | null } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: null };
  const value = Number(trimmed);
  if (Number.isInteger(value) && value >= rule.min) return { value };
  const least = rule.min > 0 ? `, ${rule.min} or more` : '';
  return { error: `${rule.what} is a whole number of credits${least}; leave it empty for ${rule.empty}.` };
}

const shown = (value: number | null) => (value === null ? '' : String(value));

/** A field of credits with its Save button, "Saving…" until the answer comes, "Saved." then, and the refusal in words. */
export function CreditsForm({
  label,
  current,
  rule,
  placeholder,
  save,
  saveLabel = 'Save',
  saveName,
  describedBy,
  className,
}: {
  label: string;
  current: number | null;
  rule: CreditsRule;
  placeholder: string;
  /** Resolves to the error in words, or null once saved. */
  save: (value: number | null) => Promise<string | null>;
  saveLabel?: string;
  /** The button's accessible name, where several forms on a screen share its label. */
  saveName?: string;
  describedBy?: string;
  className: string;
}) {
  const { text, setText, sent } = useKeptTyping(shown(current));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [saving, setSaving] = useState(false);
  /** Whether the text was changed since the last Save (its answer then says nothing of the field). */
  const typedSince = useRef(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typed = typedCredits(text, rule);
    if ('error' in typed) {
      setError(typed.error);
      return;
    }
    setSaved(false);
    setSaving(true);
    sent(text);
    typedSince.current = false;
    const failure = await save(typed.value);
    setSaving(false);
    setError(failure);
    setSaved(failure === null && !typedSince.current);
  };
  return (
    <form className={className} onSubmit={(event) => void submit(event)}>
      <label>
        {label}
        <input
          inputMode="numeric"
          value={text}
          placeholder={placeholder}
          aria-describedby={describedBy}
          onChange={(event) => {
            setText(event.target.value);
            setSaved(false);
            typedSince.current = true;
          }}
        />
      </label>
      <button type="submit" aria-label={saveName}>
        {saveLabel}
      </button>
      {(saving || saved) && (
        <small role="status" className="muted">
          {saving ? 'Saving…' : 'Saved.'}
        </small>
      )}
      {error && <Notice kind="error">{error}</Notice>}
    </form>
  );
}
