/**
 * `npm run test:unit:compat`: the unit and integration suite (unit.config.js, unchanged) with
 * n8n-workflow and n8n-core resolved to the packages of n8n 1.x instead of the 2.x ones in
 * devDependencies, and with them the @n8n/di and @n8n/backend-common that n8n-core 1.x uses (the
 * tests' setup registers its Logger in n8n-core's Container). scripts/compat-packages.js installs
 * them once into a cache folder outside the repository (N8N_COMPAT_N8N_VERSION,
 * N8N_COMPAT_CACHE); jest's moduleNameMapper points every import of them there, the node's and
 * the tests' alike.
 */
const base = require('./unit.config.js');
const compat = require('../../scripts/compat-packages.js');

/** @returns {Promise<import('jest').Config>} */
module.exports = async () => {
	const install = await compat.ensureInstalled();
	return {
		...base,
		moduleNameMapper: { ...base.moduleNameMapper, ...compat.jestModuleNameMapper(install) },
		// n8n-core 1.x leaves a timer running after a node has run: stopped after each file.
		setupFilesAfterEnv: [...(base.setupFilesAfterEnv ?? []), '<rootDir>/test/compat/n8n-core-shutdown.js'],
	};
};
