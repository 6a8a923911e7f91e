/** The views the pictures show: each opens an editor view, waits until it shows what it should, captures it. */
import type { WorkflowJson } from '../../tooling/n8n/n8n';
import { HEIGHT, sleep } from './browser';
import type { Editor } from './editor';
import { FORM_NODE_ID, FORM_WORKFLOW_ID, SETTLEMENT_WORKFLOW_ID } from './setup';

/** In the page: whether a canvas node is the node named Summary (a leaf with that text and an output, so not a sticky note). */
const SUMMARY_NODE = `(el) => !!el.querySelector('[data-test-id="canvas-node-output-handle"]') && [...el.querySelectorAll('*')].some((c) => c.children.length === 0 && c.textContent.trim() === 'Summary')`;

/** Visible text of the page, for checks that a view shows what its name claims. */
const TEXT = 'document.body.innerText';

export interface Shot {
	name: string;
	take(editor: Editor, file: string): Promise<void>;
}

function nodeId(workflow: WorkflowJson, name: string): string {
	const found = workflow.nodes.find((n) => n.name === name);
	if (!found) throw new Error(`Workflow ${workflow.id} has no node "${name}"`);
	return String(found.id);
}

export function shots(workflows: Map<string, WorkflowJson>, beneficiaryId: string): Shot[] {
	const workflow = (id: string) => {
		const found = workflows.get(id);
		if (!found) throw new Error(`No workflow ${id} to screenshot`);
		return found;
	};
	const canvas = (name: string, id: string, mustShow: string[]): Shot => ({
		name,
		async take(editor, file) {
			await editor.viewport(HEIGHT);
			await editor.open(`/workflow/${id}`);
			const nodes = workflow(id).nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;
			await editor.waitFor(`document.querySelectorAll('[data-test-id="canvas-node"]').length >= ${nodes}`, `the canvas of ${id}`);
			for (const text of mustShow) await editor.waitFor(`${TEXT}.includes(${JSON.stringify(text)})`, `"${text}" on the canvas`);
			// Only the workflow, at twice the resolution, so that the sticky notes can be read.
			await editor.viewport(HEIGHT, 2);
			await sleep(500);
			await editor.capture(file, await editor.canvasBounds());
		},
	});
	const payouts = workflow('WalletExPayout01');
	const report = workflow('WalletExPayRpt01');
	return [
		{
			name: 'node-operation-selector',
			async take(editor, file) {
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${payouts.id}/${nodeId(payouts, 'Initiate Payout')}`);
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-operation"]')`, 'the node panel');
				await editor.click('[data-test-id="parameter-input-operation"]');
				await editor.waitFor(`${TEXT}.includes('Initiate (Legacy)') && ${TEXT}.includes('Finalize (Legacy)')`, 'the operation list');
				await editor.capture(file);
			},
		},
		{
			name: 'node-resource-selector',
			async take(editor, file) {
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${payouts.id}/${nodeId(payouts, 'Initiate Payout')}`);
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-resource"]')`, 'the node panel');
				await editor.click('[data-test-id="parameter-input-resource"]');
				await editor.waitFor(
					['Beneficiary', 'Card', 'Collection', 'Country', 'Customer', 'Swap', 'Transaction'].map((r) => `${TEXT}.includes('${r}')`).join(' && '),
					'the resource list',
				);
				await editor.capture(file);
			},
		},
		{
			name: 'payout-form',
			async take(editor, file) {
				await editor.viewport(1350);
				await editor.open(`/workflow/${FORM_WORKFLOW_ID}/${FORM_NODE_ID}`);
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-destinationType"]')`, 'the node panel');
				// Destination types and the form come from the service (the sandbox) for the country.
				await editor.waitFor(`${TEXT}.includes('Mobile Network') && ${TEXT}.includes('Account Number')`, 'the destination form');
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-destinationType"] input')?.value === 'Mobile Money'`, 'the destination type');
				await editor.scrollToParameter('resource');
				await editor.capture(file);
			},
		},
		{
			name: 'trigger-panel',
			async take(editor, file) {
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${report.id}/${nodeId(report, 'Payout Settled or Failed')}`);
				await editor.waitFor(`document.querySelector('[data-test-id="parameter-input-events"]')`, 'the trigger panel');
				await editor.waitFor(`${TEXT}.includes('Verify Signature') && ${TEXT}.includes('Payout Succeeded')`, 'the trigger fields');
				// Show the Production URL, the one to paste into the provider's dashboard.
				await editor.clickText('Webhook URLs');
				await editor.waitFor(`${TEXT}.includes('Production URL')`, 'the webhook URLs');
				await sleep(800); // the section slides open
				await editor.clickText('Production URL');
				await editor.waitFor(`${TEXT}.includes('/webhook/${report.nodes.find((n) => n.name === 'Payout Settled or Failed')?.webhookId}/webhook')`, 'the production URL');
				await editor.capture(file);
			},
		},
		{
			// The settlement example after Execute workflow: the Summary node's one item.
			name: 'example-payout-run-summary',
			async take(editor, file) {
				const settled = workflow(SETTLEMENT_WORKFLOW_ID);
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${settled.id}`);
				const nodes = settled.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;
				await editor.waitFor(`document.querySelectorAll('[data-test-id="canvas-node"]').length >= ${nodes}`, 'the canvas');
				await editor.click('[data-test-id="execute-workflow-button"]');
				// The sandbox settles each payout a few seconds after it is sent; Summary runs last.
				await editor.waitFor(
					`[...document.querySelectorAll('[data-test-id="canvas-node"]')].some((el) => (${SUMMARY_NODE})(el) && el.querySelector('[data-test-id="canvas-node-status-success"]'))`,
					'the run to reach Summary',
					120000,
				);
				const point = await editor.point(
					`[...document.querySelectorAll('[data-test-id="canvas-node"]')].find(${SUMMARY_NODE})`,
				);
				await editor.doubleClick(point);
				const output = '[data-test-id="output-panel"]';
				await editor.waitFor(`document.querySelector('${output}') && document.querySelector('[data-test-id="panel-drag-button"]')`, 'the Summary node panel');
				// The parameters to the left, so that the output panel has room for the item.
				await editor.drag(await editor.point(`document.querySelector('[data-test-id="panel-drag-button"]')`), { x: 250 });
				await editor.clickTextIn(output, 'JSON');
				await editor.waitFor(
					`document.querySelector('${output}')?.innerText.includes('Mobile money account closed') && document.querySelector('${output}')?.innerText.includes('8,450.50 KES')`,
					'the summary item in the output panel',
				);
				await editor.capture(file);
			},
		},
		canvas('example-payout-automation', 'WalletExPayout01', ['Initiate Payout', 'Create Beneficiary']),
		canvas('example-payout-status-report', 'WalletExPayRpt01', ['Report: Paid', 'Report: Failed']),
		canvas('example-scheduled-collections', 'WalletExCollect1', ['Open Collection', 'Record Collection', 'Reminder Due?']),
		canvas('example-card-freeze-rule', 'WalletExCardRule', ['Freeze Card', 'No Action']),
		canvas('example-agent-payouts-with-review', 'WalletExAgentRev', ['Payments Agent', 'Review payout', 'Pay out']),
		{
			// What a reviewer sees: the editor's own chat panel (no CDN) on the agent example, the
			// demo's rule-based model proposing a payout, and the review step's message with its buttons.
			name: 'agent-review-in-chat',
			async take(editor, file) {
				const agent = workflow('WalletExAgentRev');
				await editor.viewport(HEIGHT);
				await editor.open(`/workflow/${agent.id}`);
				const nodes = agent.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').length;
				await editor.waitFor(`document.querySelectorAll('[data-test-id="canvas-node"]').length >= ${nodes}`, 'the canvas');
				await editor.clickText('Open chat');
				const input = 'document.querySelector(\'[data-test-id="canvas-chat"] textarea, [data-test-id="chat-input"] textarea, textarea[placeholder]\')';
				await editor.waitFor(input, 'the chat panel');
				await editor.type(input, `pay ${beneficiaryId} 50 USD`);
				// The chat panel: the input's nearest ancestor that shows the session (the sticky note on
				// the canvas also says Approve / Deny).
				const chat = `(() => { let el = ${input}; while (el && !el.innerText.includes('Session')) el = el.parentElement; return el; })()`;
				await editor.waitFor(
					`[...${chat}.querySelectorAll('button')].some((b) => b.innerText.includes('Approve')) && ${chat}.innerText.includes('Deny')`,
					'the review message with its buttons in the chat panel',
					90000,
				);
				// A taller and wider chat: the panel's resize handles dragged (row- and col-resize cursors;
				// the canvas's sticky note has ns- and ew-resize ones).
				const handle = (cursor: string) => `[...document.querySelectorAll('body *')].find((el) => {
					const b = el.getBoundingClientRect();
					return b.width > 0 && b.height > 0 && /^(${cursor})-resize$/.test(getComputedStyle(el).cursor);
				})`;
				const top = await editor.point(handle('row'));
				await editor.drag(top, { x: top.x, y: 200 });
				await sleep(500);
				const side = await editor.point(handle('col'));
				await editor.drag(side, { x: 880 });
				await sleep(500);
				// The review message (the last one) in view.
				await editor.evaluate(`(() => { [...${chat}.querySelectorAll('*')].forEach((el) => { if (el.scrollHeight > el.clientHeight + 4) el.scrollTop = el.scrollHeight; }); return true; })()`);
				// Only the chat panel: from its top handle down, from the sidebar to its right handle.
				const rowHandle = await editor.point(handle('row'));
				const colHandle = await editor.point(handle('col'));
				const sidebar = (await editor.point(handle('e'))).x + 2;
				const panel = { x: Math.ceil(sidebar), y: Math.ceil(rowHandle.y + 2), width: Math.floor(colHandle.x - 2 - sidebar), height: Math.floor(HEIGHT - rowHandle.y - 2) };
				await editor.capture(file, panel);
			},
		},
	];
}
