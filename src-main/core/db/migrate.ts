import type Database from 'better-sqlite3';

/** A numbered schema step. `version` is stored in `PRAGMA user_version` once the step has run. */
export interface Migration {
  version: number;
  name: string;
  up: (db: Database.Database) => void;
}

/** Runs every migration above the database's `user_version`, each in its own transaction. */
export function migrate(db: Database.Database, migrations: readonly Migration[]): number {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new Error(
      `The database is at schema version ${current}, newer than this Adbatch knows (${latest}): update Adbatch.`,
    );
  }
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`migration ${migration.name} is out of sequence`);
  });
  for (const migration of migrations) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      migration.up(db);
      db.pragma(`user_version = ${migration.version}`);
    })();
  }
  return latest;
}
