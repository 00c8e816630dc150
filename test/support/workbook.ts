import { ZipFile } from 'yazl';

/**
 * The bytes of a workbook as Excel saves it: a zip whose first entry is `[Content_Types].xml`, with a sheet
 * holding a product sheet's cells. What a designer gives where a CSV is asked for.
 */
export async function workbookBytes(): Promise<Buffer> {
  const zip = new ZipFile();
  zip.addBuffer(Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Types></Types>'), '[Content_Types].xml');
  zip.addBuffer(
    Buffer.from(
      '<worksheet><sheetData><row><c t="inlineStr"><is><t>Name</t></is></c></row></sheetData></worksheet>',
    ),
    'xl/worksheets/sheet1.xml',
  );
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
