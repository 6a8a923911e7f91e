/**
 * The one error type thrown by handlers and controls; the server turns it into
 * `{ status: false, message }` with its HTTP status.
 */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		readonly messages: string | string[],
	) {
		super(Array.isArray(messages) ? messages.join('; ') : messages);
		this.name = 'ApiError';
	}
}

export const badRequest = (messages: string | string[]) => new ApiError(400, messages);

export const notFound = (thing: string) => new ApiError(404, `${thing} not found`);

export const conflict = (message: string) => new ApiError(409, message);

export const referenceUsed = (reference: string) =>
	conflict(`Reference '${reference}' has already been used`);
