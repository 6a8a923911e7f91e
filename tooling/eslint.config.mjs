// tooling/ is not shipped code: see scripts/eslint-tooling.mjs.
export { default } from '../scripts/eslint-tooling.mjs';
