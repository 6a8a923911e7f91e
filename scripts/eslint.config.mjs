// scripts/ is tooling, not shipped code: see scripts/eslint-tooling.mjs.
export { default } from './eslint-tooling.mjs';
