/**
 * Minimal SVG building blocks for backdrops and presets. Shapes only: text would need fonts.
 * Translucency goes through fill-opacity / stroke-opacity, never `opacity`: librsvg paints every
 * `opacity` element into a full-canvas layer of its own, about 0.2 s per shape at 4K.
 */

export interface Stop {
  offset: number;
  colour: string;
  opacity?: number;
}

/** Rounds to one decimal: keeps the markup short without visible loss. */
export function num(value: number): string {
  return String(Math.round(value * 10) / 10);
}

function stopsMarkup(stops: readonly Stop[]): string {
  return stops
    .map(
      (s) =>
        `<stop offset="${num(s.offset * 100)}%" stop-color="${s.colour}"` +
        (s.opacity === undefined ? '' : ` stop-opacity="${Math.round(s.opacity * 1000) / 1000}"`) +
        '/>',
    )
    .join('');
}

/** Collects gradient definitions and hands back `url(#id)` references to use as fills. */
export class Defs {
  private readonly items: string[] = [];

  /** Coordinates are fractions of the filled shape's bounding box. */
  linear(stops: readonly Stop[], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
    const id = `g${this.items.length}`;
    this.items.push(
      `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stopsMarkup(stops)}</linearGradient>`,
    );
    return `url(#${id})`;
  }

  /** A radial gradient over the filled shape's bounding box (elliptical on non-square shapes). */
  radial(stops: readonly Stop[], cx = 0.5, cy = 0.5, r = 0.5): string {
    const id = `g${this.items.length}`;
    this.items.push(
      `<radialGradient id="${id}" cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}">${stopsMarkup(stops)}</radialGradient>`,
    );
    return `url(#${id})`;
  }

  /** A colour fading to transparent from the centre: soft light, shadows and bokeh without blur filters. */
  glow(colour: string, opacity: number): string {
    return this.radial([
      { offset: 0, colour, opacity },
      { offset: 0.4, colour, opacity: opacity * 0.6 },
      { offset: 1, colour, opacity: 0 },
    ]);
  }

  toString(): string {
    return `<defs>${this.items.join('')}</defs>`;
  }
}

export function svgDocument(width: number, height: number, defs: Defs, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${defs}${body}</svg>`;
}

export function rect(x: number, y: number, width: number, height: number, fill: string, extra = ''): string {
  return `<rect x="${num(x)}" y="${num(y)}" width="${num(width)}" height="${num(height)}" fill="${fill}"${extra}/>`;
}

export function circle(cx: number, cy: number, r: number, fill: string, extra = ''): string {
  return `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}" fill="${fill}"${extra}/>`;
}

export function ellipse(cx: number, cy: number, rx: number, ry: number, fill: string, extra = ''): string {
  return `<ellipse cx="${num(cx)}" cy="${num(cy)}" rx="${num(rx)}" ry="${num(ry)}" fill="${fill}"${extra}/>`;
}

export function polygon(points: readonly (readonly [number, number])[], fill: string, extra = ''): string {
  const list = points.map(([x, y]) => `${num(x)},${num(y)}`).join(' ');
  return `<polygon points="${list}" fill="${fill}"${extra}/>`;
}
