import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Migration, migrate } from '../../../../src-main/core/db/migrate.ts';
import { MIGRATIONS } from '../../../../src-main/core/db/migrations/index.ts';
import { openDatabase } from '../../../../src-main/core/db/open.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adbatch-db-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function tables(db: Database.Database): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((row) => row.name);
}

/** A batch (b1) with one product (p1), its shoot (j1) and one result (asset 7), as of migration 006. */
function seedOneResult(db: Database.Database): void {
  db.exec(`
      INSERT INTO batches (id, name, created_at, base_url, key_id, key_hint, sandbox, library_dir, shoot_settings,
        quoted_credits, status, updated_at, account_id)
        VALUES ('b1','B',0,'http://x','k','…k',1,'/lib','{}',4,'finished',0,'sandbox');
      INSERT INTO products VALUES ('p1','b1',0,'cap','/in/cap','[]','',NULL);
      INSERT INTO jobs (id, batch_id, product_id, kind, settings, price, state, created_at)
        VALUES ('j1', 'b1', 'p1', 'shoot', '{}', 4, 'done', 0);
      INSERT INTO assets (id, job_id, kind, idx, url, path, state) VALUES (7, 'j1', 'image', 0, 'u', 'p', 'done');
  `);
}

describe('openDatabase', () => {
  it('creates a durable WAL database at the latest schema version', () => {
    const db = openDatabase(join(dir, 'nested', 'adbatch.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('reopens an existing database without running a migration twice', () => {
    const file = join(dir, 'adbatch.db');
    openDatabase(file).close();
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    db.close();
  });

  it('refuses a database written by a newer Adbatch', () => {
    const file = join(dir, 'adbatch.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(/newer than this Adbatch knows/);
  });
});

describe('migrate', () => {
  it('rolls a failing step back whole and leaves the version where it was', () => {
    const db = new Database(join(dir, 'x.db'));
    const steps: Migration[] = [
      { version: 1, name: 'one', up: (d) => d.exec('CREATE TABLE one (x)') },
      {
        version: 2,
        name: 'two',
        up: (d) => {
          d.exec('CREATE TABLE two (x)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => migrate(db, steps)).toThrow('boom');
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(tables(db)).toEqual(['one']);
    db.close();
  });
});

describe('migration 001-initial', () => {
  it('creates the queue, ledger, assets, request log and duration tables with their constraints', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 1));
    expect(tables(db)).toEqual([
      'assets',
      'batches',
      'duration_samples',
      'job_events',
      'jobs',
      'ledger',
      'products',
      'request_log',
    ]);
    db.exec(
      `INSERT INTO batches VALUES ('b1','B',0,'http://x','k','…k',0,'/lib','{}',NULL,4,'running',NULL,0)`,
    );
    db.exec(`INSERT INTO products VALUES ('p1','b1',0,'cap','/in/cap','[]')`);
    const insertJob = db.prepare(
      `INSERT INTO jobs (id, batch_id, product_id, kind, settings, price, state, created_at, remote_id)
       VALUES (?, 'b1', 'p1', ?, '{}', ?, 'planned', 0, ?)`,
    );
    insertJob.run('j1', 'shoot', 4, 'shoot_1');
    expect(() => insertJob.run('j2', 'poster', 4, null)).toThrow(/CHECK/);
    expect(() => insertJob.run('j3', 'shoot', -1, null)).toThrow(/CHECK/);
    expect(() => insertJob.run('j4', 'shoot', 4, 'shoot_1')).toThrow(/UNIQUE/);
    expect(() =>
      db.exec(`INSERT INTO ledger (batch_id, job_id, at, type, credits) VALUES ('b1','j1',0,'charge',-4)`),
    ).toThrow(/CHECK/);
    expect(() =>
      db.exec(`INSERT INTO ledger (batch_id, job_id, at, type, credits) VALUES ('b1','nope',0,'charge',4)`),
    ).toThrow(/FOREIGN KEY/);
    db.close();
  });
});

describe('migration 002-product-origin', () => {
  it('adds where a product came from and its fingerprint to existing rows, indexed', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 1));
    db.exec(
      `INSERT INTO batches VALUES ('b1','B',0,'http://x','k','…k',0,'/lib','{}',NULL,4,'running',NULL,0)`,
    );
    db.exec(`INSERT INTO products VALUES ('p1','b1',0,'cap','/in/cap','[]')`);
    migrate(db, MIGRATIONS.slice(0, 2));
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare('SELECT rel_path, fingerprint FROM products').get()).toEqual({
      rel_path: '',
      fingerprint: null,
    });
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT id FROM products WHERE fingerprint = 'f'")
      .all() as Array<{ detail: string }>;
    expect(plan.map((row) => row.detail).join(' ')).toMatch(/products_fingerprint/);
    db.close();
  });
});

