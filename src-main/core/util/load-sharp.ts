import type Sharp from 'sharp';

/**
 * sharp, imported where an image is first decoded rather than when core is: loading it (libvips) takes about
 * 100 ms, which a command that never touches an image (`adbatch status`) should not pay at every start.
 * Node caches the module, so every call after the first is cheap.
 */
export async function loadSharp(): Promise<typeof Sharp> {
  return (await import('sharp')).default;
}
