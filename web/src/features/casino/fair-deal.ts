// The published dealing of the in-house games, recomputed in the player's browser: the twin of
// crates/casino/src/fair.rs (the stream, `below`, the shuffle), src/cards.rs (the packs in their
// canonical order) and src/games/*.rs (what each game deals), as docs/casino.md "The algorithm,
// exactly" states it. A player who has the revealed seed and the round id can recompute a
// round's deal here without asking the server anything; deal-vectors.json, written by the Rust
// crate (crates/casino/tests/deal_vectors.rs), pins every step to what the server deals.
//
// The stream is HMAC-SHA256 by WebCrypto, which is asynchronous, so every draw is awaited.
// A worked example (the first vector of docs/casino.md): seed 00 01 … 1f, game teen20, round
// teen20-000001 deals 7C TS QS 3D KS TH (Player A 7C QS KS, Player B TS 3D TH).

import { i18n } from '../../i18n';

/** The longest round id the server makes, in UTF-8 bytes (`fair::MAX_ROUND_ID_BYTES`). */
export const MAX_ROUND_ID_BYTES = 128;

/** The deal as `casino/round` sends it (`market::Deal` serialised): cards, a pocket or two draws. */
export type Deal =
  | { cards: string[] }
  | { pocket: number }
  | { matka: { open: [number, number, number]; close: [number, number, number] } };

/** The in-house games by their rules code (`GameKind::code`), with their full names, in the sidebar's order. */
export const GAMES = [
  { code: 'teen20', title: 'Teen Patti T20' },
  { code: 'teen1day', title: 'Teen Patti 1 Day' },
  { code: 'teentest', title: 'Teen Patti Test' },
  { code: 'dt1day', title: 'Dragon Tiger 1 Day' },
  { code: 'teen2card', title: '2 Card Teen Patti' },
  { code: 'hilow', title: 'Hi-Low' },
  { code: 'poker', title: "Poker (Texas hold'em)" },
  { code: 'queen', title: 'Queen' },
  { code: 'baccarat', title: 'Baccarat' },
  { code: 'aaa', title: 'Amar Akbar Anthony' },
  { code: 'bollywood', title: 'Bollywood Casino' },
  { code: 'trio', title: 'Trio' },
  { code: 'andarbahar', title: 'Andar Bahar' },
  { code: 'muflis', title: 'Muflis Teen Patti' },
  { code: 'roulette', title: 'Roulette' },
  { code: 'worli', title: 'Worli Matka' },
] as const;

export type GameCode = (typeof GAMES)[number]['code'];

export function isGameCode(code: string): code is GameCode {
  return GAMES.some((game) => game.code === code);
}

const TWO_TO_32 = 2 ** 32;

/**
 * The deterministic stream of one round: block i is HMAC-SHA256(key = seed, utf8(round id) ‖
 * u64 big-endian i), read 4 bytes at a time as big-endian u32s.
 */
export class FairStream {
  private counter = 0;
  private block = new DataView(new ArrayBuffer(0));
  private usedBytes = 0;

  private readonly subtle: SubtleCrypto;
  private readonly key: CryptoKey;
  private readonly roundId: Uint8Array;

  private constructor(subtle: SubtleCrypto, key: CryptoKey, roundId: Uint8Array) {
    this.subtle = subtle;
    this.key = key;
    this.roundId = roundId;
  }

