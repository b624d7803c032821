// Playing cards as the casino server writes them: rank then suit, "KS", "TD" (ten of
// diamonds, crates/casino/src/cards.rs), and "10H" for a ten as some providers write it.

import { i18n } from '../i18n';

export type Suit = 'S' | 'H' | 'D' | 'C';

export interface ParsedCard {
  /** "A", "2" … "10", "J", "Q", "K". */
  rank: string;
  suit: Suit;
}

const RANK_KEYS = { A: 'ace', J: 'jack', Q: 'queen', K: 'king' } as const;
const SUIT_KEYS = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' } as const;

/** The card of a code ("KS", "TD", "10H", either case), or null when it is not one. */
export function parseCard(code: string): ParsedCard | null {
  const match = /^(10|[2-9TJQKA])([SHDC])$/.exec(code.trim().toUpperCase());
  if (!match) return null;
  return { rank: match[1] === 'T' ? '10' : match[1], suit: match[2] as Suit };
}

/** "King of spades", "10 of diamonds"; the code itself when it is not a card. */
export function cardName(code: string): string {
  const card = parseCard(code);
  if (!card) return code;
  const rankKey = RANK_KEYS[card.rank as keyof typeof RANK_KEYS];
  const rank = rankKey ? i18n.t(`common:cards.rank.${rankKey}`) : card.rank;
  return i18n.t('common:cards.name', { rank, suit: i18n.t(`common:cards.suit.${SUIT_KEYS[card.suit]}`) });
}

/** Hearts and diamonds are red; spades and clubs black. */
export function isRedSuit(suit: Suit): boolean {
  return suit === 'H' || suit === 'D';
}
