/**
 * Driving the payroll example (examples/payroll-with-approval.json) as its user does: Execute
 * workflow in the editor, the run waiting on the approver's form, the approver's answer, and the
 * nodes' outputs read from the finished execution.
 */
import { executionWhen, type ApiExecution } from '../n8n/executions';
import { approverLogin } from './examples';
import type { N8n } from '../n8n/n8n';

/** The name the approver types on the form (the CSV's approvedBy). */
export const APPROVER_NAME = 'Amina Wekesa';

/** A node's output items (main output 0) in one of its runs. */
export const outputOf = (execution: ApiExecution, node: string, runIndex = 0) =>
	(execution.data?.resultData.runData[node]?.[runIndex]?.data?.main[0] ?? []).map((item) => item.json);

export function payrollDriver(n8n: () => N8n, workflowId: string) {
	/** The execution once it has one of `statuses` (and its data); an error or crash fails. */
	const executionWith = async (id: string, statuses: string[]): Promise<ApiExecution> =>
		await executionWhen(n8n(), id, { statuses, timeoutMs: 90000, everyMs: 300, failOnOtherEnd: true });

	return {
		executionWith,
		/** "Execute workflow" in the editor, then the run once it waits for the approver. */
		async start(): Promise<ApiExecution> {
			const started = await n8n().runManually(workflowId, { triggerToStartFrom: { name: 'When clicking ‘Execute workflow’' } });
			const id = started.body.data?.executionId;
			if (!id) throw new Error(`POST /rest/workflows/${workflowId}/run → ${started.status}: ${JSON.stringify(started.body)}`);
			return await executionWith(id, ['waiting']);
		},
		/**
		 * The approver's answer on the form n8n serves at the approval link (field 0: Decision, field
		 * 1: the approver's name), logged in as the approver (the Wait node's Basic Auth), or as
		 * `login` says; its status.
		 */
		async answer(approveAt: string, decision: 'Approve' | 'Reject', login: string | null = approverLogin()): Promise<number> {
			const form = new FormData();
			form.append('field-0', decision);
			form.append('field-1', APPROVER_NAME);
			const response = await fetch(approveAt, { method: 'POST', body: form, headers: login ? { authorization: login } : {} });
			if (login === approverLogin() && response.status !== 200) throw new Error(`${decision} at ${approveAt} → ${response.status}`);
			return response.status;
		},
		/** The approval page as the approver sees it. */
		async page(approveAt: string): Promise<string> {
			return await (await fetch(approveAt, { headers: { authorization: approverLogin() } })).text();
		},
	};
}

/** A CSV as rows of cells (quoted cells may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
	const rows: string[][] = [[]];
	let cell = '';
	let quoted = false;
	for (let at = 0; at < text.length; at++) {
		const char = text[at];
		if (quoted) {
			if (char === '"' && text[at + 1] === '"') cell += text[++at];
			else if (char === '"') quoted = false;
			else cell += char;
		} else if (char === '"') quoted = true;
		else if (char === ',' || char === '\n') {
			rows.at(-1)!.push(cell.replace(/\r$/, ''));
			cell = '';
			if (char === '\n') rows.push([]);
		} else cell += char;
	}
	if (cell !== '' || rows.at(-1)!.length > 0) rows.at(-1)!.push(cell);
	return rows.filter((row) => row.length > 1 || row[0] !== '');
}


/** The CSV file Reconciliation CSV made in a finished run: its name and text. */
export async function csvOf(n8n: N8n, done: ApiExecution): Promise<{ fileName: string; text: string }> {
	const item = done.data?.resultData.runData['Reconciliation CSV']?.[0]?.data?.main[0]?.[0] as
		| { binary?: { data?: { fileName?: string; data?: string; id?: string } } }
		| undefined;
	const file = item?.binary?.data;
	if (!file) throw new Error('Reconciliation CSV made no file');
	const fileName = file.fileName ?? 'payroll.csv';
	// Kept in the execution (n8n's default binary mode), or in n8n's binary data store.
	if (file.data && !file.id) return { fileName, text: Buffer.from(file.data, 'base64').toString('utf8') };
	const response = await n8n.rest<string>('GET', `/binary-data?id=${encodeURIComponent(String(file.id))}&action=download`);
	if (response.status !== 200) throw new Error(`GET /rest/binary-data → ${response.status}`);
	return { fileName, text: typeof response.body === 'string' ? response.body : JSON.stringify(response.body) };
}