describe('migration 003-accounts', () => {
  it('keeps accounts with a sealed key, one account per key', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 3));
    const insert = db.prepare(
      `INSERT INTO accounts (id, name, base_url, key_id, key_hint, sealed_key, type, created_at)
       VALUES (?, 'Acme', 'https://x', ?, '...a1b2', ?, ?, 0)`,
    );
    insert.run('a1', 'k1', Buffer.from([1, 2, 3]), 'agency');
    expect(() => insert.run('a2', 'k1', Buffer.from([4]), 'personal')).toThrow(/UNIQUE/);
    expect(() => insert.run('a3', 'k3', Buffer.from([4]), 'team')).toThrow(/CHECK/);
    expect(() => insert.run('a4', 'k4', null, 'personal')).toThrow(/NOT NULL/);
    db.close();
  });
});

describe('migration 004-photo-storage', () => {
  it('keeps one storage row whose secret is sealed or absent with its key id, and a message per batch', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 3));
    db.exec(
      `INSERT INTO batches VALUES ('b1','B',0,'http://x','k','…k',0,'/lib','{}',NULL,4,'paused','user',0)`,
    );
    migrate(db, MIGRATIONS.slice(0, 4));
    expect(db.pragma('user_version', { simple: true })).toBe(4);
    expect(db.prepare('SELECT status_reason, status_message FROM batches').get()).toEqual({
      status_reason: 'user',
      status_message: null,
    });
    const insert = db.prepare(
      `INSERT OR REPLACE INTO photo_storage (id, bucket, prefix, url_ttl_seconds, access_key_id, sealed_secret,
         secret_hint, checked_at)
       VALUES (?, 'photos', 'adbatch/', ?, ?, ?, ?, 0)`,
    );
    insert.run(1, 86_400, 'AKIA1', Buffer.from([1, 2]), '…wxyz');
    insert.run(1, 3_600, null, null, null);
    expect(db.prepare('SELECT COUNT(*) AS n, MAX(url_ttl_seconds) AS ttl FROM photo_storage').get()).toEqual({
      n: 1,
      ttl: 3_600,
    });
    expect(() => insert.run(2, 86_400, null, null, null)).toThrow(/CHECK/);
    expect(() => insert.run(1, 0, null, null, null)).toThrow(/CHECK/);
    expect(() => insert.run(1, 86_400, 'AKIA1', null, null)).toThrow(/CHECK/);
    expect(() => insert.run(1, 86_400, null, Buffer.from([1]), null)).toThrow(/CHECK/);
    db.close();
  });
});

