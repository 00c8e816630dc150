import { AGENT_REQUEST_STATE_WORDS } from '../../../src-main/shared/words.ts';
import { ExportsAside } from '../export/ExportsAside.tsx';
import { pendingCount, useAgentRequests } from '../stores/agent-requests.ts';
import { type Screen, useNavigation } from '../stores/navigation.ts';

const ITEMS: Array<{ label: string; screen: Screen }> = [
  { label: 'Batches', screen: { name: 'batches' } },
  { label: 'New batch', screen: { name: 'new' } },
  { label: 'Usage', screen: { name: 'usage' } },
  { label: 'Requests', screen: { name: 'requests' } },
  { label: 'Settings', screen: { name: 'settings' } },
];

export function Sidebar() {
  const { screen, go } = useNavigation();
  const waiting = useAgentRequests((state) => pendingCount(state.requests));
  const current = screen.name === 'batch' ? 'batches' : screen.name === 'statement' ? 'usage' : screen.name;
  return (
    <nav className="sidebar" aria-label="Main">
      <div className="brand">Adbatch</div>
      <ul>
        {ITEMS.map((item) => (
          <li key={item.label}>
            <button
              type="button"
              className={current === item.screen.name ? 'nav-item active' : 'nav-item'}
              aria-current={current === item.screen.name ? 'page' : undefined}
              onClick={() => go(item.screen)}
            >
              {item.label}
              {item.screen.name === 'requests' && waiting > 0 && (
                <span className="count" data-testid="requests-count">
                  <span className="visually-hidden">, {AGENT_REQUEST_STATE_WORDS.pending}: </span>
                  {waiting}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      <ExportsAside />
    </nav>
  );
}
