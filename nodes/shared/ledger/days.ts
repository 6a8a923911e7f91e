/**
 * When an earlier run sent a key (issue #31, point 6). n8n's store keeps no time with a value; it
 * only says which of the values asked are there. So the day the service accepted a key is a value
 * of its own, `<key>@<YYYY-MM-DD>` (UTC), written with the key's accepted marker, and every such
 * day once for the node, `n8n-day:<YYYY-MM-DD>`. A run that meets keys accepted before asks which
 * of the last DAYS_LOOKED days the node has (once per run), then which of those keys' day values
 * there are on the latest DAYS_ASKED of them: one record more per item, two calls per window that
 * meets such keys. docs/ledger.md has the reasoning.
 */
import type { Store } from './store';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far back the node's days are looked for: a year and a month. */
export const DAYS_LOOKED = 400;
/** How many of the node's latest days a key is looked for on: a month of daily runs. */
export const DAYS_ASKED = 31;

export const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10);
export const dayValue = (key: string, day: string) => `${key}@${day}`;
export const dayMark = (day: string) => `n8n-day:${day}`;

/**
 * When a key accepted before was sent: `on` that day (UTC); or `before` that day, when it was not
 * on any of the days asked but the node has older ones; neither when no day was recorded (sent by
 * a version that did not record days, or its day value dropped by the store's limit).
 */
export interface SentDay {
	on?: string;
	before?: string;
}

/** The days of the last DAYS_LOOKED on which the node's row has keys accepted, newest first. */
export async function daysOfNode(store: Pick<Store, 'ask'>): Promise<string[]> {
	const now = Date.now();
	const days = Array.from({ length: DAYS_LOOKED }, (_, ago) => utcDay(now - ago * DAY_MS));
	const found = await store.ask(days.map(dayMark));
	return days.filter((day) => found.has(dayMark(day)));
}

/** Finds the days keys were accepted on, with `store.ask` (which records nothing). */
export function dayFinder(store: Pick<Store, 'ask'>) {
	let nodeDays: Promise<string[]> | undefined;
	return async (keys: string[]): Promise<Map<string, SentDay>> => {
		if (keys.length === 0) return new Map();
		const days = await (nodeDays ??= daysOfNode(store));
		const asked = days.slice(0, DAYS_ASKED);
		const found =
			asked.length === 0
				? new Set<string>()
				: await store.ask(keys.flatMap((key) => asked.map((day) => dayValue(key, day))));
		return new Map(
			keys.map((key): [string, SentDay] => {
				const on = asked.find((day) => found.has(dayValue(key, day)));
				if (on !== undefined) return [key, { on }];
				return [key, days.length > asked.length ? { before: asked[asked.length - 1] } : {}];
			}),
		);
	};
}
