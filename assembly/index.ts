export * from './abi';