  /** The stream of `roundId` under `seed` (the seed's bytes). Refuses a round id the server could not have made. */
  static async open(seed: Uint8Array<ArrayBuffer>, roundId: string, subtle: SubtleCrypto): Promise<FairStream> {
    const id = new TextEncoder().encode(roundId);
    if (id.length === 0 || id.length > MAX_ROUND_ID_BYTES) throw new RangeError(`round id must be 1 to ${MAX_ROUND_ID_BYTES} bytes`);
    const key = await subtle.importKey('raw', seed, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    return new FairStream(subtle, key, id);
  }

  /** The next 4 bytes of the stream, big-endian. */
  async nextU32(): Promise<number> {
    if (this.usedBytes === this.block.byteLength) {
      const message = new Uint8Array(this.roundId.length + 8);
      message.set(this.roundId);
      const counter = new DataView(message.buffer, this.roundId.length, 8);
      counter.setUint32(0, Math.floor(this.counter / TWO_TO_32));
      counter.setUint32(4, this.counter % TWO_TO_32);
      this.block = new DataView(await this.subtle.sign('HMAC', this.key, message));
      this.counter += 1;
      this.usedBytes = 0;
    }
    const value = this.block.getUint32(this.usedBytes);
    this.usedBytes += 4;
    return value;
  }

  /** A uniform number in 0 … n−1, for 1 ≤ n ≤ 2³², by rejection sampling: see {@link belowFrom}. */
  below(n: number): Promise<number> {
    return belowFrom(() => this.nextU32(), n);
  }

  /** Fisher–Yates from the end: for i from the last position down to 1, swap i with below(i + 1). */
  async shuffle<T>(items: T[]): Promise<void> {
    for (let i = items.length - 1; i >= 1; i -= 1) {
      const j = await this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }
}

/**
 * `below(n)` over any u32 source: with limit = 2³² − (2³² mod n), a draw x < limit answers
 * x mod n, any other is drawn again, so every answer has exactly limit / n preimages (no modulo
 * bias). All of it is exact in a JavaScript number (below 2⁵³).
 */
export async function belowFrom(next: () => Promise<number>, n: number): Promise<number> {
  if (!Number.isInteger(n) || n < 1 || n > TWO_TO_32) throw new RangeError(`below(${n}) has no answer`);
  const limit = TWO_TO_32 - (TWO_TO_32 % n);
  for (;;) {
    const x = await next();
    if (x < limit) return x % n;
  }
}

// The packs, in canonical order (crates/casino/src/cards.rs): the deck suit by suit (spades,
// hearts, diamonds, clubs), ace to king within a suit.
const RANKS = 'A23456789TJQK';
const SUITS = 'SHDC';

export function standardDeck(): string[] {
  return [...SUITS].flatMap((suit) => [...RANKS].map((rank) => rank + suit));
}

/** `decks` standard decks one after another (baccarat's shoe is eight: 416 cards). */
export function shoe(decks: number): string[] {
  return Array.from({ length: decks }, standardDeck).flat();
}

/** The Bollywood pack: J Q K A of spades, then hearts, diamonds, clubs (16 cards). */
export function courtAndAcePack(): string[] {
  return [...SUITS].flatMap((suit) => [...'JQKA'].map((rank) => rank + suit));
}

/** A card's value, ace low: A = 1, 2–9, T = 10, J = 11, Q = 12, K = 13. */
function value(card: string): number {
  return RANKS.indexOf(card[0]) + 1;
}

async function dealFrom(stream: FairStream, pack: string[], count: number): Promise<string[]> {
  await stream.shuffle(pack);
  return pack.slice(0, count);
}

/** Baccarat's coup from the top of the shuffled shoe (games/baccarat.rs `play`): how many cards it uses. */
export function baccaratCardsUsed(cards: string[]): number {
  const points = (card: string) => (value(card) >= 10 ? 0 : value(card));
  const total = (hand: string[]) => hand.reduce((sum, card) => sum + points(card), 0) % 10;
  const player = [cards[0], cards[2]];
  const banker = [cards[1], cards[3]];
  let next = 4;
  if (total(player) >= 8 || total(banker) >= 8) return next;
  let playerThird: number | null = null;
  if (total(player) <= 5) {
    playerThird = points(cards[next]);
    next += 1;
  }
  if (bankerDraws(total(banker), playerThird)) next += 1;
  return next;
}

/** Whether the Banker on `bankerTotal` draws, given the Player's third card's points (null: the Player stood). */
function bankerDraws(bankerTotal: number, playerThird: number | null): boolean {
  if (playerThird === null) return bankerTotal <= 5;
  if (bankerTotal <= 2) return true;
  if (bankerTotal === 3) return playerThird !== 8;
  if (bankerTotal === 4) return playerThird >= 2 && playerThird <= 7;
  if (bankerTotal === 5) return playerThird >= 4 && playerThird <= 7;
  if (bankerTotal === 6) return playerThird >= 6 && playerThird <= 7;
  return false;
}

/** Queen's race (games/queen.rs): boxes start at 0 1 2 3 and take cards in turn; the first to 20 stops it. */
function queenCardsUsed(cards: string[]): number {
  const totals = [0, 1, 2, 3];
  for (let i = 0; i < cards.length; i += 1) {
    totals[i % 4] += value(cards[i]);
    if (totals[i % 4] >= 20) return i + 1;
  }
  throw new Error('a 52-card deck always finishes the race');
}

/** Andar Bahar (games/andar_bahar.rs): the joker, then cards until the first of the joker's rank. */
function andarBaharCardsUsed(cards: string[]): number {
  const match = cards.findIndex((card, i) => i > 0 && card[0] === cards[0][0]);
  if (match < 0) throw new Error("three cards of the joker's rank remain");
  return match + 1;
}

async function digits(stream: FairStream): Promise<[number, number, number]> {
  return [await stream.below(10), await stream.below(10), await stream.below(10)];
}

/** What `game` deals from `stream` (`GameKind::deal`): every card game shuffles a whole fresh pack and deals from the top. */
export async function dealGame(game: GameCode, stream: FairStream): Promise<Deal> {
  const cards = async (pack: string[], count: number) => ({ cards: await dealFrom(stream, pack, count) });
  const until = async (pack: string[], used: (shuffled: string[]) => number) => {
    await stream.shuffle(pack);
    return { cards: pack.slice(0, used(pack)) };
  };
  switch (game) {
    case 'teen20':
    case 'teen1day':
    case 'muflis':
      return cards(standardDeck(), 6);
    case 'teentest':
    case 'poker':
      return cards(standardDeck(), 9);
    case 'dt1day':
    case 'hilow':
      return cards(standardDeck(), 2);
    case 'teen2card':
      return cards(standardDeck(), 4);
    case 'trio':
      return cards(standardDeck(), 3);
    case 'aaa':
      return cards(standardDeck(), 1);
    case 'bollywood':
      return cards(courtAndAcePack(), 1);
    case 'baccarat':
      return until(shoe(8), baccaratCardsUsed);
    case 'queen':
      return until(standardDeck(), queenCardsUsed);
    case 'andarbahar':
      return until(standardDeck(), andarBaharCardsUsed);
    case 'roulette':
      return { pocket: await stream.below(37) };
    case 'worli': {
      const open = await digits(stream);
      return { matka: { open, close: await digits(stream) } };
    }
  }
}

/** The deal of round `roundId` of `game` under the seed's bytes. */
export async function recomputeDeal(seed: Uint8Array<ArrayBuffer>, roundId: string, game: GameCode, subtle: SubtleCrypto): Promise<Deal> {
  return dealGame(game, await FairStream.open(seed, roundId, subtle));
}

/** A deal sent by the server (JSON), or null when it has none of the three shapes. */
export function parseDeal(value: unknown): Deal | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.cards) && record.cards.every((card) => typeof card === 'string')) {
    return { cards: record.cards };
  }
  if (typeof record.pocket === 'number') return { pocket: record.pocket };
  const matka = record.matka as Record<string, unknown> | undefined;
  const draw = (d: unknown) => (Array.isArray(d) && d.length === 3 && d.every((x) => typeof x === 'number') ? (d as [number, number, number]) : null);
  if (typeof matka === 'object' && matka !== null) {
    const open = draw(matka.open);
    const close = draw(matka.close);
    if (open && close) return { matka: { open, close } };
  }
  return null;
}

