import { useEffect, useRef, useState } from 'react';

/**
 * A field's text that follows the saved value as core's answers change it, unless something was typed since
 * the field last took it or sent it: typing on after Enter or Save, before that save's answer came back,
 * stays, to be saved next, rather than be replaced by the answer (the product sheet, the credits fields).
 * `sent` is called with the text a save sends.
 */
export function useKeptTyping(saved: string): {
  text: string;
  setText: (text: string) => void;
  sent: (text: string) => void;
} {
  const [text, setText] = useState(saved);
  /** What the field last took from the saved value or sent: what it holds when nothing was typed since. */
  const base = useRef(saved);
  useEffect(() => {
    const before = base.current;
    setText((typed) => (typed === before ? saved : typed));
    base.current = saved;
  }, [saved]);
  const sent = (value: string) => {
    base.current = value;
  };
  return { text, setText, sent };
}