describe('migration 005-batch-account', () => {
  it('gives every batch its account: the Sandbox, the stored account of its key, or a row for a key known only by its hash', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 4));
    db.exec(`
      INSERT INTO accounts (id, name, base_url, key_id, key_hint, sealed_key, type, created_at)
        VALUES ('a_stored', 'Acme', 'https://svc', 'k_stored', '…aaaa', X'0102', 'personal', 0);
      INSERT INTO batches VALUES
        ('b1','Sandbox run',1,'http://127.0.0.1:1','k_sandbox','…sand',1,'/lib','{}',NULL,4,'finished',NULL,1,NULL),
        ('b2','Stored key',2,'https://svc','k_stored','…aaaa',0,'/lib','{}',NULL,4,'running',NULL,2,NULL),
        ('b3','CLI key',3,'https://svc','k_cli','…cccc',0,'/lib','{}',NULL,4,'paused','user',3,NULL),
        ('b4','CLI key again',4,'https://svc','k_cli','…cccc',0,'/lib','{}',NULL,4,'running',NULL,4,NULL);
      INSERT INTO products VALUES ('p1','b2',0,'cap','/in/cap','[]','',NULL);
      INSERT INTO jobs (id, batch_id, product_id, kind, settings, price, state, created_at)
        VALUES ('j1', 'b2', 'p1', 'shoot', '{}', 4, 'waiting', 0);
    `);
    migrate(db, MIGRATIONS.slice(0, 5));
    expect(db.pragma('user_version', { simple: true })).toBe(5);

    const batches = db
      .prepare(
        `SELECT b.id, b.account_id, a.name, a.key_id, a.sealed_key IS NOT NULL AS stored
         FROM batches b LEFT JOIN accounts a ON a.id = b.account_id ORDER BY b.id`,
      )
      .all() as Array<{
      id: string;
      account_id: string;
      name: string | null;
      key_id: string;
      stored: number;
    }>;
    expect(batches[0]).toMatchObject({ id: 'b1', account_id: 'sandbox', name: null });
    expect(batches[1]).toMatchObject({ id: 'b2', account_id: 'a_stored', name: 'Acme', stored: 1 });
    // Both batches of the CLI's key share one new account, which has no key stored.
    expect(batches[2]).toMatchObject({ name: 'Key …cccc', key_id: 'k_cli', stored: 0 });
    expect(batches[2]!.account_id).toMatch(/^a_[0-9a-f]{16}$/);
    expect(batches[3]!.account_id).toBe(batches[2]!.account_id);
    // The rebuilt accounts table kept its row, its constraints, and nothing was lost downstream.
    expect(db.prepare("SELECT sealed_key FROM accounts WHERE id = 'a_stored'").get()).toEqual({
      sealed_key: Buffer.from([1, 2]),
    });
    expect(() =>
      db.exec(
        `INSERT INTO accounts (id, name, base_url, key_id, key_hint, created_at) VALUES ('a2','X','u','k_cli','h',0)`,
      ),
    ).toThrow(/UNIQUE/);
    expect(db.prepare('SELECT COUNT(*) AS n FROM jobs').get()).toEqual({ n: 1 });
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT 1 FROM batches WHERE account_id = 'a_stored'")
      .all() as Array<{ detail: string }>;
    expect(plan.map((row) => row.detail).join(' ')).toMatch(/batches_account/);
    db.close();
  });
});

describe('migration 006-review', () => {
  it('keeps one decision per result, its stars 0 to 5, a reason only on a rejection, gone with its result', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 6));
    seedOneResult(db);
    const decide = db.prepare(
      'INSERT OR REPLACE INTO review_decisions (asset_id, flag, stars, reject_reason, decided_at) VALUES (?, ?, ?, ?, 0)',
    );
    decide.run(7, 'rejected', 0, 'garbled_text');
    decide.run(7, 'picked', 5, null);
    expect(db.prepare('SELECT COUNT(*) AS n FROM review_decisions').get()).toEqual({ n: 1 });
    expect(() => decide.run(7, 'picked', 6, null)).toThrow(/CHECK/);
    expect(() => decide.run(7, 'maybe', 0, null)).toThrow(/CHECK/);
    expect(() => decide.run(7, 'picked', 0, 'garbled_text')).toThrow(/CHECK/);
    expect(() => decide.run(7, 'rejected', 0, 'too_blue')).toThrow(/CHECK/);
    expect(() => decide.run(8, 'picked', 0, null)).toThrow(/FOREIGN KEY/);
    db.exec('DELETE FROM assets WHERE id = 7');
    expect(db.prepare('SELECT COUNT(*) AS n FROM review_decisions').get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('migration 007-videos-after-review', () => {
  it('adds the after-review video settings to batches, none for the batches already there', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 6));
    db.exec(`
      INSERT INTO batches (id, name, created_at, base_url, key_id, key_hint, sandbox, library_dir, shoot_settings,
        video_settings, quoted_credits, status, updated_at, account_id)
        VALUES ('b1','B',0,'http://x','k','…k',1,'/lib','{}','{"duration":5}',4,'finished',0,'sandbox');
    `);
    migrate(db, MIGRATIONS.slice(0, 7));
    expect(db.pragma('user_version', { simple: true })).toBe(7);
    expect(db.prepare('SELECT video_settings, videos_after_review FROM batches').get()).toEqual({
      video_settings: '{"duration":5}',
      videos_after_review: null,
    });
    db.prepare("UPDATE batches SET videos_after_review = '{\"duration\":10}' WHERE id = 'b1'").run();
    expect(db.prepare('SELECT videos_after_review FROM batches').get()).toEqual({
      videos_after_review: '{"duration":10}',
    });
    db.close();
  });
});

