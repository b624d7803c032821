import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageCard } from '../../components/PageCard';
import { QueryState } from '../../components/QueryState';
import { getStaticGames } from './api';
import { useLaunchGame } from './useLaunchGame';

const CATEGORIES = ['All', 'Crash Games', 'Live Game Shows', 'Live', 'Poker', 'Virtual', 'Live Dealer'];

/** /world-casino (INT Casino) and /casino/mac88: the provider's games by category; a tile launches the game. */
export function WorldCasinoPage({ title = 'International Casino' }: { title?: string }) {
  const games = useQuery({ queryKey: ['staticGames'], queryFn: getStaticGames });
  const [category, setCategory] = useState('All');
  const [provider, setProvider] = useState('All');
  const { launch, launching } = useLaunchGame();
  const active = (games.data ?? []).filter((g) => g.status === 'ACTIVE');
  const providers = ['All', ...new Set(active.map((g) => g.provider_name).filter(Boolean))];
  const shown = active.filter((g) => (category === 'All' || g.category === category) && (provider === 'All' || g.provider_name === provider));

  return (
    <PageCard title={title} testId="world-casino-page">
      <div className="chip-tabs" role="tablist" aria-label="Categories">
        {CATEGORIES.map((c) => (
          <button key={c} type="button" role="tab" aria-selected={category === c} className={category === c ? 'active' : undefined} onClick={() => setCategory(c)}>
            {c}
          </button>
        ))}
      </div>
      {providers.length > 2 && (
        <label className="filter-row">
          Provider
          <select value={provider} onChange={(e) => setProvider(e.target.value)}>
            {providers.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
      )}
      <QueryState isPending={games.isPending} error={games.error} isEmpty={shown.length === 0} empty="No games in this category yet.">
        <ul className="game-grid" data-testid="world-casino-games">
          {shown.map((g) => (
            <li key={g.game_id}>
              <button type="button" className="game-tile" disabled={launching !== null} onClick={() => void launch(g.game_id)}>
                {g.url_thumb ? <img src={g.url_thumb} alt="" loading="lazy" /> : <span className="game-tile-art">{g.game_name.slice(0, 2)}</span>}
                <span className="game-tile-name">{launching === g.game_id ? 'Opening…' : g.game_name}</span>
                <span className="game-tile-provider">{g.sub_provider_name || g.provider_name}</span>
              </button>
            </li>
          ))}
        </ul>
      </QueryState>
    </PageCard>
  );
}

export function Mac88LobbyPage() {
  return <WorldCasinoPage title="Mac88 Casino" />;
}
