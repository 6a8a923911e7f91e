/** JSON over HTTP to n8n: its REST and public API, and its webhooks. */
/** A JSON request to n8n (REST or public API); a body that is not JSON is returned as text. */
export async function fetchJson<T>(
	url: string,
	method: string,
	headers: Record<string, string>,
	body?: unknown,
): Promise<{ status: number; body: T }> {
	const response = await fetch(url, {
		method,
		headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	let parsed: unknown = text;
	try {
		parsed = JSON.parse(text);
	} catch {
		// not JSON: keep the text
	}
	return { status: response.status, body: parsed as T };
}

/** POSTs JSON (a string is sent as it is) and gives the answer's status. */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	await response.arrayBuffer();
	return response.status;
}
