import { useState } from 'react';
import { api, messageOf } from '../api/index.ts';

// The video's logo: a public URL, or a file on this computer chosen in the OS dialog (main keeps a copy
// and serves it to the service like the photos). A file shows its name, with a way to clear it; the quote
// the dialog asks for next checks it and says what is wrong with it.

export interface Logo {
  logoUrl?: string;
  logoFile?: string;
}

/** The file's name, for a path from any OS. */
function fileName(path: string): string {
  return path.split(/[\\/]/).at(-1) ?? path;
}

function isWebUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol);
  } catch {
    return false;
  }
}

export function LogoChoice({ logo, onChange }: { logo: Logo; onChange: (logo: Logo) => void }) {
  // What is typed stays here until it is a URL: the quote is asked only for a logo the service could take.
  const [typed, setTyped] = useState(logo.logoUrl ?? '');
  const [error, setError] = useState<string | null>(null);

  const choose = async () => {
    try {
      const file = await api.call('dialog:openImage');
      if (file) onChange({ logoFile: file });
      setError(null);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  if (logo.logoFile) {
    const name = fileName(logo.logoFile);
    return (
      <div className="logo-choice">
        <span>Logo</span>
        <span className="logo-file" title={logo.logoFile}>
          {name}
        </span>
        <button type="button" aria-label={`Clear the logo ${name}`} onClick={() => onChange({})}>
          Clear
        </button>
      </div>
    );
  }
  return (
    <div className="logo-choice">
      <label>
        Logo URL
        <input
          type="url"
          value={typed}
          placeholder="https://…"
          aria-invalid={typed !== '' && !isWebUrl(typed)}
          onChange={(event) => {
            const text = event.target.value.trim();
            setTyped(event.target.value);
            onChange(isWebUrl(text) ? { logoUrl: text } : {});
          }}
        />
      </label>
      <button type="button" onClick={() => void choose()}>
        Choose file…
      </button>
      {error && <span role="alert">{error}</span>}
    </div>
  );
}
