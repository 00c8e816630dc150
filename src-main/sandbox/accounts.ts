import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { API_KEY_PATTERN, PLAN_BRAND_QUOTA, SANDBOX_KEY_PREFIX } from './rules.ts';

/** The `--accounts FILE` format. `plan`, `brands` and a key's `brand_id` are for agencies only. */
const keySchema = z.object({
  key: z.string().regex(API_KEY_PATTERN, 'a key is a prefix, "_", then 64 hexadecimal characters'),
  brand_id: z.string().min(1).optional(),
});
const brandSchema = z.object({ id: z.string().min(1), name: z.string().min(1) });
const accountSchema = z
  .object({
    name: z.string().min(1),
    type: z.enum(['personal', 'agency']),
    credits: z.number().int().nonnegative(),
    plan: z.enum(Object.keys(PLAN_BRAND_QUOTA) as [keyof typeof PLAN_BRAND_QUOTA]).optional(),
    brands: z.array(brandSchema).optional(),
    keys: z.array(keySchema).min(1),
  })
  .superRefine((account, ctx) => {
    if (account.type === 'personal') {
      if (account.plan || account.brands?.length || account.keys.some((key) => key.brand_id)) {
        ctx.addIssue({
          code: 'custom',
          message: `personal account "${account.name}" cannot have a plan or brands`,
        });
      }
      return;
    }
    const brandIds = new Set(account.brands?.map((brand) => brand.id));
    for (const key of account.keys) {
      if (key.brand_id && !brandIds.has(key.brand_id)) {
        ctx.addIssue({ code: 'custom', message: `key pinned to unknown brand "${key.brand_id}"` });
      }
    }
    const quota = PLAN_BRAND_QUOTA[account.plan ?? 'partner'];
    if (brandIds.size > quota) {
      ctx.addIssue({
        code: 'custom',
        message: `"${account.name}" has more brands than its plan allows (${quota})`,
      });
    }
  });
export const accountsFileSchema = z
  .object({ accounts: z.array(accountSchema).min(1) })
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    for (const key of file.accounts.flatMap((account) => account.keys)) {
      if (seen.has(key.key))
        ctx.addIssue({ code: 'custom', message: `key …${key.key.slice(-4)} is listed twice` });
      seen.add(key.key);
    }
  });
export type AccountsFile = z.infer<typeof accountsFileSchema>;
export type AccountSpec = AccountsFile['accounts'][number];

export function generateApiKey(): string {
  return `${SANDBOX_KEY_PREFIX}_${randomBytes(32).toString('hex')}`;
}

/** A personal account with 500 credits, and "Northwind Agency" (Partner, 1,000 credits) with two brands. */
export function defaultAccounts(): AccountsFile {
  return {
    accounts: [
      { name: 'Personal', type: 'personal', credits: 500, keys: [{ key: generateApiKey() }] },
      {
        name: 'Northwind Agency',
        type: 'agency',
        credits: 1000,
        plan: 'partner',
        brands: [
          { id: 'brand_acme_outdoor', name: 'Acme Outdoor' },
          { id: 'brand_bloom_cosmetics', name: 'Bloom Cosmetics' },
        ],
        keys: [{ key: generateApiKey() }, { key: generateApiKey(), brand_id: 'brand_acme_outdoor' }],
      },
    ],
  };
}

/** What is wrong with one of the sandbox's files, one `where: what` a line. */
export function issuesInWords(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`);
}

export async function loadAccountsFile(path: string): Promise<AccountsFile> {
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read accounts file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(`accounts file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = accountsFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`accounts file ${path} is invalid:\n  ${issuesInWords(parsed.error).join('\n  ')}`);
  }
  return parsed.data;
}
