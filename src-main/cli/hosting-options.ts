import { type Command, Option } from 'commander';
import { parseS3Config, type S3HostingConfig } from '../core/app/public-api.ts';

// Where local photos are uploaded for a service that is not on this machine: S3-compatible storage. Each
// flag also reads an environment variable, so `resume` finds the same storage without repeating them.
// Credentials come from the standard AWS environment variables or profile, never from a flag.

export interface HostingFlags {
  s3Bucket?: string;
  s3Endpoint?: string;
  s3Region?: string;
  s3Prefix?: string;
  s3PublicUrl?: string;
  s3UrlTtl?: string;
}

/** The settings the core fills in when only a bucket is named: the defaults the help shows. */
const S3_DEFAULTS = parseS3Config({ bucket: 'any' });

export function addHostingOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--s3-bucket <name>', 'upload local photos to this S3-compatible bucket').env(
        'ADBATCH_S3_BUCKET',
      ),
    )
    .addOption(
      new Option('--s3-endpoint <url>', 'the storage address (R2, B2, MinIO...; AWS needs none)').env(
        'ADBATCH_S3_ENDPOINT',
      ),
    )
    .addOption(new Option('--s3-region <region>', 'the bucket region').env('ADBATCH_S3_REGION'))
    .addOption(
      new Option('--s3-prefix <prefix>', 'key prefix').default(S3_DEFAULTS.prefix).env('ADBATCH_S3_PREFIX'),
    )
    .addOption(
      new Option(
        '--s3-public-url <url>',
        'a public bucket: hand out URLs under this base, not presigned ones',
      ).env('ADBATCH_S3_PUBLIC_URL'),
    )
    .addOption(
      new Option('--s3-url-ttl <seconds>', 'how long presigned URLs stay valid')
        .default(String(S3_DEFAULTS.urlTtlSeconds))
        .env('ADBATCH_S3_URL_TTL'),
    );
}

/** The storage settings, validated, or null when no bucket was given. */
export function hostingFrom(flags: HostingFlags): S3HostingConfig | null {
  if (!flags.s3Bucket) return null;
  return parseS3Config({
    bucket: flags.s3Bucket,
    ...(flags.s3Endpoint ? { endpoint: flags.s3Endpoint } : {}),
    ...(flags.s3Region ? { region: flags.s3Region } : {}),
    ...(flags.s3Prefix ? { prefix: flags.s3Prefix } : {}),
    ...(flags.s3PublicUrl ? { publicBaseUrl: flags.s3PublicUrl } : {}),
    ...(flags.s3UrlTtl ? { urlTtlSeconds: Number(flags.s3UrlTtl) } : {}),
  });
}
