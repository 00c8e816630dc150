import { useEffect } from 'react';
import { useQueueOwner } from '../stores/queue-owner.ts';
import { Notice } from './Notice.tsx';

/**
 * Says who drives the batches when it is not this app, and that it takes over once they are done; or why
 * this app, driving them, sends nothing (its data folder cannot be written).
 */
export function QueueOwnerNotice() {
  const { owner, load } = useQueueOwner();
  useEffect(() => {
    void load();
  }, [load]);
  if (owner?.fault) return <Notice kind="error">{owner.fault}</Notice>;
  // heldBy is set only while another process drives the queue.
  if (!owner?.heldBy) return null;
  return (
    <Notice kind="info">
      <strong>{owner.heldBy}</strong> is running the batches: their progress shows here, and Adbatch takes
      over when it finishes (new batches may wait until then).
    </Notice>
  );
}
