/**
 * Keeps the shape of node's tick objects alive, so that `process.nextTick` stays fast for the life of the process.
 *
 * `process.nextTick` (node:internal/process/task_queues) queues `{[async_id_symbol]: id, [trigger_async_id_symbol]:
 * id, callback, args}`. V8 defines the members of a literal with computed keys one at a time, and each definition's
 * feedback remembers the hidden class (map) the object had before it, weakly. Those in-between maps are held by nothing
 * but the tick objects in the queue, which is empty between turns: a full collection that comes while it is empty frees
 * them, the next tick object gets new ones, and the definitions' feedback turns megamorphic. It never returns from
 * there, and every `nextTick` from then on defines its members in V8's runtime: ≈360 ns a call, ≈130 with the shape
 * held (docs/DECISIONS.md, "API and HTTP"). A request on node's HTTP stack takes about six ticks (stream reads, ends, writes,
 * destroys), and the service's start-up does full collections (the dictionaries); the bench's bare floor does not.
 *
 * One object of the same shape, held here for good, holds the whole chain of maps (a map holds the one it came from),
 * so the feedback's maps never die. It takes the two symbols from an `AsyncResource`, which carries the same ones. On a
 * node whose tick object has another shape this holds one small object and changes nothing.
 */
import { AsyncResource } from 'node:async_hooks';

function tickObjectShape(): object | null {
  const symbols = Object.getOwnPropertySymbols(new AsyncResource('TickShape', { requireManualDestroy: true }));
  const asyncId = symbols.find((symbol) => symbol.description === 'async_id_symbol');
  const triggerAsyncId = symbols.find((symbol) => symbol.description === 'trigger_async_id_symbol');
  if (asyncId === undefined || triggerAsyncId === undefined) return null;
  // the members, their order and the kinds of their values as task_queues' literal has them
  return { [asyncId]: 1, [triggerAsyncId]: 1, callback: tickObjectShape, args: undefined };
}

/** Held for the life of the process; read by nothing. */
export const TICK_OBJECT_SHAPE = tickObjectShape();
