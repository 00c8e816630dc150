import { describe, expect, it } from 'vitest';
import { BUILT_IN_RECIPES, parseRecipe } from '../../../src-main/core/export/recipes.ts';
import { draftOf, recipeOf } from '../../../src-renderer/src/export/recipe-draft.ts';

// What the recipe editor's controls write into the recipe, parsed by the recipe schema as core parses a
// saved one: the enlargement, the videos' channel and background, and the byte limit.

const named = (name: string) => BUILT_IN_RECIPES.find((recipe) => recipe.name === name)!;
const saved = (draft: ReturnType<typeof draftOf>, base: Parameters<typeof recipeOf>[2] = null) =>
  parseRecipe(recipeOf(draft, 'mine', base));

describe('the recipe editor’s draft', () => {
  it('enlarges only when "Enlarge results smaller than this size" is ticked, and reads it back', () => {
    const draft = { ...draftOf(null), name: 'Print' };
    expect(draft.allowUpscale).toBe(false);
    expect(saved(draft).allowUpscale).toBe(false);
    const enlarging = saved({ ...draft, allowUpscale: true });
    expect(enlarging.allowUpscale).toBe(true);
    expect(draftOf(enlarging).allowUpscale).toBe(true);
    expect(saved({ ...draftOf(enlarging), allowUpscale: false }, enlarging).allowUpscale).toBe(false);
  });

  it('leaves videos out, copies them, or makes them for a channel with the background chosen', () => {
    const draft = { ...draftOf(null), name: 'Reels' };
    expect(draft.videos).toBe('none');
    expect(saved(draft)).toMatchObject({ kinds: ['shot', 'source'] });
    expect(saved(draft).video).toBeUndefined();

    const copied = saved({ ...draft, videos: 'copy' });
    expect(copied.kinds).toEqual(['shot', 'source', 'video']);
    expect(copied.video).toBeUndefined();
    expect(draftOf(copied).videos).toBe('copy');

    const made = saved({
      ...draft,
      videos: 'instagram-reels',
      videoBackground: 'pad',
      videoPadColour: '#FF0000',
    });
    expect(made.kinds).toEqual(['shot', 'source', 'video']);
    expect(made.video).toEqual({ channel: 'instagram-reels', background: 'pad', padColour: '#ff0000' });
    expect(draftOf(made)).toMatchObject({ videos: 'instagram-reels', videoBackground: 'pad' });

    // Back to "copied as they are": the channel goes, the videos stay.
    const back = saved({ ...draftOf(made), videos: 'copy' }, made);
    expect(back.video).toBeUndefined();
    expect(back.kinds).toEqual(['shot', 'source', 'video']);
  });

  it('reads a built-in’s channel and keeps its other kinds when its videos are edited', () => {
    const story = named('Story and Reels');
    expect(draftOf(story)).toMatchObject({ videos: 'instagram-reels', videoBackground: 'blur' });
    const forAmazon = saved({ ...draftOf(story), videos: 'amazon' }, story);
    expect(forAmazon.kinds).toEqual(['shot', 'video']);
    expect(forAmazon.video).toEqual({ channel: 'amazon', background: 'blur', padColour: '#000000' });
    expect(saved({ ...draftOf(story), videos: 'none' }, story).kinds).toEqual(['shot']);
  });

  it('writes "Refuse files above (MB)" as the recipe’s byte limit and "Warn below" as its recommended size', () => {
    const draft = { ...draftOf(null), name: 'Small', maxMegabytes: '2.5', recommendedLongEdge: '1600' };
    const recipe = saved(draft);
    expect(recipe.preflight.maxBytes).toBe(2.5 * 1024 * 1024);
    expect(recipe.preflight.recommendedLongEdge).toBe(1600);
    expect(draftOf(recipe)).toMatchObject({ maxMegabytes: '2.5', recommendedLongEdge: '1600' });
    const none = saved({ ...draft, maxMegabytes: '', recommendedLongEdge: '' }, recipe).preflight;
    expect(none.maxBytes).toBeUndefined();
    expect(none.recommendedLongEdge).toBeUndefined();
  });
});
