import { useCallback, useRef, useState } from 'react';

// What a field that saves by itself (as it loses the keyboard, or as it is ticked) says beside it: "Saving…",
// then "Saved", or why it was not saved, in words. Without it a designer cannot tell a kept change from one
// that went nowhere (issue 31, point 6). Announced politely to screen readers.

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'failed'; message: string };

export interface SaveTracker {
  state: SaveState;
  /** Runs a save (which resolves to the refusal in words, or null once saved) and says how it went. */
  track(save: () => Promise<string | null>): Promise<void>;
  /** A value refused before anything was sent: the reason, in words. */
  refuse(message: string): void;
}

export function useSaveStatus(): SaveTracker {
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  // Two saves in a row: only the last one's answer is said.
  const latest = useRef(0);
  const track = useCallback(async (save: () => Promise<string | null>) => {
    const mine = ++latest.current;
    setState({ kind: 'saving' });
    const failure = await save();
    if (mine === latest.current)
      setState(failure === null ? { kind: 'saved' } : { kind: 'failed', message: failure });
  }, []);
  const refuse = useCallback((message: string) => {
    latest.current++;
    setState({ kind: 'failed', message });
  }, []);
  return { state, track, refuse };
}

const WORDS = { idle: '', saving: 'Saving…', saved: 'Saved' } as const;

/** The save's state beside its field; `id` lets the field name it in its aria-describedby. */
export function SaveStatus({ state, id }: { state: SaveState; id?: string }) {
  return (
    <span id={id} className={`save-status save-status-${state.kind}`} role="status" aria-live="polite">
      {state.kind === 'failed' ? state.message : WORDS[state.kind]}
    </span>
  );
}
