import { useEffect } from 'react';
import { useQueueOwner } from '../stores/queue-owner.ts';
import { Notice } from './Notice.tsx';

/** Says who drives the batches when it is not this app, and that it takes over once they are done. */
export function QueueOwnerNotice() {
  const { owner, load } = useQueueOwner();
  useEffect(() => {
    void load();
  }, [load]);
  if (!owner || owner.driving || !owner.heldBy) return null;
  return (
    <Notice kind="info">
      {owner.heldBy} is running the batches. Progress shows here as it happens; new batches start when it
      finishes, and Adbatch takes over then by itself.
    </Notice>
  );
}
