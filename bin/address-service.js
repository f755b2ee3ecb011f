#!/usr/bin/env node
// `address-service`: makes the TypeScript sources loadable (tsx), then runs the command line (cli/main.ts).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
await main(process.argv);
