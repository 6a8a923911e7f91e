/** The bench's workflows: measured nodes in branches, run one after another by one `n8n execute`. */
import type { RecordedRequest } from '../tooling/sandbox';
import type { E2E, OutputItem, WorkflowJson, WorkflowNode } from './e2e';
import type { Endpoint } from './sandboxes';

export interface Measured {
	/** Figure key, e.g. get.slow.default. */
	key: string;
	node: WorkflowNode;
	endpoint: Endpoint;
	items: number;
	/** This node's requests among the sandbox's (each node reads its own transaction or sandbox). */
	match: (request: RecordedRequest) => boolean;
	/** Extra checks of the output and the requests; throws when they fail. */
	check?: (items: OutputItem[], requests: RecordedRequest[]) => void;
}

export interface Branch {
	/** Makes the branch's input items (not measured). */
	source: WorkflowNode;
	/**
	 * Unmeasured nodes that run first, on the source's first 20 items (a Limit node): the code
	 * paths are warm when the measured nodes run, as the raw clients' are (20 untimed requests).
	 */
	warmups: WorkflowNode[];
	measured: Measured[];
}

const WARM_UP_ITEMS = 20;

export interface BenchWorkflow {
	json: WorkflowJson;
	measured: Measured[];
	endpoints: Endpoint[];
}

/**
 * Manual Trigger → each branch's source → a Limit node → its warm-ups, then (from the source) its
 * measured nodes. n8n (execution order v1) runs a node's children top to bottom, each with its own
 * children to the end before the next, so measured nodes never overlap; every run checks that
 * from their start times.
 */
export function benchWorkflow(e2e: E2E, id: string, name: string, branches: Branch[]): BenchWorkflow {
	const trigger = e2e.workflow.manualTrigger();
	trigger.position = [0, 0];
	const nodes: WorkflowNode[] = [trigger];
	const connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }> = {};
	const link = (from: string, to: string) => (connections[from] ??= { main: [[]] }).main[0].push({ node: to, type: 'main', index: 0 });
	let y = 0;
	for (const branch of branches) {
		branch.source.position = [220, y];
		nodes.push(branch.source);
		link(trigger.name, branch.source.name);
		if (branch.warmups.length > 0) {
			const first = e2e.workflow.node(`First ${WARM_UP_ITEMS} of ${branch.source.name}`, 'n8n-nodes-base.limit', 1, { maxItems: WARM_UP_ITEMS });
			first.position = [440, y];
			nodes.push(first);
			link(branch.source.name, first.name);
			for (const warmup of branch.warmups) {
				warmup.position = [660, y];
				y += 120;
				nodes.push(warmup);
				link(first.name, warmup.name);
			}
		}
		for (const measured of branch.measured) {
			measured.node.position = [440, y];
			y += 120;
			nodes.push(measured.node);
			link(branch.source.name, measured.node.name);
		}
		y += 240;
	}
	const names = new Set<string>();
	for (const node of nodes) {
		if (names.has(node.name)) throw new Error(`Duplicate node name ${node.name}`);
		names.add(node.name);
	}
	const measured = branches.flatMap((branch) => branch.measured);
	return {
		json: { id, name, nodes, connections, settings: { executionOrder: 'v1' }, active: false },
		measured,
		endpoints: [...new Set(measured.map((m) => m.endpoint))],
	};
}