describe('migration 008-exports', () => {
  it('keeps exports with their state, request and snapshot, refusing an unknown state, indexed by state', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 7));
    migrate(db, MIGRATIONS.slice(0, 8));
    expect(db.pragma('user_version', { simple: true })).toBe(8);
    const insert = db.prepare(
      `INSERT INTO exports (id, created_at, state, destination, request, snapshot, owner_pid)
       VALUES (?, 0, ?, '/out', '{}', '{}', 42)`,
    );
    insert.run('e1', 'running');
    expect(() => insert.run('e2', 'paused')).toThrow(/CHECK/);
    expect(() => insert.run('e1', 'done')).toThrow(/UNIQUE/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO exports (id, created_at, state, destination, request) VALUES ('e3', 0, 'done', '/o', '{}')",
        )
        .run(),
    ).toThrow(/NOT NULL/);
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT id FROM exports WHERE state = 'running'")
      .all() as Array<{ detail: string }>;
    expect(plan.map((row) => row.detail).join(' ')).toMatch(/exports_state/);
    db.close();
  });
});

describe('migration 010-ledger-brands', () => {
  it('keeps every ledger row with who it belongs to, numbers retried charges, and refuses edits and replays', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 9));
    db.exec(`
      INSERT INTO batches (id, name, created_at, base_url, key_id, key_hint, sandbox, library_dir, shoot_settings,
        quoted_credits, status, updated_at, account_id)
        VALUES ('b1','B',0,'https://svc','k_1','…k',0,'/lib','{}',16,'finished',0,'a_1');
      INSERT INTO products VALUES ('p1','b1',0,'cap','/in/cap','[]','',NULL);
      INSERT INTO jobs (id, batch_id, product_id, kind, settings, price, state, remote_id, created_at)
        VALUES ('j1', 'b1', 'p1', 'shoot', '{}', 8, 'done', 'shoot_2', 0);
      INSERT INTO ledger (batch_id, job_id, at, type, credits, balance_after) VALUES
        ('b1', 'j1', 10, 'charge', 8, 92), ('b1', 'j1', 20, 'refund', 8, NULL),
        ('b1', 'j1', 30, 'charge', 8, 92);
    `);
    migrate(db, MIGRATIONS.slice(0, 10));
    expect(db.pragma('user_version', { simple: true })).toBe(10);
    expect(
      db
        .prepare(
          'SELECT at, type, credits, attempt, job_kind, product_id, account_id, key_id, balance_after FROM ledger ORDER BY id',
        )
        .all(),
    ).toEqual([
      {
        at: 10,
        type: 'charge',
        credits: 8,
        attempt: 1,
        job_kind: 'shoot',
        product_id: 'p1',
        account_id: 'a_1',
        key_id: 'k_1',
        balance_after: 92,
      },
      {
        at: 20,
        type: 'refund',
        credits: 8,
        attempt: 1,
        job_kind: 'shoot',
        product_id: 'p1',
        account_id: 'a_1',
        key_id: 'k_1',
        balance_after: null,
      },
      {
        at: 30,
        type: 'charge',
        credits: 8,
        attempt: 2,
        job_kind: 'shoot',
        product_id: 'p1',
        account_id: 'a_1',
        key_id: 'k_1',
        balance_after: 92,
      },
    ]);
    expect(() => db.exec("UPDATE ledger SET credits = 0 WHERE type = 'refund'")).toThrow(/never edited/);
    expect(() => db.exec('DELETE FROM ledger')).toThrow(/never deleted/);
    const replay = db.prepare(
      `INSERT INTO ledger (at, type, credits, job_id, attempt, job_kind, product_id, batch_id, account_id, key_id)
       VALUES (40, ?, 8, 'j1', ?, 'shoot', 'p1', 'b1', 'a_1', 'k_1') ON CONFLICT (job_id, attempt, type) DO NOTHING`,
    );
    expect(replay.run('charge', 2).changes).toBe(0);
    expect(replay.run('at_stake', 3).changes).toBe(1);
    expect(() => replay.run('spent', 4)).toThrow(/CHECK/);

    // Brands, the brand a key is pinned to, a batch's brand and cap.
    db.exec(`INSERT INTO brands (id, base_url, remote_id, name, monthly_cap, created_at)
      VALUES ('br1', 'https://svc', 'brand_acme', 'Acme Outdoor', 2000, 0)`);
    expect(() =>
      db.exec(
        `INSERT INTO brands (id, base_url, remote_id, name, created_at) VALUES ('br2', 'https://svc', 'brand_acme', 'Acme', 0)`,
      ),
    ).toThrow(/UNIQUE/);
    expect(() => db.exec("UPDATE brands SET monthly_cap = -1 WHERE id = 'br1'")).toThrow(/CHECK/);
    db.exec("UPDATE batches SET brand_id = 'br1', credit_cap = 100 WHERE id = 'b1'");
    expect(() => db.exec("UPDATE batches SET brand_id = 'br_missing'")).toThrow(/FOREIGN KEY/);
    expect(db.prepare('SELECT brand_id, credit_cap FROM batches').get()).toEqual({
      brand_id: 'br1',
      credit_cap: 100,
    });
    // The money record outlives the job it describes.
    db.exec("DELETE FROM batches WHERE id = 'b1'");
    expect(db.prepare('SELECT COUNT(*) AS n FROM ledger').get()).toEqual({ n: 4 });
    db.close();
  });
});

