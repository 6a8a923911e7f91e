/**
 * ESLint for the code that is not shipped: test/, scripts/, bench/ and tooling/ (each has an
 * eslint.config.mjs that re-exports this). `npm run lint` (scripts/lint.mjs) runs `n8n-node lint`
 * with ESLint's config lookup from the linted file, so these folders use this config while
 * nodes/, credentials/ and package.json get n8n's own config (the root eslint.config.mjs, kept
 * identical to n8n's default: the CLI's strict mode checks that).
 *
 * Scoped overrides, nothing else: n8n's config as it is, minus the rules for code that runs
 * inside n8n (the community-node rules forbid `process`, `fs`, `child_process`, timers and other
 * imports, which a test harness or a benchmark needs, and `no-console`), the node file-name rule
 * (test/nodes/ has a node's path, not a node), and `_`-prefixed names allowed to stay unused (a
 * destructured value a test leaves out on purpose).
 *
 * Plain JavaScript (.js, .cjs, .mjs: the installer, the jest configs, the bench's helpers) gets
 * ESLint's recommended rules with Node's globals: n8n's config checks nothing in them, and a
 * name used but never imported (the installer's `wanted`, issue #53) failed only at run time.
 */
import js from '@eslint/js';
import globals from 'globals';
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

const communityRulesOff = Object.fromEntries(
	Object.keys(n8nCommunityNodesPlugin.rules).map((rule) => [`@n8n/community-nodes/${rule}`, 'off']),
);

const jsRules = {
	...js.configs.recommended.rules,
	'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
};

export default [
	...n8nConfig,
	{
		files: ['**/*.js', '**/*.cjs'],
		languageOptions: { sourceType: 'commonjs', ecmaVersion: 'latest', globals: { ...globals.node } },
		rules: jsRules,
	},
	{
		files: ['**/*.mjs'],
		languageOptions: { sourceType: 'module', ecmaVersion: 'latest', globals: { ...globals.node } },
		rules: jsRules,
	},
	{
		files: ['**/*.ts'],
		rules: {
			...communityRulesOff,
			'no-console': 'off',
			// test/nodes/ mirrors nodes/: its files are tests of a node, not nodes, whatever their path.
			'n8n-nodes-base/node-filename-against-convention': 'off',
			'@typescript-eslint/no-unused-vars': [
				'error',
				{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
			],
		},
	},
];
