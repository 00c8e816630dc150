import { randomBytes } from 'node:crypto';

// The queue's ids, branded so that a job's id cannot be passed where a batch's is expected. An id from
// outside (an IPC argument, a CLI word) is a plain string until the store has found its row: lookups take
// strings, writes take branded ids.

declare const brand: unique symbol;
type Branded<T, Name extends string> = T & { readonly [brand]: Name };

export type BatchId = Branded<string, 'BatchId'>;
export type ProductId = Branded<string, 'ProductId'>;
export type JobId = Branded<string, 'JobId'>;
export type AssetId = Branded<number, 'AssetId'>;
/** A stored account's id, or the Sandbox's (`sandbox`). */
export type AccountId = Branded<string, 'AccountId'>;

function newId<T extends string>(prefix: string): T {
  return `${prefix}_${randomBytes(8).toString('hex')}` as T;
}

export const newBatchId = (): BatchId => newId<BatchId>('b');
export const newProductId = (): ProductId => newId<ProductId>('p');
export const newJobId = (): JobId => newId<JobId>('j');
export const newAccountId = (): AccountId => newId<AccountId>('a');
/** A client brand as this computer knows it (its id at the service is kept beside). */
export const newBrandId = (): string => newId<string>('br');
