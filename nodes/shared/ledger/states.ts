/**
 * Every value the ledger writes into n8n's store, named once (the table: docs/ledger.md, "The
 * values in the store"). Released versions wrote these exact strings: never change them
 * (test/nodes/shared/ledger/states.test.ts reads a store written by 0.1.0).
 */
import { randomUUID } from 'crypto';

export const acceptedMarker = (key: string) => `${key}#accepted`;
export const claimedMarker = (key: string) => `${key}#claimed`;
export const sendingMarker = (key: string) => `${key}#sending`;
export const takeoverMarker = (key: string) => `${key}#takeover`;
/** The trigger's (eventClaims.ts): a pass call's own mark, and a takeover generation's claim. */
export const passMarker = (key: string) => `${key}#pass:${randomUUID()}`;
export const eventTakeoverMarker = (key: string, generation: number) =>
	`${key}#takeover:${generation}`;

/** A key and every marker it can have: what goes when the key is released. */
export const recordsOf = (key: string) => [
	key,
	acceptedMarker(key),
	claimedMarker(key),
	sendingMarker(key),
	takeoverMarker(key),
];

/** The mark of a run, made from what started it (controls/idempotency.ts runOrigin). */
export const runMark = (origin: string) => `n8n-run:${origin}`;

/** A value unique to one claim attempt (claim.ts). */
export const claimToken = () => `n8n-claim:${randomUUID()}`;

/**
 * What a reserved key is for this run: `new` (this run sends it), or recorded before with what
 * that send saw: `accepted`, or `unknown` (no clear answer); or `concurrent`: another run in
 * another n8n process claimed it at the same moment (queue mode).
 */
export type Verdict = 'new' | 'accepted' | 'unknown' | 'concurrent';

/**
 * How many records each node keeps (n8n drops the oldest beyond this): three per item in one n8n
 * process (sent, accepted, the day), so 206,666 items: 20 days of 10,000 payouts a day
 * (docs/duplicate-protection.md).
 */
export const KEYS_REMEMBERED = 620_000;
/** Records per item: in one n8n process (key, accepted, its day), and with claims (and claimed, sending). */
export const RECORDS_PER_ITEM = 3;
export const QUEUE_RECORDS_PER_ITEM = 5;
/**
 * The most items one run of the node may send: the run, and a Retry of it that sends everything
 * again, fit in the store twice over, so neither can push out the other's records.
 */
export const MAX_RUN_ITEMS = Math.floor(KEYS_REMEMBERED / (2 * RECORDS_PER_ITEM));
/** The same with claims (queue mode): more records per item, fewer items. */
export const MAX_QUEUE_RUN_ITEMS = Math.floor(KEYS_REMEMBERED / (2 * QUEUE_RECORDS_PER_ITEM));
/** Records more per item whose key is derived: its place, and its place's accepted marker. */
export const PLACE_RECORDS_PER_ITEM = 2;

/** That the node (by its ID, and by its name) paid rows in a Period: in the workflow's row (periods.ts). */
export const periodById = (nodeId: string, period: string) => `n8n-period:${nodeId}:${period}`;
export const periodByName = (name: string, period: string) => `n8n-period-name:${name}:${period}`;
/** In the node's row, before a Period's first records: while it is there, none of them was dropped. */
export const periodAnchor = (period: string) => `n8n-period-start:${period}`;

/** Where a derived key's item stands, from its hash (controls/idempotency.ts placeOf). */
export const placeValue = (hash: string) => `n8n-place:${hash}`;
