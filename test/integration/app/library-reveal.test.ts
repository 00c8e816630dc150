import { afterEach, describe, expect, it } from 'vitest';
import { type CoreHarness, callCore, startCoreHarness } from '../../support/core-harness.ts';

// "Show files" through the handler map: the folder is made if need be and handed to the file manager, and
// the answer says which folder it was and why it could not be shown, so the app can say so.

let h: CoreHarness | undefined;

afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('library:reveal', () => {
  it('answers the folder it showed', async () => {
    h = await startCoreHarness();
    const { libraryDir } = await callCore(h.core, 'settings:get');
    expect(await callCore(h.core, 'library:reveal', {})).toEqual({ folder: libraryDir, failure: null });
    expect(h.revealed).toEqual([libraryDir]);
  });

  it('answers why the file manager could not show it', async () => {
    h = await startCoreHarness({ revealFailure: 'No application is registered to open folders.' });
    const { libraryDir } = await callCore(h.core, 'settings:get');
    expect(await callCore(h.core, 'library:reveal', {})).toEqual({
      folder: libraryDir,
      failure: 'No application is registered to open folders.',
    });
  });
});
