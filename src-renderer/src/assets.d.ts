// Images imported by the renderer's modules: Vite hands back their URL (hashed, under the build's assets).
declare module '*.webp' {
  const url: string;
  export default url;
}
