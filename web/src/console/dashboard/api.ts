// The console's landing page: console/dashboard over a period (the server keeps an agent to its
// own branch; this only asks).
import { apiPost, type Answer } from '../../api/client';
import type { Schemas } from '../../api/contract';

export type Dashboard = Schemas['Dashboard'];
export type DayResult = Schemas['DayResult'];

export interface DashboardPeriod {
  from_date: string;
  to_date: string;
}

export const dashboardKeys = {
  period: (p: DashboardPeriod) => ['console', 'dashboard', p.from_date, p.to_date] as const,
};

export function getDashboard(period: DashboardPeriod): Promise<Answer<Dashboard>> {
  return apiPost<Dashboard>('console/dashboard', period);
}

export type SystemFigures = Schemas['SystemFigures'];

/** One read of `console/system` and when it arrived (ms since 1970), with the read before it. */
export interface SystemPoll {
  figures: SystemFigures;
  at: number;
  previous: { bets_placed: number; at: number } | null;
}

export const systemKeys = {
  all: ['console', 'system'] as const,
};

/** This server's own figures (admins only: the server answers an agent 403). */
export function getSystem(): Promise<Answer<SystemFigures>> {
  return apiPost<SystemFigures>('console/system');
}