describe('migration 011-agent-requests', () => {
  it('keeps agents’ requests, one per client request id, in a known state, and allowances by scope', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 10));
    migrate(db, MIGRATIONS.slice(0, 11));
    expect(db.pragma('user_version', { simple: true })).toBe(11);
    const insert = db.prepare(
      `INSERT INTO agent_requests (id, client, client_request_id, created_at, account_id, name, request, credits, state)
       VALUES (?, ?, ?, 0, 'sandbox', 'Batch', '{}', ?, ?)`,
    );
    insert.run('ar_1', 'Claude', 'r1', 4, 'pending');
    // The same request id from another client is another request; from the same client, refused.
    insert.run('ar_2', 'Cursor', 'r1', 4, 'pending');
    expect(() => insert.run('ar_3', 'Claude', 'r1', 4, 'pending')).toThrow(/UNIQUE/);
    expect(() => insert.run('ar_4', 'Claude', 'r2', 4, 'approved')).toThrow(/CHECK/);
    expect(() => insert.run('ar_5', 'Claude', 'r3', -1, 'pending')).toThrow(/CHECK/);
    const allowance = db.prepare('INSERT INTO agent_allowances (scope, credits) VALUES (?, ?)');
    allowance.run('day', 100);
    allowance.run('brand:br_1', 20);
    expect(() => allowance.run('week', 5)).toThrow(/CHECK/);
    expect(() => allowance.run('brand:br_2', -5)).toThrow(/CHECK/);
    expect(
      db.prepare("SELECT name FROM pragma_table_info('batches') WHERE name = 'agent_client'").get(),
    ).toEqual({ name: 'agent_client' });
    db.close();
  });
});

describe('migration 012-ledger-agent', () => {
  it('adds the agent to ledger entries, none for the entries already there, and still refuses edits', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 11));
    db.prepare(
      `INSERT INTO ledger (at, type, credits, job_id, attempt, job_kind, product_id, batch_id, account_id, key_id)
       VALUES (0, 'charge', 4, 'j1', 1, 'shoot', 'p1', 'b1', 'a1', 'k1')`,
    ).run();
    migrate(db, MIGRATIONS.slice(0, 12));
    expect(db.pragma('user_version', { simple: true })).toBe(12);
    expect(db.prepare('SELECT agent_client FROM ledger').all()).toEqual([{ agent_client: null }]);
    expect(() => db.prepare("UPDATE ledger SET agent_client = 'Claude'").run()).toThrow(/never edited/);
    db.close();
  });
});

