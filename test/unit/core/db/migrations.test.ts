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
