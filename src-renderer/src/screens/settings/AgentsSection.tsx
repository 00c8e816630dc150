import { useEffect, useState } from 'react';
import type { AgentServerView } from '../../../../src-main/shared/models.ts';
import { api, messageOf } from '../../api/index.ts';
import { Notice } from '../../components/Notice.tsx';
import { SaveStatus, useSaveStatus } from '../../components/SaveStatus.tsx';
import { useFolderChoice } from '../../components/useFolderChoice.tsx';
import { useNavigation } from '../../stores/navigation.ts';

// Settings, Agents (issue 16): the app's MCP server over HTTP on this computer, on or off; its address and
// the token a client sends, shown to be copied into the client's settings; a new token when one leaked.
// What agents may spend without asking is set with their requests (Requests).

function snippet(view: AgentServerView): string {
  return JSON.stringify(
    { mcpServers: { adbatch: { url: view.url, headers: { Authorization: `Bearer ${view.token}` } } } },
    null,
    2,
  );
}

export function AgentsSection() {
  const go = useNavigation((state) => state.go);
  const [view, setView] = useState<AgentServerView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(false);
  // The box follows the click at once; the server's answer (started, or why not) follows it.
  const [intent, setIntent] = useState<boolean | null>(null);
  // Each change (on or off, the folder, a new token) saves at once: said beside the box.
  const saving = useSaveStatus();
  useEffect(() => {
    api
      .call('agents:server')
      .then(setView)
      .catch((failure: unknown) => setError(messageOf(failure)));
  }, []);
  const folderChoice = useFolderChoice({
    chooseLabel: 'Agents export here',
    osDialog: () => api.call('dialog:openFolder'),
    onChoose: (folder) => {
      if (view) void change({ enabled: view.enabled, exportFolder: folder });
    },
  });
  if (!view?.available) return null;
  const change = (args: { enabled: boolean; newToken?: boolean; exportFolder?: string }) =>
    saving.track(async () => {
      setBusy(true);
      setIntent(args.enabled);
      try {
        setView(await api.call('agents:setServer', args));
        return null;
      } catch (failure) {
        return messageOf(failure);
      } finally {
        setBusy(false);
        setIntent(null);
      }
    });
  return (
    <section aria-labelledby="agents-title" className="agents-section">
      <h2 id="agents-title">Agents</h2>
      <p className="muted">
        AI assistants (Claude Desktop, an assistant in a code editor) can price batches and ask to run them.
        Nothing is spent without your yes in{' '}
        <button type="button" className="link" onClick={() => go({ name: 'requests' })}>
          Requests
        </button>
        , unless it fits the allowance you set there. Clients that start Adbatch themselves use{' '}
        <code>adbatch mcp</code> instead.
      </p>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={intent ?? view.enabled}
          disabled={busy}
          aria-describedby="agents-saved"
          onChange={(event) => void change({ enabled: event.target.checked })}
        />
        Let AI assistants on this computer connect
      </label>
      <SaveStatus id="agents-saved" state={saving.state} />
      {view.error && <Notice kind="error">{view.error}</Notice>}
      {error && <Notice kind="error">{error}</Notice>}
      <p className="agent-export-folder">
        Agents export into <code data-testid="agent-export-folder">{view.exportFolder}</code> (and folders
        inside it).{' '}
        <button
          type="button"
          disabled={busy}
          onClick={() => void folderChoice.choose().catch((failure: unknown) => setError(messageOf(failure)))}
        >
          Choose another folder…
        </button>
      </p>
      {folderChoice.sheet}
      {view.enabled && view.url && view.token && (
        <div className="agent-server" data-testid="agent-server">
          <p>
            Address: <code data-testid="agent-server-url">{view.url}</code> (this computer only)
          </p>
          <label>
            Token
            <input
              readOnly
              type={shown ? 'text' : 'password'}
              value={view.token}
              onFocus={(event) => event.target.select()}
            />
          </label>
          <div className="actions">
            <button type="button" onClick={() => setShown(!shown)}>
              {shown ? 'Hide the token' : 'Show the token'}
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => {
                if (
                  window.confirm(
                    'Make a new token? Clients using the old one are refused until given the new one.',
                  )
                )
                  void change({ enabled: true, newToken: true });
              }}
            >
              New token
            </button>
          </div>
          {shown && (
            <details>
              <summary>For a client’s MCP settings</summary>
              <pre className="snippet">{snippet(view)}</pre>
            </details>
          )}
        </div>
      )}
    </section>
  );
}
