import type { ReviewLabel } from '../../shared/vocabulary.ts';

// The XMP packet written into every rendered file. sharp writes EXIF only from string tags of its own
// IFDs and has no IPTC writer, but its `withXmp` writes an XMP packet into JPEG, PNG, WebP and AVIF alike,
// so the stars, the colour label, the title and the AI source type all go in XMP, where Lightroom, Bridge
// and Photo Mechanic read them.

/** The IPTC NewsCode for "created by a model trained on sampled content" (IPTC Digital Source Type). */
export const TRAINED_ALGORITHMIC_MEDIA =
  'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

/**
 * `xmp:Label` is free text that Lightroom and Bridge match against the names of their label set: these are
 * the names of their default set (not words for people, which may change: shared/words.ts).
 */
const XMP_LABELS: Record<ReviewLabel, string> = {
  red: 'Red',
  yellow: 'Yellow',
  green: 'Green',
  blue: 'Blue',
};

export interface XmpFields {
  /** 0-5 stars, or -1 for a rejected result (as Adobe's tools read it); null writes no rating. */
  rating: number | null;
  /** The colour label; null writes none. */
  label?: ReviewLabel | null;
  title: string | null;
  aiGenerated: boolean;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** The packet, or null when there is nothing to write. */
export function buildXmp(fields: XmpFields): string | null {
  const attributes: string[] = [];
  const elements: string[] = [];
  if (fields.rating !== null) attributes.push(`xmp:Rating="${fields.rating}"`);
  if (fields.label) attributes.push(`xmp:Label="${XMP_LABELS[fields.label]}"`);
  if (fields.aiGenerated) attributes.push(`Iptc4xmpExt:DigitalSourceType="${TRAINED_ALGORITHMIC_MEDIA}"`);
  if (fields.title) {
    elements.push(
      `<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(fields.title)}</rdf:li></rdf:Alt></dc:title>`,
    );
  }
  if (attributes.length === 0 && elements.length === 0) return null;
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about=""',
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    ' xmlns:dc="http://purl.org/dc/elements/1.1/"',
    ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"',
    ...attributes.map((attribute) => ` ${attribute}`),
    `>${elements.join('')}</rdf:Description>`,
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}
