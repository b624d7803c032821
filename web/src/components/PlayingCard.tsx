import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { cardName, isRedSuit, parseCard, type Suit } from '../lib/cards';

/** Pixel widths; a card is 7:5 tall. */
const WIDTHS = { sm: 26, md: 44, lg: 60 } as const;
export type CardSize = keyof typeof WIDTHS;

const RED = '#c62828';
const BLACK = '#1d2330';

/** A suit drawn in a 100 × 100 box (paths, not font glyphs, so no system draws an emoji). */
function SuitPip({ suit, fill }: { suit: Suit; fill: string }) {
  switch (suit) {
    case 'H':
      return <path fill={fill} d="M50 90C20 66 4 48 4 29 4 13 16 3 30 3c10 0 17 6 20 14 3-8 10-14 20-14 14 0 26 10 26 26 0 19-16 37-46 61z" />;
    case 'D':
      return <path fill={fill} d="M50 2 88 50 50 98 12 50z" />;
    case 'S':
      return (
        <path
          fill={fill}
          d="M50 4c12 20 46 36 46 58 0 16-12 24-24 24-9 0-16-4-19-10 1 10 5 18 13 22H34c8-4 12-12 13-22-3 6-10 10-19 10C16 86 4 78 4 62 4 40 38 24 50 4z"
        />
      );
    case 'C':
      return (
        <g fill={fill}>
          <circle cx="50" cy="27" r="21" />
          <circle cx="27" cy="59" r="21" />
          <circle cx="73" cy="59" r="21" />
          <circle cx="50" cy="52" r="12" />
          <path d="M46 56h8l8 42H38z" />
        </g>
      );
  }
}

/**
 * A playing card drawn in SVG: rank and suit in two corners, a large pip in the middle, red for
 * hearts and diamonds, black for spades and clubs. `code` as the server writes it ("KS", "TD");
 * without a code (or `faceDown`) the card's back is shown, for a card not dealt or not shown yet.
 */
export function PlayingCard({ code, faceDown = false, size = 'md' }: { code?: string; faceDown?: boolean; size?: CardSize }) {
  const { t } = useTranslation();
  const patternId = useId();
  const width = WIDTHS[size];
  const height = Math.round(width * 1.4);
  const card = code && !faceDown ? parseCard(code) : null;
  if (!card) {
    const label = code && !faceDown ? t('cards.code', { code }) : t('cards.faceDown');
    return (
      <svg role="img" aria-label={label} width={width} height={height} viewBox="0 0 60 84" className="playing-card back" data-card="back">
        <defs>
          <pattern id={patternId} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="6" height="6" fill="#145c45" />
            <rect width="3" height="6" fill="#0b3d2e" />
          </pattern>
        </defs>
        <rect x="1" y="1" width="58" height="82" rx="5" fill="#fff" stroke="#9aa5a0" />
        <rect x="5" y="5" width="50" height="74" rx="3" fill={`url(#${patternId})`} />
      </svg>
    );
  }
  const red = isRedSuit(card.suit);
  const fill = red ? RED : BLACK;
  const ten = card.rank === '10';
  return (
    <svg
      role="img"
      aria-label={cardName(code ?? '')}
      width={width}
      height={height}
      viewBox="0 0 60 84"
      className="playing-card"
      data-card={code}
      data-colour={red ? 'red' : 'black'}
    >
      <rect x="1" y="1" width="58" height="82" rx="5" fill="#fff" stroke="#9aa5a0" />
      <g aria-hidden="true">
        <text x={ten ? 3 : 5} y="17" fill={fill} fontSize={ten ? 13 : 15} fontWeight="700" fontFamily="Arial, sans-serif" letterSpacing={ten ? -1 : 0}>
          {card.rank}
        </text>
        <svg x="5" y="20" width="10" height="10" viewBox="0 0 100 100">
          <SuitPip suit={card.suit} fill={fill} />
        </svg>
        <svg x="15" y="30" width="30" height="30" viewBox="0 0 100 100">
          <SuitPip suit={card.suit} fill={fill} />
        </svg>
        <g transform="rotate(180 30 42)">
          <text x={ten ? 3 : 5} y="17" fill={fill} fontSize={ten ? 13 : 15} fontWeight="700" fontFamily="Arial, sans-serif" letterSpacing={ten ? -1 : 0}>
            {card.rank}
          </text>
          <svg x="5" y="20" width="10" height="10" viewBox="0 0 100 100">
            <SuitPip suit={card.suit} fill={fill} />
          </svg>
        </g>
      </g>
    </svg>
  );
}

/** A row of cards, e.g. one hand. */
export function CardRow({ cards, size = 'md' }: { cards: string[]; size?: CardSize }) {
  return (
    <span className="card-row">
      {cards.map((c, i) => (
        <PlayingCard key={`${c}-${i}`} code={c} size={size} />
      ))}
    </span>
  );
}
