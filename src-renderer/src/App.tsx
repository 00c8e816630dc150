import { lazy, Suspense, useEffect, useRef } from 'react';
import { api } from './api/index.ts';
import { QueueOwnerNotice } from './components/QueueOwnerNotice.tsx';
import { Sidebar } from './components/Sidebar.tsx';
import { StatusLine } from './components/StatusLine.tsx';
import { InterruptedExports } from './export/InterruptedExports.tsx';
import { BatchesScreen } from './screens/BatchesScreen.tsx';
import { BatchScreen } from './screens/BatchScreen.tsx';
import { NewBatchScreen } from './screens/NewBatchScreen.tsx';
import { AgentRequestBanner, RequestsScreen } from './screens/RequestsScreen.tsx';
import { ReviewScreen } from './screens/ReviewScreen.tsx';
import { SettingsScreen } from './screens/SettingsScreen.tsx';
import { StatementScreen } from './screens/StatementScreen.tsx';
import { useAgentRequests } from './stores/agent-requests.ts';
import { useExports } from './stores/exports.ts';
import { useNavigation } from './stores/navigation.ts';
import { useNewBatch } from './stores/new-batch.ts';

// Usage draws its chart with recharts, a third of the renderer's code: loaded when Usage is first opened.
const UsageScreen = lazy(() =>
  import('./screens/UsageScreen.tsx').then((module) => ({ default: module.UsageScreen })),
);

export function App() {
  const { screen, go } = useNavigation();
  const content = useRef<HTMLElement>(null);
  // The screens share one scrolling area: a new screen starts at its top, not where the last one was left.
  useEffect(() => useNavigation.subscribe(() => content.current?.scrollTo({ top: 0 })), []);
  useEffect(() => useExports.getState().listen(), []);
  useEffect(() => {
    void useAgentRequests.getState().load();
  }, []);
  useEffect(
    () =>
      api.on('app:command', (command) => {
        if ('inputs' in command) {
          go({ name: 'new' });
          void useNewBatch.getState().scanInputs(command.inputs);
        } else go({ name: command.command === 'settings' ? 'settings' : 'new' });
      }),
    [go],
  );
  return (
    <div className="app">
      <Sidebar />
      <main className="content" ref={content}>
        <QueueOwnerNotice />
        <AgentRequestBanner />
        <InterruptedExports />
        {screen.name === 'batches' && <BatchesScreen />}
        {screen.name === 'new' && <NewBatchScreen />}
        {screen.name === 'batch' && <BatchScreen id={screen.id} />}
        {screen.name === 'review' && (
          <ReviewScreen
            batchId={screen.batchId}
            batchName={screen.batchName}
            scope={screen.scope}
            focus={screen.focus}
          />
        )}
        {screen.name === 'settings' && <SettingsScreen />}
        {screen.name === 'requests' && <RequestsScreen />}
        {screen.name === 'usage' && (
          <Suspense fallback={<p className="muted screen">Opening Usage…</p>}>
            <UsageScreen />
          </Suspense>
        )}
        {screen.name === 'statement' && <StatementScreen owner={screen.owner} period={screen.period} />}
      </main>
      <StatusLine />
    </div>
  );
}
