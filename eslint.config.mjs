import communityNodes from '@n8n/eslint-plugin-community-nodes';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

// Two rule sets, both required by n8n for verified community nodes:
// the classic eslint-plugin-n8n-nodes-base sets, and @n8n/eslint-plugin-community-nodes
// (what @n8n/scan-community-package runs).
// The classic rules that contradict the community rules are off, exactly as in n8n's own
// @n8n/node-cli lint config: connection types are the NodeConnectionTypes enum (the community
// rule forbids the 'main' literal the classic rule asks for), credential documentation URLs are
// full URLs (camelCase names apply only inside n8n's own repository), and the community
// credential-password-field rule replaces the classic password check.
const overlapping = {
	credentials: {
		'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
	},
	nodes: {
		'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
		'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
	},
	community: {},
};

const classic = (files, config) => ({
	files,
	languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
	plugins: { 'n8n-nodes-base': n8nNodesBase },
	rules: { ...n8nNodesBase.configs[config].rules, ...overlapping[config] },
});

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'test/**', 'bench/**', 'examples/**', 'docs/**'] },
	classic(['package.json'], 'community'),
	classic(['credentials/**/*.ts'], 'credentials'),
	classic(['nodes/**/*.ts'], 'nodes'),
	{
		...communityNodes.configs.recommended,
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		languageOptions: { parser: tsParser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
];
