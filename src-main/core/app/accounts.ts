import { randomBytes } from 'node:crypto';
import type { AccountView } from '../../shared/models.ts';
import { apiKeyId, looksLikeApiKey, maskApiKey } from '../api/index.ts';
import type { CreditBalance } from '../api/types.ts';
import type { Db } from '../db/open.ts';
import { AppError } from './errors.ts';
import type { SecretBox } from './secrets.ts';

// The accounts the app holds keys for. A key is checked (format, then a live balance) before it is stored,
// stored only sealed, and opened only in main when a request needs it. The Sandbox account always exists
// and is not stored.

export const SANDBOX_ACCOUNT_ID = 'sandbox';

type Row = Record<string, unknown>;

function toView(row: Row): AccountView {
  return {
    id: row.id as string,
    name: row.name as string,
    kind: 'service',
    baseUrl: row.base_url as string,
    keyHint: row.key_hint as string,
    type: (row.type as AccountView['type']) ?? null,
    agencyName: (row.agency_name as string | null) ?? null,
    balance: (row.balance as number | null) ?? null,
    checkedAt: (row.checked_at as number | null) ?? null,
    refusedAt: (row.refused_at as number | null) ?? null,
  };
}

export function describeBalance(
  balance: CreditBalance,
): Pick<AccountView, 'type' | 'agencyName' | 'balance'> {
  return { type: balance.pool ? 'agency' : 'personal', agencyName: balance.tenant, balance: balance.credits };
}

export class AccountStore {
  constructor(
    private readonly db: Db,
    private readonly secrets: SecretBox,
    private readonly now: () => number,
  ) {}

  list(): AccountView[] {
    return (this.db.prepare('SELECT * FROM accounts ORDER BY created_at').all() as Row[]).map(toView);
  }

  get(id: string): AccountView {
    const row = this.db.prepare('SELECT * FROM accounts WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new AppError('not_found', `no account ${id}`);
    return toView(row);
  }

  /** Whether this process can open the keys stored here (the CLI cannot open the app's keychain). */
  canOpenKeys(): boolean {
    return this.secrets.available();
  }

  byKeyId(keyId: string): AccountView | null {
    const row = this.db.prepare('SELECT * FROM accounts WHERE key_id = ?').get(keyId) as Row | undefined;
    return row ? toView(row) : null;
  }

  /** Refuses a malformed key, a duplicate, or a machine that cannot seal it, before anything is stored. */
  checkNew(apiKey: string): void {
    if (!looksLikeApiKey(apiKey)) {
      throw new AppError(
        'invalid_key',
        'This does not look like an API key: a prefix, an underscore, then 64 hexadecimal characters.',
      );
    }
    if (!this.secrets.available()) {
      throw new AppError(
        'encryption_unavailable',
        'This computer offers no secure storage for keys, so Adbatch will not keep it (it never stores keys in the clear).',
      );
    }
    const existing = this.byKeyId(apiKeyId(apiKey));
    if (existing) throw new AppError('conflict', `This key is already the account "${existing.name}".`);
  }

  add(input: { name: string; baseUrl: string; apiKey: string }, balance: CreditBalance): AccountView {
    this.checkNew(input.apiKey);
    const id = `a_${randomBytes(8).toString('hex')}`;
    const described = describeBalance(balance);
    this.db
      .prepare(
        `INSERT INTO accounts (id, name, base_url, key_id, key_hint, sealed_key, type, agency_name, balance,
           checked_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        input.name,
        input.baseUrl,
        apiKeyId(input.apiKey),
        maskApiKey(input.apiKey),
        this.secrets.seal(input.apiKey),
        described.type,
        described.agencyName,
        described.balance,
        this.now(),
        this.now(),
      );
    return this.get(id);
  }

  remove(id: string): void {
    if (this.db.prepare('DELETE FROM accounts WHERE id = ?').run(id).changes === 0) {
      throw new AppError('not_found', `no account ${id}`);
    }
  }

  /** The one-way id of the account's key: what its batches and its request budget are filed under. */
  keyIdOf(id: string): string {
    const row = this.db.prepare('SELECT key_id FROM accounts WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new AppError('not_found', `no account ${id}`);
    return row.key_id as string;
  }

  /** The key itself, for main's requests only: never returned to the renderer or logged. */
  apiKey(id: string): string {
    const row = this.db.prepare('SELECT sealed_key FROM accounts WHERE id = ?').get(id) as Row | undefined;
    if (!row) throw new AppError('not_found', `no account ${id}`);
    return this.secrets.open(row.sealed_key as Buffer);
  }

  recordBalance(id: string, balance: CreditBalance): AccountView {
    const described = describeBalance(balance);
    this.db
      .prepare(
        'UPDATE accounts SET type = ?, agency_name = ?, balance = ?, checked_at = ?, refused_at = NULL WHERE id = ?',
      )
      .run(described.type, described.agencyName, described.balance, this.now(), id);
    return this.get(id);
  }

  markRefused(id: string): AccountView {
    this.db.prepare('UPDATE accounts SET refused_at = ? WHERE id = ?').run(this.now(), id);
    return this.get(id);
  }
}
