/**
 * A file written by another thread: `BackgroundWriter.write` copies the bytes into one of a few shared buffers
 * and goes on, a worker thread writes the full ones to the file in turn. The blob writer (blob-writer.ts) builds
 * its sections and streams them synchronously; with `writeSync` in its own thread the copy into the page cache
 * (≈ 4–5 s of a 500 MB blob at 10 M houses) took that thread's time, now the worker's, beside the sections built.
 *
 * The buffers are SharedArrayBuffers; per buffer an Int32 says what it holds (0: free, n > 0: n bytes to write,
 * −1: the end of the file). The writing thread waits (`Atomics.wait`) only when the buffer it would fill next is
 * still being written, so at most SLOTS × SLOT_BYTES are held. The worker is a plain script (no module loader to
 * start); a failed write is reported, with its cause, at the next `write` or at `close`, and the file is left for the
 * caller to remove. The cause comes on a port of its own, read at once (`receiveMessageOnPort`): the writing thread
 * may be blocked in `Atomics.wait` when it fails, and learns of it there, not from the event loop.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

const SLOTS = 4;
const SLOT_BYTES = 8 * 2 ** 20;
const FREE = 0;
const END = -1;
/** how often a write waiting for a buffer checks that the writer thread still runs, ms */
const STOPPED_CHECK_MS = 1000;

/** the worker: writes each slot in turn until the end; `state[SLOTS]` is 1 once a write failed */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const { openSync, writeSync, closeSync } = require('node:fs');
const { path, buffers, stateBuffer, causes } = workerData;
const state = new Int32Array(stateBuffer);
const slots = buffers.map((buffer) => new Uint8Array(buffer));
let fd = -1;
try {
  fd = openSync(path, 'w');
  for (let slot = 0; ; slot = (slot + 1) % slots.length) {
    Atomics.wait(state, slot, ${FREE});
    const length = Atomics.load(state, slot);
    if (length === ${END}) break;
    for (let at = 0; at < length; ) at += writeSync(fd, slots[slot], at, length - at);
    Atomics.store(state, slot, ${FREE});
    Atomics.notify(state, slot);
  }
  closeSync(fd);
  parentPort.postMessage({ done: true });
} catch (error) {
  if (fd >= 0) try { closeSync(fd); } catch {}
  const cause = String(error && error.message || error);
  causes.postMessage(cause);
  Atomics.store(state, ${SLOTS}, 1);
  for (let slot = 0; slot < slots.length; slot++) { Atomics.store(state, slot, ${FREE}); Atomics.notify(state, slot); }
  parentPort.postMessage({ error: cause });
}
`;

export class BackgroundWriter {
  private readonly slots: Uint8Array[];
  private readonly state: Int32Array;
  private readonly worker: Worker;
  private readonly finished: Promise<void>;
  /** where the worker puts the cause of a failed write */
  private readonly causes: MessagePort;
  private cause: string | undefined;
  private slot = 0;
  private used = 0;
  /** bytes written through `write` */
  bytes = 0;

  constructor(readonly path: string) {
    const buffers = Array.from({ length: SLOTS }, () => new SharedArrayBuffer(SLOT_BYTES));
    this.slots = buffers.map((buffer) => new Uint8Array(buffer));
    const stateBuffer = new SharedArrayBuffer(4 * (SLOTS + 1));
    this.state = new Int32Array(stateBuffer);
    const { port1, port2 } = new MessageChannel();
    this.causes = port1;
    this.worker = new Worker(WORKER, { eval: true, workerData: { path, buffers, stateBuffer, causes: port2 }, transferList: [port2] });
    this.finished = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: { done?: true; error?: string }) => (message.error ? reject(new Error(`${path}: ${message.error}`)) : resolve()));
      this.worker.on('error', reject);
      this.worker.on('exit', (code) => reject(new Error(`${path}: the writer thread stopped (exit ${code})`)));
    });
    this.finished.catch(() => {});
  }

  /** copies `bytes` into the buffers (they may be reused by the caller at once) */
  write(bytes: Uint8Array): void {
    this.bytes += bytes.byteLength;
    for (let at = 0; at < bytes.byteLength; ) {
      const n = Math.min(bytes.byteLength - at, SLOT_BYTES - this.used);
      this.slots[this.slot].set(bytes.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (this.used === SLOT_BYTES) this.submit(SLOT_BYTES);
    }
  }

  /** writes what is left and waits for the file to be closed; throws when a write failed */
  async close(): Promise<void> {
    if (this.used > 0) this.submit(this.used);
    this.submit(END);
    await this.finished;
    await this.stop();
  }

  /** stops the writer thread (after a failure of the caller's; the file is left as it is) */
  async abort(): Promise<void> {
    await this.stop();
  }

  private async stop(): Promise<void> {
    this.causes.close();
    await this.worker.terminate();
  }

  /** hands the current buffer to the worker and waits for the next one to be free */
  private submit(length: number): void {
    this.failed();
    Atomics.store(this.state, this.slot, length);
    Atomics.notify(this.state, this.slot);
    this.slot = (this.slot + 1) % SLOTS;
    this.used = 0;
    if (length === END) return;
    for (let held = Atomics.load(this.state, this.slot); held !== FREE; held = Atomics.load(this.state, this.slot)) {
      // a thread stopped without its catch (terminated, out of memory) never frees the buffer: looked for now and then
      if (Atomics.wait(this.state, this.slot, held, STOPPED_CHECK_MS) === 'timed-out' && this.worker.threadId === -1) {
        this.failed();
        throw new Error(`${this.path}: writing the file failed: the writer thread stopped`);
      }
    }
    this.failed();
  }

  private failed(): void {
    if (Atomics.load(this.state, SLOTS) === 0) return;
    this.cause ??= (receiveMessageOnPort(this.causes)?.message as string | undefined) ?? 'no cause given';
    throw new Error(`${this.path}: writing the file failed: ${this.cause}`);
  }
}
