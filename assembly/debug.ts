/** The debug build's entry: the exports of the core (abi.ts) and the test hooks (testing.ts). */
export * from './abi';
export * from './testing';
