import { counted } from '../../../src-main/shared/counted.ts';
import type { ReviewChange } from '../../../src-main/shared/models.ts';
import { REVIEW_LABELS, type RejectReason } from '../../../src-main/shared/vocabulary.ts';
import { REVIEW_LABEL_WORDS } from '../../../src-main/shared/words.ts';
import type { VideoCommand } from './video-transport.ts';

// Review's keys, as data: the key handler looks its action up here, and the shortcut sheet (`?`) is drawn
// from the same list, so the sheet can never show a key that does nothing, or miss one that does.

export type ReviewAction =
  | { type: 'decide'; change: ReviewChange }
  | { type: 'keep' }
  | { type: 'move'; by: 1 | -1 }
  | { type: 'move-row'; by: 1 | -1 }
  | { type: 'mode'; mode: 'grid' | 'loupe' | 'compare' | 'survey' | 'wipe' }
  | { type: 'zoom' }
  | { type: 'pan'; dx: number; dy: number }
  | { type: 'wipe'; by: number }
  | { type: 'select-toggle' }
  | { type: 'select-all' }
  | { type: 'auto-advance' }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'sheet' }
  | { type: 'video'; command: VideoCommand }
  | { type: 'product-scope' }
  | { type: 'focus-reset' };

export interface KeyBinding {
  /** `KeyboardEvent.key` values, with `Mod+` for Ctrl (Cmd on macOS) and `Shift+` where it matters. */
  keys: string[];
  /** What the sheet shows for it. */
  label: string;
  action: ReviewAction;
  /** `video`: only while a video is on screen in the loupe, where it comes before any other binding. */
  when?: 'video';
}

export const REASON_KEYS: Array<{ key: string; reason: RejectReason; label: string }> = [
  { key: 'h', reason: 'wrong_colour', label: 'Reject: wrong colour (hue)' },
  { key: 't', reason: 'garbled_text', label: 'Reject: garbled text' },
  { key: 'd', reason: 'deformed_product', label: 'Reject: deformed product' },
  { key: 'b', reason: 'wrong_background', label: 'Reject: wrong background' },
  { key: 'o', reason: 'other', label: 'Reject: other reason' },
];

/** In percent of the pane, as the store pans (from -25 to 25 at 2x). */
const PAN_STEP = 5;

