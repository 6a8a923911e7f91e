/** What an n8n CLI command and an execution give back, and how to read a node's output from it. */
export interface CliResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	settings?: Record<string, unknown>;
	active?: boolean;
	[key: string]: unknown;
}

/** One node's run inside an execution, as n8n stores it. */
export interface NodeRun {
	startTime: number;
	/** n8n's own time of the node's run (ms). */
	executionTime?: number;
	executionStatus?: string;
	error?: { message: string; description?: string; httpCode?: string; [key: string]: unknown };
	data?: { main: Array<Array<{ json: Record<string, unknown>; pairedItem?: unknown }> | null> };
	source?: unknown;
	/** The notices above the node's output (n8n's execution hints). */
	hints?: Array<{ message: string; type?: string }>;
}

export interface ExecutionResult {
	status: string;
	finished?: boolean;
	mode?: string;
	data: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			lastNodeExecuted?: string;
			error?: { message: string; node?: { name: string }; [key: string]: unknown };
		};
	};
	[key: string]: unknown;
}

/**
 * The JSON `n8n execute --rawOutput` prints after its log lines: it starts at the first line that
 * is exactly `{` and ends at the last line that is exactly `}`.
 */
export function extractExecutionJson(stdout: string): ExecutionResult {
	const lines = stdout.split(/\r?\n/);
	const start = lines.findIndex((line) => line === '{');
	let end = -1;
	for (let i = lines.length - 1; i >= 0; i--) {
		if (lines[i] === '}') {
			end = i;
			break;
		}
	}
	if (start < 0 || end < start) {
		throw new Error(`No execution JSON in n8n's output:\n${stdout.slice(-4000)}`);
	}
	const text = lines.slice(start, end + 1).join('\n');
	try {
		return JSON.parse(text) as ExecutionResult;
	} catch (error) {
		throw new Error(`n8n's execution JSON does not parse (${(error as Error).message}):\n${text.slice(0, 4000)}`);
	}
}

/** The first output's items of a node's first run, as JSON objects. */
export function nodeOutput(result: ExecutionResult, nodeName: string, runIndex = 0, outputIndex = 0) {
	const runs = result.data.resultData.runData[nodeName];
	if (!runs) {
		throw new Error(
			`Node "${nodeName}" did not run; ran: ${Object.keys(result.data.resultData.runData).join(', ')}`,
		);
	}
	const run = runs[runIndex];
	if (!run) throw new Error(`Node "${nodeName}" has no run ${runIndex}`);
	if (run.error) throw new Error(`Node "${nodeName}" failed: ${run.error.message} ${run.error.description ?? ''}`);
	return (run.data?.main[outputIndex] ?? []).map((item) => item.json);
}

/** Items with their pairedItem, for paired-item assertions. */
export function nodeItems(result: ExecutionResult, nodeName: string, runIndex = 0, outputIndex = 0) {
	const run = result.data.resultData.runData[nodeName]?.[runIndex];
	if (!run) throw new Error(`Node "${nodeName}" did not run`);
	return run.data?.main[outputIndex] ?? [];
}
