import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AccountsFile } from './accounts.ts';
import type {
  AgencyPlan,
  Mode,
  Quality,
  ShootStyle,
  VideoAspectRatio,
  VideoDuration,
  VideoResolution,
} from './rules.ts';

export interface Account {
  id: string;
  name: string;
  type: 'personal' | 'agency';
  credits: number;
  plan: AgencyPlan | null;
}

export interface Brand {
  id: string;
  accountId: string;
  name: string;
  active: boolean;
  createdAt: string;
}

export interface ApiKey {
  key: string;
  accountId: string;
  brandId: string | null;
}

export interface ShootRequest {
  productImageUrls: string[];
  style: ShootStyle;
  mode: Mode;
  modelUrl: string | null;
  requestedShots: number;
  aspectRatio: string;
  quality: Quality;
  backgroundColor: string | null;
}

export interface VideoRequest {
  imageUrls: string[];
  duration: VideoDuration;
  resolution: VideoResolution;
  mode: Mode;
  aspectRatio: VideoAspectRatio | null;
  /** Absent in state files written before the sandbox fetched logos. */
  logoUrl?: string | null;
}

export interface JobFailure {
  code: string;
  message: string;
}

/** When each status is reached; the last step is the terminal one the job is headed for. */
export interface Step {
  status: string;
  at: number;
}

interface JobBase {
  id: string;
  accountId: string;
  brandId: string | null;
  createdAt: number;
  credits: number;
  creditsRemaining: number;
  status: string;
  /** Every status the job has been in, with the time it was entered. */
  history: Step[];
  plan: Step[];
  /** Set when the job is to fail: its reason, and the plan ends in `failed`. */
  failure: JobFailure | null;
  /** When its results were ready on disk; a job completes only once they are. */
  renderedAt: number | null;
  /** Folder of the results under the assets dir, and the unguessable part of their public URLs. */
  assetToken: string;
  refunded: boolean;
}

export interface ShootJob extends JobBase {
  kind: 'shoot';
  request: ShootRequest;
  shots: number;
  shotsAdjusted: boolean;
}

export interface VideoJob extends JobBase {
  kind: 'video';
  request: VideoRequest;
}

export type Job = ShootJob | VideoJob;

export interface LedgerEntry {
  at: number;
  accountId: string;
  brandId: string | null;
  jobId: string;
  jobKind: Job['kind'];
  type: 'charge' | 'refund';
  credits: number;
}

export interface SandboxData {
  /** The accounts the sandbox started with, so POST /_sandbox/reset restores them, keys included. */
  seed: AccountsFile;
  accounts: Account[];
  brands: Brand[];
  keys: ApiKey[];
  jobs: Job[];
  ledger: LedgerEntry[];
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export function dataFromAccounts(file: AccountsFile, now: number): SandboxData {
  const data: SandboxData = { seed: file, accounts: [], brands: [], keys: [], jobs: [], ledger: [] };
  file.accounts.forEach((spec, index) => {
    const accountId = `acct_${index + 1}`;
    data.accounts.push({
      id: accountId,
      name: spec.name,
      type: spec.type,
      credits: spec.credits,
      plan: spec.type === 'agency' ? (spec.plan ?? 'partner') : null,
    });
    for (const brand of spec.brands ?? []) {
      data.brands.push({ ...brand, accountId, active: true, createdAt: new Date(now).toISOString() });
    }
    for (const key of spec.keys) {
      data.keys.push({ key: key.key, accountId, brandId: key.brand_id ?? null });
    }
  });
  return data;
}

/**
 * The sandbox's whole state, in memory, optionally mirrored to a JSON file so it survives a restart.
 * Writes are coalesced and atomic (temp file, then rename), so a kill mid-write keeps the previous state.
 */
export class SandboxStore {
  private saving: Promise<void> | null = null;
  private dirty = false;

  private constructor(
    public data: SandboxData,
    private readonly file: string | null,
  ) {}

  static async open(file: string | null, initial: () => SandboxData): Promise<SandboxStore> {
    if (file) {
      const existing = await readState(file);
      if (existing) return new SandboxStore(existing, file);
    }
    const store = new SandboxStore(initial(), file);
    store.changed();
    return store;
  }

  replace(data: SandboxData): void {
    this.data = data;
    this.changed();
  }

  changed(): void {
    if (!this.file) return;
    this.dirty = true;
    this.saving ??= this.saveLoop();
  }

  async flush(): Promise<void> {
    while (this.saving) await this.saving;
  }

  private async saveLoop(): Promise<void> {
    const file = this.file!;
    await mkdir(dirname(file), { recursive: true });
    while (this.dirty) {
      this.dirty = false;
      const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      await writeFile(temp, JSON.stringify(this.data));
      await rename(temp, file);
    }
    this.saving = null;
  }
}

async function readState(file: string): Promise<SandboxData | null> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read sandbox state ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(raw) as SandboxData;
  } catch (error) {
    throw new Error(
      `sandbox state ${file} is not valid JSON (${(error as Error).message}); move it away to start fresh`,
    );
  }
}
