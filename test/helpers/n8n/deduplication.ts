/**
 * n8n's de-duplication store for tests that run the node through n8n-core alone. In n8n the
 * store is a database table (one row of recorded values per workflow and node, trimmed to
 * `maxEntries`, oldest first); this keeps the same rows in memory with the same rules, so the
 * node's exactly-once guard runs unchanged. The real store is exercised in the e2e suite.
 */
import { DataDeduplicationService } from 'n8n-core';
import type {
	DeduplicationItemTypes,
	DeduplicationScope,
	ICheckProcessedContextData,
	ICheckProcessedOptions,
	IDataDeduplicator,
	IDeduplicationOutput,
} from 'n8n-workflow';

const rows = new Map<string, string[]>();
const isProbe = (items: DeduplicationItemTypes[]) =>
	items.length > 0 && items.every((item) => String(item).startsWith('n8n-probe:'));

function rowKey(scope: DeduplicationScope, contextData: ICheckProcessedContextData): string {
	if (!contextData.workflow.id) throw new Error('n8n asserts a workflow ID for de-duplication');
	const context = scope === 'node' ? `n:${contextData.node?.id ?? ''}` : '';
	return `${contextData.workflow.id}|${context}`;
}

class InMemoryDeduplicator implements IDataDeduplicator {
	async checkProcessedAndRecord(
		items: DeduplicationItemTypes[],
		scope: DeduplicationScope,
		contextData: ICheckProcessedContextData,
		options: ICheckProcessedOptions,
	): Promise<IDeduplicationOutput> {
		if (options.mode !== 'entries') throw new Error('Only mode "entries" is kept in memory');
		// The capacity probe (once per process and row) is stored like any call but not counted.
		const probe = isProbe(items);
		if (!probe) recorded.push(items.map(String));
		if (callDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, callDelayMs));
		const key = rowKey(scope, contextData);
		const row = rows.get(key) ?? [];
		// As n8n does: the row as read, as a set (a value twice in one call is new twice).
		const before = new Set(row);
		const output: IDeduplicationOutput = { new: [], processed: [] };
		for (const item of items) {
			if (before.has(String(item))) output.processed.push(item);
			else {
				output.new.push(item);
				row.push(String(item));
			}
		}
		if (options.maxEntries) row.splice(0, Math.max(0, row.length - options.maxEntries));
		rows.set(key, row);
		if (probe) return output;
		if (afterCall && ++calls === afterCall.call) {
			const { then } = afterCall;
			afterCall = undefined;
			then();
		}
		everyCall?.();
		return output;
	}

	async removeProcessed(items: DeduplicationItemTypes[], scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		const row = rows.get(rowKey(scope, contextData));
		if (!row) return;
		for (const item of items) {
			const index = row.indexOf(String(item));
			if (index !== -1) row.splice(index, 1);
		}
	}

	async clearAllProcessedItems(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		rows.delete(rowKey(scope, contextData));
	}

	async getProcessedDataCount(scope: DeduplicationScope, contextData: ICheckProcessedContextData) {
		return rows.get(rowKey(scope, contextData))?.length ?? 0;
	}
}

let initialised = false;

/** Installs the in-memory store once per test process (n8n-core allows one). */
export function useInMemoryDeduplication(): void {
	if (initialised) return;
	initialised = true;
	void DataDeduplicationService.init(new InMemoryDeduplicator());
}

/** Forgets every recorded key: each test starts as a fresh n8n would. */
export function clearProcessedData(): void {
	rows.clear();
	afterCall = undefined;
	everyCall = undefined;
	callDelayMs = 0;
	recorded.length = 0;
}

let callDelayMs = 0;
const recorded: string[][] = [];

/** Makes every record call take `ms` longer (a large row, or a busy database). */
export function slowRecordCalls(ms: number): void {
	callDelayMs = ms;
}

/** The values each record call since the last clear carried, in order. */
export function recordCalls(): string[][] {
	return recorded.map((values) => [...values]);
}

/** The recorded values of one node of one workflow (for assertions). */
export function processedValues(workflowId: string, nodeId: string): string[] {
	return [...(rows.get(`${workflowId}|n:${nodeId}`) ?? [])];
}

/** Replaces one node's row, as another process's stale write does. */
export function rewriteRow(workflowId: string, nodeId: string, change: (row: string[]) => string[]): void {
	const key = `${workflowId}|n:${nodeId}`;
	rows.set(key, change([...(rows.get(key) ?? [])]));
}

/** Drops the oldest `count` values of one node's row, as n8n does beyond `maxEntries`. */
export function dropOldest(workflowId: string, nodeId: string, count: number): void {
	rows.get(`${workflowId}|n:${nodeId}`)?.splice(0, count);
}

let afterCall: { call: number; then: () => void } | undefined;
let calls = 0;

/** Runs `then` right after the `call`-th record call from now (once). */
export function afterRecordCall(call: number, then: () => void): void {
	calls = 0;
	afterCall = { call, then };
}

let everyCall: (() => void) | undefined;

/** Runs `then` right after every record call from now (until the next clear); undefined stops it. */
export function afterEveryRecordCall(then: (() => void) | undefined): void {
	everyCall = then;
}

/** One node's row of recorded values, as n8n keeps it (a row per workflow and node). */
export interface StoredRow {
	workflowId: string;
	nodeId: string;
	/** The recorded values, oldest first. */
	values: string[];
}

/** Every row of the store (node-scoped rows only: the scope both nodes use), in the order written. */
export function allRows(): StoredRow[] {
	return [...rows].flatMap(([key, values]) => {
		const match = /^(.*)\|n:(.*)$/s.exec(key);
		return match ? [{ workflowId: match[1], nodeId: match[2], values: [...values] }] : [];
	});
}

/** Puts rows into the store as they are (e.g. what an earlier version wrote), replacing those rows. */
export function loadRows(loaded: StoredRow[]): void {
	for (const row of loaded) rows.set(`${row.workflowId}|n:${row.nodeId}`, [...row.values]);
}
