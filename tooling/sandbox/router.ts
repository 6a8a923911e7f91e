/**
 * A tiny method + path-pattern router (`/api/v2/customers/:customerId`).
 */
import type { SandboxContext } from './context';
import type { JsonObject } from './validation';

export interface RouteRequest {
	params: Record<string, string>;
	query: Record<string, string>;
	/** The JSON body; `{}` when there is none. */
	body: JsonObject;
}

export interface RouteResult {
	message: string;
	data: unknown;
	/** Runs once the response has been written (e.g. auto-issuing a card). */
	afterResponse?: () => void;
}

export type Handler = (req: RouteRequest, ctx: SandboxContext) => RouteResult;

export interface Route {
	method: 'GET' | 'POST' | 'PUT';
	path: string;
	handler: Handler;
}

export function matchRoute(
	routes: Route[],
	method: string,
	path: string,
): { route: Route; params: Record<string, string> } | undefined {
	const parts = path.split('/');
	for (const route of routes) {
		if (route.method !== method) continue;
		const pattern = route.path.split('/');
		if (pattern.length !== parts.length) continue;
		const params: Record<string, string> = {};
		const matched = pattern.every((segment, i) => {
			if (segment.startsWith(':')) {
				if (!parts[i]) return false;
				params[segment.slice(1)] = safeDecode(parts[i]);
				return true;
			}
			return segment === parts[i];
		});
		if (matched) return { route, params };
	}
	return undefined;
}

function safeDecode(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}