/** The deal in words (in the app's language at the call): "7C TS QS", "pocket 21", "open 1 6 9, close 0 6 2". */
export function dealText(deal: Deal): string {
  if ('cards' in deal) return deal.cards.join(' ');
  if ('pocket' in deal) return i18n.t('casino:deal.pocket', { pocket: deal.pocket });
  return i18n.t('casino:deal.matka', { open: deal.matka.open.join(' '), close: deal.matka.close.join(' ') });
}

/** Where two deals first differ, in words, or null when they are the same deal. */
export function dealDifference(recomputed: Deal, shown: Deal): string | null {
  if ('cards' in recomputed && 'cards' in shown) {
    const a = recomputed.cards;
    const b = shown.cards;
    for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
      if (a[i] !== b[i]) {
        if (a[i] === undefined) return i18n.t('casino:deal.roundShowsMore', { shown: b.length, dealt: a.length });
        if (b[i] === undefined) return i18n.t('casino:deal.seedDealsMore', { dealt: a.length, shown: b.length });
        return i18n.t('casino:deal.cardDiffers', { position: i + 1, dealt: a[i], shown: b[i] });
      }
    }
    return null;
  }
  const said = dealText(recomputed);
  const shownText = dealText(shown);
  return said === shownText ? null : i18n.t('casino:deal.differs', { dealt: said, shown: shownText });
}