describe('migration 013-ledger-money', () => {
  it('counts each entry once as charged, refunded or at stake, the entries already there included', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 12));
    const entry = db.prepare(
      `INSERT INTO ledger (at, type, credits, job_id, attempt, job_kind, product_id, batch_id, account_id, key_id)
       VALUES (0, ?, ?, ?, 1, 'shoot', 'p1', 'b1', 'a1', 'k1')`,
    );
    // j1 charged 4 then refunded; j2's create lost its answer (8 at stake), then found charged; j3's 2 at stake
    // were released (the service made nothing); j4's 6 are still at stake.
    entry.run('charge', 4, 'j1');
    entry.run('refund', 4, 'j1');
    entry.run('at_stake', 8, 'j2');
    entry.run('at_stake_charged', 8, 'j2');
    entry.run('at_stake', 2, 'j3');
    entry.run('at_stake_released', 2, 'j3');
    entry.run('at_stake', 6, 'j4');
    migrate(db, MIGRATIONS.slice(0, 13));
    expect(db.pragma('user_version', { simple: true })).toBe(13);
    const perJob = db
      .prepare(
        `SELECT job_id, SUM(charged) AS charged, SUM(refunded) AS refunded, SUM(at_stake) AS at_stake
         FROM ledger_money GROUP BY job_id ORDER BY job_id`,
      )
      .all();
    expect(perJob).toEqual([
      { job_id: 'j1', charged: 4, refunded: 4, at_stake: 0 },
      { job_id: 'j2', charged: 8, refunded: 0, at_stake: 0 },
      { job_id: 'j3', charged: 0, refunded: 0, at_stake: 0 },
      { job_id: 'j4', charged: 0, refunded: 0, at_stake: 6 },
    ]);
    // A view: the entries stay the one record, and a later entry is counted as it is written.
    entry.run('charge', 1, 'j5');
    expect(db.prepare("SELECT charged, credits, type FROM ledger_money WHERE job_id = 'j5'").get()).toEqual({
      charged: 1,
      credits: 1,
      type: 'charge',
    });
    db.close();
  });
});

describe('migration 014-agent-quote', () => {
  it('keeps the quote a request was submitted with, and refuses a second request on the same quote', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 13));
    const request = db.prepare(
      `INSERT INTO agent_requests (id, client, client_request_id, created_at, account_id, name, request, credits, state)
       VALUES (?, 'Claude', ?, 0, 'a1', 'n', '{}', 2, 'pending')`,
    );
    request.run('r0', 'c0');
    migrate(db, MIGRATIONS.slice(0, 14));
    expect(db.pragma('user_version', { simple: true })).toBe(14);
    expect(db.prepare("SELECT quote_id FROM agent_requests WHERE id = 'r0'").get()).toEqual({
      quote_id: null,
    });
    const withQuote = db.prepare(
      `INSERT INTO agent_requests (id, client, client_request_id, created_at, account_id, name, request, credits, state, quote_id)
       VALUES (?, 'Claude', ?, 0, 'a1', 'n', '{}', 2, 'pending', ?)`,
    );
    withQuote.run('r1', 'c1', 'q1');
    withQuote.run('r2', 'c2', null);
    expect(() => withQuote.run('r3', 'c3', 'q1')).toThrow(/UNIQUE/);
    db.close();
  });
});

