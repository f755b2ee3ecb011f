// The pool's entry: TypeScript made loadable in this thread, then the worker itself (worker.ts).
import { register } from 'tsx/esm/api';

register();
const { default: run } = await import('./worker.ts');
export default run;
