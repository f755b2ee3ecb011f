import { createEngine } from '../host/engine/index.js';
const engine = await createEngine({});
for (const [c, q] of [['ru','академика ко'], ['ru','if[vf'], ['ru','шахма'], ['ru','oth,f'], ['by','ytpfkt;'], ['by', 'незалеж'], ['ru', 'академика вон']] as const) {
  const d = engine.dictionary(c)!;
  console.log(q, '=>', engine.suggest(c, q, 5).map((r) => `${Object.values(r.levels).filter((x) => x >= 0).map((x) => d.object(x).fullName).join(', ')}`).join(' | '));
}
