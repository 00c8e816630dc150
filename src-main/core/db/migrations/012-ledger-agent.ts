import type { Migration } from '../migrate.ts';

// Every ledger entry names the agent whose request made its batch (issue 16: "every action an agent takes
// is recorded with the client's name … in the ledger's entries"), copied from the batch when the entry is
// written, like its brand and account. Entries written before stay without one (a batch of a person's, or
// made before agents could ask): a new column, never an edit of an entry.
export const ledgerAgent: Migration = {
  version: 12,
  name: '012-ledger-agent',
  up(db) {
    db.exec('ALTER TABLE ledger ADD COLUMN agent_client TEXT');
  },
};
