import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { cardName, parseCard } from '../lib/cards';
import { PlayingCard } from './PlayingCard';

describe('the playing card', () => {
  it('names and colours cards, tens and face cards included', () => {
    render(
      <>
        <PlayingCard code="KS" />
        <PlayingCard code="TD" />
        <PlayingCard code="10H" />
        <PlayingCard code="QH" />
        <PlayingCard code="JC" />
        <PlayingCard code="AD" />
        <PlayingCard code="2S" />
      </>,
    );
    const colour = (name: string) => screen.getByRole('img', { name }).getAttribute('data-colour');
    expect(colour('King of spades')).toBe('black');
    expect(colour('10 of diamonds')).toBe('red');
    expect(colour('10 of hearts')).toBe('red');
    expect(colour('Queen of hearts')).toBe('red');
    expect(colour('Jack of clubs')).toBe('black');
    expect(colour('Ace of diamonds')).toBe('red');
    expect(colour('2 of spades')).toBe('black');
    // The ten's rank is drawn as "10", not the server's "T".
    expect(screen.getByRole('img', { name: '10 of diamonds' })).toHaveTextContent('10');
    expect(screen.getByRole('img', { name: 'King of spades' })).toHaveTextContent('K');
  });

  it('draws a face-down back for a card not shown, and for a code that is not a card', () => {
    render(
      <>
        <PlayingCard faceDown code="KS" />
        <PlayingCard />
        <PlayingCard code="ZZ" />
      </>,
    );
    expect(screen.getAllByRole('img', { name: 'Card face down' })).toHaveLength(2);
    expect(screen.getByRole('img', { name: 'Card ZZ' })).toHaveAttribute('data-card', 'back');
  });

  it('parses the server codes', () => {
    expect(parseCard('TD')).toEqual({ rank: '10', suit: 'D' });
    expect(parseCard('10h')).toEqual({ rank: '10', suit: 'H' });
    expect(parseCard('1S')).toBeNull();
    expect(parseCard('KX')).toBeNull();
    expect(cardName('AC')).toBe('Ace of clubs');
  });
});
