import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { casinoGamesKey, getCasinoGames } from '../../api/casino-games';
import { errorMessage } from '../../api/client';
import { searchMatches } from './api';
import { findCasinoGames, groupSearchResults } from './search';

const SEARCH_DEBOUNCE_MS = 300;
const SEARCH_MAX_CHARS = 50;

/**
 * Header search (spec §4): the icon toggles the box and toggling clears the results; an empty
 * box clears the focus state; choosing a result opens the match (or the casino table) and clears
 * and closes the search. A click outside it or any navigation closes the results too. Matches
 * come from the server's search; casino games are found by name in the casino's game list.
 */
export function SearchBox() {
  const { t } = useTranslation('header');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  const [focused, setFocused] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const location = useLocation();

  useEffect(() => {
    // An emptied box clears the term at once, in its change handler.
    const trimmed = text.trim();
    if (!trimmed) return undefined;
    const timer = window.setTimeout(() => setTerm(trimmed), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text]);

  const results = useQuery({
    queryKey: ['search', term],
    queryFn: () => searchMatches(term),
    enabled: term.length > 0,
    staleTime: 10_000,
  });

  const clear = () => {
    setText('');
    setTerm('');
    setFocused(false);
  };

  const toggle = () => {
    clear();
    setOpen((was) => {
      if (!was) window.setTimeout(() => inputRef.current?.focus(), 0);
      return !was;
    });
  };

  const games = useQuery({ queryKey: casinoGamesKey(), queryFn: () => getCasinoGames(), enabled: open, staleTime: 60_000 });

  // A click (or tap) outside the search closes its results; the text stays for another look.
  useEffect(() => {
    if (!focused) return undefined;
    const onPointerDown = (event: PointerEvent) => {
      if (boxRef.current && event.target instanceof Node && !boxRef.current.contains(event.target)) setFocused(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [focused]);

  // Going to another page (a link, the back button) closes the results.
  const place = location.pathname + location.search;
  const [shownAt, setShownAt] = useState(place);
  if (shownAt !== place) {
    setShownAt(place);
    setFocused(false);
  }

  const groups = groupSearchResults(results.data);
  const casinoHits = findCasinoGames(games.data, term);
  const showResults = open && focused && term.length > 0;
  const choose = (path: string) => {
    clear();
    setOpen(false);
    void navigate(path);
  };

  return (
    <div className={`search${open ? ' open' : ''}`} data-testid="search" ref={boxRef}>
      <button type="button" className="icon-btn search-toggle" aria-label={t('search.toggle')} aria-expanded={open} onClick={toggle} data-testid="search-toggle">
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <circle cx="10" cy="10" r="6.5" stroke="currentColor" strokeWidth="2.2" fill="none" />
          <line x1="15" y1="15" x2="21" y2="21" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
        </svg>
      </button>
      {open && (
        <input
          ref={inputRef}
          type="search"
          className="search-input"
          placeholder={t('search.placeholder')}
          maxLength={SEARCH_MAX_CHARS}
          value={text}
          data-testid="search-input"
          onFocus={() => setFocused(true)}
          // A tap in the box shows the closed results again (it may still have the focus).
          onClick={() => setFocused(text.trim().length > 0)}
          onChange={(event) => {
            setText(event.target.value);
            if (!event.target.value.trim()) {
              setTerm('');
              setFocused(false);
            } else setFocused(true);
          }}
        />
      )}
      {showResults && (
        <div className="search-results" data-testid="search-results">
          {results.isPending ? (
            <p className="search-note">{t('search.searching')}</p>
          ) : results.error ? (
            <p className="search-note error">{errorMessage(results.error)}</p>
          ) : groups.length === 0 && casinoHits.length === 0 ? (
            <p className="search-note">{t('search.none')}</p>
          ) : (
            <>
              {groups.map((group) => (
                <div key={group.sport} className="search-group" data-testid="search-group">
                  <h3>{group.sport}</h3>
                  <ul>
                    {group.matches.map((m) => (
                      <li key={m.match_id}>
                        <button
                          type="button"
                          data-testid="search-result"
                          onClick={() => choose(`/game-details/${m.sport_id}/${m.match_id}`)}
                        >
                          <span className="search-match">{m.match_name}</span>
                          <span className="search-date">{m.date}</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
              {casinoHits.length > 0 && (
                <div key="casino" className="search-group" data-testid="search-group">
                  <h3>{t('search.casino')}</h3>
                  <ul>
                    {casinoHits.map((hit) => (
                      <li key={hit.path}>
                        <button type="button" data-testid="search-result" onClick={() => choose(hit.path)}>
                          <span className="search-match">{hit.name}</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </div>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
