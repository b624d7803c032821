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
