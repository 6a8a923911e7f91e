/**
 * The payroll example fed as a user's sheet feeds it: its Payees and Payroll Rows nodes replaced
 * by one node of another kind that outputs the same columns, one item per row (an HTTP Request
 * node reading the rows from a server the test runs, standing in for a sheet that can change),
 * and nothing else changed. Shared by the no-code payroll and the real-sheet e2e files.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import type { WorkflowJson } from '../../../tooling/n8n/n8n';

export const SOURCE = 'Payroll Sheet';

/** A sheet's row, with the example's columns; `amount` as a sheet or a CSV export gives it. */
export interface Row {
	employeeId: string;
	name: string;
	email: string;
	amount: number | string;
	wallet: string;
	payTo: string;
	country: string;
	currency: string;
	network?: string;
	accountNumber: string;
	bankCode?: string;
	beneficiaryId?: string;
	note: string;
	period: string;
}

/** A Kenyan M-Pesa row, paid from the KES wallet. */
export const row = (n: number, amount: number, period: string): Row => ({
	employeeId: `E${n}`,
	name: `Payee ${n}`,
	email: `payee${n}@example.com`,
	amount,
	wallet: 'KES',
	payTo: 'Mobile Money',
	country: 'KE',
	currency: 'KES',
	network: 'MPESA',
	accountNumber: `25471234600${n}`,
	note: `Salary ${period}`,
	period,
});

/**
 * The example with Payees and Payroll Rows replaced by one HTTP Request node at `url` that gives
 * one item per row, as a Google Sheets node does: the connections moved, nothing else touched.
 */
export function withSource(workflow: WorkflowJson, url: string, id: string, name: string): WorkflowJson {
	const payees = workflow.nodes.find((n) => n.name === 'Payees')!;
	const source = { ...payees, name: SOURCE, type: 'n8n-nodes-base.httpRequest', typeVersion: 4.2, parameters: { url, options: {} } };
	const replaced = new Set(['Payees', 'Payroll Rows']);
	const rename = (node: string) => (replaced.has(node) ? SOURCE : node);
	const connections = Object.fromEntries(
		Object.entries(workflow.connections)
			.filter(([from]) => from !== 'Payees')
			.map(([from, outputs]) => [
				rename(from),
				{ main: (outputs as { main: Array<Array<{ node: string }>> }).main.map((targets) => targets.map((t) => ({ ...t, node: rename(t.node) }))) },
			]),
	);
	const nodes = workflow.nodes.filter((n) => n.name !== 'Payroll Rows').map((n) => (n === payees ? source : n));
	return { ...workflow, id, name, nodes, connections };
}

/** The sheet: a server that answers with the rows last set. */
export async function serveRows(): Promise<{ url: string; set(rows: Row[]): void; close(): Promise<void> }> {
	let rows: Row[] = [];
	const server = http.createServer((_request, response) => {
		response.setHeader('content-type', 'application/json');
		response.end(JSON.stringify(rows));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/payees`,
		set: (next) => (rows = next),
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
