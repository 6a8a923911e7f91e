/**
 * What each picture under docs/screenshots/ shows, as a fingerprint: the node descriptions of
 * this package (every field, option and text the editor draws from them) and the example
 * workflow the picture opens. `npm run screenshots` records each picture's fingerprint and its
 * file's hash in docs/screenshots/manifest.json; test/project/screenshots.test.ts fails when the code no
 * longer gives that fingerprint (the picture shows a node or an example that has changed since
 * it was taken) or when a picture is not the one recorded.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

import type { INodeType } from 'n8n-workflow';

import { REPO_ROOT } from '../n8n/install';

/**
 * A node's description from its source. By the file's full name: under ts-node, plain Node
 * resolution would find the codex file `<Node>.node.json` before `<Node>.node.ts`.
 */
function description(file: string, className: string): INodeType['description'] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(path.join(REPO_ROOT, 'nodes', file)) as Record<string, new () => INodeType>;
	return new exported[className]().description;
}

export const MANIFEST_FILE = 'manifest.json';

/** The example each picture opens (none: a workflow made by the screenshots script). */
export const SHOT_EXAMPLES: Record<string, string | null> = {
	'node-operation-selector': 'payout-automation.json',
	'node-resource-selector': 'payout-automation.json',
	'payout-form': null,
	'trigger-panel': 'payout-status-report.json',
	'example-payout-run-summary': 'payout-run-with-settlement.json',
	'example-payout-automation': 'payout-automation.json',
	'example-payout-status-report': 'payout-status-report.json',
	'example-scheduled-collections': 'scheduled-collections.json',
	'example-card-freeze-rule': 'card-freeze-rule.json',
	'example-agent-payouts-with-review': 'agent-payouts-with-review.json',
	'agent-review-in-chat': 'agent-payouts-with-review.json',
	'payroll-approval-form': 'payroll-with-approval.json',
	'payroll-reconciliation-csv': 'payroll-with-approval.json',
};

export interface ManifestEntry {
	/** sha256 of what the picture shows, when it was taken. */
	shows: string;
	/** sha256 of the PNG file. */
	png: string;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The fingerprint of what the picture `name` shows, from the code as it is now. */
export function shows(name: string): string {
	if (!(name in SHOT_EXAMPLES)) throw new Error(`No fingerprint rule for the screenshot "${name}" (add it to SHOT_EXAMPLES)`);
	const example = SHOT_EXAMPLES[name];
	const parts = [
		JSON.stringify(description('WalletPayments/WalletPayments.node.ts', 'WalletPayments')),
		// Without `webhooks`, which the editor does not show: their answer mode depends on the
		// n8n-workflow the trigger is loaded with (startedAnswer.ts), the pictures do not.
		JSON.stringify({ ...description('WalletPaymentsTrigger/WalletPaymentsTrigger.node.ts', 'WalletPaymentsTrigger'), webhooks: undefined }),
		example === null ? '' : fs.readFileSync(path.join(REPO_ROOT, 'examples', example), 'utf8'),
	];
	return sha256(parts.join('\n'));
}

export function pngHash(file: string): string {
	return sha256(fs.readFileSync(file));
}

export function readManifest(dir: string): Record<string, ManifestEntry> {
	const file = path.join(dir, MANIFEST_FILE);
	return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, ManifestEntry>) : {};
}

export function writeManifest(dir: string, manifest: Record<string, ManifestEntry>): void {
	const sorted = Object.fromEntries(Object.keys(manifest).sort().map((key) => [key, manifest[key]]));
	fs.writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify(sorted, null, 2)}\n`);
}
