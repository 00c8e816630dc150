/** Sizes and rectangles in pixels, shared by the renderers. */
export interface Frame {
  width: number;
  height: number;
}

export interface Box extends Frame {
  left: number;
  top: number;
}
