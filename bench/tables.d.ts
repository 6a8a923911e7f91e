/** Types of bench/tables.js (plain JavaScript: `node bench/tables.js` runs without a build). */
import type { Figure } from './figures';

export function markdownTables(results: unknown): string;
export function payrollTables(payroll: unknown, defaultItemsPerBatch?: number): string[];
export function figureTables(figures: readonly Figure[], notes?: readonly string[]): string;
