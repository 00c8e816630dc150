import { create } from 'zustand';
import type { CatalogView } from '../../../src-main/shared/models.ts';
import { api, messageOf } from '../api/index.ts';

// The styles, qualities, lengths and resolutions a batch can be made of, asked of core once: the renderer
// keeps no list of its own, so a choice core adds or drops shows here without a renderer change.

interface CatalogState {
  catalog: CatalogView | null;
  error: string | null;
  /** The catalog, asked of core on the first call only; after a failure the next call asks again. */
  ready(): Promise<CatalogView>;
  /** Asked as the New batch screen opens (again after a failure, which stays in `error` for it to show). */
  load(): Promise<void>;
}

let asked: Promise<CatalogView> | null = null;

export const useCatalog = create<CatalogState>((set, get) => ({
  catalog: null,
  error: null,
  ready() {
    asked ??= api.call('catalog:get').then(
      (catalog) => {
        set({ catalog, error: null });
        return catalog;
      },
      (error: unknown) => {
        asked = null;
        set({ error: messageOf(error) });
        throw error;
      },
    );
    return asked;
  },
  async load() {
    await get()
      .ready()
      .catch(() => undefined);
  },
}));