export const REVIEW_KEYMAP: KeyBinding[] = [
  { keys: ['p'], label: 'Pick', action: { type: 'decide', change: { flag: 'picked' } } },
  { keys: ['x'], label: 'Reject', action: { type: 'decide', change: { flag: 'rejected' } } },
  { keys: ['u'], label: 'Remove the flag', action: { type: 'decide', change: { flag: null } } },
  ...[0, 1, 2, 3, 4, 5].map((stars) => ({
    keys: [String(stars)],
    label: stars === 0 ? 'No stars' : counted(stars, 'star'),
    action: { type: 'decide', change: { stars } } as ReviewAction,
  })),
  // Lightroom's: 6 red, 7 yellow, 8 green, 9 blue; the same key again takes the label away.
  ...REVIEW_LABELS.map((label, at) => ({
    keys: [String(6 + at)],
    label: `${REVIEW_LABEL_WORDS[label]} label (again: none)`,
    action: { type: 'decide', change: { label } } as ReviewAction,
  })),
  ...REASON_KEYS.map(({ key, reason, label }) => ({
    keys: [key],
    label,
    action: { type: 'decide', change: { rejectReason: reason } } as ReviewAction,
  })),
  { keys: ['Shift+p'], label: 'Pick this one, reject the rest of its product', action: { type: 'keep' } },
  {
    keys: ['ArrowRight'],
    label: 'Next (in compare and survey: the next pane)',
    action: { type: 'move', by: 1 },
  },
  { keys: ['ArrowLeft'], label: 'Previous (the previous pane)', action: { type: 'move', by: -1 } },
  {
    keys: ['ArrowDown'],
    label: 'A row down (panes too); in the loupe: the next product',
    action: { type: 'move-row', by: 1 },
  },
  {
    keys: ['ArrowUp'],
    label: 'A row up (panes too); in the loupe: the previous product',
    action: { type: 'move-row', by: -1 },
  },
  { keys: ['g', 'Escape'], label: 'Grid', action: { type: 'mode', mode: 'grid' } },
  { keys: ['e', 'Enter'], label: 'Loupe: one result, big', action: { type: 'mode', mode: 'loupe' } },
  {
    keys: ['c'],
    label: 'Compare: the selection (2 to 4), or this result and the next of its product',
    action: { type: 'mode', mode: 'compare' },
  },
  {
    keys: ['n'],
    label: "Survey: the selection, or this product's results, all fitted on screen",
    action: { type: 'mode', mode: 'survey' },
  },
  { keys: ['w'], label: 'A/B wipe against the source photo', action: { type: 'mode', mode: 'wipe' } },
  { keys: ['z'], label: 'Zoom 2x or fit (locked across panes)', action: { type: 'zoom' } },
  {
    keys: ['Shift+f'],
    label: 'Clear the focus point (crops find the subject again)',
    action: { type: 'focus-reset' },
  },
  // Like scrolling: Shift+→ shows more of the right side. A step is a tenth of the way from edge to edge.
  { keys: ['Shift+ArrowLeft'], label: 'Pan left (zoomed)', action: { type: 'pan', dx: PAN_STEP, dy: 0 } },
  { keys: ['Shift+ArrowRight'], label: 'Pan right (zoomed)', action: { type: 'pan', dx: -PAN_STEP, dy: 0 } },
  { keys: ['Shift+ArrowUp'], label: 'Pan up (zoomed)', action: { type: 'pan', dx: 0, dy: PAN_STEP } },
  { keys: ['Shift+ArrowDown'], label: 'Pan down (zoomed)', action: { type: 'pan', dx: 0, dy: -PAN_STEP } },
  { keys: ['['], label: 'Wipe to the left', action: { type: 'wipe', by: -10 } },
  { keys: [']'], label: 'Wipe to the right', action: { type: 'wipe', by: 10 } },
  { keys: [' '], label: 'Select or unselect (grid)', action: { type: 'select-toggle' } },
  { keys: ['Mod+a'], label: 'Select all that the filter shows (grid)', action: { type: 'select-all' } },
  { keys: ['a'], label: 'Auto-advance on or off', action: { type: 'auto-advance' } },
  { keys: ['Mod+z'], label: 'Undo', action: { type: 'undo' } },
  { keys: ['Mod+Shift+z', 'Mod+y'], label: 'Redo', action: { type: 'redo' } },
  { keys: ['?'], label: 'This sheet', action: { type: 'sheet' } },
  ...(
    [
      [[' '], 'Play or pause', 'play-pause'],
      [['l'], 'Play; again: faster (1x, 2x, 4x)', 'forward'],
      [['k'], 'Pause', 'pause'],
      [['j'], 'Back, stepping at the rate; again: faster (1x, 2x, 4x)', 'backward'],
      [[','], 'One frame back', 'frame-back'],
      [['.'], 'One frame forward', 'frame-next'],
      [['Shift+l'], 'Loop on or off', 'loop'],
    ] as const
  ).map(([keys, label, command]) => ({
    keys: [...keys],
    label,
    action: { type: 'video', command } as ReviewAction,
    when: 'video' as const,
  })),
  {
    keys: ['v'],
    label: "This product in all batches (there: back to this result's batch)",
    action: { type: 'product-scope' },
  },
];

/** The binding of a key press, or null; `video`: a video is on screen in the loupe. */
export function bindingOf(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>,
  { video }: { video: boolean } = { video: false },
): KeyBinding | null {
  if (event.altKey) return null;
  const mod = event.ctrlKey || event.metaKey;
  // A named key (an arrow) may have a binding of its own with Shift; else Shift does not change it.
  if (!mod && event.shiftKey && event.key.length > 1) {
    const shifted = REVIEW_KEYMAP.find((binding) => binding.keys.includes(`Shift+${event.key}`));
    if (shifted) return shifted;
  }
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  // Shift matters with Mod (redo) and with a letter bound with it (Shift+P); else a shifted letter is the
  // letter (Caps Lock aside). `?` is a shifted key of its own.
  const names = mod
    ? [`Mod+${event.shiftKey ? 'Shift+' : ''}${key}`]
    : event.key === '?'
      ? ['?']
      : event.shiftKey && /^[a-z]$/.test(key)
        ? [`Shift+${key}`, key]
        : [key];
  const bound = REVIEW_KEYMAP.filter((binding) => video || binding.when !== 'video');
  for (const name of names) {
    const found =
      bound.find((binding) => binding.when === 'video' && binding.keys.includes(name)) ??
      bound.find((binding) => binding.keys.includes(name));
    if (found) return found;
  }
  return null;
}

/** A key as the sheet shows it. */
export function keyLabel(key: string): string {
  if (key.startsWith('Shift+')) return `Shift+${keyLabel(key.slice('Shift+'.length))}`;
  const names: Record<string, string> = {
    ' ': 'Space',
    ArrowRight: '→',
    ArrowLeft: '←',
    ArrowUp: '↑',
    ArrowDown: '↓',
    Escape: 'Esc',
  };
  return (names[key] ?? key.replace('Mod+', 'Ctrl/⌘+'))
    .replace(/\+([a-z])$/, (_, letter: string) => `+${letter.toUpperCase()}`)
    .replace(/^[a-z]$/, (letter) => letter.toUpperCase());
}
