import { randomBytes } from 'node:crypto';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src-main/sandbox/server.ts';
import { SandboxClient } from './sandbox-client.ts';
import { PRODUCT_PHOTOS, type StaticServer, startStaticServer } from './static-server.ts';

// One real sandbox on 127.0.0.1 (port 0) plus the static server its product photos are fetched from,
// with the keys of the built-in accounts looked up by role.

export interface DefaultKeys {
  /** The key of the personal account "Personal" (500 credits). */
  personal: string;
  /** The unpinned key of "Northwind Agency" (pool of 1,000 credits). */
  agency: string;
  /** The Northwind key pinned to the client brand Acme Outdoor. */
  agencyPinned: string;
}

export interface Harness {
  sandbox: Sandbox;
  client: SandboxClient;
  photos: StaticServer;
  /** The URL of a real product photo on the static server. */
  photo(name?: keyof typeof PRODUCT_PHOTOS): string;
  /** A URL on the static server that answers 404: a job using it fails with `input_unreachable`. */
  missingPhoto: string;
  /** What the sandbox reported through onError (internal errors, failed renders), instead of stderr. */
  errors: string[];
  close(): Promise<void>;
}

export interface DefaultHarness extends Harness {
  keys: DefaultKeys;
}

/** A fresh well-formed key: `adsk_` then 64 hexadecimal characters. */
export function newKey(): string {
  return `adsk_${randomBytes(32).toString('hex')}`;
}

/** The built-in accounts' keys, by role. */
export function defaultKeys(sandbox: Sandbox): DefaultKeys {
  const accounts = sandbox.accounts();
  const personal = accounts.find((account) => account.type === 'personal')?.keys[0]?.key;
  const agencyKeys = accounts.find((account) => account.name === 'Northwind Agency')?.keys ?? [];
  const agency = agencyKeys.find((key) => key.brand === null)?.key;
  const agencyPinned = agencyKeys.find((key) => key.brand === 'Acme Outdoor')?.key;
  if (!personal || !agency || !agencyPinned) throw new Error('the built-in accounts are not as documented');
  return { personal, agency, agencyPinned };
}

export async function startHarness(options: SandboxOptions = {}): Promise<Harness> {
  const photos = await startStaticServer();
  const errors: string[] = [];
  const sandbox = await startSandbox({
    port: 0,
    timeScale: 0.002,
    onError: (message, error) => errors.push(`${message}: ${(error as Error)?.message ?? String(error)}`),
    ...options,
  });
  return {
    sandbox,
    client: new SandboxClient(sandbox.url),
    photos,
    photo: (name = 'hat') => photos.urlOf(PRODUCT_PHOTOS[name]),
    missingPhoto: photos.urlOf('no-such-product/missing.png'),
    errors,
    async close() {
      await sandbox.close();
      await photos.close();
    },
  };
}

/** A harness on the built-in accounts (Personal, Northwind Agency with two brands). */
export async function startDefaultHarness(
  options: Omit<SandboxOptions, 'accounts'> = {},
): Promise<DefaultHarness> {
  const harness = await startHarness(options);
  return { ...harness, keys: defaultKeys(harness.sandbox) };
}

/** Another app spends `shots` credits with `key`: a standard classic shoot of that many shots, 1 credit each. */
export async function spendElsewhere(harness: Harness, key: string, shots: number): Promise<void> {
  const answer = await harness.client.createShoot(key, {
    product_image_urls: [harness.photo()],
    style: 'classic',
    shots,
  });
  if (answer.status !== 201)
    throw new Error(`the sandbox refused the shoot: ${answer.status} ${answer.text}`);
}