describe('migration 015-result-focus', () => {
  it('keeps one focus point per result, as fractions of its frame, gone with its result', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 15));
    expect(db.pragma('user_version', { simple: true })).toBe(15);
    seedOneResult(db);
    const focus = db.prepare('INSERT INTO result_focus (asset_id, x, y, set_at) VALUES (?, ?, ?, 0)');
    focus.run(7, 0.25, 1);
    expect(() => focus.run(7, 0.5, 0.5)).toThrow(/UNIQUE|PRIMARY/);
    expect(() => focus.run(7, 1.5, 0.5)).toThrow(/CHECK/);
    expect(() => focus.run(7, 0.5, -0.1)).toThrow(/CHECK/);
    expect(() => focus.run(8, 0.5, 0.5)).toThrow(/FOREIGN KEY/);
    expect(db.prepare('SELECT asset_id, x, y FROM result_focus').all()).toEqual([
      { asset_id: 7, x: 0.25, y: 1 },
    ]);
    db.exec('DELETE FROM assets WHERE id = 7');
    expect(db.prepare('SELECT COUNT(*) AS n FROM result_focus').get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('migration 016-product-identity', () => {
  it('keeps one identity per product, a field not known stored as empty, gone with its product', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 16));
    expect(db.pragma('user_version', { simple: true })).toBe(16);
    seedOneResult(db);
    const identity = db.prepare("INSERT INTO product_identity (product_id, sku) VALUES (?, 'SKU-1')");
    identity.run('p1');
    expect(() => identity.run('p1')).toThrow(/UNIQUE|PRIMARY/);
    expect(db.prepare('SELECT * FROM product_identity').all()).toEqual([
      { product_id: 'p1', sku: 'SKU-1', handle: '', title: '', brand: '', alt_text: '' },
    ]);
    expect(() => identity.run('p2')).toThrow(/FOREIGN KEY/);
    db.exec("DELETE FROM products WHERE id = 'p1'");
    expect(db.prepare('SELECT COUNT(*) AS n FROM product_identity').get()).toEqual({ n: 0 });
    db.close();
  });
});

describe('migration 018-export31-last-choice', () => {
  it('keeps one last choice per brand and front end, for the app and the CLI only', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 18));
    expect(db.pragma('user_version', { simple: true })).toBe(18);
    const remember = db.prepare(
      'INSERT INTO export_last_choice (brand_key, front, recipes, destination, chosen_at) VALUES (?, ?, ?, ?, 1)',
    );
    remember.run('b_acme', 'app', '["shopify"]', '/exports/acme');
    remember.run('b_acme', 'cli', '["original"]', '/tmp/acme');
    remember.run('', 'app', '["web"]', '/exports/own');
    expect(() => remember.run('b_acme', 'app', '["web"]', '/elsewhere')).toThrow(/UNIQUE|PRIMARY/);
    expect(() => remember.run('b_acme', 'mcp', '["web"]', '/elsewhere')).toThrow(/CHECK/);
    expect(
      db
        .prepare('SELECT brand_key, front, destination FROM export_last_choice ORDER BY brand_key, front')
        .all(),
    ).toEqual([
      { brand_key: '', front: 'app', destination: '/exports/own' },
      { brand_key: 'b_acme', front: 'app', destination: '/exports/acme' },
      { brand_key: 'b_acme', front: 'cli', destination: '/tmp/acme' },
    ]);
    db.close();
  });
});

describe('migration 019-review31b-labels', () => {
  it('adds a colour label to decisions, none for those already there, refusing a colour not in the set', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 18));
    seedOneResult(db);
    db.exec("INSERT INTO review_decisions (asset_id, flag, stars, decided_at) VALUES (7, 'picked', 3, 0)");
    migrate(db, MIGRATIONS.slice(0, 19));
    expect(db.pragma('user_version', { simple: true })).toBe(19);
    expect(db.prepare('SELECT flag, stars, label FROM review_decisions').all()).toEqual([
      { flag: 'picked', stars: 3, label: null },
    ]);
    const label = db.prepare('UPDATE review_decisions SET label = ? WHERE asset_id = 7');
    label.run('blue');
    expect(() => label.run('purple')).toThrow(/CHECK/);
    expect(db.prepare('SELECT label FROM review_decisions').get()).toEqual({ label: 'blue' });
    db.close();
  });
});

