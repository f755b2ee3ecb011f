/**
 * Reading a zip entry by entry without extracting it: yauzl reads the central directory (zip64 included,
 * so the 50 GB national GAR archive works) and opens any entry as a stream, in the order the caller wants.
 */
import yauzl from 'yauzl';
import type { Readable } from 'node:stream';

export interface ZipArchive {
  entries: yauzl.Entry[];
  open(entry: yauzl.Entry): Promise<Readable>;
  close(): void;
}

export async function openZip(path: string): Promise<ZipArchive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, file) =>
      error ? reject(new Error(`${path}: not a readable zip: ${error.message}`, { cause: error })) : resolve(file!),
    ),
  );
  const entries: yauzl.Entry[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', (error: Error) => reject(new Error(`${path}: bad zip directory after ${entries.length} entries: ${error.message}`, { cause: error })));
    zip.readEntry();
  });
  return {
    entries,
    open: (entry) =>
      new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (error, stream) =>
          error ? reject(new Error(`${path}: cannot open ${entry.fileName}: ${error.message}`, { cause: error })) : resolve(stream!),
        ),
      ),
    close: () => zip.close(),
  };
}
