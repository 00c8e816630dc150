// The order of a product's picks in Make videos: moving one pick, by keyboard (one place at a time) or by
// drag (to where it is dropped). Kept apart from the dialog so the rule is one small function.

/** `order` with `id` moved to `to` (clamped to the list); the same array when nothing moves. */
export function movePick(order: readonly number[], id: number, to: number): number[] {
  const from = order.indexOf(id);
  const place = Math.max(0, Math.min(order.length - 1, to));
  if (from < 0 || from === place) return [...order];
  const rest = order.filter((pick) => pick !== id);
  return [...rest.slice(0, place), id, ...rest.slice(place)];
}

/** The step a key press moves a pick by: Alt or Ctrl/⌘ with ← or →; 0 for any other key. */
export function pickStepOf(event: Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey'>): -1 | 0 | 1 {
  if (!(event.altKey || event.ctrlKey || event.metaKey)) return 0;
  if (event.key === 'ArrowLeft') return -1;
  if (event.key === 'ArrowRight') return 1;
  return 0;
}
