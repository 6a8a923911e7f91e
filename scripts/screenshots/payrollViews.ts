/**
 * The payroll example's pictures for the README's quick start: the approval form as the approver
 * sees it (logged in), and the reconciliation CSV once every payout is final. Both come from one
 * run of the example, started from the editor's Execute workflow (n8n's REST call for it).
 */
import type { ApiExecution } from '../../tooling/n8n/executions';
import { approverLogin } from '../../tooling/demo/examples';
import type { N8n } from '../../tooling/n8n/n8n';
import { csvOf, outputOf, parseCsv, payrollDriver } from '../../tooling/demo/payrollExample';
import { HEIGHT, sleep } from './browser';
import type { Shot } from './views';

export const PAYROLL_WORKFLOW_ID = 'WalletExPayApprv';

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * The CSV as a spreadsheet shows it, one cell per field, its columns in groups of
 * `perGroup` under one another so that the picture stays readable (each group starts with the
 * file's first column, so that every line can be told apart).
 */
function csvPage(fileName: string, csv: string, perGroup = 9): string {
	const [head, ...rows] = parseCsv(csv);
	const line = (cells: string[], tag: string) => `<tr>${cells.map((c) => `<${tag}>${escape(c)}</${tag}>`).join('')}</tr>`;
	const groups: number[][] = [];
	for (let at = 1; at < head.length; at += perGroup - 1) groups.push([0, ...head.slice(at, at + perGroup - 1).map((_, i) => at + i)]);
	const table = (columns: number[]) =>
		`<table>${line(columns.map((c) => head[c]), 'th')}${rows.map((row) => line(columns.map((c) => row[c] ?? ''), 'td')).join('')}</table>`;
	const style =
		'body{font:14px system-ui,sans-serif;margin:16px;background:#fff;display:inline-block}h1{font-size:16px;margin:0 0 10px}' +
		'table{border-collapse:collapse;margin-bottom:14px}td,th{border:1px solid #c8c8c8;padding:4px 8px;white-space:nowrap}th{background:#eef1f4;text-align:left}';
	return `<!doctype html><meta charset="utf-8"><style>${style}</style><div id="csv"><h1>${escape(fileName)}: ${rows.length} lines, ${head.length} columns</h1>${groups.map(table).join('')}</div>`;
}

export function payrollShots(n8n: N8n): Shot[] {
	const driver = payrollDriver(() => n8n, PAYROLL_WORKFLOW_ID);
	/** One run of the example waiting for the approver: started once, shared by both pictures. */
	let waiting: Promise<ApiExecution> | undefined;
	const approveAt = async () => String(outputOf(await (waiting ??= driver.start()), 'Ask for Approval')[0].approveAt);
	return [
		{
			name: 'payroll-approval-form',
			async take(editor, file) {
				const link = new URL(await approveAt());
				await editor.viewport(HEIGHT);
				await editor.sendHeaders({ authorization: approverLogin() });
				try {
					await editor.open(`${link.pathname}${link.search}`);
					await editor.waitFor(`document.body.innerText.includes('Approve payroll 2026-11') && document.body.innerText.includes('Total:')`, 'the approval form');
					await sleep(500);
					await editor.capture(file);
				} finally {
					await editor.sendHeaders({});
				}
			},
		},
		{
			name: 'payroll-reconciliation-csv',
			async take(editor, file) {
				const id = (await (waiting ??= driver.start())).id;
				await driver.answer(await approveAt(), 'Approve');
				// The sandbox settles the payouts a few seconds after they are sent; Pay waits for them.
				const done = await driver.executionWith(id, ['success']);
				const { fileName, text } = await csvOf(n8n, done);
				await editor.viewport(HEIGHT);
				await editor.openUrl(`data:text/html;charset=utf-8,${encodeURIComponent(csvPage(fileName, text))}`);
				await editor.waitFor(`document.querySelectorAll('#csv tr').length >= 4`, 'the CSV as tables');
				const box = await editor.evaluate<{ width: number; height: number }>(
					`(() => { const b = document.querySelector('#csv').getBoundingClientRect(); return { width: Math.ceil(b.right + 16), height: Math.ceil(b.bottom + 16) }; })()`,
				);
				// As wide and tall as the table: one line per payee, every column.
				await editor.viewport(box.height, 1, box.width);
				await editor.capture(file);
			},
		},
	];
}
