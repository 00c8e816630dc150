import type { AccountView } from '../../shared/models.ts';
import { apiKeyId, looksLikeApiKey, maskApiKey } from '../api/index.ts';
import type { CreditBalance } from '../api/types.ts';
import { AppError } from '../app/errors.ts';
import type { Db } from '../db/open.ts';
import { type AccountId, newAccountId } from '../queue/ids.ts';
import type { SecretBox } from './secrets.ts';

// The accounts the app holds keys for. A key is checked (format, then a live balance) before it is stored,
// stored only sealed, and opened only in main when a request needs it. The Sandbox account always exists
// and is not stored. A key known only by its hash (sealed_key NULL: a batch made with ADBATCH_API_KEY, or
// an account removed while its batches remain) keeps its row, so its batches keep their account; it is not
// listed, and adding the same key again stores it in that row.

export const SANDBOX_ACCOUNT_ID = 'sandbox' as AccountId;

interface AccountRow {
  id: AccountId;
  name: string;
  base_url: string;
  key_id: string;
  key_hint: string;
  sealed_key: Buffer | null;
  type: AccountView['type'];
  agency_name: string | null;
  balance: number | null;
  checked_at: number | null;
  refused_at: number | null;
  created_at: number;
  brand_id: string | null;
  brand_name: string | null;
}

/** Every read of an account names the brand its key is pinned to. */
const SELECT_ACCOUNT = `SELECT accounts.*, brands.name AS brand_name FROM accounts
  LEFT JOIN brands ON brands.id = accounts.brand_id`;

function toView(row: AccountRow): AccountView {
  return {
    id: row.id,
    name: row.name,
    kind: 'service',
    baseUrl: row.base_url,
    keyHint: row.key_hint,
    type: row.type,
    agencyName: row.agency_name,
    balance: row.balance,
    checkedAt: row.checked_at,
    refusedAt: row.refused_at,
    brandId: row.brand_id,
    brandName: row.brand_name,
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

  /** The accounts whose keys are stored here. */
  list(): AccountView[] {
    return this.db
      .prepare<[], AccountRow>(`${SELECT_ACCOUNT} WHERE sealed_key IS NOT NULL ORDER BY accounts.created_at`)
      .all()
      .map(toView);
  }

  get(id: string): AccountView {
    return toView(this.row(id));
  }

  find(id: string): AccountView | null {
    const row = this.db.prepare<[string], AccountRow>(`${SELECT_ACCOUNT} WHERE accounts.id = ?`).get(id);
    return row ? toView(row) : null;
  }

  /** Whether the account's key is stored here (sealed), not only known by its hash. */
  keyStored(id: string): boolean {
    return this.find(id) !== null && this.row(id).sealed_key !== null;
  }

  /** Whether this process can open the keys stored here (the CLI cannot open the app's keychain). */
  canOpenKeys(): boolean {
    return this.secrets.available();
  }

  /**
   * The account of a key this process was handed but does not store (ADBATCH_API_KEY): the stored account
   * with that key if there is one, else a row that knows the key only by its hash.
   */
  known(input: { name: string; baseUrl: string; keyId: string; keyHint: string }): AccountId {
    const existing = this.byKeyId(input.keyId);
    if (existing) return existing.id;
    const id = newAccountId();
    this.db
      .prepare(
        `INSERT INTO accounts (id, name, base_url, key_id, key_hint, sealed_key, created_at)
         VALUES (?, ?, ?, ?, ?, NULL, ?)`,
      )
      .run(id, input.name, input.baseUrl, input.keyId, input.keyHint, this.now());
    return id;
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
    if (existing?.sealed_key) {
      throw new AppError('conflict', `This key is already the account "${existing.name}".`);
    }
  }

  /** Stores a checked key; a key known only by its hash is stored in its row, so its batches have it again. */
  add(input: { name: string; baseUrl: string; apiKey: string }, balance: CreditBalance): AccountView {
    this.checkNew(input.apiKey);
    const described = describeBalance(balance);
    const known = this.byKeyId(apiKeyId(input.apiKey));
    if (known) {
      this.db
        .prepare(
          `UPDATE accounts SET name = ?, base_url = ?, sealed_key = ?, type = ?, agency_name = ?, balance = ?,
             checked_at = ?, refused_at = NULL WHERE id = ?`,
        )
        .run(
          input.name,
          input.baseUrl,
          this.secrets.seal(input.apiKey),
          described.type,
          described.agencyName,
          described.balance,
          this.now(),
          known.id,
        );
      return this.get(known.id);
    }
    const id = newAccountId();
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

  /** Forgets the key; an account that batches were made with stays, known by its key's hash. */
  remove(id: string): void {
    const row = this.row(id);
    if (row.sealed_key === null) throw new AppError('not_found', `no account ${id}`);
    const used = this.db.prepare('SELECT 1 FROM batches WHERE account_id = ? LIMIT 1').get(id) !== undefined;
    if (used) this.db.prepare('UPDATE accounts SET sealed_key = NULL WHERE id = ?').run(id);
    else this.db.prepare('DELETE FROM accounts WHERE id = ?').run(id);
  }

  /** The id of an account that exists (stored or known by its key's hash). */
  idOf(id: string): AccountId {
    return this.row(id).id;
  }

  /** The one-way id of the account's key: its request budget is filed under it. */
  keyIdOf(id: string): string {
    return this.row(id).key_id;
  }

  /** The key itself, for main's requests only: never returned to the renderer or logged. */
  apiKey(id: string): string {
    const row = this.row(id);
    if (row.sealed_key === null) {
      throw new AppError(
        'key_missing',
        `The key of "${row.name}" (${row.key_hint}) is not stored on this computer: add it in Settings.`,
      );
    }
    return this.secrets.open(row.sealed_key);
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

  /** What a session learned of a key known only by its hash: an agency's, which brand it is pinned to. */
  describeKnown(
    id: string,
    facts: { type: AccountView['type']; agencyName: string | null; brandId: string | null },
  ): void {
    this.db
      .prepare(
        'UPDATE accounts SET type = ?, agency_name = ?, brand_id = ? WHERE id = ? AND sealed_key IS NULL',
      )
      .run(facts.type, facts.agencyName, facts.brandId, id);
  }

  /** The brand the user says the key is pinned to; null: not pinned. Agency keys only. */
  pin(id: string, brandId: string | null): AccountView {
    const row = this.row(id);
    if (brandId !== null && row.type !== 'agency') {
      throw new AppError(
        'bad_request',
        `"${row.name}" is not an agency key: only agency keys are pinned to a brand.`,
      );
    }
    this.db.prepare('UPDATE accounts SET brand_id = ? WHERE id = ?').run(brandId, id);
    return this.get(id);
  }

  markRefused(id: string): AccountView {
    this.db.prepare('UPDATE accounts SET refused_at = ? WHERE id = ?').run(this.now(), id);
    return this.get(id);
  }

  private byKeyId(keyId: string): AccountRow | null {
    return (
      this.db.prepare<[string], AccountRow>(`${SELECT_ACCOUNT} WHERE accounts.key_id = ?`).get(keyId) ?? null
    );
  }

  private row(id: string): AccountRow {
    const row = this.db.prepare<[string], AccountRow>(`${SELECT_ACCOUNT} WHERE accounts.id = ?`).get(id);
    if (!row) throw new AppError('not_found', `no account ${id}`);
    return row;
  }
}
