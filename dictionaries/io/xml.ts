/**
 * Streaming XML for the readers: a `Readable` of bytes in, one callback per start tag out (name and
 * attributes as a plain object, text children are not needed by any source), memory bounded by one chunk.
 * saxes does the parsing; this adds the file name and position to every error, so a bad or truncated file
 * says where it broke. GAR's flat record files go through the byte scanner of `flat-xml.ts` instead.
 */
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';

export type Attributes = Record<string, string>;

export interface XmlHandlers {
  open(name: string, attributes: Attributes): void;
  close?(name: string): void;
}

/** Parse `stream` (named `file` in errors); resolves with the number of elements seen. */
export async function streamXml(stream: Readable, file: string, handlers: XmlHandlers): Promise<number> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  let elements = 0;
  let depth = 0;
  let failure: Error | undefined;
  parser.on('opentag', (tag) => {
    elements++;
    depth++;
    try {
      handlers.open(tag.name, tag.attributes as Attributes);
    } catch (error) {
      failure ??= new Error(`${file}: line ${parser.line}, element ${elements} <${tag.name}>: ${(error as Error).message}`, { cause: error });
    }
  });
  parser.on('closetag', (tag) => {
    depth--;
    if (handlers.close) handlers.close(tag.name);
  });
  parser.on('error', (error) => {
    failure ??= new Error(`${file}: malformed XML after element ${elements} (line ${parser.line}, column ${parser.column}): ${error.message}`);
  });
  const decoder = new StringDecoder('utf8');
  let first = true;
  try {
    for await (const chunk of stream) {
      let text = decoder.write(chunk as Buffer);
      if (first) {
        text = text.replace(/^\uFEFF/, '');
        first = false;
      }
      parser.write(text);
      if (failure) throw failure;
    }
    parser.write(decoder.end());
    parser.close();
  } catch (error) {
    if (failure) throw failure;
    throw new Error(`${file}: read failed after element ${elements} (line ${parser.line}): ${(error as Error).message}`, { cause: error });
  }
  if (failure) throw failure;
  if (depth !== 0) throw new Error(`${file}: truncated XML: ${depth} element(s) not closed after element ${elements}`);
  return elements;
}
