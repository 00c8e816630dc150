// Stand-in for the `electron` module under vitest. Electron-only code takes its electron modules as
// parameters, so tests pass purpose-built fakes; this module only makes an accidental import fail loudly.
const message = 'electron is not available under vitest: inject the electron module your code needs';

export const app = new Proxy(
  {},
  {
    get() {
      throw new Error(message);
    },
  },
);
export default { app };
