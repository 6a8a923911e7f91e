import { createHmac, timingSafeEqual } from 'crypto';

export type SignatureAlgorithm = 'sha256' | 'sha512';

export const DEFAULT_SIGNATURE_HEADER = 'x-wallet-signature';

const HEX_LENGTH: Record<SignatureAlgorithm, number> = { sha256: 64, sha512: 128 };

export function signatureAlgorithm(value: unknown): SignatureAlgorithm {
	return value === 'sha256' ? 'sha256' : 'sha512';
}

/** The header to read, lower-cased as Node.js delivers header names; the default when empty. */
export function signatureHeaderName(value: unknown): string {
	const name = typeof value === 'string' ? value.trim().toLowerCase() : '';
	return name.length > 0 ? name : DEFAULT_SIGNATURE_HEADER;
}

export interface SignatureInput {
	/** The header's value as Node.js delivers it. */
	header: string | string[] | undefined;
	headerName: string;
	/** The request's raw bytes (`req.rawBody` in n8n), when available. */
	rawBody: Buffer | string | undefined;
	/** The parsed body (`req.body`), re-serialised for the fallback. */
	parsedBody: unknown;
	secret: string;
	algorithm: SignatureAlgorithm;
}

/**
 * Whether the request is signed. `reason` says why not; it never contains the secret, the
 * received signature or the computed digest, so it is safe to send back to the caller.
 */
export type SignatureCheck =
	| { valid: true; signedOver: 'raw' | 'json' }
	| { valid: false; reason: string };

/**
 * Reads the signature from the header: hex of the HMAC digest, optionally prefixed with the
 * algorithm's name (`sha512=<hex>`), case-insensitive, surrounding spaces ignored. A prefix
 * naming the other algorithm is refused.
 */
function parseSignature(
	header: string | string[] | undefined,
	algorithm: SignatureAlgorithm,
): { digest: Buffer } | { problem: 'missing' | 'malformed' } {
	if (header === undefined) return { problem: 'missing' };
	if (Array.isArray(header)) {
		if (header.length !== 1) return { problem: header.length === 0 ? 'missing' : 'malformed' };
		header = header[0];
	}
	let value = header.trim();
	if (value.length === 0) return { problem: 'missing' };
	const prefix = /^(sha256|sha512)=/i.exec(value);
	if (prefix) {
		if (prefix[1].toLowerCase() !== algorithm) return { problem: 'malformed' };
		value = value.slice(prefix[0].length);
	}
	if (value.length !== HEX_LENGTH[algorithm] || !/^[0-9a-f]+$/i.test(value))
		return { problem: 'malformed' };
	return { digest: Buffer.from(value, 'hex') };
}

function matches(
	expected: Buffer,
	secret: string,
	algorithm: SignatureAlgorithm,
	payload: Buffer | string,
): boolean {
	const digest = createHmac(algorithm, secret).update(payload).digest();
	// Lengths are equal after parseSignature; the check keeps timingSafeEqual from throwing.
	return digest.length === expected.length && timingSafeEqual(digest, expected);
}

function isJsonContainer(value: unknown): boolean {
	return typeof value === 'object' && value !== null && !Buffer.isBuffer(value);
}

/**
 * Checks the HMAC over the raw request body, then over `JSON.stringify(parsedBody)`, which is
 * what the provider's own sample signs. Both comparisons are constant-time.
 */
export function verifySignature(input: SignatureInput): SignatureCheck {
	const { headerName, algorithm, secret } = input;
	const parsed = parseSignature(input.header, algorithm);
	if ('problem' in parsed) {
		return {
			valid: false,
			reason:
				parsed.problem === 'missing'
					? `the ${headerName} header is missing or empty`
					: `the ${headerName} header is not a hex HMAC-${algorithm.toUpperCase()} digest`,
		};
	}
	const raw = input.rawBody;
	if (raw !== undefined && matches(parsed.digest, secret, algorithm, raw))
		return { valid: true, signedOver: 'raw' };
	if (isJsonContainer(input.parsedBody)) {
		const json = JSON.stringify(input.parsedBody);
		const sameAsRaw =
			raw !== undefined && Buffer.from(json).equals(Buffer.isBuffer(raw) ? raw : Buffer.from(raw));
		if (!sameAsRaw && matches(parsed.digest, secret, algorithm, json))
			return { valid: true, signedOver: 'json' };
	}
	return { valid: false, reason: 'the signature does not match the request body' };
}
