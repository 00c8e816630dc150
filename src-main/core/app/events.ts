import type { EventName, Events } from '../../shared/ipc.ts';

/** Every event of the contract: a record, so that adding an event without listing it here fails to compile. */
const EVENT_NAMES: Record<EventName, true> = {
  'batches:progress': true,
  'batches:changed': true,
  'batches:notice': true,
  'accounts:changed': true,
  'queue:owner': true,
  'ingest:progress': true,
  'export:progress': true,
  'export:changed': true,
  'app:command': true,
  'agents:changed': true,
};

type Listener<E extends EventName> = (payload: Events[E]) => void;

/** Typed events from core to whoever carries them to the renderer. */
export class CoreEvents {
  private readonly listeners = new Map<EventName, Set<Listener<never>>>();

  on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener as Listener<never>);
    this.listeners.set(event, set);
    return () => set.delete(listener as Listener<never>);
  }

  /** Every event, whatever its name: what a transport forwards. */
  onAny(listener: <E extends EventName>(event: E, payload: Events[E]) => void): () => void {
    const offs = (Object.keys(EVENT_NAMES) as EventName[]).map((event) =>
      this.on(event, (payload) => listener(event, payload)),
    );
    return () => {
      for (const off of offs) off();
    };
  }

  emit<E extends EventName>(event: E, payload: Events[E]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as Listener<E>)(payload);
  }
}

/**
 * Calls `emit(key)` at most once per `intervalMs` per key, always with a trailing call, so the last state
 * is never lost and a busy batch cannot flood the renderer. `now(key)` delivers at once, for a change a
 * listener must see even when it begins and ends inside one interval (an upload that starts and ends).
 */
export function throttlePerKey(
  intervalMs: number,
  emit: (key: string) => void,
): { touch(key: string): void; now(key: string): void; flush(): void } {
  const last = new Map<string, number>();
  const timers = new Map<string, NodeJS.Timeout>();
  const fire = (key: string) => {
    timers.delete(key);
    emit(key);
    // Counted from when the event was delivered, not from when it began: making it (a batch's progress
    // read from the database) took 50 ms on a loaded machine, and the next one came 50 ms after delivery.
    last.set(key, Date.now());
  };
  return {
    touch(key) {
      if (timers.has(key)) return;
      const wait = Math.max(0, (last.get(key) ?? 0) + intervalMs - Date.now());
      if (wait === 0) fire(key);
      else
        timers.set(
          key,
          setTimeout(() => fire(key), wait),
        );
    },
    now(key) {
      const timer = timers.get(key);
      if (timer) clearTimeout(timer);
      fire(key);
    },
    flush() {
      for (const [key, timer] of timers) {
        clearTimeout(timer);
        fire(key);
      }
    },
  };
}
