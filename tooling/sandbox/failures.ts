/**
 * Failure injection: rules matched (in the order added) against every API request, either
 * before auth and routing ('before' rules) or once the request succeeded ('after' rules).
 * Each match counts down the rule's `times`.
 */
import type { IncomingMessage, ServerResponse } from 'http';

import { failureBody, sendJson, sendRaw } from './envelope';
import { badRequest } from './errors';
import type { FailurePhase, FailureRule } from './types';
import { isObject } from './validation';

const isPhase = (value: unknown): value is FailurePhase => value === 'before' || value === 'after';

interface ActiveRule extends FailureRule {
	remaining: number;
	/** Matching requests still to let through before the rule acts. */
	passes: number;
}

export class FailureRules {
	private rules: ActiveRule[] = [];

	add(rule: FailureRule): void {
		const times = rule.times ?? 1;
		if (!(times > 0)) throw badRequest(['times must be a positive number or Infinity']);
		if (rule.phase !== undefined && !isPhase(rule.phase)) throw badRequest(['phase must be before or after']);
		const responds = (rule.action ?? 'respond') === 'respond';
		if (responds && (!Number.isInteger(rule.status) || rule.status < 100 || rule.status > 599)) {
			throw badRequest(['status must be an HTTP status code']);
		}
		const skip = rule.skip ?? 0;
		if (!Number.isInteger(skip) || skip < 0) throw badRequest(['skip must be a whole number, 0 or more']);
		this.rules.push({ ...rule, remaining: times, passes: skip });
	}

	clear(): void {
		this.rules = [];
	}

	/**
	 * The first rule of this phase matching the request, its count taken; undefined when none
	 * does. The server asks for 'after' rules only once the request succeeded, so a request
	 * that failed on its own never uses one up.
	 */
	take(phase: FailurePhase, method: string, path: string): FailureRule | undefined {
		const rule = this.rules.find(
			(r) =>
				(r.phase ?? 'before') === phase &&
				(!r.method || r.method.toUpperCase() === method.toUpperCase()) &&
				(typeof r.path === 'string' ? r.path === path : r.path.test(path)),
		);
		if (!rule) return undefined;
		if (rule.passes > 0) {
			rule.passes -= 1;
			return undefined;
		}
		rule.remaining -= 1;
		if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
		return rule;
	}
}

/** Acts out a matched rule; `later` schedules (and tracks) the delay. */
export function applyFailure(
	rule: FailureRule,
	req: IncomingMessage,
	res: ServerResponse,
	later: (ms: number, fn: () => void) => void,
): void {
	const act = () => {
		const action = rule.action ?? 'respond';
		if (action === 'hang') return; // the socket stays open until the client gives up or close()
		if (action === 'destroy') {
			req.socket.destroy();
			return;
		}
		if (typeof rule.body === 'string') {
			const type = rule.body.trimStart().startsWith('<') ? 'text/html; charset=utf-8' : 'application/json';
			sendRaw(res, rule.status, rule.body, { 'content-type': type, ...rule.headers });
		} else {
			sendJson(res, rule.status, rule.body === undefined ? failureBody(rule.status) : rule.body, rule.headers);
		}
	};
	if (rule.delayMs && rule.delayMs > 0) later(rule.delayMs, act);
	else act();
}

/** A rule sent over HTTP (`POST /__sandbox/failures`): `path` is a string or `{ regex, flags? }`. */
export function failureRuleFromJson(body: unknown): FailureRule {
	if (!isObject(body)) throw badRequest(['failure rule must be an object']);
	const errors: string[] = [];
	let path: string | RegExp = '';
	if (typeof body.path === 'string') path = body.path;
	else if (isObject(body.path) && typeof body.path.regex === 'string') {
		try {
			path = new RegExp(body.path.regex, typeof body.path.flags === 'string' ? body.path.flags : undefined);
		} catch {
			errors.push('path.regex must be a valid regular expression');
		}
	} else errors.push('path must be a string or { "regex": "..." }');
	const responds = body.action === undefined || body.action === 'respond';
	if (typeof body.status !== 'number' && (responds || body.status !== undefined)) {
		errors.push('status must be a number');
	}
	if (body.method !== undefined && typeof body.method !== 'string') errors.push('method must be a string');
	if (body.headers !== undefined && !isObject(body.headers)) errors.push('headers must be an object');
	const times = body.times === 'Infinity' || body.times === null ? Infinity : body.times;
	if (times !== undefined && typeof times !== 'number') errors.push('times must be a number or "Infinity"');
	if (body.delayMs !== undefined && typeof body.delayMs !== 'number') errors.push('delayMs must be a number');
	const action = body.action;
	if (action !== undefined && action !== 'respond' && action !== 'hang' && action !== 'destroy') {
		errors.push('action must be respond, hang or destroy');
	}
	if (body.phase !== undefined && !isPhase(body.phase)) errors.push('phase must be before or after');
	if (body.skip !== undefined && typeof body.skip !== 'number') errors.push('skip must be a number');
	if (errors.length > 0) throw badRequest(errors);
	return {
		method: body.method as string | undefined,
		path,
		status: typeof body.status === 'number' ? body.status : 0,
		body: body.body,
		headers: body.headers as Record<string, string> | undefined,
		times: times as number | undefined,
		delayMs: body.delayMs as number | undefined,
		action: action as FailureRule['action'],
		phase: body.phase as FailurePhase | undefined,
		skip: body.skip as number | undefined,
	};
}
