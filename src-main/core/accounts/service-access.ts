import type { AccountView } from '../../shared/models.ts';
import {
  ApiError,
  apiKeyId,
  maskApiKey,
  NetworkError,
  ServiceClient,
  UnauthorizedError,
} from '../api/index.ts';
import type { CreditBalance } from '../api/types.ts';
import { AppError } from '../app/errors.ts';
import type { AccountId } from '../queue/ids.ts';
import type { Batch } from '../queue/types.ts';
import { type AccountStore, describeBalance, SANDBOX_ACCOUNT_ID } from './account-store.ts';

// The way to the service for every account: the Sandbox (started on demand), the accounts stored with
// sealed keys, and keys a front end holds for one session only (the CLI's ADBATCH_API_KEY). One client
// per account, its key opened once. Every call made with a key outside the engine goes through the
// engine's budget for that key (`request`), so checking a balance cannot push a running batch into a 429.

export interface SandboxConnection {
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

/**
 * A key given by a front end for this session (never stored): the CLI's ADBATCH_API_KEY, with --base-url for
 * a new batch. A batch made earlier with the same key is resumed at its own base URL.
 */
export interface SessionKey {
  apiKey: string;
  /** Where new batches go (`adbatch run --base-url`); `resume` gives none. */
  baseUrl?: string;
}

export const SANDBOX_ACCOUNT_NAME = 'Sandbox';
const SESSION_ACCOUNT_NAME = 'ADBATCH_API_KEY';
const BALANCE_MAX_AGE_MS = 30_000;

/** A balance as the service last said it, and when (ms since the epoch). */
export interface KnownBalance {
  credits: number;
  at: number;
}

/** The id of the account a session key is known by: stable for the key, so a resume finds its batches. */
export function sessionAccountId(apiKey: string): string {
  return `session-${apiKeyId(apiKey).slice(0, 16)}`;
}

/** A call to the service, its failures in words the user can act on. */
export async function serviceCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof UnauthorizedError) {
      throw new AppError(
        'key_refused',
        'The service refused this key (401): check that it was copied whole and is still active.',
      );
    }
    if (error instanceof ApiError && error.status !== null) {
      throw new AppError('unreachable', `The service answered ${error.status}: ${error.message}`);
    }
    // Said once: the connection's own sentence, not under "could not be reached" and the call it broke.
    if (error instanceof NetworkError) throw new AppError('unreachable', error.reason);
    throw new AppError('unreachable', `The service could not be reached: ${(error as Error).message}`);
  }
}

export interface BatchKey {
  accountName: string;
  held: boolean;
}

interface SessionAccount {
  view: AccountView;
  keyId: string;
  apiKey: string;
}

export interface ServiceAccessOptions {
  accounts: AccountStore;
  startSandbox: () => Promise<SandboxConnection>;
  sessionKeys: readonly SessionKey[];
  now: () => number;
  /** Sends a keyed request in that key's budget (the engine's, once it runs). */
  inBudget: <T>(keyId: string, send: () => Promise<T>) => Promise<T>;
}

/** What an account's view knows of it before its key's balance is read. */
const NOT_READ = {
  type: null,
  agencyName: null,
  balance: null,
  checkedAt: null,
  refusedAt: null,
  brandId: null,
  brandName: null,
} satisfies Partial<AccountView>;

/** The Sandbox account before its balance is read. */
const SANDBOX_VIEW: AccountView = {
  id: SANDBOX_ACCOUNT_ID,
  name: SANDBOX_ACCOUNT_NAME,
  kind: 'sandbox',
  baseUrl: 'sandbox',
  keyHint: '',
  ...NOT_READ,
};

export class ServiceAccess {
  private sandbox: Promise<SandboxConnection> | null = null;
  /** The engine asks for clients synchronously: the Sandbox's is made once, when the sandbox starts. */
  private sandboxClient: ServiceClient | null = null;
  private readonly clients = new Map<string, ServiceClient>();
  private readonly sessions = new Map<string, SessionAccount>();
  private readonly balances = new Map<string, KnownBalance>();

  constructor(private readonly options: ServiceAccessOptions) {
    for (const key of options.sessionKeys) {
      const id = sessionAccountId(key.apiKey);
      this.sessions.set(id, {
        keyId: apiKeyId(key.apiKey),
        apiKey: key.apiKey,
        view: {
          id,
          name: SESSION_ACCOUNT_NAME,
          kind: 'service',
          baseUrl: key.baseUrl ?? '',
          keyHint: maskApiKey(key.apiKey),
          ...NOT_READ,
        },
      });
    }
  }

  ensureSandbox(): Promise<SandboxConnection> {
    this.sandbox ??= this.options.startSandbox().then(
      (connection) => {
        this.sandboxClient = new ServiceClient({ baseUrl: connection.url, apiKey: connection.apiKey });
        return connection;
      },
      (error) => {
        this.sandbox = null;
        throw error;
      },
    );
    return this.sandbox;
  }

  /** The session accounts, then the stored ones (the Sandbox is listed by the accounts handlers). */
  accountsList(): AccountView[] {
    return [...[...this.sessions.values()].map((session) => session.view), ...this.options.accounts.list()];
  }

