import { ExportsAside } from '../export/ExportsAside.tsx';
import { type Screen, useNavigation } from '../stores/navigation.ts';

const ITEMS: Array<{ label: string; screen: Screen }> = [
  { label: 'Batches', screen: { name: 'batches' } },
  { label: 'New batch', screen: { name: 'new' } },
  { label: 'Usage', screen: { name: 'usage' } },
  { label: 'Settings', screen: { name: 'settings' } },
];

export function Sidebar() {
  const { screen, go } = useNavigation();
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
            </button>
          </li>
        ))}
      </ul>
      <ExportsAside />
    </nav>
  );
}
