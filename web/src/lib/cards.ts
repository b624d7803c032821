// Playing cards as the casino server writes them: rank then suit, "KS", "TD" (ten of
// diamonds, crates/casino/src/cards.rs), and "10H" for a ten as some providers write it.

export type Suit = 'S' | 'H' | 'D' | 'C';

export interface ParsedCard {
  /** "A", "2" … "10", "J", "Q", "K". */
  rank: string;
  suit: Suit;
}

const RANK_NAMES: Record<string, string> = { A: 'Ace', J: 'Jack', Q: 'Queen', K: 'King' };
const SUIT_NAMES: Record<Suit, string> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

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
  return `${RANK_NAMES[card.rank] ?? card.rank} of ${SUIT_NAMES[card.suit]}`;
}

/** Hearts and diamonds are red; spades and clubs black. */
export function isRedSuit(suit: Suit): boolean {
  return suit === 'H' || suit === 'D';
}
