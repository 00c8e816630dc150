import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { type AccountsFile, accountsFileSchema, issuesInWords } from './accounts.ts';
import {
  MODES,
  PLAN_BRAND_QUOTA,
  QUALITIES,
  SHOOT_STYLES,
  VIDEO_ASPECT_RATIOS,
  VIDEO_DURATIONS,
  VIDEO_RESOLUTIONS,
} from './rules.ts';

// The sandbox's state, as it keeps it in memory and in its --state file. Each shape is a schema, so the
// file is parsed when it is read back: one edited by hand or damaged says what is wrong, never half-loads.

const accountSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(['personal', 'agency']),
  credits: z.number(),
  plan: z.enum(Object.keys(PLAN_BRAND_QUOTA) as [keyof typeof PLAN_BRAND_QUOTA]).nullable(),
});
export type Account = z.infer<typeof accountSchema>;

const brandSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  name: z.string(),
  active: z.boolean(),
  createdAt: z.string(),
});
export type Brand = z.infer<typeof brandSchema>;

const apiKeySchema = z.object({ key: z.string(), accountId: z.string(), brandId: z.string().nullable() });
export type ApiKey = z.infer<typeof apiKeySchema>;

const shootRequestSchema = z.object({
  productImageUrls: z.array(z.string()),
  style: z.enum(SHOOT_STYLES),
  mode: z.enum(MODES),
  modelUrl: z.string().nullable(),
  requestedShots: z.number(),
  aspectRatio: z.string(),
  quality: z.enum(QUALITIES),
  backgroundColor: z.string().nullable(),
});
export type ShootRequest = z.infer<typeof shootRequestSchema>;

const videoRequestSchema = z.object({
  imageUrls: z.array(z.string()),
  duration: z.literal(VIDEO_DURATIONS),
  resolution: z.enum(VIDEO_RESOLUTIONS),
  mode: z.enum(MODES),
  aspectRatio: z.enum(VIDEO_ASPECT_RATIOS).nullable(),
  /** Absent in state files written before the sandbox fetched logos. */
  logoUrl: z.string().nullable().optional(),
  /** The contract's default is true; absent in state files written before the sandbox honoured it. */
  music: z.boolean().optional(),
});
export type VideoRequest = z.infer<typeof videoRequestSchema>;

const jobFailureSchema = z.object({ code: z.string(), message: z.string() });
export type JobFailure = z.infer<typeof jobFailureSchema>;

/** When each status is reached; the last step is the terminal one the job is headed for. */
const stepSchema = z.object({ status: z.string(), at: z.number() });
export type Step = z.infer<typeof stepSchema>;

const jobBaseSchema = z.object({
  id: z.string(),
  accountId: z.string(),
  brandId: z.string().nullable(),
  createdAt: z.number(),
  credits: z.number(),
  creditsRemaining: z.number(),
  status: z.string(),
  /** Every status the job has been in, with the time it was entered. */
  history: z.array(stepSchema),
  plan: z.array(stepSchema),
  /** Set when the job is to fail: its reason, and the plan ends in `failed`. */
  failure: jobFailureSchema.nullable(),
  /** When its results were ready on disk; a job completes only once they are. */
  renderedAt: z.number().nullable(),
  /** Folder of the results under the assets dir, and the unguessable part of their public URLs. */
  assetToken: z.string(),
  refunded: z.boolean(),
});

const shootJobSchema = jobBaseSchema.extend({
  kind: z.literal('shoot'),
  request: shootRequestSchema,
  shots: z.number(),
  shotsAdjusted: z.boolean(),
});
export type ShootJob = z.infer<typeof shootJobSchema>;

const videoJobSchema = jobBaseSchema.extend({ kind: z.literal('video'), request: videoRequestSchema });
export type VideoJob = z.infer<typeof videoJobSchema>;

const jobSchema = z.discriminatedUnion('kind', [shootJobSchema, videoJobSchema]);
export type Job = z.infer<typeof jobSchema>;

const ledgerEntrySchema = z.object({
  at: z.number(),
  accountId: z.string(),
  brandId: z.string().nullable(),
  jobId: z.string(),
  jobKind: z.enum(['shoot', 'video']),
  type: z.enum(['charge', 'refund']),
  credits: z.number(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

const sandboxDataSchema = z.object({
  /** The accounts the sandbox started with, so POST /_sandbox/reset restores them, keys included. */
  seed: accountsFileSchema,
  accounts: z.array(accountSchema),
  brands: z.array(brandSchema),
  keys: z.array(apiKeySchema),
  jobs: z.array(jobSchema),
  ledger: z.array(ledgerEntrySchema),
});
export type SandboxData = z.infer<typeof sandboxDataSchema>;

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
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(
      `sandbox state ${file} is not valid JSON (${(error as Error).message}); move it away to start fresh`,
    );
  }
  const parsed = sandboxDataSchema.safeParse(json);
  if (!parsed.success) {
    const issues = issuesInWords(parsed.error).slice(0, 3);
    throw new Error(
      `sandbox state ${file} is not a sandbox's state (${issues.join('; ')}); move it away to start fresh`,
    );
  }
  return parsed.data;
}