describe('migration 020-etapoll31-last-poll', () => {
  it('adds when a poll last found a job running, unknown for the jobs already there', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 19));
    seedOneResult(db);
    migrate(db, MIGRATIONS.slice(0, 20));
    expect(db.pragma('user_version', { simple: true })).toBe(20);
    expect(db.prepare('SELECT id, state, last_polled_running_at FROM jobs').all()).toEqual([
      { id: 'j1', state: 'done', last_polled_running_at: null },
    ]);
    db.prepare('UPDATE jobs SET last_polled_running_at = ? WHERE id = ?').run(12_345, 'j1');
    expect(db.prepare('SELECT last_polled_running_at FROM jobs').get()).toEqual({
      last_polled_running_at: 12_345,
    });
    db.close();
  });
});

describe('migration 021-retry-commit-mark', () => {
  it('gives the jobs already there their insertion order as when they were committed', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 20));
    seedOneResult(db);
    migrate(db, MIGRATIONS.slice(0, 21));
    expect(db.pragma('user_version', { simple: true })).toBe(21);
    const rowid = db.prepare("SELECT rowid FROM jobs WHERE id = 'j1'").pluck().get();
    expect(db.prepare('SELECT id, committed_seq FROM jobs').all()).toEqual([
      { id: 'j1', committed_seq: rowid },
    ]);
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'jobs_committed_seq'").get(),
    ).toEqual({ name: 'jobs_committed_seq' });
    db.close();
  });
});

describe('migration 022-duration-brackets', () => {
  it('keeps the durations learned as points, with no lower end, and takes brackets from then on', () => {
    const db = new Database(join(dir, 'x.db'));
    migrate(db, MIGRATIONS.slice(0, 21));
    db.prepare('INSERT INTO duration_samples (class, seconds, at) VALUES (?, ?, ?)').run(
      'shoot:standard:1',
      12.5,
      1,
    );
    migrate(db, MIGRATIONS.slice(0, 22));
    expect(db.pragma('user_version', { simple: true })).toBe(22);
    db.prepare('INSERT INTO duration_samples (class, seconds, lo_seconds, at) VALUES (?, ?, ?, ?)').run(
      'shoot:standard:1',
      20,
      10,
      2,
    );
    expect(db.prepare('SELECT seconds, lo_seconds FROM duration_samples ORDER BY at').all()).toEqual([
      { seconds: 12.5, lo_seconds: null },
      { seconds: 20, lo_seconds: 10 },
    ]);
    db.close();
  });
});

describe('migration 023-own-content-index', () => {
  it('looks up results and exported files by their bytes through an index, keeping the rows there', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 22));
    seedOneResult(db);
    db.prepare("UPDATE assets SET sha256 = 'aa' WHERE id = 7").run();
    migrate(db, MIGRATIONS.slice(0, 23));
    expect(db.pragma('user_version', { simple: true })).toBe(23);
    expect(db.prepare("SELECT id FROM assets WHERE sha256 = 'aa'").pluck().all()).toEqual([7]);
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>)
        .map((row) => row.detail)
        .join('; ');
    expect(plan("SELECT id FROM assets WHERE sha256 = 'aa'")).toContain('INDEX assets_sha256');
    expect(plan("SELECT path FROM export_files WHERE sha256 = 'aa'")).toContain('INDEX export_files_sha256');
    db.close();
  });
});

describe('migration 024-service-trouble', () => {
  it('keeps one row per key whose service does not answer, of a known kind, the rows there kept', () => {
    const db = new Database(join(dir, 'x.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 23));
    seedOneResult(db);
    migrate(db, MIGRATIONS.slice(0, 24));
    expect(db.pragma('user_version', { simple: true })).toBe(24);
    expect(db.prepare('SELECT id FROM assets').pluck().all()).toEqual([7]);
    const put = db.prepare(
      'INSERT OR REPLACE INTO service_trouble (key_id, since, kind, reason) VALUES (?, ?, ?, ?)',
    );
    put.run('k1', 1000, 'no_answer', 'the connection was refused');
    put.run('k1', 900, 'errors', 'HTTP 503');
    expect(db.prepare('SELECT key_id, since, kind, reason FROM service_trouble').all()).toEqual([
      { key_id: 'k1', since: 900, kind: 'errors', reason: 'HTTP 503' },
    ]);
    expect(() => put.run('k2', 1000, 'slow', 'a guess')).toThrow(/CHECK constraint failed/);
    db.close();
  });
});