  /** A stored or session account; the Sandbox has no stored view. */
  account(accountId: string): AccountView {
    return this.sessions.get(accountId)?.view ?? this.options.accounts.get(accountId);
  }

  isSession(accountId: string): boolean {
    return this.sessions.has(accountId);
  }

  /** An account's client, and the id of its key, which names the key's request budget. */
  async keyedClient(accountId: string): Promise<{ client: ServiceClient; keyId: string; keyHint: string }> {
    if (accountId === SANDBOX_ACCOUNT_ID) {
      const connection = await this.ensureSandbox();
      return {
        client: this.sandboxClient!,
        keyId: apiKeyId(connection.apiKey),
        keyHint: maskApiKey(connection.apiKey),
      };
    }
    const session = this.sessions.get(accountId);
    if (session) {
      if (!session.view.baseUrl) throw new AppError('bad_request', 'Say which service this key is for.');
      const client = this.sessionClient(session, session.view.baseUrl);
      return { client, keyId: session.keyId, keyHint: session.view.keyHint };
    }
    const account = this.options.accounts.get(accountId);
    const keyId = this.options.accounts.keyIdOf(accountId);
    // The row a session key's batches belong to (`accountForBatch`) holds no key: the session's opens it, at
    // its own service, as it does the batches themselves (`clientForBatch`).
    const held = this.options.accounts.keyStored(accountId) ? undefined : this.sessionOfKey(keyId);
    return {
      client: held ? this.sessionClient(held, account.baseUrl) : this.storedClient(account),
      keyId,
      keyHint: account.keyHint,
    };
  }

  /** The client a batch's jobs are sent with; null when this process holds no key for it. */
  clientForBatch(batch: Batch): ServiceClient | null {
    if (batch.sandbox) return this.sandboxClient;
    const session = this.sessionOfKey(batch.keyId);
    if (session) return this.sessionClient(session, batch.baseUrl);
    const account = this.options.accounts.find(batch.accountId);
    return account && this.options.accounts.keyStored(account.id) ? this.storedClient(account) : null;
  }

  /** The account whose balance a batch's key draws on, as the balance cache files it. */
  private balanceAccountOf(batch: Batch): string {
    return batch.sandbox ? SANDBOX_ACCOUNT_ID : (this.sessionOfKey(batch.keyId)?.view.id ?? batch.accountId);
  }

  /** The next balance asked for the batch's key is asked of the service, not taken from the cache. */
  forgetBatchBalance(batch: Batch): void {
    this.forgetBalance(this.balanceAccountOf(batch));
  }

  /**
   * The balance of the key a batch is sent with, at the batch's service (a session key's batch included),
   * cached like balanceOf.
   */
  async balanceOfBatch(batch: Batch, fresh = false): Promise<number> {
    const accountId = this.balanceAccountOf(batch);
    const asked = await this.cachedBalance(accountId, fresh, async () => {
      if (batch.sandbox) await this.ensureSandbox();
      const client = this.clientForBatch(batch);
      if (!client) {
        throw new AppError(
          'key_missing',
          `The key of this batch (${batch.keyHint}) is not on this computer.`,
        );
      }
      return serviceCall(() => this.options.inBudget(batch.keyId, () => client.getCredits()));
    });
    return asked.credits;
  }

  /** The account a batch belongs to, for its name and for marking a refused key. */
  accountOfBatch(batch: Batch): AccountView | null {
    if (batch.sandbox) return null;
    return this.sessionOfKey(batch.keyId)?.view ?? this.options.accounts.find(batch.accountId);
  }

  /**
   * The account a new batch on this account belongs to: a session key's is its row in the accounts table,
   * made now if the key is not stored, so that the batch still has its account once the process ends.
   */
  accountForBatch(accountId: string): AccountId {
    if (accountId === SANDBOX_ACCOUNT_ID) return SANDBOX_ACCOUNT_ID;
    const session = this.sessions.get(accountId);
    if (!session) return this.options.accounts.idOf(accountId);
    const id = this.options.accounts.known({
      name: `${SESSION_ACCOUNT_NAME} ${session.view.keyHint}`,
      baseUrl: session.view.baseUrl,
      keyId: session.keyId,
      keyHint: session.view.keyHint,
    });
    // What this session learned of the key (an agency's, pinned to a brand) stays with its row: the usage
    // and the reconciliation group its spend as the service does, long after the session ended.
    if (session.view.type !== null) {
      this.options.accounts.describeKnown(id, {
        type: session.view.type,
        agencyName: session.view.agencyName,
        brandId: session.view.brandId,
      });
    }
    return id;
  }

  /**
   * A key not stored yet, checked by asking its balance: in that key's request budget as every other call,
   * so adding a key a running batch already uses cannot push that batch into a 429.
   */
  async checkNewKey(baseUrl: string, apiKey: string): Promise<CreditBalance> {
    const client = new ServiceClient({ baseUrl, apiKey });
    return serviceCall(() => this.options.inBudget(apiKeyId(apiKey), () => client.getCredits()));
  }

