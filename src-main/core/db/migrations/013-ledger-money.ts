import type { Migration } from '../migrate.ts';

// The money rule, once: what an entry of the ledger counts as charged, refunded and still at stake. Every
// total (a batch's, a cap's, a period's usage, the check against the service, a client's statement) sums
// these columns of `ledger_money` instead of spelling the rule again; five copies of it had grown.
//
// - charged: a charge, or credits at stake that the service turned out to have charged;
// - refunded: a refund;
// - at_stake: credits put at stake (a create whose answer was lost), less what was then found charged or
//   released. Net spend is charged - refunded.
export const ledgerMoney: Migration = {
  version: 13,
  name: '013-ledger-money',
  up(db) {
    db.exec(`
      CREATE VIEW ledger_money AS
      SELECT ledger.*,
        CASE type WHEN 'charge' THEN credits WHEN 'at_stake_charged' THEN credits ELSE 0 END AS charged,
        CASE type WHEN 'refund' THEN credits ELSE 0 END AS refunded,
        CASE type WHEN 'at_stake' THEN credits
          WHEN 'at_stake_charged' THEN -credits WHEN 'at_stake_released' THEN -credits ELSE 0 END AS at_stake
      FROM ledger
    `);
  },
};
