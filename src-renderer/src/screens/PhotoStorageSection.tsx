import { type FormEvent, useEffect, useState } from 'react';
import type { PhotoStorageInput, PhotoStorageView } from '../../../src-main/shared/models.ts';
import { Notice } from '../components/Notice.tsx';
import { dateTime } from '../format.ts';
import { useStorage } from '../stores/storage.ts';

// Settings › Photo storage: the bucket photos on this computer are uploaded to, so that a service on the
// internet can fetch them. Main checks it end to end before keeping it; the secret never comes back here.

const DEFAULT_TTL_HOURS = 24;
const MAX_TTL_HOURS = 168;

interface Fields {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  prefix: string;
  publicBaseUrl: string;
  urlTtlHours: string;
}

function fieldsOf(saved: PhotoStorageView | null): Fields {
  return {
    bucket: saved?.bucket ?? '',
    endpoint: saved?.endpoint ?? '',
    region: saved?.region ?? '',
    accessKeyId: saved?.accessKeyId ?? '',
    secretAccessKey: '',
    prefix: saved?.prefix ?? 'adbatch/',
    publicBaseUrl: saved?.publicBaseUrl ?? '',
    urlTtlHours: String(saved?.urlTtlHours ?? DEFAULT_TTL_HOURS),
  };
}

/** Empty fields are left out: main then uses its defaults (AWS, automatic region, presigned links). */
function inputOf(fields: Fields): PhotoStorageInput {
  const optional = (value: string) => value.trim() || undefined;
  return {
    bucket: fields.bucket.trim(),
    endpoint: optional(fields.endpoint),
    region: optional(fields.region),
    accessKeyId: optional(fields.accessKeyId),
    secretAccessKey: fields.secretAccessKey || undefined,
    prefix: optional(fields.prefix),
    publicBaseUrl: optional(fields.publicBaseUrl),
    urlTtlHours: Number(fields.urlTtlHours),
  };
}

function StorageForm({ saved, onDone }: { saved: PhotoStorageView | null; onDone: () => void }) {
  const save = useStorage((state) => state.save);
  const [fields, setFields] = useState(() => fieldsOf(saved));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const field = (key: keyof Fields) => ({
    value: fields[key],
    onChange: (event: { target: { value: string } }) => setFields({ ...fields, [key]: event.target.value }),
  });
  const keepsSecret = saved?.secretHint && fields.accessKeyId.trim() === saved.accessKeyId;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const failure = await save(inputOf(fields));
    setBusy(false);
    if (failure) setError(failure);
    else onDone();
  };
  return (
    <form className="storage-form" onSubmit={(event) => void submit(event)} aria-label="Photo storage">
      <label>
        Bucket
        <input required spellCheck={false} placeholder="my-product-photos" {...field('bucket')} />
      </label>
      <label>
        Endpoint
        <input
          type="url"
          spellCheck={false}
          placeholder="https://<account>.r2.cloudflarestorage.com"
          aria-describedby="endpoint-hint"
          {...field('endpoint')}
        />
      </label>
      <small id="endpoint-hint" className="muted">
        Empty for AWS S3; the S3 address of Cloudflare R2, Backblaze B2 or MinIO otherwise.
      </small>
      <label>
        Region
        <input
          spellCheck={false}
          placeholder="eu-west-1"
          aria-describedby="region-hint"
          {...field('region')}
        />
      </label>
      {/* Not "Automatic": AWS S3 needs the bucket's region (the SDK finds none by itself), and the others
          take theirs from the endpoint (s3.ts regionForEndpoint). */}
      <small id="region-hint" className="muted">
        AWS S3: the bucket's region. R2, B2 and MinIO: empty (taken from the endpoint).
      </small>
      <label>
        Access key ID
        <input spellCheck={false} autoComplete="off" {...field('accessKeyId')} />
      </label>
      <label>
        Secret access key
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={keepsSecret ? `Saved (${saved.secretHint}): leave empty to keep it` : ''}
          {...field('secretAccessKey')}
        />
      </label>
      <details>
        <summary>More options</summary>
        <label>
          Key prefix
          <input spellCheck={false} {...field('prefix')} />
        </label>
        <label>
          Public address
          <input
            type="url"
            spellCheck={false}
            placeholder="https://cdn.example.com"
            aria-describedby="public-hint"
            {...field('publicBaseUrl')}
          />
        </label>
        <small id="public-hint" className="muted">
          Empty: the service gets signed links. Or a CDN or r2.dev address that serves the bucket.
        </small>
        <label>
          Link lifetime (hours)
          <input type="number" min={1} max={MAX_TTL_HOURS} required {...field('urlTtlHours')} />
        </label>
      </details>
      {error && <Notice kind="error">{error}</Notice>}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Uploading a test photo…' : 'Check and save'}
        </button>
        {saved && (
          <button type="button" onClick={onDone} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
      <p className="muted">
        Adbatch uploads a test photo and reads it back before saving. The secret is stored encrypted by your
        system's keychain; only its last characters are ever shown. Leave both key fields empty to use your
        AWS profile or environment.
      </p>
    </form>
  );
}

function StorageSummary({ saved, onChange }: { saved: PhotoStorageView; onChange: () => void }) {
  const clear = useStorage((state) => state.clear);
  return (
    <div className="storage-summary" data-testid="storage-summary">
      <p>
        Photos are uploaded to bucket <strong>{saved.bucket}</strong>
        {saved.endpoint ? ` at ${saved.endpoint}` : ' on AWS S3'}
        {saved.region ? ` (${saved.region})` : ''}.
      </p>
      <small>
        {saved.accessKeyId
          ? `Access key ${saved.accessKeyId} · secret ${saved.secretHint}`
          : 'Credentials from the AWS profile or environment'}{' '}
        ·{' '}
        {saved.publicBaseUrl ? `public address ${saved.publicBaseUrl}` : `links valid ${saved.urlTtlHours} h`}
        {` · checked ${dateTime(saved.checkedAt)}`}
      </small>
      <div className="actions">
        <button type="button" onClick={onChange}>
          Change
        </button>
        <button
          type="button"
          onClick={() => {
            if (
              window.confirm(
                'Remove the photo storage? Batches on a service account with photos on this computer will pause until storage is set up again. Photos already uploaded stay in the bucket.',
              )
            )
              void clear();
          }}
        >
          Remove
        </button>
      </div>
    </div>
  );
}

export function PhotoStorageSection() {
  const { storage, loaded, error, load } = useStorage();
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section aria-labelledby="storage-title">
      <h2 id="storage-title">Photo storage</h2>
      <p className="muted">
        A service on the internet cannot read photos on this computer. Adbatch uploads each photo once to a
        bucket of yours (AWS S3, Cloudflare R2, Backblaze B2, MinIO or any S3-compatible storage) and gives
        the service a link to it. Catalogs with photo URLs and the Sandbox do not need this.
      </p>
      {error && <Notice kind="error">{error}</Notice>}
      {!loaded ? (
        <p className="muted">Loading…</p>
      ) : storage && !editing ? (
        <StorageSummary saved={storage} onChange={() => setEditing(true)} />
      ) : (
        <StorageForm saved={storage} onDone={() => setEditing(false)} />
      )}
    </section>
  );
}
