import packageJson from '../../package.json' with { type: 'json' };

/** The version users install, as package.json states it: one place for `--version` and the core. */
export const VERSION: string = packageJson.version;