  /** A call with an account's key outside the engine (balance, models), in that key's request budget. */
  async withKey<T>(accountId: string, call: (client: ServiceClient) => Promise<T>): Promise<T> {
    const { client, keyId } = await this.keyedClient(accountId);
    return serviceCall(() => this.options.inBudget(keyId, () => call(client)));
  }

  /**
   * The balance, asked of the service at most once per BALANCE_MAX_AGE_MS per account unless `fresh`:
   * every settings change on the New batch screen asks for a quote, and tweaking a form must not eat the
   * key's request budget. Creating a batch asks again before it commits to the cost. Said with when the
   * service said it (`at`): what the key's jobs were charged since is not in it.
   */
  balanceOf(accountId: string, fresh = false): Promise<KnownBalance> {
    return this.cachedBalance(accountId, fresh, () =>
      this.withKey(accountId, (client) => client.getCredits()),
    );
  }

  /** The account's balance as last asked, unless it is older than BALANCE_MAX_AGE_MS or `fresh`: then `ask`. */
  private async cachedBalance(
    accountId: string,
    fresh: boolean,
    ask: () => Promise<{ credits: number }>,
  ): Promise<KnownBalance> {
    const known = this.balances.get(accountId);
    if (!fresh && known && this.options.now() - known.at < BALANCE_MAX_AGE_MS) return known;
    const { credits } = await ask();
    this.rememberBalance(accountId, credits);
    return this.balances.get(accountId)!;
  }

  rememberBalance(accountId: string, credits: number): void {
    this.balances.set(accountId, { credits, at: this.options.now() });
  }

  forgetBalance(accountId: string): void {
    this.balances.delete(accountId);
  }

  markRefused(accountId: string): void {
    this.options.accounts.markRefused(accountId);
  }

  forgetAccount(accountId: string): void {
    this.clients.delete(accountId);
    this.balances.delete(accountId);
  }

  async sandboxView(): Promise<AccountView> {
    const connection = await this.ensureSandbox();
    const balance = await this.withKey(SANDBOX_ACCOUNT_ID, (client) => client.getCredits());
    return {
      ...SANDBOX_VIEW,
      keyHint: maskApiKey(connection.apiKey),
      ...describeBalance(balance),
      checkedAt: this.options.now(),
    };
  }

  /**
   * The Sandbox account as the list of accounts shows it: its balance asked now, or not known when it cannot
   * be (the embedded sandbox did not start, or does not answer). The list once failed whole then, and the
   * app showed no account at all, the user's own keys included.
   */
  async sandboxListed(): Promise<AccountView> {
    try {
      return await this.sandboxView();
    } catch {
      return SANDBOX_VIEW;
    }
  }

  /** A session account with its balance asked now. */
  async sessionView(accountId: string): Promise<AccountView> {
    const session = this.sessions.get(accountId)!;
    const balance = await this.withKey(accountId, (client) => client.getCredits());
    this.rememberBalance(accountId, balance.credits);
    // Kept: whether the key is an agency's decides what may be asked of it next (its brands).
    session.view = { ...session.view, ...describeBalance(balance), checkedAt: this.options.now() };
    return session.view;
  }

  /** The brand a session key is pinned to, for this session only (the CLI's key is never stored). */
  pinSession(accountId: string, brand: { id: string; name: string } | null): AccountView {
    const session = this.sessions.get(accountId)!;
    session.view = { ...session.view, brandId: brand?.id ?? null, brandName: brand?.name ?? null };
    return session.view;
  }

  async close(): Promise<void> {
    await (await this.sandbox?.catch(() => null))?.close();
  }

  /** Whose key a batch was made with, and whether this process holds it (the Sandbox's it always does). */
  keyOf(batch: Batch): BatchKey {
    if (batch.sandbox) return { accountName: SANDBOX_ACCOUNT_NAME, held: true };
    const session = this.sessionOfKey(batch.keyId);
    if (session) return { accountName: session.view.name, held: true };
    const account = this.options.accounts.find(batch.accountId);
    return {
      accountName: account?.name ?? `key ${batch.keyHint}`,
      held:
        account !== null &&
        this.options.accounts.keyStored(account.id) &&
        this.options.accounts.canOpenKeys(),
    };
  }

  private sessionOfKey(keyId: string): SessionAccount | undefined {
    return [...this.sessions.values()].find((session) => session.keyId === keyId);
  }

  /** A session key's client for one service: a batch made earlier with the key is followed at its own. */
  private sessionClient(session: SessionAccount, baseUrl: string): ServiceClient {
    return this.cachedClient(`${session.view.id} ${baseUrl}`, () => ({ baseUrl, apiKey: session.apiKey }));
  }

  private storedClient(account: AccountView): ServiceClient {
    return this.cachedClient(account.id, () => ({
      baseUrl: account.baseUrl,
      apiKey: this.options.accounts.apiKey(account.id),
    }));
  }

  private cachedClient(cacheKey: string, make: () => { baseUrl: string; apiKey: string }): ServiceClient {
    let client = this.clients.get(cacheKey);
    if (!client) {
      client = new ServiceClient(make());
      this.clients.set(cacheKey, client);
    }
    return client;
  }
}
