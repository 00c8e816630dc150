// What front ends may use of core beyond the handler map, named in one place: the option parsers every
// front end offers its users (rate limit, grouping pattern, storage), the lease's refusal, key redaction
// for logs, the Sandbox's account id, a session key's account id, the recheck delay and the sealing a front
// end provides. Front ends import core only through create-core.ts and core/app/** (a lint rule), so what
// they may use of the rest is re-exported here. (The catalog's choices are the contract's:
// shared/vocabulary.ts.)

export { SANDBOX_ACCOUNT_ID } from '../accounts/account-store.ts';
export { checkKeyTransport } from '../accounts/key-transport.ts';
export type { SecretBox } from '../accounts/secrets.ts';
export { sessionAccountId } from '../accounts/service-access.ts';
export { redactApiKeys } from '../api/guesses.ts';
export { looksLikeApiKey } from '../api/index.ts';
export type { S3HostingConfig } from '../hosting/s3.ts';
export { parseS3Config } from '../hosting/s3.ts';
export { DEFAULT_GROUP_PATTERN, parseGroupPattern } from '../ingest/group.ts';
export { describeHolder, LeaseHeldError } from '../lease.ts';
export { parseAllowedHost } from '../net/outbound-policy.ts';
export type { RateLimit } from '../scheduler/budget.ts';
export { parseRateLimit, SERVICE_RATE_LIMIT } from '../scheduler/budget.ts';
export { isWithin, makeRealFolder, OutsideFolderError, realPathOf } from '../util/real-path.ts';
