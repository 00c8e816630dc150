import { type FormEvent, useEffect, useId, useState } from 'react';
import { counted } from '../../../src-main/shared/counted.ts';
import type { AgentRequestView } from '../../../src-main/shared/models.ts';
import { AGENT_REQUEST_STATE_WORDS, capitalized } from '../../../src-main/shared/words.ts';
import { CreditsForm } from '../components/CreditsForm.tsx';
import { EmptyState } from '../components/EmptyState.tsx';
import { Notice } from '../components/Notice.tsx';
import { credits, dateTime } from '../format.ts';
import { useAgentRequests } from '../stores/agent-requests.ts';
import { useBrands } from '../stores/brands.ts';
import { useNavigation } from '../stores/navigation.ts';

// Requests from agents (issue 16): what each agent asked to run, at what cost against which balance, for
// whom; a person's Approve or Decline; and what agents may spend a day without asking. Approving prices the
// batch again: when the balance or the prices moved since the quote, the request expires and says why.

function RequestRow({ request }: { request: AgentRequestView }) {
  const { approve, decline } = useAgentRequests();
  const go = useNavigation((state) => state.go);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const reasonId = useId();
  const act = async (run: () => Promise<string | null>) => {
    setBusy(true);
    setError(await run());
    setBusy(false);
  };
  const submitDecline = (event: FormEvent) => {
    event.preventDefault();
    void act(() => decline(request.id, reason));
  };
  return (
    <li className={`agent-request state-${request.state}`} data-testid="agent-request">
      <div className="agent-request-text">
        <strong>
          {request.client}: “{request.name}”
        </strong>
        <small>
          {counted(request.products, 'product')} · {request.settings} · {request.accountName}
          {request.brandName ? ` for ${request.brandName}` : ''}
        </small>
        <small>
          {credits(request.credits)}
          {request.balance !== null ? ` of a balance of ${credits(request.balance)}` : ''} · asked{' '}
          {dateTime(request.createdAt)}
        </small>
        <small className="agent-request-state" data-testid="agent-request-state">
          {capitalized(AGENT_REQUEST_STATE_WORDS[request.state])}
          {request.decidedBy ? ` by ${request.decidedBy}` : ''}
          {request.decidedAt ? `, ${dateTime(request.decidedAt)}` : ''}
          {request.reason ? `: ${request.reason}` : ''}
        </small>
        {error && <Notice kind="error">{error}</Notice>}
      </div>
      <div className="actions">
        {request.state === 'pending' && !declining && (
          <>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void act(() => approve(request.id))}
            >
              Approve {credits(request.credits)}
            </button>
            <button type="button" disabled={busy} onClick={() => setDeclining(true)}>
              Decline…
            </button>
          </>
        )}
        {request.state === 'pending' && declining && (
          <form className="decline-form" onSubmit={submitDecline}>
            <label htmlFor={reasonId}>Why (told to the agent, optional)</label>
            <input id={reasonId} value={reason} onChange={(event) => setReason(event.target.value)} />
            <button type="submit" disabled={busy}>
              Decline
            </button>
            <button type="button" onClick={() => setDeclining(false)}>
              Keep it
            </button>
          </form>
        )}
        {request.batchId && (
          <button type="button" onClick={() => go({ name: 'batch', id: request.batchId! })}>
            Open the batch
          </button>
        )}
      </div>
    </li>
  );
}

const ALLOWANCE_RULE = { what: 'An allowance', min: 0, empty: 'none' };

function Allowance() {
  const { allowance, setAllowance } = useAgentRequests();
  const hint = useId();
  if (!allowance) return null;
  return (
    <section aria-labelledby="allowance-title" className="allowance">
      <h2 id="allowance-title">What agents may spend without asking</h2>
      <CreditsForm
        className="allowance-form"
        label="Credits a day, all agents together"
        current={allowance.perDay}
        rule={ALLOWANCE_RULE}
        placeholder="None: every request waits"
        describedBy={hint}
        save={(credits) => setAllowance(null, credits)}
      />
      <p id={hint} className="muted small">
        A request that fits what is left of today’s allowance (UTC) runs without asking;{' '}
        {credits(allowance.usedToday)} used today. With none, every request waits for you.
      </p>
      <BrandAllowances />
    </section>
  );
}

function BrandAllowances() {
  const { allowance, setAllowance } = useAgentRequests();
  const { brands, load } = useBrands();
  useEffect(() => {
    void load();
  }, [load]);
  if (!allowance || brands.length === 0) return null;
  return (
    <section aria-labelledby="brand-allowances-title">
      <h3 id="brand-allowances-title">Per client brand</h3>
      <ul className="brand-allowances">
        {brands.map((brand) => (
          <li key={brand.id}>
            <CreditsForm
              className="allowance-form"
              label={`${brand.name}: credits a day`}
              current={allowance.perBrand.find((one) => one.brandId === brand.id)?.credits ?? null}
              rule={ALLOWANCE_RULE}
              placeholder="None"
              saveName={`Save the allowance of ${brand.name}`}
              save={(credits) => setAllowance(brand.id, credits)}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function RequestsScreen() {
  const { requests, loaded, error, load } = useAgentRequests();
  const go = useNavigation((state) => state.go);
  useEffect(() => {
    void load();
  }, [load]);
  const pending = requests.filter((request) => request.state === 'pending');
  const decided = requests.filter((request) => request.state !== 'pending');
  return (
    <section className="screen requests" aria-labelledby="requests-title">
      <header className="screen-header">
        <h1 id="requests-title">Requests from agents</h1>
      </header>
      {error && <Notice kind="error">Could not read the requests: {error}</Notice>}
      {loaded && requests.length === 0 && (
        <EmptyState title="No agent has asked for anything">
          <p>
            An AI assistant connected to Adbatch (Claude Desktop, an assistant in a code editor) can price a
            batch and ask to run it; its request waits here for your yes. Connect one in{' '}
            <button type="button" className="link" onClick={() => go({ name: 'settings' })}>
              Settings, under Agents
            </button>
            .
          </p>
        </EmptyState>
      )}
      {pending.length > 0 && (
        <section aria-labelledby="pending-title">
          <h2 id="pending-title">Waiting for you ({pending.length})</h2>
          <ul className="agent-requests" aria-label="Waiting for you">
            {pending.map((request) => (
              <RequestRow key={request.id} request={request} />
            ))}
          </ul>
        </section>
      )}
      {decided.length > 0 && (
        <section aria-labelledby="decided-title">
          <h2 id="decided-title">Decided</h2>
          <ul className="agent-requests" aria-label="Decided">
            {decided.map((request) => (
              <RequestRow key={request.id} request={request} />
            ))}
          </ul>
        </section>
      )}
      <Allowance />
    </section>
  );
}

/** Across every screen: an agent asked to spend, with the way to its request. */
export function AgentRequestBanner() {
  const { announced, requests, dismissAnnouncement } = useAgentRequests();
  const { screen, go } = useNavigation();
  const request = requests.find((one) => one.id === announced && one.state === 'pending');
  if (!request || screen.name === 'requests') return null;
  return (
    <div className="notice notice-info agent-banner" role="status" data-testid="agent-banner">
      <span>
        {request.client} asks to run “{request.name}” for {credits(request.credits)}.
      </span>
      <button
        type="button"
        className="primary"
        onClick={() => {
          dismissAnnouncement();
          go({ name: 'requests' });
        }}
      >
        See the request
      </button>
      <button type="button" onClick={dismissAnnouncement}>
        Later
      </button>
    </div>
  );
}
