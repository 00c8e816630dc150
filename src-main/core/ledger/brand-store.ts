import type { BrandView } from '../../shared/models.ts';
import type { ClientBrand } from '../api/types.ts';
import { AppError } from '../app/errors.ts';
import type { Db } from '../db/open.ts';
import { newBrandId } from '../queue/ids.ts';
import type { Caps } from './caps.ts';

// The client brands of the agencies whose keys are stored here: as the service lists them (a brand is its
// id at one service address), with what only this computer keeps: the monthly cap, and which stored keys
// the user says are pinned to it (the service does not say which brand a key is pinned to).

interface BrandRow {
  id: string;
  base_url: string;
  remote_id: string;
  name: string;
  agency_name: string | null;
  active: 0 | 1;
  monthly_cap: number | null;
  created_at: number;
}

export class BrandStore {
  constructor(
    private readonly db: Db,
    private readonly caps: Caps,
    private readonly now: () => number,
  ) {}

  list(): BrandView[] {
    return this.db
      .prepare<[], BrandRow>('SELECT * FROM brands ORDER BY agency_name, name COLLATE NOCASE')
      .all()
      .map((row) => this.toView(row));
  }

  get(id: string): BrandView {
    return this.toView(this.row(id));
  }

  find(id: string): BrandView | null {
    const row = this.db.prepare<[string], BrandRow>('SELECT * FROM brands WHERE id = ?').get(id);
    return row ? this.toView(row) : null;
  }

  /**
   * Keeps the brands one key sees at a service: new ones are added, known ones take the service's name and
   * state. A brand the key does not list is kept: a pinned key sees only its own brand.
   */
  remember(baseUrl: string, agencyName: string | null, seen: readonly ClientBrand[]): BrandView[] {
    return this.db.transaction(() =>
      seen.map((brand) => {
        const existing = this.db
          .prepare<[string, string], BrandRow>('SELECT * FROM brands WHERE base_url = ? AND remote_id = ?')
          .get(baseUrl, brand.id);
        const name = brand.name ?? existing?.name ?? brand.id;
        if (existing) {
          this.db
            .prepare(
              'UPDATE brands SET name = ?, active = ?, agency_name = COALESCE(?, agency_name) WHERE id = ?',
            )
            .run(name, brand.active ? 1 : 0, agencyName, existing.id);
          return this.get(existing.id);
        }
        const id = newBrandId();
        this.db
          .prepare(
            `INSERT INTO brands (id, base_url, remote_id, name, agency_name, active, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(id, baseUrl, brand.id, name, agencyName, brand.active ? 1 : 0, this.now());
        return this.get(id);
      }),
    )();
  }

  setCap(id: string, monthlyCap: number | null): BrandView {
    this.row(id);
    this.db.prepare('UPDATE brands SET monthly_cap = ? WHERE id = ?').run(monthlyCap, id);
    return this.get(id);
  }

  /** The brands of the agency an account belongs to: the same service address and agency name. */
  ofAgency(baseUrl: string, agencyName: string | null): BrandView[] {
    return this.list().filter(
      (brand) => brand.baseUrl === baseUrl && (agencyName === null || brand.agencyName === agencyName),
    );
  }

  private toView(row: BrandRow): BrandView {
    const accountIds = this.db
      .prepare<[string], { id: string }>(
        'SELECT id FROM accounts WHERE brand_id = ? AND sealed_key IS NOT NULL ORDER BY created_at',
      )
      .all(row.id)
      .map((account) => account.id);
    return {
      id: row.id,
      remoteId: row.remote_id,
      name: row.name,
      agencyName: row.agency_name,
      baseUrl: row.base_url,
      active: row.active === 1,
      monthlyCap: row.monthly_cap,
      committedThisMonth: this.caps.brandCommitted(row.id),
      accountIds,
    };
  }

  private row(id: string): BrandRow {
    const row = this.db.prepare<[string], BrandRow>('SELECT * FROM brands WHERE id = ?').get(id);
    if (!row) throw new AppError('not_found', `no client brand ${id}`);
    return row;
  }
}
