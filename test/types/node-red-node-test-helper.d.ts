declare module 'node-red-node-test-helper';
