import type { Channel, EventName, Events, Reply } from '../../../src-main/shared/ipc.ts';
import type { Transport } from './transport.ts';

// The browser harness's transport: the same handler map, mounted on a WebSocket. Calls wait for the socket;
// a dropped socket fails the calls in flight and reconnects. A socket refused before it ever opened (no
// token, a wrong one, another run's, or no harness at all) would be refused again: every call then fails
// with what to do, instead of waiting forever on a page that stays blank.

const NOT_LET_IN =
  'The Adbatch harness did not let this page in, or is not running: start it (npm run app:web) and open the ' +
  'exact address it prints (the #token=… in it is what admits the page).';

/**
 * The harness's socket: /ipc on the page's own host, with the per-run token that the URL the harness printed
 * carries in its fragment (`#token=…`; a fragment is never sent to a server nor in a Referer).
 */
export function harnessSocketUrl(location: Pick<Location, 'href' | 'hash'>): string {
  const url = new URL('/ipc', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', new URLSearchParams(location.hash.slice(1)).get('token') ?? '');
  return url.toString();
}

type Pending = { resolve: (reply: Reply<Channel>) => void };

export function webSocketTransport(url: string): Transport {
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  let nextId = 1;
  let socket: WebSocket;
  /** Whether the socket opened; false once it closed without opening. */
  let ready: Promise<boolean>;

  const connect = () => {
    socket = new WebSocket(url);
    let opened = false;
    ready = new Promise((resolve) => {
      socket.addEventListener(
        'open',
        () => {
          opened = true;
          resolve(true);
        },
        { once: true },
      );
      socket.addEventListener('close', () => resolve(false), { once: true });
    });
    socket.addEventListener('message', (message) => {
      const data = JSON.parse(String(message.data)) as
        | { id: number; reply: Reply<Channel> }
        | { event: EventName; payload: unknown };
      if ('id' in data) {
        pending.get(data.id)?.resolve(data.reply);
        pending.delete(data.id);
      } else {
        for (const listener of listeners.get(data.event) ?? []) listener(data.payload as never);
      }
    });
    socket.addEventListener('close', () => {
      for (const call of pending.values()) {
        call.resolve({
          ok: false,
          error: { code: 'unreachable', message: 'The connection to Adbatch was lost.' },
        });
      }
      pending.clear();
      if (opened) setTimeout(connect, 500);
    });
  };
  connect();

  return {
    async invoke(channel, args) {
      if (!(await ready)) return { ok: false, error: { code: 'unreachable', message: NOT_LET_IN } };
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, { resolve });
        socket.send(JSON.stringify({ id, channel, args }));
      });
    },
    on<E extends EventName>(event: E, callback: (payload: Events[E]) => void) {
      const set = listeners.get(event) ?? new Set();
      set.add(callback as (payload: never) => void);
      listeners.set(event, set);
      return () => set.delete(callback as (payload: never) => void);
    },
    pathsForFiles: () => [],
  };
}
