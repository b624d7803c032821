// One page of a list that grows: the reports read it and so do the console's lists (accounts,
// audit, payments, risk), so its shape is named here rather than in either.
import type { Schemas } from './contract';

/** Lists that grow answer `{rows, total, page, limit}` (shared/design/API.md). */
export type Page<R> = Omit<Schemas['Envelope_Paged_StatementRow']['data'], 'rows'> & { rows: R[] };
