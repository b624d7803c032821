// The report's arithmetic on the server's figures, in integer paise so nothing is compared or
// added as floats: the P&L tab's totals row and the collection's columns and balance.
import { toMinor } from '../../lib/money';
import type { PartnershipMarketRow, PartnershipReport, PartnershipRow } from './api';

export interface PnlTotals {
  houseResult: number;
  downlineShare: number;
  ownShare: number;
  uplineShare: number;
}

/** The P&L tab's totals row, in paise. */
export function pnlTotals(rows: readonly PartnershipRow[]): PnlTotals {
  const totals: PnlTotals = { houseResult: 0, downlineShare: 0, ownShare: 0, uplineShare: 0 };
  for (const row of rows) {
    totals.houseResult += toMinor(row.house_result);
    totals.downlineShare += toMinor(row.downline_share);
    totals.ownShare += toMinor(row.own_share);
    totals.uplineShare += toMinor(row.upline_share);
  }
  return totals;
}

export interface CollectionLines {
  /** Per child: what it owes the account (receive) or is owed by it (pay), both ≥ 0 paise. */
  rows: { row: PartnershipRow; receiveMinor: number; payMinor: number }[];
  receiveMinor: number;
  payMinor: number;
  /**
   * collect_total − pay_upline − own_share: the server's balance when it is not zero, else the
   * same sum over the figures shown, so a screen that does not add up never shows 0.00.
   */
  balanceMinor: number;
  balanced: boolean;
}

/** The collection report: positive `collect` → "To receive", negative → "To pay". */
export function collectionLines(report: PartnershipReport): CollectionLines {
  let receiveMinor = 0;
  let payMinor = 0;
  const rows = report.rows.map((row) => {
    const collect = toMinor(row.collect);
    const line = { row, receiveMinor: Math.max(collect, 0), payMinor: Math.max(-collect, 0) };
    receiveMinor += line.receiveMinor;
    payMinor += line.payMinor;
    return line;
  });
  const shown = toMinor(report.collect_total) - toMinor(report.pay_upline) - toMinor(report.own_share);
  const server = toMinor(report.balance);
  const balanceMinor = server !== 0 ? server : shown;
  const rowsAgree = receiveMinor - payMinor === toMinor(report.collect_total);
  return { rows, receiveMinor, payMinor, balanceMinor, balanced: balanceMinor === 0 && rowsAgree };
}

export interface MatchLine {
  /** null: the casino's rounds. */
  matchId: number | null;
  /** The match's name ("India v Pakistan"), or "Casino". */
  name: string;
  houseResultMinor: number;
  ownShareMinor: number;
}

/** The by-market lines added up per match (the casino's rounds on a line of their own), in paise. */
export function byMatch(markets: readonly PartnershipMarketRow[]): MatchLine[] {
  const lines = new Map<number | null, MatchLine>();
  for (const market of markets) {
    const line = lines.get(market.match_id) ?? {
      matchId: market.match_id,
      // The server names a market "Match / Market".
      name: market.match_id === null ? market.name : market.name.split(' / ')[0],
      houseResultMinor: 0,
      ownShareMinor: 0,
    };
    line.houseResultMinor += toMinor(market.house_result);
    line.ownShareMinor += toMinor(market.own_share);
    lines.set(market.match_id, line);
  }
  return [...lines.values()];
}
