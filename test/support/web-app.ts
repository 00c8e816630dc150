import { type Child, startChild } from './child-process.ts';

// `npm run app:web`'s own entry (src-main/web/main.ts) in a process of its own, as the tests that restart it
// (kill -9, then again on the same data folder) drive it: started in `env`, ready once it says how to stop.

export interface WebApp {
  child: Child;
  /** The address it printed, with this run's token. */
  url: string;
}

export async function startWebApp(env: NodeJS.ProcessEnv): Promise<WebApp> {
  const child = startChild(['--import', 'tsx', 'src-main/web/main.ts'], env);
  const [, url] = await child.waitFor(/Adbatch in your browser: (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/);
  await child.waitFor(/Ctrl\+C stops it/);
  return { child, url: url! };
}

/** The environment of a designer whose home is `home`: no variable that moves the data folder or library. */
export function designerEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  for (const name of ['ADBATCH_DATA_DIR', 'ADBATCH_LIBRARY', 'XDG_DATA_HOME', 'PORT']) delete env[name];
  return env;
}
